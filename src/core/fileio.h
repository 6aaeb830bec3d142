/* SPDX-License-Identifier: GPL-2.0 */
/*
 * csdump: bounded file reads and atomic file writes.
 *
 * Every output is written to a temporary file next to its final name, synced,
 * then renamed over it: a failure leaves the old file (or nothing) behind,
 * never a half-written one.
 */
#ifndef CSD_FILEIO_H
#define CSD_FILEIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/csd_err.h"

/* Read all of @path into a malloc'ed buffer; a file larger than @max fails. */
enum csd_err csd_file_read(const char *path, size_t max, uint8_t **data, size_t *len);

/*
 * An output file written atomically: to a temporary next to @path, renamed
 * into place on commit, so a reader never sees half a file.
 */
struct csd_atomic {
	int fd;
	char *path;		/* final name */
	char *tmp;		/* temporary name, renamed to path on commit */
	uint64_t pos;		/* bytes appended so far */
	enum csd_err err;	/* first error; commit fails if set */
};

enum csd_err csd_atomic_open(struct csd_atomic *o, const char *path);
/* Append; after a failure further calls do nothing and commit fails. */
void csd_atomic_write(struct csd_atomic *o, const void *buf, size_t len);
/* Overwrite @len bytes at @off (which must already have been written). */
void csd_atomic_pwrite(struct csd_atomic *o, uint64_t off, const void *buf, size_t len);
/* Sync, close and rename into place; on error the temporary is removed. */
enum csd_err csd_atomic_commit(struct csd_atomic *o);
/* Close and remove the temporary file (safe after commit: does nothing). */
void csd_atomic_abort(struct csd_atomic *o);

/* Write @len bytes to @path atomically. */
enum csd_err csd_file_write(const char *path, const void *buf, size_t len);

/* mkdir -p for one level: succeed if @dir exists as a directory. */
enum csd_err csd_mkdir(const char *dir);

/* "@dir/@name" in a malloc'ed string (NULL on overflow/ENOMEM). */
char *csd_path_join(const char *dir, const char *name);

#endif
