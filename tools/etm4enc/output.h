/* SPDX-License-Identifier: GPL-2.0 */
/*
 * etm4enc: the capture as csdump's in-memory model (src/core/dump.h), so that
 * libcsdump's own writers make the output directories: an extract directory
 * (cstrace.bin, metadata.bin, perf.data, summary.txt) and an OpenCSD snapshot.
 */
#ifndef ETM4ENC_OUTPUT_H
#define ETM4ENC_OUTPUT_H

#include "core/dump.h"
#include "gen.h"
#include "image.h"

/*
 * Fill @d (zeroed by the caller; csd_dump_free() it) with the sink of @g
 * (finished), the ETMv4 registers of its CPUs and the code of @img.
 * 0 or -ENOMEM.
 */
int enc_dump_build(struct csd_dump *d, struct gen *g, const struct image *img);

#endif
