// SPDX-License-Identifier: GPL-2.0
#include "image.h"

#include "a64.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef EM_AARCH64
#define EM_AARCH64 183
#endif

static int index_seg(struct img_seg *s)
{
	size_t n = s->len / 4, i;
	uint32_t next = (uint32_t)n;

	if (n >= UINT32_MAX)
		return -EFBIG;
	s->next_p0 = malloc((n ? n : 1) * sizeof(*s->next_p0));
	if (!s->next_p0)
		return -ENOMEM;
	for (i = n; i-- > 0;) {
		const uint8_t *p = s->data + 4 * i;
		struct a64_insn in;

		a64_classify((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
			     (uint32_t)p[3] << 24, s->vaddr + 4 * i, &in);
		if (a64_is_p0(in.kind))
			next = (uint32_t)i;
		s->next_p0[i] = next;
	}
	return 0;
}

static int add_seg(struct image *img, uint64_t vaddr, const void *data, size_t len)
{
	struct img_seg *s = realloc(img->segs, (img->n_segs + 1) * sizeof(*s));

	if (!s)
		return -ENOMEM;
	img->segs = s;
	s = &img->segs[img->n_segs];
	s->next_p0 = NULL;
	s->data = malloc(len ? len : 1);
	if (!s->data)
		return -ENOMEM;
	memcpy(s->data, data, len);
	s->vaddr = vaddr;
	s->len = len;
	img->n_segs++;
	return index_seg(s);
}

static int sym_cmp(const void *a, const void *b)
{
	const struct img_sym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	/* Prefer sized symbols (functions) over labels at one address. */
	return x->size < y->size ? 1 : x->size > y->size ? -1 : 0;
}

static bool in_image(const struct image *img, uint64_t addr)
{
	uint32_t w;

	return image_read32(img, addr, &w);
}

static int load_syms(struct image *img, Elf *elf)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	size_t cap = 0;

	while ((scn = elf_nextscn(elf, scn))) {
		Elf_Data *d;
		size_t i, n;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !sh.sh_entsize)
			continue;
		d = elf_getdata(scn, NULL);
		if (!d)
			continue;
		n = sh.sh_size / sh.sh_entsize;
		for (i = 0; i < n; i++) {
			GElf_Sym sym;
			const char *name;
			int t;

			if (!gelf_getsym(d, (int)i, &sym))
				continue;
			t = GELF_ST_TYPE(sym.st_info);
			if ((t != STT_FUNC && t != STT_NOTYPE) || sym.st_shndx == SHN_UNDEF)
				continue;
			name = elf_strptr(elf, sh.sh_link, sym.st_name);
			/* Skip mapping symbols ($x, $d) and local labels. */
			if (!name || !*name || name[0] == '$' || (sym.st_value & 3) ||
			    !in_image(img, sym.st_value))
				continue;
			if (img->n_syms == cap) {
				struct img_sym *p;

				cap = cap ? cap * 2 : 1024;
				p = realloc(img->syms, cap * sizeof(*p));
				if (!p)
					return -ENOMEM;
				img->syms = p;
			}
			img->syms[img->n_syms].name = strdup(name);
			if (!img->syms[img->n_syms].name)
				return -ENOMEM;
			img->syms[img->n_syms].addr = sym.st_value;
			img->syms[img->n_syms].size = t == STT_FUNC ? sym.st_size : 0;
			img->n_syms++;
		}
	}
	if (img->n_syms)
		qsort(img->syms, img->n_syms, sizeof(*img->syms), sym_cmp);
	return 0;
}

/* The code: every allocated, executable section with contents. */
static int load_exec_sections(struct image *img, Elf *elf, const char *path,
			      char *err, size_t errlen)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	int ret;

	while ((scn = elf_nextscn(elf, scn))) {
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS ||
		    (sh.sh_flags & (SHF_ALLOC | SHF_EXECINSTR)) != (SHF_ALLOC | SHF_EXECINSTR) ||
		    !sh.sh_size)
			continue;
		d = elf_getdata(scn, NULL);
		if (!d || d->d_size != sh.sh_size || !d->d_buf) {
			snprintf(err, errlen, "%s: section at 0x%llx: truncated file", path,
				 (unsigned long long)sh.sh_addr);
			return -EINVAL;
		}
		ret = add_seg(img, sh.sh_addr, d->d_buf, d->d_size);
		if (ret) {
			snprintf(err, errlen, "out of memory");
			return ret;
		}
	}
	return 0;
}

/* The biggest segment (.text) first: image_seg() finds most addresses at once. */
static int seg_cmp(const void *a, const void *b)
{
	const struct img_seg *x = a, *y = b;

	return x->len < y->len ? 1 : x->len > y->len ? -1 : 0;
}

int image_load_elf(struct image *img, const char *path, char *err, size_t errlen)
{
	GElf_Ehdr eh;
	Elf *elf = NULL;
	size_t i, nph;
	int fd, ret = -EINVAL;

	memset(img, 0, sizeof(*img));
	if (elf_version(EV_CURRENT) == EV_NONE) {
		snprintf(err, errlen, "libelf: %s", elf_errmsg(-1));
		return -EINVAL;
	}
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return ret;
	}
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh)) {
		snprintf(err, errlen, "%s: not an ELF file", path);
		goto out;
	}
	if (eh.e_machine != EM_AARCH64 || eh.e_ident[EI_CLASS] != ELFCLASS64) {
		snprintf(err, errlen, "%s: not an AArch64 ELF (e_machine %u)", path,
			 eh.e_machine);
		goto out;
	}
	ret = load_exec_sections(img, elf, path, err, errlen);
	for (i = 0; !ret && !img->n_segs && !elf_getphdrnum(elf, &nph) && i < nph; i++) {
		/* No section headers: the executable PT_LOAD segments then. */
		GElf_Phdr ph;
		Elf_Data *d;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD ||
		    !(ph.p_flags & PF_X) || !ph.p_filesz)
			continue;
		d = elf_getdata_rawchunk(elf, (int64_t)ph.p_offset, ph.p_filesz, ELF_T_BYTE);
		if (!d || d->d_size != ph.p_filesz) {
			snprintf(err, errlen, "%s: segment %zu at offset 0x%llx: truncated file",
				 path, i, (unsigned long long)ph.p_offset);
			ret = -EINVAL;
		} else {
			ret = add_seg(img, ph.p_vaddr, d->d_buf, d->d_size);
			if (ret)
				snprintf(err, errlen, "out of memory");
		}
	}
	if (ret)
		goto out;
	ret = -EINVAL;
	if (!img->n_segs) {
		snprintf(err, errlen, "%s: no executable section or segment", path);
		goto out;
	}
	qsort(img->segs, img->n_segs, sizeof(*img->segs), seg_cmp);
	ret = load_syms(img, elf);
	if (ret)
		snprintf(err, errlen, "out of memory");
out:
	if (elf)
		elf_end(elf);
	close(fd);
	if (ret)
		image_free(img);
	return ret;
}

int image_load_raw(struct image *img, const char *path, uint64_t vaddr,
		   char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	uint8_t *data = NULL;
	long len;
	int ret = -EINVAL;

	memset(img, 0, sizeof(*img));
	if (!f) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return ret;
	}
	if (fseek(f, 0, SEEK_END) || (len = ftell(f)) <= 0 || fseek(f, 0, SEEK_SET)) {
		snprintf(err, errlen, "%s: empty or unreadable", path);
		goto out;
	}
	data = malloc((size_t)len);
	if (!data || fread(data, 1, (size_t)len, f) != (size_t)len) {
		snprintf(err, errlen, "%s: read failed", path);
		goto out;
	}
	ret = add_seg(img, vaddr, data, (size_t)len);
	if (ret)
		snprintf(err, errlen, "out of memory");
out:
	free(data);
	fclose(f);
	return ret;
}

void image_free(struct image *img)
{
	size_t i;

	for (i = 0; i < img->n_segs; i++) {
		free(img->segs[i].data);
		free(img->segs[i].next_p0);
	}
	for (i = 0; i < img->n_syms; i++)
		free(img->syms[i].name);
	free(img->segs);
	free(img->syms);
	memset(img, 0, sizeof(*img));
}

void image_relocate(struct image *img, uint64_t offset)
{
	size_t i;

	for (i = 0; i < img->n_segs; i++)
		img->segs[i].vaddr += offset;
	for (i = 0; i < img->n_syms; i++)
		img->syms[i].addr += offset;
}

const struct img_seg *image_seg(const struct image *img, uint64_t addr)
{
	size_t i;

	for (i = 0; i < img->n_segs; i++) {
		const struct img_seg *s = &img->segs[i];
		uint64_t off = addr - s->vaddr;

		if (addr >= s->vaddr && off < s->len && s->len - off >= 4)
			return s;
	}
	return NULL;
}

bool image_read32(const struct image *img, uint64_t addr, uint32_t *w)
{
	const struct img_seg *s = image_seg(img, addr);
	const uint8_t *p;

	if (!s)
		return false;
	p = s->data + (addr - s->vaddr);
	*w = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
	return true;
}

const struct img_sym *image_sym_by_name(const struct image *img, const char *name)
{
	size_t i, n = strlen(name);

	for (i = 0; i < img->n_syms; i++)
		if (!strcmp(img->syms[i].name, name))
			return &img->syms[i];
	/* A compiler clone: name.constprop.0, name.isra.0, name.part.0 */
	for (i = 0; i < img->n_syms; i++)
		if (!strncmp(img->syms[i].name, name, n) && img->syms[i].name[n] == '.')
			return &img->syms[i];
	return NULL;
}

uint64_t image_sym_end(const struct image *img, const struct img_sym *s)
{
	size_t i = (size_t)(s - img->syms);
	uint64_t end = UINT64_MAX;
	size_t k;

	if (s->size)
		return s->addr + s->size;
	for (i++; i < img->n_syms; i++)
		if (img->syms[i].addr > s->addr) {
			end = img->syms[i].addr;
			break;
		}
	for (k = 0; k < img->n_segs; k++) {
		const struct img_seg *g = &img->segs[k];

		if (s->addr >= g->vaddr && s->addr - g->vaddr < g->len &&
		    g->vaddr + g->len < end)
			end = g->vaddr + g->len;
	}
	return end;
}
