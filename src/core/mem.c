// SPDX-License-Identifier: GPL-2.0
/* csdump: what every memory source (mem.h) shares, and one over segments. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/dump.h"
#include "core/mem.h"

void csd_mem_close(struct csd_mem *m)
{
	if (m->ops)
		m->ops->close(m->priv);
	m->ops = NULL;
	m->priv = NULL;
}

struct seg_src {
	const struct csd_seg *segs;
	size_t n;
};

static enum csd_err segs_read(void *priv, enum csd_space space, uint64_t addr, void *buf,
			      size_t len)
{
	const struct seg_src *src = priv;

	if (space != CSD_KVADDR)
		return CSD_ERR_UNMAPPED;
	for (size_t i = 0; i < src->n; i++) {
		const struct csd_seg *s = &src->segs[i];

		if (addr >= s->vaddr && addr - s->vaddr <= s->len &&
		    len <= s->len - (addr - s->vaddr)) {
			memcpy(buf, s->data + (addr - s->vaddr), len);
			return CSD_OK;
		}
	}
	return CSD_ERR_UNMAPPED;
}

static const char *segs_vmcoreinfo(void *priv)
{
	(void)priv;
	return NULL;
}

static void segs_close(void *priv)
{
	free(priv);
}

static const struct csd_mem_ops segs_ops = {
	.read = segs_read,
	.vmcoreinfo = segs_vmcoreinfo,
	.close = segs_close,
};

enum csd_err csd_mem_of_segs(struct csd_mem *m, const char *name, const struct csd_seg *segs,
			     size_t n)
{
	struct seg_src *src = malloc(sizeof(*src));

	memset(m, 0, sizeof(*m));
	if (!src)
		return CSD_ERR_NOMEM;
	src->segs = segs;
	src->n = n;
	m->ops = &segs_ops;
	m->priv = src;
	snprintf(m->name, sizeof(m->name), "%s", name);
	return CSD_OK;
}
