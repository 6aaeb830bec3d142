// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target: VMCOREINFO parsing (src/core/vmcoreinfo.c) and the registry keys
 * read from it (src/core/registry.c).  The input is the VMCOREINFO text; memory
 * holds a good registry (fake_registry()) where the good keys point.
 */
#include <stdlib.h>
#include <string.h>

#include "core/dump.h"
#include "fakemem.h"
#include "fuzzutil.h"
#include "core/registry.h"
#include "core/vmcoreinfo.h"

static uint8_t image[4096];
static size_t image_len;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_quiet();
	image_len = fake_registry(image, sizeof(image), 512);
	return image_len ? 0 : 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const keys[] = {
		"OSRELEASE", "KERNELOFFSET", "NUMBER(VA_BITS)", "NUMBER(PHYS_OFFSET)",
		"NUMBER(kimage_voffset)", "SIZE(coresight_kdump_record)",
	};
	char *info = malloc(size + 1), out[65];
	struct fakemem f = { image, image_len, info };
	struct csd_registry reg;
	struct csd_dump d = { 0 };
	struct csd_mem m;
	uint64_t v;

	if (!info)
		return 0;
	memcpy(info, data, size);
	info[size] = '\0';
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		csd_vmcoreinfo_str(info, keys[i], out, sizeof(out));
		csd_vmcoreinfo_u64(info, keys[i], 0, &v);
		csd_vmcoreinfo_u64(info, keys[i], 16, &v);
	}
	csd_vmcoreinfo_symbol(info, "_stext", &v);
	fakemem_init(&m, &f);
	csd_registry_load(&m, &reg, &d);
	csd_registry_free(&reg);
	csd_dump_free(&d);
	free(info);
	return 0;
}
