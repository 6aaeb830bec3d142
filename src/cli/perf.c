// SPDX-License-Identifier: GPL-2.0
/* csdump perf: perf.data (and, for a snapshot, an ELF memory image). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmds.h"
#include "core/diag.h"
#include "core/dump.h"
#include "format/elfimage.h"
#include "format/input.h"
#include "core/perf_cs_etm.h"
#include "decode/vmlinux.h"

static const char perf_usage[] =
	"usage: csdump perf INPUT -o FILE [--image ELF] [--vmlinux VMLINUX]\n"
	"  INPUT  a vmcore, a directory written by `csdump extract`, or an OpenCSD\n"
	"         snapshot directory\n"
	"  -o FILE      the perf.data to write\n"
	"  --image ELF  where to write the memory image of an input that has one\n"
	"               (a snapshot's memory dumps, or with --vmlinux the kernel's\n"
	"               code); default FILE.elf.  Its path is printed: give it to\n"
	"               `perf script -k ELF`.\n"
	"  --vmlinux VMLINUX  for a vmcore or extract directory: the image is\n"
	"               VMLINUX's code with the kernel text as it ran laid over it,\n"
	"               every section of it (perf 6.1 given -k VMLINUX reads only\n"
	"               its .text).  Without it, give perf the kernel's own vmlinux.\n";

struct perf_args {
	const char *input, *out, *image, *vmlinux;
};

static int perf_parse(int argc, char **argv, struct perf_args *a)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "image", required_argument, NULL, 'i' },
		{ "vmlinux", required_argument, NULL, 'k' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	memset(a, 0, sizeof(*a));
	optind = 0;
	while ((c = getopt_long(argc, argv, "o:i:k:h", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			a->out = optarg;
			break;
		case 'i':
			a->image = optarg;
			break;
		case 'k':
			a->vmlinux = optarg;
			break;
		case 'h':
			printf("%s%s", perf_usage, csd_exit_codes_help);
			return CSD_EXIT_OK;
		default:
			goto usage;
		}
	}
	if (optind == argc - 1 && a->out) {
		a->input = argv[optind];
		return -1;
	}
usage:
	fputs(perf_usage, stderr);
	return CSD_EXIT_USAGE;
}

int csd_cmd_perf(int argc, char **argv)
{
	struct csd_dump d = { 0 };
	struct csd_vmlinux *vm = NULL;
	const char *out, *image;
	char *image_buf = NULL;
	struct perf_args a;
	enum csd_err err = CSD_OK;
	int rc;

	rc = perf_parse(argc, argv, &a);
	if (rc >= 0)
		return rc;
	out = a.out;
	image = a.image;
	rc = csd_cli_load(a.input, a.vmlinux, &d, &vm);
	if (rc != CSD_EXIT_OK && rc != CSD_EXIT_PARTIAL) {
		csd_vmlinux_close(vm);
		csd_dump_free(&d);
		return rc;
	}
	err = csd_perf_write_cs_etm(&d, out);
	if (!err && d.n_segs) {
		if (!image) {
			image_buf = malloc(strlen(out) + 5);
			if (!image_buf) {
				err = CSD_ERR_NOMEM;
				goto out;
			}
			sprintf(image_buf, "%s.elf", out);
			image = image_buf;
		}
		err = csd_elfimage_write(&d, image);
		if (!err)
			printf("memory image: %s (perf script -i %s -k %s)\n", image, out, image);
	}
out:
	if (err)
		rc = csd_exit_code(err);
	else
		printf("perf.data: %s\n", out);
	free(image_buf);
	csd_vmlinux_close(vm);
	csd_dump_free(&d);
	return rc;
}
