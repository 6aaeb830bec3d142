/* SPDX-License-Identifier: GPL-2.0 */
/*
 * csdump: a memory source (mem.h) over a vmcore, through libkdumpfile: ELF
 * (/proc/vmcore as copied) and makedumpfile's compressed formats.
 */
#ifndef CSD_VMCORE_H
#define CSD_VMCORE_H

#include "core/mem.h"

/*
 * Open @path.  CSD_ERR_IO if unreadable, CSD_ERR_FORMAT if libkdumpfile does
 * not recognise it, CSD_ERR_ARCH if it is not an arm64 (aarch64) dump.
 *
 * Kernel virtual addresses are translated by libkdumpfile (the kernel's page
 * tables); where that fails, by the arm64 layout VMCOREINFO gives: the
 * linear map [PAGE_OFFSET, PAGE_END) from VA_BITS and PHYS_OFFSET, and the
 * kernel image [_stext, _stext + 128 MiB) by kimage_voffset.
 */
enum csd_err csd_vmcore_open(const char *path, struct csd_mem *m);

#endif
