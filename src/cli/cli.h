/* SPDX-License-Identifier: GPL-2.0 */
/* csdump: command-line front end.  Subcommands parse their options and call the library. */
#ifndef CSD_CLI_H
#define CSD_CLI_H

#include <stdbool.h>

#include "core/csd_err.h"

#define CSD_VERSION "0.1"

/* Exit codes of the csdump command (documented in --help and csdump(1)). */
enum csd_exit {
	CSD_EXIT_OK = 0,
	CSD_EXIT_USAGE = 1,		/* bad command line */
	CSD_EXIT_INPUT = 2,		/* input unreadable or not a vmcore/snapshot; output failed */
	CSD_EXIT_NOREGISTRY = 3,	/* vmcore of a kernel without the coresight-kdump series */
	CSD_EXIT_NOTRACE = 4,		/* registry intact but no saved trace */
	CSD_EXIT_PARTIAL = 5,		/* some records bad; the intact ones were used */
};

/* The exit-code paragraph of every --help. */
extern const char csd_exit_codes_help[];

/* The exit code for a library error. */
int csd_exit_code(enum csd_err err);

int csd_cli_main(int argc, char **argv);

/* The arguments of a subcommand INPUT [-o OUT] [--NAME ARG]. */
struct csd_cli_io {
	const char *input, *out;
	const char *arg;	/* --NAME's; NULL if not given */
};

/*
 * Parse them: -o (then required) when @want_out; --NAME, short option @key,
 * when @name is not NULL.  Returns -1 to go on, else the exit code: 0 after
 * --help, CSD_EXIT_USAGE (@usage on stderr) for a bad command line.
 */
int csd_cli_parse_io(int argc, char **argv, const char *usage, bool want_out,
		     const char *name, int key, struct csd_cli_io *a);

/* An option's number, 0 to @max (C notation: 0x.. is hex); false if not one. */
bool csd_cli_parse_num(const char *s, long max, long *out);

struct csd_dump;
struct csd_vmlinux;

/*
 * Any input (vmcore, extract directory, snapshot) into @d, then, with
 * @vmlinux, vmlinux opened once into *@vm (close it even on failure) and its
 * code added when the input carries no memory of its own.  Returns an exit
 * code: 0, CSD_EXIT_PARTIAL (some records skipped) or a failure.
 */
int csd_cli_load(const char *input, const char *vmlinux, struct csd_dump *d,
		 struct csd_vmlinux **vm);

#endif
