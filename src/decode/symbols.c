// SPDX-License-Identifier: GPL-2.0
/*
 * csdump: function symbols and source lines of vmlinux.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <dwarf.h>
#include <elfutils/libdw.h>

#include "core/diag.h"
#include "decode/symbols.h"

/* Bounds for hostile files: a kernel has ~200k symbols, names < 1 KiB. */
#define MAX_SYMS	(16u * 1024 * 1024)
/* Exact-address cache: traces branch to the same few thousand targets. */
#define HIT_CACHE	4096

struct sym_ent {
	struct csd_sym s;
	uint64_t sec_end;	/* a sizeless symbol holds nothing at or past it */
	uint8_t rank;		/* lower wins among symbols at one address */
};

struct csd_syms {
	struct sym_ent *v;
	size_t n;
	char *strtab;		/* a copy: every name points into it */
	uint64_t offset;
	const struct csd_sym *last;
	struct {
		uint64_t addr;
		const struct csd_sym *sym;	/* NULL: no symbol there */
		bool valid;
	} hits[HIT_CACHE];
	/* --lines */
	Dwarf *dw;
	uint64_t line_addr;
	const char *line_file;
	int line_no;
	char line_path[1024];	/* comp_dir/relative name */
};

static int sym_cmp(const void *a, const void *b)
{
	const struct sym_ent *x = a, *y = b;

	if (x->s.addr != y->s.addr)
		return x->s.addr < y->s.addr ? -1 : 1;
	return (int)x->rank - (int)y->rank;
}

/* FUNC beats NOTYPE, GLOBAL beats WEAK beats LOCAL. */
static uint8_t sym_rank(const GElf_Sym *sym)
{
	uint8_t r = GELF_ST_TYPE(sym->st_info) == STT_FUNC ? 0 : 4;

	switch (GELF_ST_BIND(sym->st_info)) {
	case STB_GLOBAL:	return r;
	case STB_WEAK:		return r + 1;
	default:		return r + 2;
	}
}

/* A code symbol worth naming an address after; *@sec_end: its section's end. */
static bool sym_wanted(Elf *elf, const GElf_Sym *sym, const char *name, uint64_t *sec_end)
{
	int type = GELF_ST_TYPE(sym->st_info);
	GElf_Shdr sh;
	Elf_Scn *scn;

	if (!name || !*name || name[0] == '$' || sym->st_shndx == SHN_UNDEF ||
	    sym->st_shndx >= SHN_LORESERVE)
		return false;
	if (type != STT_FUNC && type != STT_NOTYPE)
		return false;
	scn = elf_getscn(elf, sym->st_shndx);
	if (!scn || !gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_EXECINSTR))
		return false;
	/* Hostile headers: a section that wraps ends at the top of memory. */
	*sec_end = sh.sh_addr + sh.sh_size < sh.sh_addr ? UINT64_MAX : sh.sh_addr + sh.sh_size;
	return true;
}

static bool name_is_plain(const char *p)
{
	for (; *p; p++)
		if (*p < 0x20 || *p >= 0x7f || *p == '"' || *p == '\\')
			return false;
	return true;
}

static enum csd_err read_symtab(struct csd_syms *s, Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh,
				const char *path)
{
	Elf_Data *data = elf_getdata(scn, NULL), *strs;
	Elf_Scn *strscn = elf_getscn(elf, sh->sh_link);
	size_t count, i, n_str;

	if (!data || !strscn || !(strs = elf_getdata(strscn, NULL)) || !sh->sh_entsize) {
		csd_error("%s: unreadable symbol table (%s)", path, elf_errmsg(-1));
		return CSD_ERR_FORMAT;
	}
	count = sh->sh_size / sh->sh_entsize;
	if (count > MAX_SYMS) {
		csd_error("%s: %zu symbols, more than the %u csdump accepts", path, count,
			  MAX_SYMS);
		return CSD_ERR_FORMAT;
	}
	/* A string table without bytes in the file (SHT_NOBITS) has no d_buf. */
	n_str = strs->d_buf ? strs->d_size : 0;
	/* A copy of the names with a terminating NUL, whatever the file says. */
	s->strtab = malloc(n_str + 1);
	s->v = calloc(count ? count : 1, sizeof(*s->v));
	if (!s->strtab || !s->v)
		return CSD_ERR_NOMEM;
	if (n_str)
		memcpy(s->strtab, strs->d_buf, n_str);
	s->strtab[n_str] = '\0';
	for (i = 0; i < count; i++) {
		GElf_Sym sym;
		const char *name;
		uint64_t sec_end;

		if (!gelf_getsym(data, (int)i, &sym) || sym.st_name >= n_str)
			continue;
		name = s->strtab + sym.st_name;
		if (!sym_wanted(elf, &sym, name, &sec_end))
			continue;
		/* At the KASLR-shifted address too; no further than the top. */
		s->v[s->n].sec_end = sec_end + s->offset < sec_end ? UINT64_MAX :
				     sec_end + s->offset;
		s->v[s->n].s.addr = sym.st_value + s->offset;
		s->v[s->n].s.size = sym.st_size;
		s->v[s->n].s.name = name;
		s->v[s->n].s.name_len = (uint32_t)strlen(name);
		s->v[s->n].s.plain = name_is_plain(name);
		s->v[s->n].rank = sym_rank(&sym);
		s->n++;
	}
	return CSD_OK;
}

/* Sort, then keep the best-ranked symbol of each address. */
static void syms_sort(struct csd_syms *s)
{
	size_t i, k = 0;

	qsort(s->v, s->n, sizeof(*s->v), sym_cmp);
	for (i = 0; i < s->n; i++)
		if (!k || s->v[k - 1].s.addr != s->v[i].s.addr)
			s->v[k++] = s->v[i];
	s->n = k;
}

static enum csd_err syms_from_elf(struct csd_syms *s, Elf *elf, const char *path)
{
	Elf_Scn *scn = NULL, *dyn = NULL;
	GElf_Shdr sh, dynsh;

	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_SYMTAB)
			return read_symtab(s, elf, scn, &sh, path);
		if (sh.sh_type == SHT_DYNSYM) {
			dyn = scn;
			dynsh = sh;
		}
	}
	if (dyn)
		return read_symtab(s, elf, dyn, &dynsh, path);
	csd_error("%s: no symbol table (stripped?)", path);
	return CSD_ERR_FORMAT;
}

enum csd_err csd_syms_load(struct csd_syms **out, const struct csd_vmlinux *vm,
			   uint64_t offset, bool lines)
{
	struct csd_syms *s;
	enum csd_err err;

	*out = NULL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return CSD_ERR_NOMEM;
	s->offset = offset;
	if (!vm->elf || elf_kind(vm->elf) != ELF_K_ELF) {
		csd_error("%s: not an ELF file (%s)", vm->path, csd_vmlinux_why(vm));
		err = CSD_ERR_FORMAT;
		goto fail;
	}
	err = syms_from_elf(s, vm->elf, vm->path);
	if (err != CSD_OK)
		goto fail;
	syms_sort(s);
	if (lines) {
		s->dw = dwarf_begin_elf(vm->elf, DWARF_C_READ, NULL);
		if (!s->dw)
			csd_warn("%s: no DWARF (%s): no source lines", vm->path, dwarf_errmsg(-1));
	}
	*out = s;
	return CSD_OK;
fail:
	csd_syms_free(s);
	return err;
}

void csd_syms_free(struct csd_syms *s)
{
	if (!s)
		return;
	if (s->dw)
		dwarf_end(s->dw);
	free(s->v);
	free(s->strtab);
	free(s);
}

size_t csd_syms_count(const struct csd_syms *s)
{
	return s ? s->n : 0;
}

const struct csd_sym *csd_syms_find(const struct csd_syms *s, const char *name)
{
	size_t i;

	for (i = 0; s && i < s->n; i++)
		if (!strcmp(s->v[i].s.name, name))
			return &s->v[i].s;
	return NULL;
}

static bool sym_holds(const struct csd_syms *s, const struct sym_ent *e, uint64_t addr)
{
	if (addr < e->s.addr)
		return false;
	if (e->s.size)
		return addr - e->s.addr < e->s.size;
	/*
	 * No size: up to the next symbol, within its section -- a marker at a
	 * section's end (__exittext_end) names nothing past it.
	 */
	if (addr >= e->sec_end)
		return false;
	return e + 1 >= s->v + s->n || addr < e[1].s.addr;
}

static const struct csd_sym *syms_search(struct csd_syms *s, uint64_t addr)
{
	size_t lo = 0, hi = s->n;
	const struct sym_ent *e = (const struct sym_ent *)s->last;

	if (e && sym_holds(s, e, addr))
		return &e->s;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->v[mid].s.addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	e = &s->v[lo - 1];
	if (!sym_holds(s, e, addr))
		return NULL;
	s->last = &e->s;
	return &e->s;
}

const struct csd_sym *csd_syms_lookup(struct csd_syms *s, uint64_t addr)
{
	size_t slot;

	if (!s || !s->n)
		return NULL;
	slot = (size_t)(addr >> 2) % HIT_CACHE;
	if (s->hits[slot].addr != addr || !s->hits[slot].valid) {
		s->hits[slot].addr = addr;
		s->hits[slot].sym = syms_search(s, addr);
		s->hits[slot].valid = true;
	}
	return s->hits[slot].sym;
}

int csd_syms_format(struct csd_syms *s, uint64_t addr, char *buf, size_t len)
{
	const struct csd_sym *sym = csd_syms_lookup(s, addr);

	if (!sym)
		return 0;
	if (addr == sym->addr)
		return snprintf(buf, len, "%s", sym->name);
	return snprintf(buf, len, "%s+0x%" PRIx64, sym->name, addr - sym->addr);
}

bool csd_syms_line(struct csd_syms *s, uint64_t addr, const char **file, int *line)
{
	Dwarf_Die cu;
	Dwarf_Line *l;

	if (!s || !s->dw)
		return false;
	if (s->line_file && s->line_addr == addr)
		goto hit;
	s->line_file = NULL;
	if (!dwarf_addrdie(s->dw, addr - s->offset, &cu))
		return false;
	l = dwarf_getsrc_die(&cu, addr - s->offset);
	if (!l || dwarf_lineno(l, &s->line_no))
		return false;
	s->line_file = dwarf_linesrc(l, NULL, NULL);
	if (!s->line_file)
		return false;
	if (s->line_file[0] != '/') {
		/* Relative to the compilation directory, as addr2line shows it. */
		Dwarf_Attribute at;
		const char *dir = dwarf_formstring(dwarf_attr(&cu, DW_AT_comp_dir, &at));

		if (dir && (size_t)snprintf(s->line_path, sizeof(s->line_path), "%s/%s", dir,
					    s->line_file) < sizeof(s->line_path))
			s->line_file = s->line_path;
	}
	s->line_addr = addr;
hit:
	*file = s->line_file;
	*line = s->line_no;
	return true;
}
