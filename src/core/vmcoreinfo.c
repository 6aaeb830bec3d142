// SPDX-License-Identifier: GPL-2.0
/* csdump: VMCOREINFO lookups. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/vmcoreinfo.h"

int csd_vmcoreinfo_str(const char *info, const char *key, char *out, size_t size)
{
	size_t klen = strlen(key);
	const char *line = info;

	while (line && *line) {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);

		if (len > klen && !strncmp(line, key, klen) && line[klen] == '=') {
			size_t vlen = len - klen - 1;

			if (vlen >= size)
				return -1;
			memcpy(out, line + klen + 1, vlen);
			out[vlen] = '\0';
			return 0;
		}
		line = end ? end + 1 : NULL;
	}
	return -1;
}

int csd_vmcoreinfo_u64(const char *info, const char *key, int base, uint64_t *v)
{
	char buf[32], *end;
	unsigned long long x;

	if (csd_vmcoreinfo_str(info, key, buf, sizeof(buf)) || !buf[0] || buf[0] == '-')
		return -1;
	errno = 0;
	x = strtoull(buf, &end, base);
	if (errno || *end)
		return -1;
	*v = x;
	return 0;
}

int csd_vmcoreinfo_symbol(const char *info, const char *name, uint64_t *v)
{
	char key[128];

	snprintf(key, sizeof(key), "SYMBOL(%s)", name);
	return csd_vmcoreinfo_u64(info, key, 16, v);
}
