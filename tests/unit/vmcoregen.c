// SPDX-License-Identifier: GPL-2.0
/* A generator of small arm64 ELF vmcores with coresight-kdump records. */
#include <elf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "vmcoregen.h"

#define TEXT_VA		(VG_KIMAGE_VADDR + VG_KASLR)
#define KIMAGE_VOFFSET	(TEXT_VA - VG_KERNEL_PA)
#define STEXT_VA	(TEXT_VA + 0x10000)
#define HEAD_VA		(TEXT_VA + 0x80000)	/* coresight_kdump_list */
#define LINEAR_PA	(VG_PHYS_OFFSET + 0x400000)	/* kmalloc arena */

static void die(const char *what)
{
	perror(what);
	abort();
}

void vg_info(struct vg *g, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(g->info + g->info_len, sizeof(g->info) - g->info_len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(g->info) - g->info_len)
		die("vmcoreinfo full");
	g->info_len += (size_t)n;
}

uint64_t vg_pa(uint64_t va)
{
	if (va >= TEXT_VA && va < TEXT_VA + 0x100000)
		return va - KIMAGE_VOFFSET;
	if (va >= VG_PAGE_OFFSET && va < VG_PAGE_OFFSET + VG_RAM_SIZE)
		return va - VG_PAGE_OFFSET + VG_PHYS_OFFSET;
	fprintf(stderr, "vmcoregen: 0x%llx is not mapped\n", (unsigned long long)va);
	abort();
}

uint8_t *vg_ptr(struct vg *g, uint64_t va, size_t len)
{
	uint64_t pa = vg_pa(va);

	if (pa + len > VG_PHYS_OFFSET + VG_RAM_SIZE)
		die("outside RAM");
	return g->ram + (pa - VG_PHYS_OFFSET);
}

void vg_put64(struct vg *g, uint64_t va, uint64_t v)
{
	memcpy(vg_ptr(g, va, 8), &v, 8);
}

uint64_t vg_alloc(struct vg *g, size_t len)
{
	uint64_t pa = g->next_free;

	g->next_free = (pa + len + 63) & ~63ull;
	if (g->next_free > VG_PHYS_OFFSET + VG_RAM_SIZE)
		die("RAM full");
	return pa - VG_PHYS_OFFSET + VG_PAGE_OFFSET;
}

void vg_init(struct vg *g, int registry)
{
	vg_init_va(g, registry, 48);
}

void vg_init_va(struct vg *g, int registry, unsigned int va_bits)
{
	/* memstart_addr: 6.1's arm64_memblock_init() for 52 on a 48-bit CPU */
	uint64_t phys_offset = VG_PHYS_OFFSET;

	if (va_bits == 52)
		phys_offset -= (0ull - (1ull << 48)) - (0ull - (1ull << 52));
	else if (va_bits != 48)
		die("vg_init_va: 48 or 52");
	memset(g, 0, sizeof(*g));
	g->ram = calloc(1, VG_RAM_SIZE);
	if (!g->ram)
		die("calloc");
	g->next_free = LINEAR_PA;
	vg_info(g, "OSRELEASE=6.1.0-vmcoregen\nPAGESIZE=4096\n");
	vg_info(g, "SYMBOL(init_uts_ns)=%llx\n", (unsigned long long)(TEXT_VA + 0x90000));
	vg_info(g, "SYMBOL(swapper_pg_dir)=%llx\n", (unsigned long long)(TEXT_VA + 0xa0000));
	vg_info(g, "SYMBOL(_stext)=%llx\n", (unsigned long long)STEXT_VA);
	vg_info(g, "NUMBER(VA_BITS)=%u\n", va_bits);
	vg_info(g, "NUMBER(kimage_voffset)=0x%llx\n", (unsigned long long)KIMAGE_VOFFSET);
	vg_info(g, "NUMBER(PHYS_OFFSET)=0x%llx\n", (unsigned long long)phys_offset);
	vg_info(g, "NUMBER(TCR_EL1_T1SZ)=0x10\n");
	vg_info(g, "KERNELOFFSET=%llx\n", (unsigned long long)VG_KASLR);
	vg_info(g, "NUMBER(KERNELPACMASK)=0x0\n");
	/* The kernel text, so that code reads show something recognisable. */
	memcpy(vg_ptr(g, STEXT_VA, 8), "\x1f\x20\x03\xd5\x1f\x20\x03\xd5", 8);
	g->head = HEAD_VA;
	g->last = HEAD_VA;
	/* An empty list points at itself. */
	vg_put64(g, HEAD_VA, HEAD_VA);
	vg_put64(g, HEAD_VA + 8, HEAD_VA);
	if (registry) {
		vg_info(g, "NUMBER(CORESIGHT_KDUMP_VERSION)=1\n");
		vg_info(g, "SYMBOL(coresight_kdump_list)=%llx\n", (unsigned long long)HEAD_VA);
		vg_info(g, "SIZE(coresight_kdump_record)=128\n");
		vg_info(g, "OFFSET(coresight_kdump_node.list)=%d\n", VG_NODE_LIST_OFF);
	}
}

void vg_free(struct vg *g)
{
	free(g->ram);
	g->ram = NULL;
}

static void put(uint8_t *rec, size_t off, const void *v, size_t len)
{
	memcpy(rec + off, v, len);
}

uint64_t vg_add_record(struct vg *g, const struct vg_rec *r)
{
	uint64_t node = vg_alloc(g, VG_NODE_LIST_OFF + 16);
	uint64_t cap = r->capacity ? r->capacity : r->data_len;
	uint64_t buf = vg_alloc(g, cap ? cap : 1);
	uint8_t *rec = vg_ptr(g, node, 128), *b = vg_ptr(g, buf, cap);
	uint32_t magic = r->magic ? r->magic : 0x444b5343, crc;
	uint16_t version = r->version ? r->version : r->sink_status ? 3 : r->stop_reason ? 2 : 1;
	uint16_t size = r->rec_size ? r->rec_size : 128;
	uint64_t paddr = r->vmalloc ? 0 : vg_pa(buf), list = node + VG_NODE_LIST_OFF;

	/* The buffer is circular: trace byte i lives at (data_offset + i) % cap. */
	for (uint64_t i = 0; i < r->data_len; i++)
		b[(r->data_offset + i) % cap] = r->data[i];
	crc = (uint32_t)crc32(0, r->data, (uInt)r->data_len);
	if (r->bad_crc)
		crc ^= 0x1;
	put(rec, 0, &magic, 4);
	put(rec, 4, &version, 2);
	put(rec, 6, &size, 2);
	put(rec, 8, &r->kind, 2);
	put(rec, 10, &r->flags, 2);
	put(rec, 12, &r->cpu, 4);
	strncpy((char *)rec + 16, r->name, 31);
	put(rec, 48, &buf, 8);
	put(rec, 56, &paddr, 8);
	put(rec, 64, &cap, 8);
	put(rec, 72, &r->data_len, 8);
	put(rec, 80, &r->data_offset, 8);
	put(rec, 88, &crc, 4);
	put(rec, 92, &r->trace_id, 4);
	put(rec, 96, &r->stop_addr, 8);
	put(rec, 104, &r->stop_reason, 2);
	put(rec, 112, &r->sink_status, 8);
	/* list_add_tail(&node->list, &head) */
	vg_put64(g, list, g->head);
	vg_put64(g, list + 8, g->last);
	vg_put64(g, g->last, list);
	vg_put64(g, g->head + 8, list);
	g->last = list;
	return node;
}

uint64_t vg_add_etm(struct vg *g, int cpu, uint32_t id)
{
	uint64_t meta[10] = {
		0x4040404040404040ull, (uint64_t)cpu, 7,
		0xc1, id, 0x28000ea1, 0x4100f403, 0x488, 0, 0xcc,
	};
	char name[32];
	struct vg_rec r = {
		.kind = 2, .flags = 1, .cpu = cpu, .name = name,
		.data = (const uint8_t *)meta, .data_len = sizeof(meta), .trace_id = id,
	};

	snprintf(name, sizeof(name), "etm%d", cpu);
	return vg_add_record(g, &r);
}

static void wr(FILE *f, const void *p, size_t n)
{
	if (fwrite(p, 1, n, f) != n)
		die("fwrite");
}

/* The VMCOREINFO ELF note: namesz 11 ("VMCOREINFO\0", padded to 12), type 0, text. */
static uint8_t *vmcoreinfo_note(const struct vg *g, size_t *len)
{
	size_t desc = (g->info_len + 3) & ~(size_t)3;
	uint32_t hdr[3] = { 11, (uint32_t)g->info_len, 0 };
	uint8_t *note;

	*len = 12 + 12 + desc;
	note = calloc(1, *len);
	if (!note)
		die("calloc");
	memcpy(note, hdr, 12);
	memcpy(note + 12, "VMCOREINFO", 11);
	memcpy(note + 24, g->info, g->info_len);
	return note;
}

void vg_write(struct vg *g, const char *path, long truncate_at)
{
	size_t note_len;
	uint8_t *note = vmcoreinfo_note(g, &note_len);
	Elf64_Ehdr eh = { 0 };
	Elf64_Phdr ph[2] = { { 0 } };
	uint64_t note_off = sizeof(eh) + sizeof(ph);
	uint64_t ram_off = (note_off + note_len + 4095) & ~4095ull;
	FILE *f = fopen(path, "wb");

	if (!f)
		die(path);

	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS64;
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_ident[EI_VERSION] = EV_CURRENT;
	eh.e_type = ET_CORE;
	eh.e_machine = EM_AARCH64;
	eh.e_version = EV_CURRENT;
	eh.e_phoff = sizeof(eh);
	eh.e_ehsize = sizeof(eh);
	eh.e_phentsize = sizeof(ph[0]);
	eh.e_phnum = 2;

	ph[0].p_type = PT_NOTE;
	ph[0].p_offset = note_off;
	ph[0].p_filesz = ph[0].p_memsz = note_len;
	/* As /proc/vmcore: the linear-map address and the physical one. */
	ph[1].p_type = PT_LOAD;
	ph[1].p_flags = PF_R | PF_W | PF_X;
	ph[1].p_offset = ram_off;
	ph[1].p_vaddr = VG_PAGE_OFFSET;
	ph[1].p_paddr = VG_PHYS_OFFSET;
	ph[1].p_filesz = ph[1].p_memsz = VG_RAM_SIZE;
	ph[1].p_align = 4096;

	wr(f, &eh, sizeof(eh));
	wr(f, ph, sizeof(ph));
	wr(f, note, note_len);
	if (fseek(f, (long)ram_off, SEEK_SET))
		die("fseek");
	wr(f, g->ram, VG_RAM_SIZE);
	if (fclose(f))
		die(path);
	free(note);
	if (truncate_at > 0 && truncate(path, truncate_at))
		die("truncate");
}

/* makedumpfile's compressed format, 64-bit little-endian target. */
#define KD_BLOCK	4096u
#define KD_NOTE_OFF	(KD_BLOCK + 1024)	/* inside the sub-header block */

static void put32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

static void put64(uint8_t *p, uint64_t v)
{
	memcpy(p, &v, 8);
}

void vg_write_kdump(struct vg *g, const char *path)
{
	uint64_t first_pfn = VG_PHYS_OFFSET / KD_BLOCK, n_pages = VG_RAM_SIZE / KD_BLOCK;
	uint64_t max_pfn = first_pfn + n_pages;
	uint32_t bitmap_blocks = 2 * (uint32_t)((max_pfn / 8 + KD_BLOCK - 1) / KD_BLOCK);
	uint64_t desc_off = (uint64_t)(2 + bitmap_blocks) * KD_BLOCK;
	uint64_t data_off = desc_off + n_pages * 24;
	uint8_t *head = calloc(1, desc_off), *descs = calloc(n_pages, 24);
	uint8_t *bitmap = head + 2 * KD_BLOCK, zbuf[KD_BLOCK + 1024];
	size_t note_len;
	uint8_t *note = vmcoreinfo_note(g, &note_len);
	FILE *f = fopen(path, "wb");

	if (!head || !descs || !f || note_len > KD_BLOCK - 1024)
		die(path);
	/* struct disk_dump_header (64-bit): utsname at 12, 6 x 65 bytes. */
	memcpy(head, "KDUMP   ", 8);
	put32(head + 8, 6);				/* header_version */
	memcpy(head + 12, "Linux", 6);			/* sysname */
	memcpy(head + 12 + 65, "vmcoregen", 10);	/* nodename */
	memcpy(head + 12 + 65 * 2, "6.1.0-vmcoregen", 16);	/* release */
	memcpy(head + 12 + 65 * 3, "#1 SMP", 7);	/* version: must not be empty */
	memcpy(head + 12 + 65 * 4, "aarch64", 8);	/* machine */
	/* 390 + 6 padding bytes, then a 16-byte timeval at 408. */
	put32(head + 424, 0);				/* status */
	put32(head + 428, KD_BLOCK);			/* block_size */
	put32(head + 432, 1);				/* sub_hdr_size, blocks */
	put32(head + 436, bitmap_blocks);
	put32(head + 440, (uint32_t)max_pfn);		/* max_mapnr */
	put32(head + 460, 1);				/* nr_cpus */
	/* struct kdump_sub_header (64-bit) at block 1. */
	put64(head + KD_BLOCK + 0, 0);			/* phys_base */
	put32(head + KD_BLOCK + 8, 0);			/* dump_level */
	put64(head + KD_BLOCK + 48, KD_NOTE_OFF);	/* offset_note */
	put64(head + KD_BLOCK + 56, note_len);		/* size_note */
	put64(head + KD_BLOCK + 96, max_pfn);		/* max_mapnr_64 */
	memcpy(head + KD_NOTE_OFF, note, note_len);
	/* Both bitmaps (in memory, dumped): every RAM page. */
	for (uint64_t pfn = first_pfn; pfn < max_pfn; pfn++) {
		bitmap[pfn / 8] |= (uint8_t)(1 << (pfn % 8));
		bitmap[bitmap_blocks / 2 * KD_BLOCK + pfn / 8] |= (uint8_t)(1 << (pfn % 8));
	}
	if (fseek(f, (long)data_off, SEEK_SET))
		die("fseek");
	for (uint64_t i = 0; i < n_pages; i++) {
		const uint8_t *page = g->ram + i * KD_BLOCK;
		uLongf zlen = sizeof(zbuf);
		int z = compress2(zbuf, &zlen, page, KD_BLOCK, 6) == Z_OK && zlen < KD_BLOCK;

		put64(descs + i * 24, data_off);
		put32(descs + i * 24 + 8, z ? (uint32_t)zlen : KD_BLOCK);
		put32(descs + i * 24 + 12, z ? 1 : 0);	/* DUMP_DH_COMPRESSED_ZLIB */
		wr(f, z ? zbuf : page, z ? zlen : KD_BLOCK);
		data_off += z ? zlen : KD_BLOCK;
	}
	if (fseek(f, 0, SEEK_SET))
		die("fseek");
	wr(f, head, desc_off);
	wr(f, descs, n_pages * 24);
	if (fclose(f))
		die(path);
	free(head);
	free(descs);
	free(note);
}
