// SPDX-License-Identifier: GPL-2.0
/* csdump info / csdump extract: the registry of a vmcore. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/cli.h"
#include "cli/cmds.h"
#include "core/diag.h"
#include "core/extract.h"
#include "core/registry.h"
#include "core/registry_info.h"
#include "vmcore/vmcore.h"

static const char info_usage[] =
	"usage: csdump info VMCORE\n"
	"  one line per registry record: address, kind, device, CPU, capacity,\n"
	"  valid bytes, flags, CRC (ok, bad, or - when there is no saved data),\n"
	"  and why a record is bad\n";

static const char extract_usage[] =
	"usage: csdump extract VMCORE -o DIR\n"
	"  writes DIR/cstrace.bin (the first sink's trace; with several sinks also\n"
	"  DIR/<device>.bin for each), DIR/metadata.bin (the ETMv4 blocks in perf's\n"
	"  layout), DIR/perf.data and DIR/summary.txt, each atomically\n";

#define PARSE_HELP (-1)	/* --help was printed: exit 0 */

/* Parse "CMD INPUT [-o DIR]"; 0, PARSE_HELP, or an exit code to return. */
static int parse(int argc, char **argv, const char *usage, bool want_out,
		 const char **input, const char **out)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	optind = 0;
	while ((c = getopt_long(argc, argv, want_out ? "o:h" : "h", opts, NULL)) != -1) {
		if (c == 'h') {
			printf("%s%s", usage, csd_exit_codes_help);
			return PARSE_HELP;
		}
		if (c != 'o' || !want_out)
			goto bad;
		*out = optarg;
	}
	if (optind != argc - 1 || (want_out && !*out))
		goto bad;
	*input = argv[optind];
	return 0;
bad:
	fputs(usage, stderr);
	return CSD_EXIT_USAGE;
}

int csd_cmd_info(int argc, char **argv)
{
	const char *input = NULL, *out = NULL;
	struct csd_info_counts c;
	struct csd_mem m;
	enum csd_err err;
	int rc = parse(argc, argv, info_usage, false, &input, &out);

	if (rc)
		return rc == PARSE_HELP ? CSD_EXIT_OK : rc;
	err = csd_vmcore_open(input, &m);
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
	const char *input = NULL, *out = NULL;
	struct csd_registry reg;
	struct csd_dump d = { 0 };
	struct csd_mem m;
	enum csd_err err;
	int rc = parse(argc, argv, extract_usage, true, &input, &out);

	if (rc)
		return rc == PARSE_HELP ? CSD_EXIT_OK : rc;
	err = csd_vmcore_open(input, &m);
	if (err)
		return csd_exit_code(err);
	err = csd_registry_load(&m, &reg, &d);
	if (!err)
		err = csd_extract_write(&d, &reg, input, out);
	if (!err) {
		printf("%s: %zu sink(s), %zu ETM(s), %zu bad record(s)%s\n", out, d.n_sinks,
		       d.n_etms, reg.n_bad, reg.cut ? ", list cut" : "");
		rc = reg.n_bad || reg.cut ? CSD_EXIT_PARTIAL : CSD_EXIT_OK;
	} else {
		rc = csd_exit_code(err);
	}
	csd_registry_free(&reg);
	csd_dump_free(&d);
	csd_mem_close(&m);
	return rc;
}
