// SPDX-License-Identifier: GPL-2.0
/*
 * seeds DIR: the seed inputs of the registry and vmcoreinfo fuzzers, from
 * fake_registry() (fakemem.c): DIR/registry/{good,short-sink,empty-list} and
 * DIR/vmcoreinfo/{good,no-registry}.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fakemem.h"

static void put(const char *dir, const char *sub, const char *name, const void *buf, size_t len)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s/%s", dir, sub, name);
	f = fopen(path, "wb");
	if (!f || fwrite(buf, 1, len, f) != len || fclose(f)) {
		perror(path);
		exit(1);
	}
}

int main(int argc, char **argv)
{
	static uint8_t img[4096];
	uint64_t empty[2] = { FAKE_VA, FAKE_VA };
	const char *cut;
	size_t n;

	if (argc != 2) {
		fprintf(stderr, "usage: seeds DIR\n");
		return 1;
	}
	n = fake_registry(img, sizeof(img), 512);
	put(argv[1], "registry", "good", img, n);
	n = fake_registry(img, sizeof(img), 48);
	put(argv[1], "registry", "short-sink", img, n);
	put(argv[1], "registry", "empty-list", empty, sizeof(empty));
	put(argv[1], "vmcoreinfo", "good", fake_vmcoreinfo, strlen(fake_vmcoreinfo));
	cut = strstr(fake_vmcoreinfo, "NUMBER(CORESIGHT_KDUMP_VERSION)");
	put(argv[1], "vmcoreinfo", "no-registry", fake_vmcoreinfo, (size_t)(cut - fake_vmcoreinfo));
	return 0;
}
