/* SPDX-License-Identifier: GPL-2.0 */
/*
 * etm4enc: the traced program image (an arm64 ELF or a raw memory dump) and
 * its function symbols.
 */
#ifndef ETM4ENC_IMAGE_H
#define ETM4ENC_IMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct img_seg {
	uint64_t vaddr;
	uint8_t *data;
	size_t len;
	/* For each instruction slot i: the slot of the next P0 instruction at
	 * or after i (len / 4 if none): walks skip straight to branches. */
	uint32_t *next_p0;
};

struct img_sym {
	char *name;
	uint64_t addr;
	uint64_t size;		/* 0: up to the next symbol */
};

struct image {
	struct img_seg *segs;	/* executable segments */
	size_t n_segs;
	struct img_sym *syms;	/* code symbols, sorted by address */
	size_t n_syms;
};

/* Load the executable PT_LOAD segments and code symbols of an AArch64 ELF. */
int image_load_elf(struct image *img, const char *path, char *err, size_t errlen);
/* Load a raw memory dump that starts at @vaddr. */
int image_load_raw(struct image *img, const char *path, uint64_t vaddr,
		   char *err, size_t errlen);
void image_free(struct image *img);
/* Move the image by @offset (e.g. a KASLR offset): segments and symbols. */
void image_relocate(struct image *img, uint64_t offset);

/* Read the instruction word at @addr; false when outside the image. */
bool image_read32(const struct image *img, uint64_t addr, uint32_t *w);
/* The segment holding the instruction at @addr, or NULL. */
const struct img_seg *image_seg(const struct image *img, uint64_t addr);
/* The symbol called @name, else a compiler clone of it (@name.constprop.0). */
const struct img_sym *image_sym_by_name(const struct image *img, const char *name);
/* End address (exclusive) of @s: its size, or the next symbol / segment end. */
uint64_t image_sym_end(const struct image *img, const struct img_sym *s);

#endif
