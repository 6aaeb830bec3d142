/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fuzzers' memory source (src/core/mem.h): one flat block of bytes seen at a
 * kernel virtual and at a physical address, and a VMCOREINFO text.  Reads
 * outside the block fail with CSD_ERR_UNMAPPED, as a vmcore's holes do.
 */
#ifndef FUZZ_FAKEMEM_H
#define FUZZ_FAKEMEM_H

#include <stddef.h>
#include <stdint.h>

#include "core/mem.h"

#define FAKE_VA	0xffff000000100000ull	/* where the block is, virtually */
#define FAKE_PA	0x40100000ull		/* and physically */

struct fakemem {
	const uint8_t *bytes;
	size_t len;
	const char *info;	/* NUL-terminated, or NULL */
};

/* A csd_mem over @f (which must outlive it); close does nothing. */
void fakemem_init(struct csd_mem *m, struct fakemem *f);

/*
 * A registry image for FAKE_VA: the list head at offset 0, then nodes
 * (record at +0, list_head at +FAKE_LIST_OFF) and their buffers: ETM 0
 * (trace ID 0x10), a wrapped formatted sink of @sink_len bytes, ETM 1 (0x11).
 * Returns the bytes used of @buf (@size must be at least 4096).
 */
#define FAKE_LIST_OFF	128
size_t fake_registry(uint8_t *buf, size_t size, size_t sink_len);

/* The VMCOREINFO that describes fake_registry()'s image. */
extern const char fake_vmcoreinfo[];

#endif
