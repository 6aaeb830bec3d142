/* SPDX-License-Identifier: GPL-2.0 */
/*
 * csdump: an ELF file holding a capture's memory segments at their addresses,
 * for tools that want a "vmlinux" (perf script -k, objdump, gdb).
 */
#ifndef CSD_ELFIMAGE_H
#define CSD_ELFIMAGE_H

#include "core/csd_err.h"
#include "core/dump.h"

/* The gaps between segments are part of .text: bound them and the whole. */
#define CSD_ELFIMAGE_MAX_GAP	(64ull << 20)
#define CSD_ELFIMAGE_MAX_SPAN	(1ull << 30)

/*
 * Write @d's segments but module code (csd_seg.module: perf maps the
 * kernel image by this file, and modules by files of their own) to @path
 * (atomically) as an AArch64 ELF executable:
 * one PT_LOAD per segment and one .text section spanning them all (gaps read
 * as zeros), with a `_text` symbol at its start (perf relocates the kernel
 * map by it, see csd_perf_write_cs_etm()) and one function symbol per
 * segment, named after its source.  Segments that overlap an earlier one are
 * clipped, and segments far from the main group (gaps above
 * CSD_ELFIMAGE_MAX_GAP) left out, both reported; CSD_ERR_FORMAT if none
 * remains.
 */
enum csd_err csd_elfimage_write(const struct csd_dump *d, const char *path);

#endif
