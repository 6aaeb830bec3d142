// SPDX-License-Identifier: GPL-2.0
/*
 * csdump as a crash extension:
 *
 *	crash> extend csdump.so
 *	crash> csdump OUTDIR		(what `csdump extract VMCORE -o OUTDIR` writes)
 *	crash> csdump -i		(what `csdump info VMCORE` prints)
 *
 * A thin layer: a struct csd_mem served by crash's readmem() and its
 * VMCOREINFO reader, handed to the library calls the CLI makes.  The registry
 * walk and the writers exist once, in the library.
 */
#include <crash/defs.h>		/* first: it sets up crash's own environment */

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "dump.h"
#include "extract.h"
#include "mem.h"
#include "registry.h"
#include "registry_info.h"

/* The kernel's VMCOREINFO buffer is one page; refuse anything absurd. */
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

static int read_kernel_ulong(const char *sym, ulong *val)
{
	if (!symbol_exists((char *)sym))
		return FALSE;
	return readmem(symbol_value((char *)sym), KVADDR, val, sizeof(*val),
		       (char *)sym, RETURN_ON_ERROR | QUIET);
}

/*
 * The crashed kernel's own VMCOREINFO buffer (vmcoreinfo_data), from which it
 * made the dump's note at panic.  NULL if it cannot be read.
 */
static char *kernel_vmcoreinfo(void)
{
	ulong data, size;
	char *text;

	if (!read_kernel_ulong("vmcoreinfo_data", &data) ||
	    !read_kernel_ulong("vmcoreinfo_size", &size))
		return NULL;
	if (size == 0 || size > CSD_VMCOREINFO_MAX) {
		csd_warn("vmcoreinfo_size in %s is %lu bytes, expected 1..%d",
			 pc->dumpfile, size, CSD_VMCOREINFO_MAX);
		return NULL;
	}
	text = malloc(size + 1);
	if (!text)
		return NULL;
	if (!readmem(data, KVADDR, text, (long)size, "vmcoreinfo_data",
		     RETURN_ON_ERROR | QUIET)) {
		csd_warn("cannot read the kernel's VMCOREINFO at %#lx in %s",
			 data, pc->dumpfile);
		free(text);
		return NULL;
	}
	text[size] = '\0';
	return text;
}

/*
 * VMCOREINFO as the dump's note holds it (what the CLI reads through
 * libkdumpfile).  crash reads the note only key by key (pc->read_vmcoreinfo),
 * so the keys come from the kernel's buffer and every value from the note;
 * a key the note lacks (text appended after the capture kernel was loaded)
 * is left out, as it is from the note.  A dump without a note readable by
 * crash falls back to the kernel's buffer as it is.
 */
static char *crash_vmcoreinfo_text(void)
{
	char *keys, *line, *next, *text = NULL;
	size_t text_len = 0;
	FILE *out;

	keys = kernel_vmcoreinfo();
	if (!keys || pc->read_vmcoreinfo == no_vmcoreinfo)
		return keys;

	out = open_memstream(&text, &text_len);
	if (!out) {
		free(keys);
		return NULL;
	}
	for (line = keys; *line; line = next) {
		char *eq, *val;

		next = strchr(line, '\n');
		next = next ? next + 1 : line + strlen(line);
		eq = memchr(line, '=', (size_t)(next - line));
		if (!eq || eq == line)
			continue;
		*eq = '\0';
		val = pc->read_vmcoreinfo(line);
		if (val) {
			fprintf(out, "%s=%s\n", line, val);
			free(val);
		}
	}
	free(keys);
	if (fclose(out) != 0) {
		free(text);
		return NULL;
	}
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

/* `csdump OUTDIR`: csd_registry_load() + csd_extract_write(), as the CLI. */
static enum csd_err csdump_extract(const struct csd_mem *mem, const char *dir)
{
	struct csd_registry reg;
	struct csd_dump d = { 0 };
	enum csd_err err;

	err = csd_registry_load(mem, &reg, &d);
	if (!err)
		err = csd_extract_write(&d, &reg, mem->name, dir);
	if (!err)
		fprintf(fp, "%s: %zu sink(s), %zu ETM(s), %zu bad record(s)%s\n", dir,
			d.n_sinks, d.n_etms, reg.n_bad, reg.cut ? ", list cut" : "");
	csd_registry_free(&reg);
	csd_dump_free(&d);
	return err;
}

static void cmd_csdump(void)
{
	int c, info = FALSE;
	struct csd_info_counts counts;
	struct csd_mem mem;
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

	if (!crash_mem_open(&mem)) {
		error(INFO, "out of memory\n");
		return;
	}
	csd_set_msg_handler(crash_msg, NULL);
	if (info)
		err = csd_registry_info(&mem, fp, &counts);
	else
		err = csdump_extract(&mem, args[optind]);
	csd_set_msg_handler(NULL, NULL);
	mem.ops->close(mem.priv);
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
