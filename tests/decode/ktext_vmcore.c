// SPDX-License-Identifier: GPL-2.0
/*
 * ktext_vmcore EXTRACT_DIR PROG_ELF OUT.vmcore PATCH_VADDR WORD: an arm64
 * vmcore (vmcoregen) of a trace whose program text the "kernel" patched.
 * The trace and metadata of EXTRACT_DIR (the encoder's) go into registry
 * records; PROG_ELF's executable PT_LOAD bytes go into the kernel image at
 * their link address + the KASLR offset (KERNELOFFSET), as a running
 * kernel's text is, with the 32-bit word at PATCH_VADDR (a runtime address)
 * replaced by WORD, as alternatives and static keys patch it.  For the test
 * of issue 17, defects 3 and 5 (tests/decode/ktext.sh, perfimage.sh).
 */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/extract.h"
#include "vgdump.h"
#include "vmcoregen.h"

static uint8_t *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	long n;

	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) ||
	    !(buf = malloc((size_t)n + 1)) || fread(buf, 1, (size_t)n, f) != (size_t)n) {
		fprintf(stderr, "ktext_vmcore: cannot read %s\n", path);
		exit(1);
	}
	fclose(f);
	*len = (size_t)n;
	return buf;
}

/* PROG_ELF's executable PT_LOAD bytes at link address + VG_KASLR. */
static void put_text(struct vg *g, const uint8_t *elf, size_t len)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)elf;

	if (len < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_phoff > len || eh->e_phnum > (len - eh->e_phoff) / sizeof(Elf64_Phdr)) {
		fprintf(stderr, "ktext_vmcore: not an ELF64 file\n");
		exit(1);
	}
	for (unsigned int i = 0; i < eh->e_phnum; i++) {
		const Elf64_Phdr *ph = (const Elf64_Phdr *)(elf + eh->e_phoff) + i;

		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X) || !ph->p_filesz)
			continue;
		if (ph->p_offset > len || ph->p_filesz > len - ph->p_offset) {
			fprintf(stderr, "ktext_vmcore: PT_LOAD %u beyond the file\n", i);
			exit(1);
		}
		memcpy(vg_ptr(g, ph->p_vaddr + VG_KASLR, ph->p_filesz), elf + ph->p_offset,
		       ph->p_filesz);
	}
}

int main(int argc, char **argv)
{
	struct csd_dump d = { 0 };
	uint8_t *elf;
	size_t len;
	uint32_t word;
	struct vg g;

	if (argc != 6) {
		fprintf(stderr, "usage: ktext_vmcore EXTRACT_DIR PROG_ELF OUT PATCH_VADDR "
			"WORD\n");
		return 1;
	}
	if (csd_extract_read(argv[1], &d) != CSD_OK)
		return 1;
	vg_init(&g, 1);
	elf = slurp(argv[2], &len);
	put_text(&g, elf, len);
	word = (uint32_t)strtoul(argv[5], NULL, 0);
	memcpy(vg_ptr(&g, strtoull(argv[4], NULL, 0), 4), &word, 4);	/* little-endian */
	vg_add_dump(&g, &d, NULL);
	vg_write(&g, argv[3], 0);
	vg_free(&g);
	free(elf);
	csd_dump_free(&d);
	return 0;
}
