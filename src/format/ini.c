// SPDX-License-Identifier: GPL-2.0
/* csdump: a small .ini reader for OpenCSD snapshot directories. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/diag.h"
#include "core/fileio.h"
#include "format/ini.h"

#define INI_MAX_BYTES (4u << 20)

static char *trim(char *s)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		*--end = '\0';
	return s;
}

static int add_entry(struct csd_ini *ini, size_t *cap, const char *section,
		     const char *key, const char *value, unsigned int line)
{
	if (ini->n == *cap) {
		size_t ncap = *cap ? *cap * 2 : 64;
		struct csd_ini_entry *e = realloc(ini->entries, ncap * sizeof(*e));

		if (!e)
			return -1;
		ini->entries = e;
		*cap = ncap;
	}
	ini->entries[ini->n++] = (struct csd_ini_entry){ section, key, value, line };
	return 0;
}

static enum csd_err parse(struct csd_ini *ini)
{
	const char *section = "";
	unsigned int lineno = 0;
	size_t cap = 0;
	char *next = ini->text;

	while (next) {
		char *line = next, *eq, *s;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		s = trim(line);
		if (!*s || *s == ';' || *s == '#')
			continue;
		if (*s == '[') {
			char *close = strchr(s, ']');

			if (!close) {
				csd_warn("%s:%u: section header without ']', ignored",
					 ini->path, lineno);
				continue;
			}
			*close = '\0';
			section = trim(s + 1);
			continue;
		}
		eq = strchr(s, '=');
		if (!eq) {
			csd_warn("%s:%u: expected key=value, ignored", ini->path, lineno);
			continue;
		}
		*eq = '\0';
		if (add_entry(ini, &cap, section, trim(s), trim(eq + 1), lineno))
			return CSD_ERR_NOMEM;
	}
	return CSD_OK;
}

enum csd_err csd_ini_load(const char *path, struct csd_ini *ini)
{
	uint8_t *data;
	size_t len;
	enum csd_err err;

	memset(ini, 0, sizeof(*ini));
	err = csd_file_read(path, INI_MAX_BYTES, &data, &len);
	if (err)
		return err;
	if (memchr(data, '\0', len)) {
		csd_error("%s: contains NUL bytes, not an .ini file", path);
		free(data);
		return CSD_ERR_FORMAT;
	}
	ini->text = realloc(data, len + 1);
	if (!ini->text) {
		free(data);
		return CSD_ERR_NOMEM;
	}
	ini->text[len] = '\0';
	ini->path = strdup(path);
	if (!ini->path) {
		csd_ini_free(ini);
		return CSD_ERR_NOMEM;
	}
	err = parse(ini);
	if (err)
		csd_ini_free(ini);
	return err;
}

void csd_ini_free(struct csd_ini *ini)
{
	free(ini->path);
	free(ini->text);
	free(ini->entries);
	memset(ini, 0, sizeof(*ini));
}

const char *csd_ini_get(const struct csd_ini *ini, const char *section, const char *key)
{
	for (size_t i = 0; i < ini->n; i++) {
		const struct csd_ini_entry *e = &ini->entries[i];

		if (!strcasecmp(e->section, section) && !strcasecmp(e->key, key))
			return e->value;
	}
	return NULL;
}

const char *csd_ini_get_reg(const struct csd_ini *ini, const char *section, const char *name)
{
	size_t n = strlen(name);

	for (size_t i = 0; i < ini->n; i++) {
		const struct csd_ini_entry *e = &ini->entries[i];

		if (strcasecmp(e->section, section) || strncasecmp(e->key, name, n))
			continue;
		if (e->key[n] == '\0' || e->key[n] == '(')
			return e->value;
	}
	return NULL;
}

int csd_parse_u64(const char *s, uint64_t *v)
{
	char *end;
	unsigned long long x;

	if (!s || !*s || *s == '-' || isspace((unsigned char)*s))
		return -1;
	errno = 0;
	x = strtoull(s, &end, 0);
	if (errno || *end)
		return -1;
	*v = x;
	return 0;
}
