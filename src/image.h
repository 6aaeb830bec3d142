/* SPDX-License-Identifier: GPL-2.0 */
/*
 * csdump: the traced program's image, the memory the decoder reads opcodes
 * from: a capture's segments (snapshot memory dumps) or vmlinux's loadable
 * segments placed at their runtime addresses.
 */
#ifndef CSD_IMAGE_H
#define CSD_IMAGE_H

#include <stddef.h>
#include <stdint.h>
#include "csd_err.h"
#include "dump.h"
#include "mem.h"

/* A sorted, read-only view of segments that it does not own. */
struct csd_image {
	const struct csd_seg **v;	/* by vaddr */
	uint64_t *max_last;		/* [i]: highest last byte of v[0..i] */
	size_t n;
	const struct csd_seg *last;	/* the segment of the last hit */
};

enum csd_err csd_image_index(struct csd_image *im, const struct csd_seg *segs, size_t n);
void csd_image_release(struct csd_image *im);

/* Copy up to @len bytes at @addr; returns how many are in the image (0 if none). */
size_t csd_image_read(struct csd_image *im, uint64_t addr, void *buf, size_t len);

/*
 * Is @path an ELF file for AArch64 (64-bit)?  CSD_ERR_FORMAT if not ELF,
 * CSD_ERR_ARCH for another machine, each reported naming @path.
 */
enum csd_err csd_image_check_vmlinux(const char *path);

/*
 * Append vmlinux's executable PT_LOAD segments to @d's image, each at its
 * link address + @offset (the KASLR offset).  Messages name @path.
 */
enum csd_err csd_image_add_vmlinux(struct csd_dump *d, const char *path, uint64_t offset);

/*
 * Replace the bytes of segments @first.. of @d with the running kernel's, read
 * from @m (kernel virtual addresses), page by page where @m has them: the
 * kernel patches its own text (alternatives, static keys), and the decoder
 * must see the instructions that ran.  @pages gets the pages taken from @m,
 * @words the 32-bit words that differed.
 */
enum csd_err csd_image_overlay_mem(struct csd_dump *d, size_t first, const struct csd_mem *m,
				   size_t *pages, size_t *words);

#endif
