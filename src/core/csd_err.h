/* SPDX-License-Identifier: GPL-2.0 */
/*
 * csdump: one error enum for the whole library, with a strerror-style name.
 *
 * The contract (messages: diag.h):
 * - The function that detects a problem reports it, once, and returns its code.
 * - A caller passes the code up and prints nothing more (the CLI maps it to an
 *   exit status, csd_exit_code(); the crash extension adds csd_strerror()).
 * - Running out of memory is a problem like any other: reported where it fails.
 * - A bad record is reported and counted where it is marked bad (registry.c).
 */
#ifndef CSD_ERR_H
#define CSD_ERR_H

enum csd_err {
	CSD_OK = 0,
	CSD_ERR_IO,		/* a file could not be read or written */
	CSD_ERR_NOMEM,
	CSD_ERR_FORMAT,		/* input is not what it claims (not a vmcore, bad ini...) */
	CSD_ERR_ARCH,		/* input is for another architecture */
	CSD_ERR_NOREGISTRY,	/* VMCOREINFO has no coresight_kdump registry */
	CSD_ERR_UNMAPPED,	/* an address is not in the dump */
	CSD_ERR_CORRUPT,	/* data failed a check (magic, size, CRC, loop) */
	CSD_ERR_NOTRACE,	/* registry is intact but holds no saved trace */
	CSD_ERR_USAGE,
	CSD_ERR_DECODE,		/* the trace decoder failed */
};

const char *csd_strerror(enum csd_err err);

#endif
