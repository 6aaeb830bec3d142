/* SPDX-License-Identifier: GPL-2.0 */
/*
 * csdump: diagnostics.  The library never prints by itself: it hands each
 * message to a handler (stderr by default, crash's fprintf(fp) in the crash
 * extension, a buffer in the tests).  Messages name the file, the address and
 * what was expected.  Who reports what: csd_err.h.
 *
 * The handler may be called from the decoder's worker threads, concurrently
 * with itself: it must be thread-safe and must not call back into csdump.
 */
#ifndef CSD_DIAG_H
#define CSD_DIAG_H

enum csd_level {
	CSD_LVL_ERROR,
	CSD_LVL_WARN,
	CSD_LVL_INFO,
};

typedef void (*csd_msg_fn)(enum csd_level level, const char *msg, void *arg);

/* Install @fn (NULL restores the default: "csdump: warning: ..." on stderr). */
void csd_set_msg_handler(csd_msg_fn fn, void *arg);

void csd_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void csd_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void csd_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
