// SPDX-License-Identifier: GPL-2.0
/* csdump perf: perf.data (and, for a snapshot, an ELF memory image). */
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
	struct csd_input_status st = { 0 };
	struct csd_dump d = { 0 };
	const char *out, *image;
	char *image_buf = NULL;
	struct csd_cli_io a;
	enum csd_err err;
	int rc;

	rc = csd_cli_parse_io(argc, argv, perf_usage, true, "image", 'i', &a);
	if (rc >= 0)
		return rc;
	out = a.out;
	image = a.arg;
	err = csd_input_load(a.input, &d, &st);
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
