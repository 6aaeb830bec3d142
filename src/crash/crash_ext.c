// SPDX-License-Identifier: GPL-2.0
/*
 * csdump as a crash extension:
 *
 *	crash> extend csdump.so
 *	crash> csdump OUTDIR		(what `csdump extract VMCORE -o OUTDIR` writes)
 *	crash> csdump -i		(what `csdump info VMCORE` prints)
 *
 * A thin layer: a struct csd_mem served by crash's readmem() and symbol
 * table, handed to the library calls the CLI makes.  The registry
 * walk and the writers exist once, in the library.
 */
#include <crash/defs.h>		/* first: it sets up crash's own environment */

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/diag.h"
#include "core/dump.h"
#include "core/extract.h"
#include "core/mem.h"
#include "core/registry.h"
#include "core/registry_info.h"

/* The kernel's VMCOREINFO is one page; refuse anything absurd. */
#define CSD_VMCOREINFO_MAX	(64 * 1024)

struct crash_src {
	char *vmcoreinfo;
};

static enum csd_err crash_read(void *priv, enum csd_space space, uint64_t addr,
			       void *buf, size_t len)
{
	int type;

	(void)priv;
	switch (space) {
	case CSD_KVADDR:
		type = KVADDR;
		break;
	case CSD_KPHYSADDR:
		type = PHYSADDR;
		break;
	default:
		return CSD_ERR_USAGE;
	}
	if (len > LONG_MAX)
		return CSD_ERR_UNMAPPED;
	if (!readmem(addr, type, buf, (long)len, "csdump", RETURN_ON_ERROR | QUIET))
		return CSD_ERR_UNMAPPED;
	return CSD_OK;
}

static const char *crash_vmcoreinfo(void *priv)
{
	return ((struct crash_src *)priv)->vmcoreinfo;
}

static void crash_close(void *priv)
{
	struct crash_src *src = priv;

	free(src->vmcoreinfo);
	free(src);
}

static const struct csd_mem_ops crash_mem_ops = {
	.read = crash_read,
	.vmcoreinfo = crash_vmcoreinfo,
	.close = crash_close,
};

/*
 * VMCOREINFO, read where the dump's note came from.  At panic the kernel
 * writes the note (an ELF note "VMCOREINFO" holding the KEY=VALUE text) into
 * its buffer at vmcoreinfo_note, and the capture kernel's /proc/vmcore
 * presents that very memory as the vmcore's VMCOREINFO note: the bytes the
 * CLI gets from libkdumpfile.  crash's own reader (pc->read_vmcoreinfo) only
 * answers single keys; the library wants the text.
 */
struct crash_nhdr {
	uint32_t namesz, descsz, type;
};

#define VMCOREINFO_NAME		"VMCOREINFO"
#define NOTE_ALIGN(n)		(((n) + 3u) & ~3u)

static int crash_read_kvaddr(ulong addr, void *buf, size_t len, const char *what)
{
	return readmem(addr, KVADDR, buf, (long)len, (char *)what, RETURN_ON_ERROR | QUIET);
}

static char *crash_vmcoreinfo_text(void)
{
	char name[NOTE_ALIGN(sizeof(VMCOREINFO_NAME))];
	struct crash_nhdr nh;
	ulong note = 0;
	char *text;

	if (!symbol_exists("vmcoreinfo_note")) {
		csd_warn("%s: no vmcoreinfo_note symbol: a kernel without VMCOREINFO",
			 pc->namelist);
		return NULL;
	}
	if (!crash_read_kvaddr(symbol_value("vmcoreinfo_note"), &note, sizeof(note),
			       "vmcoreinfo_note") ||
	    !crash_read_kvaddr(note, &nh, sizeof(nh), "VMCOREINFO note header")) {
		csd_warn("%s: cannot read the VMCOREINFO note (vmcoreinfo_note %#lx)",
			 pc->dumpfile, note);
		return NULL;
	}
	if (nh.namesz != sizeof(VMCOREINFO_NAME) || nh.descsz == 0 ||
	    nh.descsz > CSD_VMCOREINFO_MAX ||
	    !crash_read_kvaddr(note + sizeof(nh), name, sizeof(name), "VMCOREINFO note name") ||
	    memcmp(name, VMCOREINFO_NAME, sizeof(VMCOREINFO_NAME)) != 0) {
		csd_warn("%s: the note at %#lx is not VMCOREINFO (name size %u, "
			 "data size %u; expected %zu and 1..%d)", pc->dumpfile, note,
			 nh.namesz, nh.descsz, sizeof(VMCOREINFO_NAME), CSD_VMCOREINFO_MAX);
		return NULL;
	}
	text = malloc(nh.descsz + 1);
	if (!text)
		return NULL;
	if (!crash_read_kvaddr(note + sizeof(nh) + sizeof(name), text, nh.descsz,
			       "VMCOREINFO text")) {
		csd_warn("%s: cannot read the VMCOREINFO text (%u bytes at %#lx)",
			 pc->dumpfile, nh.descsz, note + sizeof(nh) + sizeof(name));
		free(text);
		return NULL;
	}
	text[nh.descsz] = '\0';
	return text;
}

static int crash_mem_open(struct csd_mem *mem)
{
	struct crash_src *src = calloc(1, sizeof(*src));

	if (!src)
		return FALSE;
	src->vmcoreinfo = crash_vmcoreinfo_text();
	mem->ops = &crash_mem_ops;
	mem->priv = src;
	snprintf(mem->name, sizeof(mem->name), "%s",
		 pc->dumpfile ? pc->dumpfile : "the crash session");
	return TRUE;
}

/* Library messages go where crash sends its own. */
static void crash_msg(enum csd_level level, const char *msg, void *arg)
{
	(void)arg;
	switch (level) {
	case CSD_LVL_ERROR:
		error(INFO, "%s\n", msg);
		break;
	case CSD_LVL_WARN:
		error(WARNING, "%s\n", msg);
		break;
	default:
		fprintf(fp, "%s\n", msg);
		break;
	}
}

/*
 * One command's resources.  crash longjmps back to its prompt on Ctrl-C or a
 * FATAL error; it then calls pc->cmd_cleanup, which releases them (and on a
 * normal return the command calls it itself).
 */
static struct csdump_run {
	struct csd_mem mem;
	struct csd_registry reg;
	struct csd_dump dump;
} run;

static void csdump_cleanup(void *arg)
{
	struct csdump_run *r = arg;

	csd_set_msg_handler(NULL, NULL);
	csd_registry_free(&r->reg);
	csd_dump_free(&r->dump);
	if (r->mem.ops)
		r->mem.ops->close(r->mem.priv);
	memset(r, 0, sizeof(*r));
	pc->cmd_cleanup = NULL;
	pc->cmd_cleanup_arg = NULL;
}

/* `csdump OUTDIR`: csd_registry_load() + csd_extract_write(), as the CLI. */
static enum csd_err csdump_extract(struct csdump_run *r, const char *dir)
{
	enum csd_err err;

	err = csd_registry_load(&r->mem, &r->reg, &r->dump);
	if (!err)
		err = csd_extract_write(&r->dump, &r->reg, r->mem.name, dir);
	if (!err)
		fprintf(fp, "%s: %zu sink(s), %zu ETM(s), %zu bad record(s)%s\n", dir,
			r->dump.n_sinks, r->dump.n_etms, r->reg.n_bad,
			r->reg.cut ? ", list cut" : "");
	return err;
}

static void cmd_csdump(void)
{
	int c, info = FALSE;
	struct csd_info_counts counts;
	enum csd_err err;

	while ((c = getopt(argcnt, args, "i")) != EOF) {
		switch (c) {
		case 'i':
			info = TRUE;
			break;
		default:
			argerrs++;
			break;
		}
	}
	if (argerrs || optind != argcnt - (info ? 0 : 1))
		cmd_usage(pc->curcmd, SYNOPSIS);

	pc->cmd_cleanup = csdump_cleanup;
	pc->cmd_cleanup_arg = &run;
	csd_set_msg_handler(crash_msg, NULL);
	if (!crash_mem_open(&run.mem)) {
		csdump_cleanup(&run);
		error(INFO, "out of memory\n");
		return;
	}
	if (info)
		err = csd_registry_info(&run.mem, fp, &counts);
	else
		err = csdump_extract(&run, args[optind]);
	csdump_cleanup(&run);
	/* The library has said what went wrong; this stands for the exit status. */
	if (err)
		error(INFO, "%s\n", csd_strerror(err));
}

static char *help_csdump[] = {
	"csdump",
	"extract CoreSight trace saved at panic",
	"[-i] [OUTDIR]",
	"  Walks the coresight_kdump registry that the crashed kernel published in",
	"  VMCOREINFO and extracts what its CoreSight sinks saved at panic, exactly",
	"  as `csdump extract VMCORE -o OUTDIR` does outside crash.",
	"",
	"  OUTDIR  write into this directory (created if missing): cstrace.bin",
	"          (the first sink's trace; further sinks in files named after",
	"          their device), metadata.bin (the ETMv4 blocks in perf's",
	"          layout), perf.data (decodable by `perf script`) and a summary.",
	"      -i  list the registry's records instead, one a line, as",
	"          `csdump info VMCORE` does: kind, device, CPU, sizes, flags, CRC.",
	"",
	"  Every record is checked (magic, version, size, CRC-32); a bad one is",
	"  reported and skipped, the intact ones are still extracted.",
	"\nEXAMPLE",
	"  Extract the trace and list the records:\n",
	"    %s> extend csdump.so",
	"    %s> csdump /tmp/trace",
	"    %s> csdump -i",
	NULL
};

static struct command_table_entry command_table[] = {
	{ "csdump", cmd_csdump, help_csdump, 0 },
	{ NULL, NULL, NULL, 0 },
};

void csdump_init(void) __attribute__((constructor));
void csdump_fini(void) __attribute__((destructor));

void csdump_init(void)
{
	register_extension(command_table);
}

void csdump_fini(void)
{
}
