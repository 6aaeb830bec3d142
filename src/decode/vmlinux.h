/* SPDX-License-Identifier: GPL-2.0 */
/*
 * csdump: vmlinux, opened once per decode and read by everything that needs
 * it (the program image, its text spans, the symbols and lines).
 */
#ifndef CSD_VMLINUX_H
#define CSD_VMLINUX_H

#include <libelf.h>

#include "core/csd_err.h"

struct csd_vmlinux {
	const char *path;	/* the caller's, for messages */
	int fd;
	Elf *elf;		/* through libelf's mmap; NULL if libelf refused it */
};

/*
 * Open @path into *@out (CSD_ERR_IO, reported, if it cannot be opened).
 * Whether it is an ELF file is for its readers to check (their messages say
 * what they missed), or csd_vmlinux_check().  @path must outlive the handle.
 */
enum csd_err csd_vmlinux_open(const char *path, struct csd_vmlinux **out);
void csd_vmlinux_close(struct csd_vmlinux *vm);

/*
 * Is @vm an ELF file for AArch64 (64-bit)?  CSD_ERR_FORMAT if not ELF,
 * CSD_ERR_ARCH for another machine, each reported naming the file.
 */
enum csd_err csd_vmlinux_check(const struct csd_vmlinux *vm);

/*
 * Why libelf did not take @vm as an ELF file, for a message: libelf's own
 * reason when it has one, else what the file lacks (libelf says "no error"
 * for a file that simply is not ELF).
 */
const char *csd_vmlinux_why(const struct csd_vmlinux *vm);

#endif
