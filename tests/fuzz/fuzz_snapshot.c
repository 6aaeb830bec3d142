// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target: OpenCSD snapshot directories (src/format/snapshot.c, src/format/ini.c).
 * The input is up to six files separated by lines "%%": snapshot.ini,
 * trace.ini, etm_0.ini, cpu_0.ini, cstrace.bin, mem.bin; a file the input
 * does not reach is absent.
 */
#include <string.h>

#include "core/dump.h"
#include "fuzzutil.h"
#include "format/snapshot.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_quiet();
	scratch_dir();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const files[] = {
		"snapshot.ini", "trace.ini", "etm_0.ini", "cpu_0.ini", "cstrace.bin", "mem.bin",
	};
	static const char sep[] = "\n%%\n";
	const uint8_t *p = data, *end = data + size;
	struct csd_dump d = { 0 };

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		const uint8_t *cut = p ? memmem(p, (size_t)(end - p), sep, 4) : NULL;
		size_t len = p ? (size_t)((cut ? cut : end) - p) : 0;

		scratch_file(files[i], p, len);
		p = cut ? cut + 4 : NULL;
	}
	if (csd_snapshot_is_dir(scratch_dir()))
		csd_snapshot_read(scratch_dir(), &d);
	csd_dump_free(&d);
	return 0;
}
