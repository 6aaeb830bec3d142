/* SPDX-License-Identifier: GPL-2.0 */
/*
 * csdump: the one memory-source interface.
 *
 * The registry walk, the writers and the decoder read the crashed kernel's
 * memory only through this: libkdumpfile serves it for the CLI (vmcore.c),
 * crash's readmem() for the crash extension, and a fake in-memory source for
 * the unit tests and fuzzers.  None of them knows which one it runs on.
 */
#ifndef CSD_MEM_H
#define CSD_MEM_H

#include <stddef.h>
#include <stdint.h>
#include "core/csd_err.h"

enum csd_space {
	CSD_KVADDR,		/* kernel virtual address */
	CSD_KPHYSADDR,		/* physical address */
};

struct csd_mem_ops {
	/* Read exactly @len bytes at @addr; CSD_ERR_UNMAPPED if any is missing. */
	enum csd_err (*read)(void *priv, enum csd_space space, uint64_t addr,
			     void *buf, size_t len);
	/*
	 * The raw VMCOREINFO text (KEY=VALUE lines), or NULL if the source has
	 * none.  Owned by the source; valid until close.
	 */
	const char *(*vmcoreinfo)(void *priv);
	void (*close)(void *priv);
};

struct csd_mem {
	const struct csd_mem_ops *ops;
	void *priv;
	char name[256];		/* for messages: the file it came from */
};

static inline enum csd_err csd_mem_read(const struct csd_mem *m, enum csd_space s,
					uint64_t addr, void *buf, size_t len)
{
	return m->ops->read(m->priv, s, addr, buf, len);
}

/* Close any memory source (its close op, once); @m may be closed again. */
void csd_mem_close(struct csd_mem *m);

struct csd_seg;

/*
 * A memory source over the @n segments @segs (kernel virtual addresses; a
 * read must lie inside one segment), named @name.  @segs must outlive it;
 * it has no VMCOREINFO.  Close it with csd_mem_close().
 */
enum csd_err csd_mem_of_segs(struct csd_mem *m, const char *name, const struct csd_seg *segs,
			     size_t n);

#endif
