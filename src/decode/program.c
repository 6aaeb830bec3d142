// SPDX-License-Identifier: GPL-2.0
/*
 * csdump: the program image of an input without memory dumps, from vmlinux
 * and the kernel text as it ran (a vmcore's own, or what an extract
 * directory kept of it).
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/diag.h"
#include "core/extract.h"
#include "core/mem.h"
#include "decode/image.h"
#include "decode/program.h"
#include "vmcore/vmcore.h"

_Static_assert(CSD_KTEXT_MAX <= CSD_TEXT_SPANS_MAX, "an extract's kernel text fits the spans");

/*
 * The spans of vmlinux's text that stay while the kernel runs, and the
 * instruction words of @m (the vmcore) there laid over vmlinux's code in
 * @d: the running kernel patches its own text (alternatives, static keys).
 * Best effort: vmlinux's bytes stay where @m has none.
 */
static size_t overlay_text(struct csd_dump *d, const struct csd_mem *m,
			   const struct csd_vmlinux *vm, struct csd_span *text, size_t *n_text,
			   size_t *pages, size_t *words)
{
	*pages = *words = *n_text = 0;
	if (csd_image_vmlinux_text(vm, d->kaslr_offset, text, n_text) != CSD_OK || !*n_text)
		return 0;
	if (csd_image_overlay_mem(d, 0, m, text, *n_text, pages, words) != CSD_OK)
		return 0;
	return *pages;
}

static void say_overlay(const char *from, size_t pages, size_t words)
{
	if (pages)
		csd_info("%s: %zu pages of kernel text read from the vmcore (%zu instruction "
			 "words differ from vmlinux: the kernel patches its text)", from, pages,
			 words);
}

/* For a vmcore @input, its kernel text over vmlinux's. */
static void overlay_vmcore(const char *input, const struct csd_vmlinux *vm, struct csd_dump *d)
{
	struct csd_span text[CSD_TEXT_SPANS_MAX];
	size_t pages, words, n_text;
	struct csd_mem m;

	if (csd_vmcore_open(input, &m) != CSD_OK)
		return;
	overlay_text(d, &m, vm, text, &n_text, &pages, &words);
	say_overlay(input, pages, words);
	csd_mem_close(&m);
}

/* For an extract directory @input, the kernel text it kept over vmlinux's. */
static void overlay_ktext(const char *input, struct csd_dump *d)
{
	struct csd_span text[CSD_TEXT_SPANS_MAX];
	size_t pages, words, n = d->n_ktext < CSD_TEXT_SPANS_MAX ? d->n_ktext : CSD_TEXT_SPANS_MAX;
	struct csd_mem m;

	for (size_t i = 0; i < n; i++) {
		text[i].lo = d->ktext[i].vaddr;
		text[i].hi = d->ktext[i].vaddr + d->ktext[i].len;
	}
	if (csd_mem_of_segs(&m, input, d->ktext, n) != CSD_OK)
		return;
	if (csd_image_overlay_mem(d, 0, &m, text, n, &pages, &words) == CSD_OK && pages)
		csd_info("%s: %zu pages of kernel text as it ran, kept by extract (%zu "
			 "instruction words differ from vmlinux: the kernel patches its text)",
			 input, pages, words);
	csd_mem_close(&m);
}

enum csd_err csd_program_from_vmlinux(struct csd_dump *d, const char *input,
				      const struct csd_vmlinux *vm)
{
	struct stat sb;
	enum csd_err err;

	if (d->n_segs)
		return CSD_OK;
	err = csd_image_add_vmlinux(d, vm, d->kaslr_offset);
	if (err != CSD_OK)
		return err;
	/* An extract of a vmcore (it knows the kernel) says why it may differ. */
	if (d->n_ktext)
		overlay_ktext(input, d);
	else if (!stat(input, &sb) && S_ISREG(sb.st_mode))
		overlay_vmcore(input, vm, d);
	else if (csd_extract_is_dir(input) && (d->kernel_stext || d->osrelease[0]))
		csd_warn("%s: no kernel text as it ran (extracted without --vmlinux): decoded "
			 "with vmlinux's, which the running kernel patched (alternatives, static "
			 "keys), so it may differ from the vmcore's decode; extract with --vmlinux",
			 input);
	return CSD_OK;
}

enum csd_err csd_program_keep_text(struct csd_dump *d, const struct csd_mem *m,
				   const struct csd_vmlinux *vm)
{
	struct csd_dump img = { .kaslr_offset = d->kaslr_offset };
	struct csd_span text[CSD_TEXT_SPANS_MAX];
	size_t pages, words, n_text;
	enum csd_err err = csd_image_add_vmlinux(&img, vm, img.kaslr_offset);

	if (err == CSD_OK && overlay_text(&img, m, vm, text, &n_text, &pages, &words))
		say_overlay(m->name, pages, words);
	/*
	 * VMCOREINFO names _stext, not _text: the image's first byte (on arm64
	 * vmlinux's first executable segment starts at _text, .head.text) lets
	 * the extract's perf.data map the whole kernel image.
	 */
	for (size_t i = 0; err == CSD_OK && !d->kernel_text && i < img.n_segs; i++)
		if (!i || img.segs[i].vaddr < img.segs[0].vaddr)
			d->kernel_text = img.segs[i].vaddr;
	for (size_t i = 0; err == CSD_OK && pages && i < n_text; i++) {
		size_t len = (size_t)(text[i].hi - text[i].lo);
		uint8_t *buf = calloc(1, len ? len : 1);

		if (!buf) {
			err = CSD_ERR_NOMEM;
			break;
		}
		/* The span's bytes as the decode of the vmcore has them. */
		for (size_t k = 0; k < img.n_segs; k++) {
			const struct csd_seg *s = &img.segs[k];
			uint64_t lo = s->vaddr > text[i].lo ? s->vaddr : text[i].lo;
			uint64_t hi = s->vaddr + s->len < text[i].hi ? s->vaddr + s->len : text[i].hi;

			if (lo < hi)
				memcpy(buf + (lo - text[i].lo), s->data + (lo - s->vaddr), hi - lo);
		}
		if (!csd_dump_add_ktext(d, "kernel text", text[i].lo, buf, len))
			err = CSD_ERR_NOMEM;
	}
	csd_dump_free(&img);
	return err;
}
