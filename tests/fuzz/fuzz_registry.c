// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target: the registry walk and record checks (src/core/registry.c,
 * src/core/registry_info.c) over hostile memory.  The input is the memory at
 * FAKE_VA (and FAKE_PA); VMCOREINFO is fixed and puts the list head at its
 * first byte, so every link, record and buffer comes from the input.
 */
#include <stdio.h>
#include <stdlib.h>

#include "core/dump.h"
#include "fakemem.h"
#include "fuzzutil.h"
#include "core/registry.h"
#include "core/registry_info.h"

static FILE *devnull;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_quiet();
	devnull = fopen("/dev/null", "w");
	return devnull ? 0 : 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fakemem f = { data, size, fake_vmcoreinfo };
	struct csd_info_counts c;
	struct csd_registry reg;
	struct csd_dump d = { 0 };
	struct csd_mem m;

	fakemem_init(&m, &f);
	csd_registry_load(&m, &reg, &d);
	csd_registry_free(&reg);
	csd_dump_free(&d);
	csd_registry_info(&m, devnull, &c);
	return 0;
}
