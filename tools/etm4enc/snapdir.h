/* SPDX-License-Identifier: GPL-2.0 */
/*
 * etm4enc: output files. An OpenCSD snapshot directory ("ARM Trace and Debug
 * Snapshot" format: snapshot.ini, trace.ini, one .ini per core and per trace
 * unit, the trace buffer and memory dumps) and perf's per-CPU ETMv4 metadata
 * blocks (docs/record-abi.md, "Metadata data").
 */
#ifndef ETM4ENC_SNAPDIR_H
#define ETM4ENC_SNAPDIR_H

#include <stddef.h>
#include <stdint.h>

#include "etm4.h"
#include "image.h"

#define ETM4_META_SIZE 80

struct snap_etm {
	unsigned int cpu;
	struct etm4_regs regs;
};

/* Write the snapshot into @dir (created if missing). 0 or -errno. */
int snapdir_write(const char *dir, const struct image *img, const struct snap_etm *etms,
		  size_t n_etms, const uint8_t *trace, size_t len, char *err, size_t errlen);

/* Fill @out (ETM4_META_SIZE bytes) with the metadata block of @etm. */
void etm4_meta_block(const struct snap_etm *etm, uint8_t out[ETM4_META_SIZE]);

#endif
