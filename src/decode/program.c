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
#include "decode/modtext.h"
#include "decode/program.h"
#include "vmcore/vmcore.h"

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

/* The module code of @m (a vmcore) into @d's image, and a line about it. */
static enum csd_err add_modules(struct csd_dump *d, const struct csd_mem *m, size_t max_runs)
{
	struct csd_modtext mt;
	enum csd_err err = csd_modtext_read(d, m, max_runs, &mt);

	if (err)
		return err;
	if (mt.bytes)
		csd_info("%s: %zu KiB of module code in %zu run(s) read from the vmcore "
			 "(vmalloc areas below the kernel, of %zu)", m->name, mt.bytes >> 10,
			 mt.runs, mt.areas);
	if (mt.cut)
		csd_warn("%s: more module code than csdump takes (%u MiB, %zu runs): the rest "
			 "decodes as code not in the image", m->name, CSD_MODTEXT_MAX_BYTES >> 20,
			 max_runs);
	else if (mt.why)
		csd_info("%s: no module code read: %s", m->name, mt.why);
	return CSD_OK;
}

/* For a vmcore @input, its kernel text over vmlinux's, and its module code. */
static enum csd_err overlay_vmcore(const char *input, const struct csd_vmlinux *vm,
				   struct csd_dump *d)
{
	struct csd_span text[CSD_TEXT_SPANS_MAX];
	size_t pages, words, n_text;
	struct csd_mem m;
	enum csd_err err;

	if (csd_vmcore_open(input, &m) != CSD_OK)
		return CSD_OK;
	overlay_text(d, &m, vm, text, &n_text, &pages, &words);
	say_overlay(input, pages, words);
	err = add_modules(d, &m, CSD_MODTEXT_MAX_RUNS);
	csd_mem_close(&m);
	return err;
}

/*
 * For an extract directory @input, the kernel text it kept: laid over
 * vmlinux's where vmlinux has code, added to the image where it has none
 * (module code).
 */
static enum csd_err overlay_ktext(const char *input, struct csd_dump *d)
{
	struct csd_span text[CSD_TEXT_SPANS_MAX];
	size_t pages, words, n = 0, n_img = d->n_segs, mod = 0;
	struct csd_mem m;

	for (size_t i = 0; i < d->n_ktext; i++) {
		const struct csd_seg *k = &d->ktext[i];
		struct csd_seg *seg;
		uint8_t *copy;

		if (csd_dump_segs_overlap(d, n_img, k->vaddr, k->len)) {
			if (n < CSD_TEXT_SPANS_MAX)
				text[n++] = (struct csd_span){ k->vaddr, k->vaddr + k->len };
			continue;
		}
		copy = malloc(k->len ? k->len : 1);
		if (!copy) {
			csd_error("out of memory for module code (%zu bytes)", k->len);
			return CSD_ERR_NOMEM;
		}
		memcpy(copy, k->data, k->len);
		seg = csd_dump_add_seg(d, CSD_MODTEXT_SEG, k->vaddr, copy, k->len);
		if (!seg)
			return CSD_ERR_NOMEM;
		seg->module = true;
		mod += k->len;
	}
	if (mod)
		csd_info("%s: %zu KiB of module code, kept by extract", input, mod >> 10);
	if (csd_mem_of_segs(&m, input, d->ktext, d->n_ktext) != CSD_OK)
		return CSD_OK;
	if (csd_image_overlay_mem(d, 0, &m, text, n, &pages, &words) == CSD_OK && pages)
		csd_info("%s: %zu pages of kernel text as it ran, kept by extract (%zu "
			 "instruction words differ from vmlinux: the kernel patches its text)",
			 input, pages, words);
	csd_mem_close(&m);
	return CSD_OK;
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
		return overlay_ktext(input, d);
	else if (!stat(input, &sb) && S_ISREG(sb.st_mode))
		return overlay_vmcore(input, vm, d);
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
	/* The module code too, which the extract's decode adds to vmlinux's. */
	if (err == CSD_OK) {
		size_t first = img.n_segs;

		img.kernel_stext = d->kernel_stext;
		err = add_modules(&img, m, d->n_ktext < CSD_KTEXT_MAX ?
				  CSD_KTEXT_MAX - d->n_ktext : 0);
		for (size_t i = first; err == CSD_OK && i < img.n_segs; i++) {
			/* The dump takes the data, also on failure. */
			if (!csd_dump_add_ktext(d, CSD_MODTEXT_SEG, img.segs[i].vaddr,
						img.segs[i].data, img.segs[i].len))
				err = CSD_ERR_NOMEM;
			img.segs[i].data = NULL;
		}
	}
	csd_dump_free(&img);
	return err;
}
