// SPDX-License-Identifier: GPL-2.0
/* csdump: bounded file reads and atomic (temporary + rename) file writes. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/diag.h"
#include "core/fileio.h"

enum csd_err csd_file_read(const char *path, size_t max, uint8_t **data, size_t *len)
{
	struct stat st;
	uint8_t *buf = NULL;
	size_t got = 0;
	int fd;

	*data = NULL;
	*len = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		csd_error("%s: cannot open: %s", path, strerror(errno));
		return CSD_ERR_IO;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		csd_error("%s: not a regular file", path);
		close(fd);
		return CSD_ERR_IO;
	}
	if ((uint64_t)st.st_size > max) {
		csd_error("%s: %llu bytes, more than the %zu expected at most", path,
			  (unsigned long long)st.st_size, max);
		close(fd);
		return CSD_ERR_FORMAT;
	}
	buf = malloc(st.st_size ? (size_t)st.st_size : 1);
	if (!buf) {
		close(fd);
		return CSD_ERR_NOMEM;
	}
	while (got < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + got, (size_t)st.st_size - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			csd_error("%s: read failed at offset %zu: %s", path, got,
				  n ? strerror(errno) : "unexpected end of file");
			free(buf);
			close(fd);
			return CSD_ERR_IO;
		}
		got += (size_t)n;
	}
	close(fd);
	*data = buf;
	*len = got;
	return CSD_OK;
}

static mode_t current_umask(void)
{
	mode_t m = umask(022);

	umask(m);
	return m;
}

char *csd_path_join(const char *dir, const char *name)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char *p = malloc(n);

	if (p)
		snprintf(p, n, "%s/%s", dir, name);
	return p;
}

enum csd_err csd_atomic_open(struct csd_atomic *o, const char *path)
{
	size_t n = strlen(path) + 16;

	memset(o, 0, sizeof(*o));
	o->fd = -1;
	o->path = strdup(path);
	o->tmp = malloc(n);
	if (!o->path || !o->tmp) {
		csd_atomic_abort(o);
		return CSD_ERR_NOMEM;
	}
	snprintf(o->tmp, n, "%s.tmpXXXXXX", path);
	o->fd = mkostemp(o->tmp, O_CLOEXEC);
	if (o->fd < 0) {
		csd_error("%s: cannot create a temporary file: %s", path, strerror(errno));
		free(o->tmp);
		o->tmp = NULL;
		csd_atomic_abort(o);
		return CSD_ERR_IO;
	}
	/* mkostemp makes it 0600; outputs are ordinary files. */
	if (fchmod(o->fd, 0644 & ~current_umask()) < 0)
		csd_warn("%s: cannot set the file mode: %s", o->tmp, strerror(errno));
	return CSD_OK;
}

static void atomic_fail(struct csd_atomic *o, const char *what)
{
	if (o->err)
		return;
	csd_error("%s: %s failed: %s", o->path, what, strerror(errno));
	o->err = errno == ENOMEM ? CSD_ERR_NOMEM : CSD_ERR_IO;
}

static int write_all(int fd, const void *buf, size_t len, off_t off, int positional)
{
	const uint8_t *p = buf;

	while (len) {
		ssize_t n = positional ? pwrite(fd, p, len, off) : write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = ENOSPC;
			return -1;
		}
		p += n;
		off += n;
		len -= (size_t)n;
	}
	return 0;
}

void csd_atomic_write(struct csd_atomic *o, const void *buf, size_t len)
{
	if (o->err || o->fd < 0)
		return;
	if (write_all(o->fd, buf, len, 0, 0) < 0)
		atomic_fail(o, "write");
	else
		o->pos += len;
}

void csd_atomic_pwrite(struct csd_atomic *o, uint64_t off, const void *buf, size_t len)
{
	if (o->err || o->fd < 0)
		return;
	if (off + len > o->pos) {
		errno = EINVAL;
		atomic_fail(o, "rewrite beyond the end");
		return;
	}
	if (write_all(o->fd, buf, len, (off_t)off, 1) < 0)
		atomic_fail(o, "write");
}

enum csd_err csd_atomic_commit(struct csd_atomic *o)
{
	enum csd_err err;

	if (o->fd < 0)
		return o->err ? o->err : CSD_ERR_IO;
	if (!o->err && fsync(o->fd) < 0)
		atomic_fail(o, "fsync");
	if (close(o->fd) < 0)
		atomic_fail(o, "close");
	o->fd = -1;
	if (!o->err && rename(o->tmp, o->path) < 0)
		atomic_fail(o, "rename");
	if (!o->err) {
		free(o->tmp);
		o->tmp = NULL;
	}
	err = o->err;
	csd_atomic_abort(o);
	return err;
}

void csd_atomic_abort(struct csd_atomic *o)
{
	if (o->fd >= 0)
		close(o->fd);
	o->fd = -1;
	if (o->tmp)
		unlink(o->tmp);
	free(o->tmp);
	free(o->path);
	o->tmp = NULL;
	o->path = NULL;
}

enum csd_err csd_file_write(const char *path, const void *buf, size_t len)
{
	struct csd_atomic o;
	enum csd_err err = csd_atomic_open(&o, path);

	if (err)
		return err;
	csd_atomic_write(&o, buf, len);
	return csd_atomic_commit(&o);
}

enum csd_err csd_mkdir(const char *dir)
{
	struct stat st;

	if (mkdir(dir, 0777) == 0)
		return CSD_OK;
	if (errno == EEXIST && stat(dir, &st) == 0 && S_ISDIR(st.st_mode))
		return CSD_OK;
	csd_error("%s: cannot create directory: %s", dir, strerror(errno));
	return CSD_ERR_IO;
}
