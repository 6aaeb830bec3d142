/* SPDX-License-Identifier: GPL-2.0 */
/*
 * csdump: JSON strings to a stdio stream, for output made once at the end
 * (the views, the report); the per-event JSON lines have their own buffer.
 */
#ifndef CSD_JSONF_H
#define CSD_JSONF_H

#include <stdint.h>
#include <stdio.h>

/*
 * @s as a JSON string, quotes included.  A byte past ASCII is one code point
 * (\u00XX), as the JSON lines write names; '<', '>' and '&' are escaped
 * too, so that the text is also safe inside an HTML <script> element.
 */
void csd_jsonf_str(FILE *f, const char *s);
/* "0x..." */
void csd_jsonf_addr(FILE *f, uint64_t addr);
/* "name" (or "name+0xoff") of @addr in @syms as a JSON string; null if none. */
struct csd_syms;
void csd_jsonf_sym(FILE *f, struct csd_syms *syms, uint64_t addr);

#endif
