// SPDX-License-Identifier: GPL-2.0
/*
 * csdump: the program image the decoder reads opcodes from.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/diag.h"
#include "decode/image.h"

static int seg_cmp(const void *a, const void *b)
{
	const struct csd_seg *x = *(const struct csd_seg * const *)a;
	const struct csd_seg *y = *(const struct csd_seg * const *)b;

	return x->vaddr < y->vaddr ? -1 : x->vaddr > y->vaddr;
}

enum csd_err csd_image_index(struct csd_image *im, const struct csd_seg *segs, size_t n)
{
	size_t i;

	memset(im, 0, sizeof(*im));
	if (!n)
		return CSD_OK;
	im->v = calloc(n, sizeof(*im->v));
	im->max_last = calloc(n, sizeof(*im->max_last));
	if (!im->v || !im->max_last) {
		csd_image_release(im);
		return CSD_ERR_NOMEM;
	}
	for (i = 0; i < n; i++)
		if (segs[i].len && segs[i].data && segs[i].len - 1 <= UINT64_MAX - segs[i].vaddr)
			im->v[im->n++] = &segs[i];
	qsort(im->v, im->n, sizeof(*im->v), seg_cmp);
	for (i = 0; i < im->n; i++) {
		uint64_t last = im->v[i]->vaddr + (im->v[i]->len - 1);

		im->max_last[i] = i && im->max_last[i - 1] > last ? im->max_last[i - 1] : last;
	}
	return CSD_OK;
}

void csd_image_release(struct csd_image *im)
{
	free(im->v);
	free(im->max_last);
	memset(im, 0, sizeof(*im));
}

/* The last segment starting at or below @addr that holds it, or NULL. */
static const struct csd_seg *image_find(const struct csd_image *im, uint64_t addr)
{
	size_t lo = 0, hi = im->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (im->v[mid]->vaddr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	/*
	 * Overlapping segments: walk down to one that covers @addr, no further
	 * than segments reaching it go (hostile inputs list thousands).
	 */
	while (lo-- && im->max_last[lo] >= addr) {
		const struct csd_seg *s = im->v[lo];

		if (addr - s->vaddr < s->len)
			return s;
	}
	return NULL;
}

size_t csd_image_read(struct csd_image *im, uint64_t addr, void *buf, size_t len)
{
	const struct csd_seg *s = im->last;
	uint64_t off;
	size_t n;

	if (!s || addr < s->vaddr || addr - s->vaddr >= s->len) {
		s = image_find(im, addr);
		if (!s)
			return 0;
		im->last = s;
	}
	off = addr - s->vaddr;
	n = s->len - off;
	if (n > len)
		n = len;
	memcpy(buf, s->data + off, n);
	return n;
}

static enum csd_err add_seg(struct csd_dump *d, const char *path, int fd, const GElf_Phdr *ph,
			    uint64_t offset)
{
	char name[64];
	struct stat st;
	uint8_t *data;
	ssize_t got;

	if (ph->p_filesz > ph->p_memsz || ph->p_filesz > (1ull << 32)) {
		csd_error("%s: PT_LOAD at 0x%llx: file size 0x%llx is not plausible",
			path, (unsigned long long)ph->p_vaddr, (unsigned long long)ph->p_filesz);
		return CSD_ERR_FORMAT;
	}
	/* Allocate nothing for bytes the file does not have. */
	if (fstat(fd, &st) || ph->p_offset > (uint64_t)st.st_size ||
	    ph->p_filesz > (uint64_t)st.st_size - ph->p_offset) {
		csd_error("%s: PT_LOAD at 0x%llx: 0x%llx bytes at offset 0x%llx lie beyond the end "
			"of the file", path, (unsigned long long)ph->p_vaddr,
			(unsigned long long)ph->p_filesz, (unsigned long long)ph->p_offset);
		return CSD_ERR_FORMAT;
	}
	data = malloc(ph->p_filesz);
	if (!data)
		return CSD_ERR_NOMEM;
	got = pread(fd, data, ph->p_filesz, (off_t)ph->p_offset);
	if (got != (ssize_t)ph->p_filesz) {
		csd_error("%s: PT_LOAD at 0x%llx: cannot read 0x%llx bytes at offset 0x%llx",
			path, (unsigned long long)ph->p_vaddr, (unsigned long long)ph->p_filesz,
			(unsigned long long)ph->p_offset);
		free(data);
		return CSD_ERR_IO;
	}
	snprintf(name, sizeof(name), "vmlinux PT_LOAD 0x%llx", (unsigned long long)ph->p_vaddr);
	if (!csd_dump_add_seg(d, name, ph->p_vaddr + offset, data, ph->p_filesz))
		return CSD_ERR_NOMEM;
	return CSD_OK;
}

enum csd_err csd_image_add_vmlinux(struct csd_dump *d, const struct csd_vmlinux *vm,
				   uint64_t offset)
{
	const char *path = vm->path;
	Elf *elf = vm->elf;
	enum csd_err err = CSD_OK;
	size_t nph, i, added = 0;

	if (!elf || elf_kind(elf) != ELF_K_ELF || elf_getphdrnum(elf, &nph)) {
		csd_error("%s: not an ELF file with program headers (%s)", path,
			  csd_vmlinux_why(vm));
		return CSD_ERR_FORMAT;
	}
	for (i = 0; i < nph && err == CSD_OK; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph)) {
			csd_error("%s: program header %zu: %s", path, i, elf_errmsg(-1));
			err = CSD_ERR_FORMAT;
			break;
		}
		/* Code only: the decoder never reads data. */
		if (ph.p_type != PT_LOAD || !(ph.p_flags & PF_X) || !ph.p_filesz)
			continue;
		err = add_seg(d, path, vm->fd, &ph, offset);
		added += err == CSD_OK;
	}
	if (err == CSD_OK && !added) {
		csd_error("%s: no executable PT_LOAD segment", path);
		err = CSD_ERR_FORMAT;
	}
	return err;
}

enum csd_err csd_image_vmlinux_text(const struct csd_vmlinux *vm, uint64_t offset,
				    struct csd_span *spans, size_t *n)
{
	const char *path = vm->path;
	Elf *elf = vm->elf;
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	*n = 0;
	if (!elf || elf_getshdrstrndx(elf, &shstrndx)) {
		csd_error("%s: no section headers (%s)", path, elf_errmsg(-1));
		return CSD_ERR_FORMAT;
	}
	while ((scn = elf_nextscn(elf, scn)) && *n < CSD_TEXT_SPANS_MAX) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS || !sh.sh_size ||
		    (sh.sh_flags & (SHF_ALLOC | SHF_EXECINSTR)) != (SHF_ALLOC | SHF_EXECINSTR))
			continue;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		/*
		 * Nor .head.text: the image header at _text is not code the
		 * kernel runs, and the vmcore's bytes there depend on how the
		 * dump maps _text (arm64 ELF vmcore vs makedumpfile's formats).
		 */
		if (!name || !strncmp(name, ".init", 5) || !strncmp(name, ".exit", 5) ||
		    !strcmp(name, ".head.text"))
			continue;
		if (sh.sh_addr > UINT64_MAX - offset - sh.sh_size)
			continue;
		spans[*n].lo = sh.sh_addr + offset;
		spans[*n].hi = sh.sh_addr + offset + sh.sh_size;
		++*n;
	}
	return CSD_OK;
}

#define OVERLAY_PAGE 4096u

/* How many bytes from @a (at most @n) lie inside one span; 0 if @a is in none. */
static size_t in_spans(const struct csd_span *only, size_t n_only, uint64_t a, size_t n)
{
	if (!only)
		return n;
	for (size_t i = 0; i < n_only; i++)
		if (a >= only[i].lo && a < only[i].hi)
			return only[i].hi - a < n ? (size_t)(only[i].hi - a) : n;
	return 0;
}

/* The distance from @a to the next span start above it, at most @n. */
static size_t to_next_span(const struct csd_span *only, size_t n_only, uint64_t a, size_t n)
{
	for (size_t i = 0; i < n_only; i++)
		if (only[i].lo > a && only[i].lo - a < n)
			n = (size_t)(only[i].lo - a);
	return n;
}

enum csd_err csd_image_overlay_mem(struct csd_dump *d, size_t first, const struct csd_mem *m,
				   const struct csd_span *only, size_t n_only,
				   size_t *pages, size_t *words)
{
	uint8_t page[OVERLAY_PAGE];
	size_t i;

	*pages = 0;
	*words = 0;
	for (i = first; i < d->n_segs; i++) {
		struct csd_seg *s = &d->segs[i];
		size_t off = 0;

		while (off < s->len) {
			/* Up to the next page boundary of the address. */
			uint64_t a = s->vaddr + off;
			size_t n = OVERLAY_PAGE - (size_t)(a % OVERLAY_PAGE), k, keep;

			if (n > s->len - off)
				n = s->len - off;
			keep = in_spans(only, n_only, a, n);
			if (!keep) {
				off += to_next_span(only, n_only, a, n);
				continue;
			}
			n = keep;
			if (csd_mem_read(m, CSD_KVADDR, a, page, n) == CSD_OK) {
				for (k = 0; k + 4 <= n; k += 4)
					*words += memcmp(page + k, s->data + off + k, 4) != 0;
				memcpy(s->data + off, page, n);
				++*pages;
			}
			off += n;
		}
	}
	return CSD_OK;
}
