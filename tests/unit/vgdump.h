/* SPDX-License-Identifier: GPL-2.0 */
/* A capture (struct csd_dump) put into vmcoregen's registry records. */
#ifndef VGDUMP_H
#define VGDUMP_H

#include "core/dump.h"
#include "vmcoregen.h"

/*
 * One metadata record per ETM of @d (perf's ETMv4 block, docs/record-abi.md)
 * and one saved trace record per sink, formatted as the sink is, named
 * @sink_name (NULL: the sink's own name).
 */
void vg_add_dump(struct vg *g, const struct csd_dump *d, const char *sink_name);

#endif
