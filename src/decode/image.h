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
#include "core/csd_err.h"
#include "core/dump.h"
#include "core/mem.h"
#include "decode/vmlinux.h"

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
 * Append vmlinux's executable PT_LOAD segments to @d's image, each at its
 * link address + @offset (the KASLR offset).  Messages name vmlinux.
 */
enum csd_err csd_image_add_vmlinux(struct csd_dump *d, const struct csd_vmlinux *vm,
				   uint64_t offset);

/* A range of runtime addresses, [lo, hi). */
struct csd_span {
	uint64_t lo, hi;
};

#define CSD_TEXT_SPANS_MAX 16

/*
 * The code of vmlinux @vm that stays in memory while the kernel runs: its
 * executable sections (SHF_ALLOC | SHF_EXECINSTR) but .init* and .exit*,
 * which are freed after boot and whose pages the vmcore holds reused for
 * anything.  At most CSD_TEXT_SPANS_MAX spans, each at its link address +
 * @offset, into @spans; their number into @n.
 */
enum csd_err csd_image_vmlinux_text(const struct csd_vmlinux *vm, uint64_t offset,
				    struct csd_span *spans, size_t *n);

/*
 * Replace the bytes of segments @first.. of @d with the running kernel's, read
 * from @m (kernel virtual addresses), page by page where @m has them: the
 * kernel patches its own text (alternatives, static keys), and the decoder
 * must see the instructions that ran.  Only bytes inside one of the @n_only
 * spans of @only are replaced (all of them when @only is NULL).  @pages gets
 * the pages taken from @m, @words the 32-bit words that differed.
 */
enum csd_err csd_image_overlay_mem(struct csd_dump *d, size_t first, const struct csd_mem *m,
				   const struct csd_span *only, size_t n_only,
				   size_t *pages, size_t *words);

#endif
