// SPDX-License-Identifier: GPL-2.0
/* csdump: what every memory source (mem.h) shares. */
#include "core/mem.h"

void csd_mem_close(struct csd_mem *m)
{
	if (m->ops)
		m->ops->close(m->priv);
	m->ops = NULL;
	m->priv = NULL;
}
