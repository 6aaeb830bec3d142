// SPDX-License-Identifier: GPL-2.0
/*
 * csdump: module code from the vmcore.  The kernel says where its vmalloc
 * areas are (VMCOREINFO: SYMBOL(vmap_area_list), OFFSET(vmap_area.va_start),
 * OFFSET(vmap_area.list), as makedumpfile reads them); of those, the ones in
 * the 2 GiB below _stext are where an arm64 kernel loads modules.  Their
 * pages are taken as they were at the crash: the code that ran.  Every
 * pointer read is checked and every loop bounded: the list is the crashed
 * kernel's.
 */
#include <stdlib.h>
#include <string.h>

#include "core/diag.h"
#include "core/vmcoreinfo.h"
#include "decode/modtext.h"

/* arm64: modules within 2 GiB of the image (module.c, kaslr.c). */
#define MODULE_REACH	(2ull << 30)

/* The largest page size an arm64 kernel uses. */
#define PAGE_MAX	(64u << 10)

struct run {
	uint64_t vaddr;
	uint8_t *data;
	size_t len;
};

struct walk {
	struct csd_dump *d;
	const struct csd_mem *m;
	struct csd_modtext *mt;
	uint64_t page, lo, hi;	/* page size; the window [lo, hi) */
	uint8_t *buf;		/* a page */
	struct run runs[CSD_MODTEXT_MAX_RUNS];
	size_t n, max_runs;
};

/* Taken already: a list that names an area twice gives it once. */
static bool in_runs(const struct walk *w, uint64_t a)
{
	for (size_t i = 0; i < w->n; i++)
		if (a >= w->runs[i].vaddr && a - w->runs[i].vaddr < w->runs[i].len)
			return true;
	return false;
}

/* Append the page at @a (@buf) to the last run, or start a new one. */
static enum csd_err take_page(struct walk *w, uint64_t a, const uint8_t *buf)
{
	struct run *r = w->n ? &w->runs[w->n - 1] : NULL;
	uint8_t *p;

	if (w->mt->bytes + w->page > CSD_MODTEXT_MAX_BYTES) {
		w->mt->cut = true;
		return CSD_OK;
	}
	if (!r || r->vaddr + r->len != a) {
		if (w->n == w->max_runs) {
			w->mt->cut = true;
			return CSD_OK;
		}
		r = &w->runs[w->n++];
		*r = (struct run){ .vaddr = a };
	}
	p = realloc(r->data, r->len + w->page);
	if (!p) {
		csd_error("out of memory for module code (%zu bytes)", r->len + (size_t)w->page);
		return CSD_ERR_NOMEM;
	}
	memcpy(p + r->len, buf, w->page);
	r->data = p;
	r->len += w->page;
	w->mt->bytes += w->page;
	return CSD_OK;
}

/* The pages of [@start, @end) in the window that the vmcore holds. */
static enum csd_err take_area(struct walk *w, uint64_t start, uint64_t end)
{
	enum csd_err err = CSD_OK;

	if (start < w->lo)
		start = w->lo;
	if (end > w->hi)
		end = w->hi;
	start &= ~(w->page - 1);
	for (uint64_t a = start; a < end && !err && !w->mt->cut; a += w->page)
		if (!csd_dump_segs_overlap(w->d, w->d->n_segs, a, w->page) && !in_runs(w, a) &&
		    csd_mem_read(w->m, CSD_KVADDR, a, w->buf, w->page) == CSD_OK)
			err = take_page(w, a, w->buf);
	return err;
}

static bool read_u64(const struct csd_mem *m, uint64_t a, uint64_t *v)
{
	return csd_mem_read(m, CSD_KVADDR, a, v, sizeof(*v)) == CSD_OK;
}

/* Walk vmap_area_list; each area in the window goes to take_area(). */
static enum csd_err walk_areas(struct walk *w, uint64_t head, uint64_t start_off,
			       uint64_t list_off)
{
	uint64_t next, va[2];
	enum csd_err err = CSD_OK;

	if (!read_u64(w->m, head, &next)) {
		w->mt->why = "vmap_area_list is not in the dump";
		return CSD_OK;
	}
	while (next != head && !err && !w->mt->cut) {
		if (w->mt->areas++ == CSD_MODTEXT_MAX_AREAS || next < list_off ||
		    csd_mem_read(w->m, CSD_KVADDR, next - list_off + start_off, va,
				 sizeof(va)) != CSD_OK) {
			w->mt->why = "vmap_area_list is cut or too long";
			break;
		}
		if (va[0] < va[1] && va[1] > w->lo && va[0] < w->hi)
			err = take_area(w, va[0], va[1]);
		if (!read_u64(w->m, next, &next)) {
			w->mt->why = "vmap_area_list is cut";
			break;
		}
	}
	return err;
}

enum csd_err csd_modtext_read(struct csd_dump *d, const struct csd_mem *m, size_t max_runs,
			      struct csd_modtext *mt)
{
	const char *info = m->ops->vmcoreinfo ? m->ops->vmcoreinfo(m->priv) : NULL;
	uint64_t head, start_off, list_off, page;
	struct walk w = { .d = d, .m = m, .mt = mt };
	enum csd_err err;

	memset(mt, 0, sizeof(*mt));
	if (!d->kernel_stext) {
		mt->why = "where the kernel ran (_stext) is not known";
		return CSD_OK;
	}
	if (!info || csd_vmcoreinfo_symbol(info, "vmap_area_list", &head) ||
	    csd_vmcoreinfo_u64(info, "OFFSET(vmap_area.va_start)", 10, &start_off) ||
	    csd_vmcoreinfo_u64(info, "OFFSET(vmap_area.list)", 10, &list_off) ||
	    csd_vmcoreinfo_u64(info, "PAGESIZE", 10, &page)) {
		mt->why = "VMCOREINFO does not say where the vmalloc areas are";
		return CSD_OK;
	}
	/* va_end follows va_start (struct vmap_area); a list_head's next is its first word. */
	if (page < 4096 || page > PAGE_MAX || (page & (page - 1)) || start_off > 4096 ||
	    list_off > 4096) {
		mt->why = "VMCOREINFO's page size or vmap_area offsets are not plausible";
		return CSD_OK;
	}
	w.max_runs = max_runs < CSD_MODTEXT_MAX_RUNS ? max_runs : CSD_MODTEXT_MAX_RUNS;
	w.page = page;
	w.hi = d->kernel_stext;
	w.lo = w.hi > MODULE_REACH ? w.hi - MODULE_REACH : 0;
	w.buf = malloc(page);
	if (!w.buf) {
		csd_error("out of memory for a page of module code");
		return CSD_ERR_NOMEM;
	}
	err = walk_areas(&w, head, start_off, list_off);
	free(w.buf);
	for (size_t i = 0; i < w.n; i++) {
		struct run *r = &w.runs[i];

		if (err) {
			free(r->data);
			continue;
		}
		/* Takes the data, also on failure. */
		struct csd_seg *s = csd_dump_add_seg(d, CSD_MODTEXT_SEG, r->vaddr, r->data,
						     r->len);

		if (!s) {
			err = CSD_ERR_NOMEM;
			continue;
		}
		s->module = true;
		mt->runs++;
	}
	return err;
}
