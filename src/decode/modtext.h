/* SPDX-License-Identifier: GPL-2.0 */
/*
 * csdump: kernel code that vmlinux does not hold (loadable modules, and
 * whatever else the kernel allocates where modules go: BPF programs, ftrace
 * and kprobe trampolines), read from the vmcore, so that a trace through it
 * decodes.
 */
#ifndef CSD_MODTEXT_H
#define CSD_MODTEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "core/csd_err.h"
#include "core/dump.h"
#include "core/mem.h"

/* Most bytes taken from one vmcore; most runs of pages; most areas walked. */
#define CSD_MODTEXT_MAX_BYTES	(64u << 20)
#define CSD_MODTEXT_MAX_RUNS	64
#define CSD_MODTEXT_MAX_AREAS	(1u << 20)

/* What csd_modtext_read() took: @bytes in @runs runs of pages. */
struct csd_modtext {
	size_t runs, bytes;
	size_t areas;		/* vmalloc areas walked */
	bool cut;		/* more than the limits above: the rest left out */
	const char *why;	/* when nothing could be looked for, why; else NULL */
};

/* The name of the segments it adds. */
#define CSD_MODTEXT_SEG	"module area"

/*
 * Where an arm64 kernel puts module code: the vmalloc areas (VMCOREINFO's
 * vmap_area_list) in the 2 GiB below _stext, which holds the module region
 * with or without KASLR (arch/arm64/kernel/kaslr.c, module.c: at most 2 GiB
 * below the image's end, PLTs reaching the rest).  Append every page of
 * them that @m holds and @d's image does not to @d's image, in at most
 * @max_runs runs of contiguous pages (CSD_MODTEXT_SEG).  @d->kernel_stext
 * must be known.  CSD_ERR_NOMEM, reported, if memory runs out; anything
 * else missing is said in @mt->why.
 */
enum csd_err csd_modtext_read(struct csd_dump *d, const struct csd_mem *m, size_t max_runs,
			      struct csd_modtext *mt);

#endif
