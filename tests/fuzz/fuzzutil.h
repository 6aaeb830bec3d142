/* SPDX-License-Identifier: GPL-2.0 */
/* The file fuzzers' scratch directory (on /dev/shm when there is one). */
#ifndef FUZZ_SCRATCH_H
#define FUZZ_SCRATCH_H

#include <stddef.h>
#include <stdint.h>

/* Create the directory once (removed at exit); its path. */
const char *scratch_dir(void);
/* Write @len bytes to scratch_dir()/@name (NULL @data: remove it); its path. */
const char *scratch_file(const char *name, const uint8_t *data, size_t len);

#endif
