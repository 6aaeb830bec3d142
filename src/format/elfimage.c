// SPDX-License-Identifier: GPL-2.0
/* csdump: write memory segments as an AArch64 ELF image (libelf). */
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>

#include "core/diag.h"
#include "format/elfimage.h"
#include "core/fileio.h"

#define PAGE 4096u

struct piece {
	uint64_t vaddr;
	const uint8_t *data;
	size_t len;
	const char *name;
};

/* A growing string table. */
struct strtab {
	char *buf;
	size_t len;
};

static size_t strtab_add(struct strtab *t, const char *s)
{
	size_t n = strlen(s) + 1, at = t->len;
	char *p = realloc(t->buf, t->len + n);

	if (!p)
		return 0;
	memcpy(p + at, s, n);
	t->buf = p;
	t->len += n;
	return at;
}

static int cmp_piece(const void *a, const void *b)
{
	const struct piece *x = a, *y = b;

	return x->vaddr < y->vaddr ? -1 : x->vaddr > y->vaddr;
}

/*
 * Segments far apart (user code and the vdso, say) cannot share one .text:
 * keep the run of segments with gaps below CSD_ELFIMAGE_MAX_GAP that holds
 * the most bytes, and report the others.
 */
static size_t keep_one_cluster(struct piece *pc, size_t n, const char *path)
{
	size_t best = 0, best_len = 0, best_bytes = 0;

	for (size_t i = 0; i < n;) {
		size_t j = i + 1, bytes = pc[i].len;

		while (j < n && pc[j].vaddr - (pc[j - 1].vaddr + pc[j - 1].len) <= CSD_ELFIMAGE_MAX_GAP &&
		       pc[j].vaddr + pc[j].len - pc[i].vaddr <= CSD_ELFIMAGE_MAX_SPAN)
			bytes += pc[j++].len;
		if (bytes > best_bytes) {
			best = i;
			best_len = j - i;
			best_bytes = bytes;
		}
		i = j;
	}
	for (size_t i = 0; i < n; i++)
		if (i < best || i >= best + best_len)
			csd_warn("%s: segment %s at 0x%llx is far from the others, left out",
				 path, pc[i].name, (unsigned long long)pc[i].vaddr);
	if (pc[best].len > CSD_ELFIMAGE_MAX_SPAN) {
		csd_error("%s: segment %s is larger than %llu MiB", path, pc[best].name,
			  CSD_ELFIMAGE_MAX_SPAN >> 20);
		return 0;
	}
	memmove(pc, pc + best, best_len * sizeof(*pc));
	return best_len;
}

/* Sorted, non-overlapping pieces of @d's segments; n on success, 0 on error. */
static size_t make_pieces(const struct csd_dump *d, const char *path, struct piece *pc)
{
	size_t n = 0;

	/* The kernel image; perf maps module code from files of its own. */
	for (size_t i = 0; i < d->n_segs; i++)
		if (d->segs[i].len && !d->segs[i].module)
			pc[n++] = (struct piece){ d->segs[i].vaddr, d->segs[i].data,
						  d->segs[i].len, d->segs[i].name };
	qsort(pc, n, sizeof(*pc), cmp_piece);
	for (size_t i = 1; i < n; i++) {
		uint64_t end = pc[i - 1].vaddr + pc[i - 1].len;

		if (pc[i].vaddr >= end)
			continue;
		csd_warn("%s: segment %s at 0x%llx overlaps %s; only its part above 0x%llx kept",
			 path, pc[i].name, (unsigned long long)pc[i].vaddr, pc[i - 1].name,
			 (unsigned long long)end);
		if (pc[i].vaddr + pc[i].len <= end) {
			memmove(&pc[i], &pc[i + 1], (n - i - 1) * sizeof(*pc));
			n--;
			i--;
			continue;
		}
		pc[i].data += end - pc[i].vaddr;
		pc[i].len -= end - pc[i].vaddr;
		pc[i].vaddr = end;
	}
	if (!n) {
		csd_error("%s: no memory segments to write", path);
		return 0;
	}
	return keep_one_cluster(pc, n, path);
	return n;
}

static Elf_Scn *new_section(Elf *e, struct strtab *shstr, const char *name, uint32_t type,
			    uint64_t flags, uint64_t addr, uint64_t off, uint64_t size)
{
	Elf_Scn *scn = elf_newscn(e);
	GElf_Shdr sh;

	if (!scn || !gelf_getshdr(scn, &sh))
		return NULL;
	sh.sh_name = strtab_add(shstr, name);
	sh.sh_type = type;
	sh.sh_flags = flags;
	sh.sh_addr = addr;
	sh.sh_offset = off;
	sh.sh_size = size;
	sh.sh_addralign = type == SHT_PROGBITS ? 4 : 8;
	if (type == SHT_STRTAB)
		sh.sh_addralign = 1;
	return gelf_update_shdr(scn, &sh) ? scn : NULL;
}

static int add_data(Elf_Scn *scn, const void *buf, size_t len, uint64_t off, Elf_Type type)
{
	Elf_Data *data = elf_newdata(scn);

	if (!data)
		return -1;
	data->d_buf = (void *)buf;
	data->d_size = len;
	data->d_off = off;
	data->d_type = type;
	data->d_align = 1;
	data->d_version = EV_CURRENT;
	return 0;
}

struct image {
	Elf *e;
	struct piece *pc;
	size_t n;
	struct strtab str, shstr;
	Elf64_Sym *syms;
};

static int build(struct image *im)
{
	uint64_t base = im->pc[0].vaddr;
	uint64_t span = im->pc[im->n - 1].vaddr + im->pc[im->n - 1].len - base;
	uint64_t text_off = (64 + 56 * im->n + PAGE - 1) & ~(uint64_t)(PAGE - 1);
	uint64_t sym_off = (text_off + span + 7) & ~7ull, str_off, shstr_off;
	size_t n_syms = im->n + 2;
	Elf64_Ehdr *eh = elf64_newehdr(im->e);
	Elf64_Phdr *ph = elf64_newphdr(im->e, im->n);
	Elf_Scn *text, *symtab, *strtab, *shstrtab;
	GElf_Shdr sh;

	im->syms = calloc(n_syms, sizeof(*im->syms));
	/* Both string tables start with the empty name. */
	strtab_add(&im->str, "");
	strtab_add(&im->shstr, "");
	if (!eh || !ph || !im->syms || !im->str.buf || !im->shstr.buf)
		return -1;
	memcpy(eh->e_ident, ELFMAG, SELFMAG);
	eh->e_ident[EI_CLASS] = ELFCLASS64;
	eh->e_ident[EI_DATA] = ELFDATA2LSB;
	eh->e_ident[EI_VERSION] = EV_CURRENT;
	eh->e_type = ET_EXEC;
	eh->e_machine = EM_AARCH64;
	eh->e_version = EV_CURRENT;
	eh->e_entry = base;
	eh->e_phoff = 64;

	text = new_section(im->e, &im->shstr, ".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR,
			   base, text_off, span);
	if (!text)
		return -1;
	im->syms[1] = (Elf64_Sym){ .st_name = strtab_add(&im->str, "_text"),
				   .st_info = ELF64_ST_INFO(STB_GLOBAL, STT_NOTYPE),
				   .st_shndx = (uint16_t)elf_ndxscn(text), .st_value = base };
	for (size_t i = 0; i < im->n; i++) {
		const struct piece *p = &im->pc[i];

		if (add_data(text, p->data, p->len, p->vaddr - base, ELF_T_BYTE))
			return -1;
		ph[i] = (Elf64_Phdr){ .p_type = PT_LOAD, .p_flags = PF_R | PF_X,
				      .p_offset = text_off + (p->vaddr - base),
				      .p_vaddr = p->vaddr, .p_paddr = p->vaddr,
				      .p_filesz = p->len, .p_memsz = p->len, .p_align = 1 };
		im->syms[i + 2] = (Elf64_Sym){ .st_name = strtab_add(&im->str, p->name),
					       .st_info = ELF64_ST_INFO(STB_GLOBAL, STT_FUNC),
					       .st_shndx = (uint16_t)elf_ndxscn(text),
					       .st_value = p->vaddr, .st_size = p->len };
	}
	str_off = sym_off + n_syms * sizeof(Elf64_Sym);
	symtab = new_section(im->e, &im->shstr, ".symtab", SHT_SYMTAB, 0, 0, sym_off,
			     n_syms * sizeof(Elf64_Sym));
	strtab = new_section(im->e, &im->shstr, ".strtab", SHT_STRTAB, 0, 0, str_off,
			     im->str.len);
	shstrtab = new_section(im->e, &im->shstr, ".shstrtab", SHT_STRTAB, 0, 0,
			       str_off + im->str.len, 0);
	if (!symtab || !strtab || !shstrtab || !im->str.buf || !im->shstr.buf)
		return -1;
	shstr_off = str_off + im->str.len;
	/* Now every name is in shstr; fix the last section's size. */
	gelf_getshdr(shstrtab, &sh);
	sh.sh_size = im->shstr.len;
	sh.sh_offset = shstr_off;
	gelf_update_shdr(shstrtab, &sh);
	gelf_getshdr(symtab, &sh);
	sh.sh_link = (uint32_t)elf_ndxscn(strtab);
	sh.sh_info = 1;			/* every symbol but the null one is global */
	sh.sh_entsize = sizeof(Elf64_Sym);
	gelf_update_shdr(symtab, &sh);
	if (add_data(symtab, im->syms, n_syms * sizeof(Elf64_Sym), 0, ELF_T_SYM) ||
	    add_data(strtab, im->str.buf, im->str.len, 0, ELF_T_BYTE) ||
	    add_data(shstrtab, im->shstr.buf, im->shstr.len, 0, ELF_T_BYTE))
		return -1;
	eh->e_shstrndx = (uint16_t)elf_ndxscn(shstrtab);
	eh->e_shoff = (shstr_off + im->shstr.len + 7) & ~7ull;
	return elf_update(im->e, ELF_C_WRITE) < 0 ? -1 : 0;
}

enum csd_err csd_elfimage_write(const struct csd_dump *d, const char *path)
{
	struct image im = { 0 };
	struct csd_atomic out;
	enum csd_err err;

	if (elf_version(EV_CURRENT) == EV_NONE)
		return CSD_ERR_IO;
	im.pc = calloc(d->n_segs ? d->n_segs : 1, sizeof(*im.pc));
	if (!im.pc)
		return CSD_ERR_NOMEM;
	im.n = make_pieces(d, path, im.pc);
	if (!im.n) {
		free(im.pc);
		return CSD_ERR_FORMAT;
	}
	err = csd_atomic_open(&out, path);
	if (err) {
		free(im.pc);
		return err;
	}
	im.e = elf_begin(out.fd, ELF_C_WRITE, NULL);
	if (im.e)
		elf_flagelf(im.e, ELF_C_SET, ELF_F_LAYOUT);
	if (!im.e || build(&im)) {
		csd_error("%s: writing the ELF image failed: %s", path, elf_errmsg(-1));
		err = CSD_ERR_IO;
	}
	if (im.e)
		elf_end(im.e);
	if (err)
		csd_atomic_abort(&out);
	else
		err = csd_atomic_commit(&out);
	free(im.syms);
	free(im.str.buf);
	free(im.shstr.buf);
	free(im.pc);
	return err;
}
