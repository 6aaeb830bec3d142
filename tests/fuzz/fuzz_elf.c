// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target: loading a vmlinux (src/decode/vmlinux.c: the architecture check; src/decode/image.c:
 * the executable PT_LOADs as the program image; src/decode/symbols.c: its function
 * symbols).  The input is the file.
 */
#include "core/dump.h"
#include "decode/image.h"
#include "fuzzutil.h"
#include "decode/symbols.h"
#include "decode/vmlinux.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_quiet();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = scratch_file("vmlinux", data, size);
	struct csd_vmlinux *vm;
	struct csd_dump d = { 0 };
	struct csd_syms *s = NULL;
	char buf[128];

	if (csd_vmlinux_open(path, &vm) != CSD_OK)
		return 0;
	csd_vmlinux_check(vm);
	if (csd_image_add_vmlinux(&d, vm, 0x1000) == CSD_OK && d.n_segs) {
		struct csd_image im;
		uint8_t w[8];

		if (csd_image_index(&im, d.segs, d.n_segs) == CSD_OK) {
			csd_image_read(&im, d.segs[0].vaddr, w, sizeof(w));
			csd_image_release(&im);
		}
	}
	csd_dump_free(&d);
	if (csd_syms_load(&s, vm, 0x1000, false) == CSD_OK) {
		static const uint64_t addrs[] = { 0, 0x1000, 0x401000, 0xffff800008011000ull };

		for (size_t i = 0; i < sizeof(addrs) / sizeof(addrs[0]); i++) {
			csd_syms_lookup(s, addrs[i]);
			csd_syms_format(s, addrs[i], buf, sizeof(buf));
		}
		csd_syms_free(s);
	}
	csd_vmlinux_close(vm);
	return 0;
}
