/* SPDX-License-Identifier: GPL-2.0 */
/*
 * csdump: vmlinux's function symbols (libelf) and, when it has DWARF, source
 * lines (libdw), looked up by runtime address (link address + KASLR offset).
 */
#ifndef CSD_SYMBOLS_H
#define CSD_SYMBOLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "core/csd_err.h"
#include "decode/vmlinux.h"

struct csd_syms;

struct csd_sym {
	uint64_t addr;		/* runtime address */
	uint64_t size;		/* 0: up to the next symbol */
	const char *name;
	uint32_t name_len;
	bool plain;		/* name is printable ASCII without '"' or '\\' */
};

/*
 * Load the function symbols of vmlinux @vm; @offset is added to every
 * address.  With @lines, csd_syms_line() reads @vm's DWARF: @vm must then
 * outlive the symbols.
 */
enum csd_err csd_syms_load(struct csd_syms **out, const struct csd_vmlinux *vm,
			   uint64_t offset, bool lines);
void csd_syms_free(struct csd_syms *s);

size_t csd_syms_count(const struct csd_syms *s);

/* The function holding @addr, or NULL.  Not thread-safe (caches the last hit). */
const struct csd_sym *csd_syms_lookup(struct csd_syms *s, uint64_t addr);

/* The symbol called @name (the first at the lowest address), or NULL. */
const struct csd_sym *csd_syms_find(const struct csd_syms *s, const char *name);

/* "name+0xoff" (or "name") into @buf; 0 if @addr has no symbol. */
int csd_syms_format(struct csd_syms *s, uint64_t addr, char *buf, size_t len);

/* Source file and line of @addr; false if unknown or no DWARF. */
bool csd_syms_line(struct csd_syms *s, uint64_t addr, const char **file, int *line);

#endif
