// SPDX-License-Identifier: GPL-2.0
/*
 * csdump: JSON strings to a stdio stream (see jsonf.h).
 */
#include <inttypes.h>

#include "decode/jsonf.h"
#include "decode/symbols.h"

void csd_jsonf_str(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', f);
	for (; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p < 0x20 || *p == '<' || *p == '>' || *p == '&' || *p >= 0x7f)
			fprintf(f, "\\u%04x", *p);
		else
			fputc(*p, f);
	}
	fputc('"', f);
}

void csd_jsonf_addr(FILE *f, uint64_t addr)
{
	fprintf(f, "\"0x%" PRIx64 "\"", addr);
}

void csd_jsonf_sym(FILE *f, struct csd_syms *syms, uint64_t addr)
{
	char buf[1024];

	if (!csd_syms_format(syms, addr, buf, sizeof(buf)))
		fputs("null", f);
	else
		csd_jsonf_str(f, buf);
}
