/* SPDX-License-Identifier: GPL-2.0 */
/* What every fuzz target shares: silence, and a scratch directory for files. */
#ifndef FUZZ_UTIL_H
#define FUZZ_UTIL_H

#include <stddef.h>
#include <stdint.h>

/* Drop the library's messages (thousands a second otherwise). */
void fuzz_quiet(void);

/* The scratch directory, on /dev/shm when there is one: create it once (removed at exit); its path. */
const char *scratch_dir(void);
/* Write @len bytes to scratch_dir()/@name (NULL @data: remove it); its path. */
const char *scratch_file(const char *name, const uint8_t *data, size_t len);

#endif
