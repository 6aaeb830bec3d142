/* SPDX-License-Identifier: GPL-2.0 */
/* csdump unit tests: tiny assertion helpers and scratch directories. */
#ifndef CSD_TESTUTIL_H
#define CSD_TESTUTIL_H

#include <stdio.h>
#include <stdlib.h>

#define TEST_SKIP 77

extern int test_failures;

#define CHECK(cond, ...)							\
	do {									\
		if (!(cond)) {							\
			fprintf(stderr, "%s:%d: CHECK(%s) failed: ", __FILE__,	\
				__LINE__, #cond);				\
			fprintf(stderr, __VA_ARGS__);				\
			fputc('\n', stderr);					\
			test_failures++;					\
		}								\
	} while (0)

/* A fresh empty directory under $TMPDIR (removed by test_rmtree). */
char *test_tmpdir(const char *tag);
void test_rmtree(const char *dir);
/* Write @len bytes (or a NUL-terminated string when @len is -1) to @dir/@name. */
void test_write(const char *dir, const char *name, const void *buf, long len);
/* Collect library messages; test_msgs() returns everything since the last reset. */
void test_capture_msgs(void);
const char *test_msgs(void);
void test_reset_msgs(void);
/* 0 if no CHECK failed, else 1 (and a summary line). */
int test_result(const char *name);

#endif
