// SPDX-License-Identifier: GPL-2.0
/*
 * csdump: the program image of an input without memory dumps, from vmlinux
 * and the vmcore's own kernel text.
 */
#include <stddef.h>
#include <sys/stat.h>

#include "core/diag.h"
#include "core/mem.h"
#include "decode/image.h"
#include "decode/program.h"
#include "vmcore/vmcore.h"

/*
 * For a vmcore, the kernel text as it ran (patched by the kernel) replaces
 * vmlinux's where the vmcore holds it.  Best effort: vmlinux stays otherwise.
 */
static void overlay_vmcore(const char *input, const struct csd_vmlinux *vm, struct csd_dump *d)
{
	struct csd_span text[CSD_TEXT_SPANS_MAX];
	size_t pages = 0, words = 0, n_text;
	struct csd_mem m;
	struct stat sb;

	if (stat(input, &sb) || !S_ISREG(sb.st_mode) ||
	    csd_image_vmlinux_text(vm, d->kaslr_offset, text, &n_text) != CSD_OK ||
	    !n_text || csd_vmcore_open(input, &m) != CSD_OK)
		return;
	if (csd_image_overlay_mem(d, 0, &m, text, n_text, &pages, &words) == CSD_OK && pages)
		csd_info("%s: %zu pages of kernel text read from the vmcore (%zu instruction "
			 "words differ from vmlinux: the kernel patches its text)", input, pages,
			 words);
	csd_mem_close(&m);
}

enum csd_err csd_program_from_vmlinux(struct csd_dump *d, const char *input,
				      const struct csd_vmlinux *vm)
{
	enum csd_err err;

	if (!d->n_segs) {
		err = csd_image_add_vmlinux(d, vm, d->kaslr_offset);
		if (err != CSD_OK)
			return err;
		overlay_vmcore(input, vm, d);
	}
	return CSD_OK;
}
