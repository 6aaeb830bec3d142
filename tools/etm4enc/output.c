// SPDX-License-Identifier: GPL-2.0
#include "output.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint8_t *dup_bytes(const void *p, size_t len)
{
	uint8_t *q = malloc(len ? len : 1);

	if (q)
		memcpy(q, p, len);
	return q;
}

int enc_dump_build(struct csd_dump *d, struct gen *g, const struct image *img)
{
	const uint8_t *data;
	bool wrapped;
	size_t len, i;
	uint32_t flags = CSD_F_SAVED | CSD_F_FORMATTED;

	len = cstf_result(&g->fmt, &data, &wrapped);
	uint8_t *copy;

	if (wrapped)
		flags |= CSD_F_WRAPPED;
	copy = dup_bytes(data, len);
	if (!copy || !csd_dump_add_sink(d, "tmc_etb0", copy, len, flags))
		return -ENOMEM;
	for (i = 0; i < g->n_cpus; i++) {
		struct csd_etm etm;

		etm4_regs(&g->cpus[i].enc.cfg, g->cpus[i].cpu, &etm);
		if (!csd_dump_add_etm(d, &etm))
			return -ENOMEM;
	}
	for (i = 0; i < img->n_segs; i++) {
		const struct img_seg *s = &img->segs[i];
		char name[32];

		snprintf(name, sizeof(name), "code_%zu", i);
		copy = dup_bytes(s->data, s->len);
		if (!copy || !csd_dump_add_seg(d, name, s->vaddr, copy, s->len))
			return -ENOMEM;
	}
	return 0;
}
