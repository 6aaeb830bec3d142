// SPDX-License-Identifier: GPL-2.0
/*
 * probe: a thin command line over csdump's symbols and image modules, for
 * tests that hold them against binutils (nm, addr2line, readelf).
 *
 *   probe syms  ELF OFFSET ADDR...   "ADDR NAME[+0xOFF]" or "ADDR ?"
 *   probe lines ELF OFFSET ADDR...   "ADDR FILE:LINE" or "ADDR ?"
 *   probe image ELF OFFSET           "VADDR LEN FIRST16BYTESHEX" per segment
 *   probe lookup SEGS ADDR...        SEGS "vaddr:len,..."; each segment's bytes are its
 *                                    index; prints "ADDR BYTE COUNT" (up to 8 bytes
 *                                    asked) or "ADDR - 0"
 *   probe overlay ELF OFFSET         the image with a fake vmcore over it: pages at
 *                                    even page numbers read as 0xa5 bytes, odd ones
 *                                    unmapped; prints "pages N words N" then
 *                                    "VADDR BYTEHEX" for every 64th byte
 *   probe overlay-text ELF OFFSET    the same, replacing only the bytes of the code
 *                                    that stays after boot (csd_image_vmlinux_text)
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/dump.h"
#include "decode/image.h"
#include "decode/symbols.h"
#include "decode/vmlinux.h"

static int cmd_syms(const struct csd_vmlinux *elf, uint64_t off, int n, char **addrs,
		    int lines)
{
	struct csd_syms *s;
	int i;

	if (csd_syms_load(&s, elf, off, lines) != CSD_OK)
		return 1;
	for (i = 0; i < n; i++) {
		uint64_t a = strtoull(addrs[i], NULL, 0);
		char buf[256];
		const char *file;
		int line;

		if (lines && csd_syms_line(s, a, &file, &line))
			printf("0x%" PRIx64 " %s:%d\n", a, file, line);
		else if (!lines && csd_syms_format(s, a, buf, sizeof(buf)))
			printf("0x%" PRIx64 " %s\n", a, buf);
		else
			printf("0x%" PRIx64 " ?\n", a);
	}
	csd_syms_free(s);
	return 0;
}

static int cmd_image(const struct csd_vmlinux *elf, uint64_t off)
{
	struct csd_dump d = { 0 };
	struct csd_image im;
	size_t i, k;

	if (csd_image_add_vmlinux(&d, elf, off) != CSD_OK ||
	    csd_image_index(&im, d.segs, d.n_segs) != CSD_OK) {
		csd_dump_free(&d);
		return 1;
	}
	for (i = 0; i < d.n_segs; i++) {
		uint8_t b[16] = { 0 };
		size_t got = csd_image_read(&im, d.segs[i].vaddr, b, sizeof(b));

		printf("0x%" PRIx64 " 0x%zx ", d.segs[i].vaddr, d.segs[i].len);
		for (k = 0; k < got; k++)
			printf("%02x", b[k]);
		/* One byte past the end is not in this segment. */
		printf(" %zu\n", csd_image_read(&im, d.segs[i].vaddr + d.segs[i].len - 1, b, 16));
	}
	csd_image_release(&im);
	csd_dump_free(&d);
	return 0;
}

static int cmd_lookup(char *spec, int n, char **addrs)
{
	struct csd_dump d = { 0 };
	struct csd_image im;
	char *tok, *save = NULL;
	int i;

	for (tok = strtok_r(spec, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *colon = strchr(tok, ':');
		size_t len = colon ? strtoull(colon + 1, NULL, 0) : 0;
		uint8_t *data = malloc(len ? len : 1);

		if (!colon || !data) {
			free(data);
			csd_dump_free(&d);
			return 2;
		}
		memset(data, (int)d.n_segs, len);
		if (!csd_dump_add_seg(&d, "seg", strtoull(tok, NULL, 0), data, len)) {
			csd_dump_free(&d);
			return 1;
		}
	}
	if (csd_image_index(&im, d.segs, d.n_segs) != CSD_OK) {
		csd_dump_free(&d);
		return 1;
	}
	for (i = 0; i < n; i++) {
		uint64_t a = strtoull(addrs[i], NULL, 0);
		uint8_t b[8];
		size_t got = csd_image_read(&im, a, b, sizeof(b));

		if (got)
			printf("0x%" PRIx64 " %u %zu\n", a, b[0], got);
		else
			printf("0x%" PRIx64 " - 0\n", a);
	}
	csd_image_release(&im);
	csd_dump_free(&d);
	return 0;
}

static enum csd_err fake_read(void *priv, enum csd_space space, uint64_t addr, void *buf,
			      size_t len)
{
	(void)priv;
	if (space != CSD_KVADDR || (addr / 4096) % 2 || (addr + len - 1) / 4096 != addr / 4096)
		return CSD_ERR_UNMAPPED;
	memset(buf, 0xa5, len);
	return CSD_OK;
}

static int cmd_overlay(const struct csd_vmlinux *elf, uint64_t off, bool text_only)
{
	static const struct csd_mem_ops ops = { .read = fake_read };
	struct csd_mem m = { .ops = &ops };
	struct csd_span text[CSD_TEXT_SPANS_MAX];
	struct csd_dump d = { 0 };
	size_t i, k, pages, words, n_text = 0;

	if ((text_only && csd_image_vmlinux_text(elf, off, text, &n_text) != CSD_OK) ||
	    csd_image_add_vmlinux(&d, elf, off) != CSD_OK ||
	    csd_image_overlay_mem(&d, 0, &m, text_only ? text : NULL, n_text,
				  &pages, &words) != CSD_OK) {
		csd_dump_free(&d);
		return 1;
	}
	printf("pages %zu words %zu\n", pages, words);
	for (i = 0; i < d.n_segs; i++)
		for (k = 0; k < d.segs[i].len; k += 64)
			printf("0x%" PRIx64 " %02x\n", d.segs[i].vaddr + k, d.segs[i].data[k]);
	csd_dump_free(&d);
	return 0;
}

/* Run @cmd on vmlinux @path, opened once. */
static int with_elf(const char *cmd, const char *path, uint64_t off, int argc, char **argv)
{
	struct csd_vmlinux *vm;
	int rc;

	if (csd_vmlinux_open(path, &vm) != CSD_OK)
		return 1;
	if (!strcmp(cmd, "syms") || !strcmp(cmd, "lines"))
		rc = cmd_syms(vm, off, argc - 4, argv + 4, !strcmp(cmd, "lines"));
	else if (!strcmp(cmd, "image"))
		rc = cmd_image(vm, off);
	else
		rc = cmd_overlay(vm, off, !strcmp(cmd, "overlay-text"));
	csd_vmlinux_close(vm);
	return rc;
}

int main(int argc, char **argv)
{
	uint64_t off;

	if (argc < 3)
		goto usage;
	off = argc > 3 ? strtoull(argv[3], NULL, 0) : 0;
	if (!strcmp(argv[1], "syms") || !strcmp(argv[1], "lines"))
		return with_elf(argv[1], argv[2], off, argc, argv);
	if ((!strcmp(argv[1], "image") || !strcmp(argv[1], "overlay") ||
	     !strcmp(argv[1], "overlay-text")) && argc == 4)
		return with_elf(argv[1], argv[2], off, argc, argv);
	if (!strcmp(argv[1], "lookup"))
		return cmd_lookup(argv[2], argc - 3, argv + 3);
usage:
	fprintf(stderr, "usage: probe syms|lines|image|overlay|lookup ELF|SEGS OFFSET [ADDR...]\n");
	return 2;
}
