// SPDX-License-Identifier: GPL-2.0
/* csdump info / csdump extract: the registry of a vmcore. */
#include <stdio.h>
#include <stdlib.h>

#include "cli/cli.h"
#include "cli/cmds.h"
#include "core/diag.h"
#include "core/extract.h"
#include "core/registry.h"
#include "core/registry_info.h"
#include "decode/program.h"
#include "decode/vmlinux.h"
#include "vmcore/vmcore.h"

static const char info_usage[] =
	"usage: csdump info VMCORE\n"
	"  one line per registry record: address, kind, device, CPU, capacity,\n"
	"  valid bytes, flags, CRC (ok, bad, or - when there is no saved data),\n"
	"  and why a record is bad\n";

static const char extract_usage[] =
	"usage: csdump extract VMCORE -o DIR [--vmlinux FILE]\n"
	"  writes DIR/cstrace.bin (the first sink's trace; with several sinks also\n"
	"  DIR/<device>.bin for each), DIR/metadata.bin (the ETMv4 blocks in perf's\n"
	"  layout), DIR/perf.data and DIR/summary.txt, each atomically; with\n"
	"  --vmlinux also DIR/kernel-text.bin, the kernel text as it ran (patched by\n"
	"  the kernel), so that DIR decodes as the vmcore does\n";

int csd_cmd_info(int argc, char **argv)
{
	struct csd_info_counts c;
	struct csd_cli_io a;
	struct csd_mem m;
	enum csd_err err;
	int rc = csd_cli_parse_io(argc, argv, info_usage, false, NULL, 0, &a);

	if (rc >= 0)
		return rc;
	err = csd_vmcore_open(a.input, &m);
	if (err)
		return csd_exit_code(err);
	err = csd_registry_info(&m, stdout, &c);
	if (!err)
		rc = c.n_bad || c.cut ? CSD_EXIT_PARTIAL : c.n_trace ? CSD_EXIT_OK : CSD_EXIT_NOTRACE;
	else
		rc = csd_exit_code(err);
	csd_mem_close(&m);
	return rc;
}

int csd_cmd_extract(int argc, char **argv)
{
	struct csd_registry reg;
	struct csd_dump d = { 0 };
	struct csd_cli_io a;
	struct csd_mem m;
	enum csd_err err;
	struct csd_vmlinux *vm = NULL;
	int rc = csd_cli_parse_io(argc, argv, extract_usage, true, "vmlinux", 'k', &a);

	if (rc >= 0)
		return rc;
	err = csd_vmcore_open(a.input, &m);
	if (err)
		return csd_exit_code(err);
	err = csd_registry_load(&m, &reg, &d);
	if (!err && a.arg) {
		err = csd_vmlinux_open(a.arg, &vm);
		if (!err)
			err = csd_vmlinux_check(vm);
		if (!err)
			err = csd_program_keep_text(&d, &m, vm);
	}
	if (!err)
		err = csd_extract_write(&d, &reg, a.input, a.out);
	if (!err) {
		printf("%s: %zu sink(s), %zu ETM(s), %zu bad record(s)%s\n", a.out, d.n_sinks,
		       d.n_etms, reg.n_bad, reg.cut ? ", list cut" : "");
		rc = reg.n_bad || reg.cut ? CSD_EXIT_PARTIAL : CSD_EXIT_OK;
	} else {
		rc = csd_exit_code(err);
	}
	csd_vmlinux_close(vm);
	csd_registry_free(&reg);
	csd_dump_free(&d);
	csd_mem_close(&m);
	return rc;
}
