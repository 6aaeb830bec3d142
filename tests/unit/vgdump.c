// SPDX-License-Identifier: GPL-2.0
/* A capture put into vmcoregen's registry records (see vgdump.h). */
#include <stdio.h>

#include "vgdump.h"

void vg_add_dump(struct vg *g, const struct csd_dump *d, const char *sink_name)
{
	for (size_t i = 0; i < d->n_etms; i++) {
		const struct csd_etm *e = &d->etms[i];
		uint64_t meta[10] = { 0x4040404040404040ull, e->cpu, 7, e->trcconfigr,
				      e->trctraceidr, e->trcidr0, e->trcidr1, e->trcidr2,
				      e->trcidr8, e->trcauthstatus };
		char name[32];
		struct vg_rec r = { .kind = 2, .flags = 1, .cpu = (int32_t)e->cpu, .name = name,
				    .data = (const uint8_t *)meta, .data_len = sizeof(meta),
				    .trace_id = csd_etm_trace_id(e) };

		snprintf(name, sizeof(name), "etm%llu", (unsigned long long)e->cpu);
		vg_add_record(g, &r);
	}
	for (size_t i = 0; i < d->n_sinks; i++) {
		const struct csd_sink *s = &d->sinks[i];
		struct vg_rec r = { .kind = 1, .flags = (uint16_t)(1 | (s->flags & CSD_F_FORMATTED)),
				    .cpu = -1, .name = sink_name ? sink_name : s->name,
				    .data = s->data, .data_len = s->len };

		vg_add_record(g, &r);
	}
}
