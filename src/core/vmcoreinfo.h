/* SPDX-License-Identifier: GPL-2.0 */
/*
 * csdump: VMCOREINFO lookups ("KEY=VALUE" lines as the kernel writes them:
 * SYMBOL() and KERNELOFFSET in hex without 0x, SIZE() and OFFSET() in
 * decimal, NUMBER() in decimal or, for some arm64 keys, 0x-prefixed hex).
 */
#ifndef CSD_VMCOREINFO_H
#define CSD_VMCOREINFO_H

#include <stddef.h>
#include <stdint.h>

/*
 * Copy the value of @key (the whole text before '=') into @out; 0, or -1 if
 * absent or longer than @size - 1.  The first occurrence wins.
 */
int csd_vmcoreinfo_str(const char *info, const char *key, char *out, size_t size);

/* The value of @key as a number: @base 16 or 10, 0 for "0x means hex". */
int csd_vmcoreinfo_u64(const char *info, const char *key, int base, uint64_t *v);

/* SYMBOL(@name): a hex address. */
int csd_vmcoreinfo_symbol(const char *info, const char *name, uint64_t *v);

#endif
