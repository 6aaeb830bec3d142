/* SPDX-License-Identifier: GPL-2.0 */
/*
 * csdump: a small reader for the .ini files of an OpenCSD snapshot
 * ("[section]" headers, "key=value" lines, ';' or '#' comments).  Section and
 * key names compare case-insensitively.
 */
#ifndef CSD_INI_H
#define CSD_INI_H

#include <stddef.h>
#include <stdint.h>

#include "core/csd_err.h"

struct csd_ini_entry {
	const char *section;
	const char *key;
	const char *value;
	unsigned int line;
};

struct csd_ini {
	char *path;
	char *text;			/* the file, cut into NUL-terminated strings */
	struct csd_ini_entry *entries;	/* in file order */
	size_t n;
};

/* Parse @path; malformed lines are reported and skipped. */
enum csd_err csd_ini_load(const char *path, struct csd_ini *ini);
void csd_ini_free(struct csd_ini *ini);

const char *csd_ini_get(const struct csd_ini *ini, const char *section, const char *key);
/*
 * A register value: @name matches a key "NAME" or "NAME(anything)", as in
 * "TRCCONFIGR(0x004)=0xC1".
 */
const char *csd_ini_get_reg(const struct csd_ini *ini, const char *section, const char *name);

/* Parse a whole string as an unsigned number (0x for hex); -1 if it is not one. */
int csd_parse_u64(const char *s, uint64_t *v);

#endif
