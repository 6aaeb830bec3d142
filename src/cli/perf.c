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

static const char perf_usage[] =
	"usage: csdump perf INPUT -o FILE [--image ELF]\n"
	"  INPUT  a vmcore, a directory written by `csdump extract`, or an OpenCSD\n"
	"         snapshot directory\n"
	"  -o FILE      the perf.data to write\n"
	"  --image ELF  where to write the memory image of an input that has one\n"
	"               (a snapshot's memory dumps); default FILE.elf.  Its path is\n"
	"               printed: give it to `perf script -k ELF`.  For a vmcore,\n"
	"               give perf the kernel's own vmlinux instead.\n";

int csd_cmd_perf(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "image", required_argument, NULL, 'i' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *out = NULL, *image = NULL;
	struct csd_input_status st = { 0 };
	struct csd_dump d = { 0 };
	char *image_buf = NULL;
	enum csd_err err;
	int c, rc;

	optind = 0;
	while ((c = getopt_long(argc, argv, "o:i:h", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			out = optarg;
			break;
		case 'i':
			image = optarg;
			break;
		case 'h':
			printf("%s%s", perf_usage, csd_exit_codes_help);
			return CSD_EXIT_OK;
		default:
			fputs(perf_usage, stderr);
			return CSD_EXIT_USAGE;
		}
	}
	if (optind != argc - 1 || !out) {
		fputs(perf_usage, stderr);
		return CSD_EXIT_USAGE;
	}
	err = csd_input_load(argv[optind], &d, &st);
	if (err) {
		csd_dump_free(&d);
		return csd_exit_code(err);
	}
	rc = st.partial ? CSD_EXIT_PARTIAL : CSD_EXIT_OK;
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
	csd_dump_free(&d);
	return rc;
}
