/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A generator of small arm64 ELF vmcores for the unit tests: one RAM region
 * at PHYS_OFFSET, the kernel image mapped at KIMAGE_VADDR (+ KASLR offset),
 * the linear map at PAGE_OFFSET, a VMCOREINFO note with what arm64 6.1
 * publishes, and coresight-kdump registry records laid out as
 * docs/record-abi.md says, written from that document, not from src/.
 */
#ifndef VMCOREGEN_H
#define VMCOREGEN_H

#include <stddef.h>
#include <stdint.h>

#define VG_PHYS_OFFSET	0x40000000ull
#define VG_RAM_SIZE	(8ull << 20)
#define VG_PAGE_OFFSET	0xffff000000000000ull	/* VA_BITS 48 */
#define VG_KIMAGE_VADDR	0xffff800008000000ull
#define VG_KASLR	0x0000000012340000ull
#define VG_KERNEL_PA	(VG_PHYS_OFFSET + 0x200000)	/* the image: 1 MiB */
#define VG_NODE_LIST_OFF 128			/* OFFSET(coresight_kdump_node.list) */

struct vg {
	uint8_t *ram;			/* VG_RAM_SIZE bytes at VG_PHYS_OFFSET */
	uint64_t next_free;		/* bump allocator in the linear map (PA) */
	char info[4096];		/* VMCOREINFO text */
	size_t info_len;
	uint64_t head;			/* VA of coresight_kdump_list */
	uint64_t last;			/* VA of the last node's list_head */
};

/* Fields of one record (docs/record-abi.md); zero means the ABI's default. */
struct vg_rec {
	uint16_t kind;			/* 1 trace, 2 metadata */
	uint16_t flags;
	int32_t cpu;
	const char *name;
	const uint8_t *data;		/* data_len bytes in trace order */
	uint64_t data_len;
	uint64_t capacity;		/* default data_len */
	uint64_t data_offset;		/* rotate the buffer by this much */
	uint32_t trace_id;
	int vmalloc;			/* buf_paddr 0 (the reader uses buf_vaddr) */
	uint64_t stop_addr;		/* version 2 */
	uint16_t stop_reason;		/* version 2: 0 none, 1 fault, 2 panic, 3 IPI */
	uint64_t sink_status;		/* version 3: a TRBE's TRBSR */
	/* corruptions */
	uint32_t magic;			/* default 0x444b5343 */
	uint16_t version;		/* default 1, 2 with a stop_reason, 3 with a sink_status */
	uint16_t rec_size;		/* default 128 */
	int bad_crc;
};

/* A RAM image with the standard VMCOREINFO; @registry 0 leaves the keys out. */
void vg_init(struct vg *g, int registry);
/*
 * The same with the VMCOREINFO of a kernel built with @va_bits (48 or 52)
 * on a CPU with 48-bit VA (no FEAT_LVA): with 52, NUMBER(VA_BITS) is 52,
 * TCR_EL1_T1SZ stays 16, and PHYS_OFFSET is memstart_addr as 6.1's
 * arm64_memblock_init() lowers it, by _PAGE_OFFSET(48) - _PAGE_OFFSET(52),
 * so that the linear map at VG_PAGE_OFFSET is (pa - PHYS_OFFSET) |
 * PAGE_OFFSET with PAGE_OFFSET = -(1 << 52).  The memory is the same.
 */
void vg_init_va(struct vg *g, int registry, unsigned int va_bits);
void vg_free(struct vg *g);
/* Append "KEY=VALUE\n" to VMCOREINFO. */
void vg_info(struct vg *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Kernel virtual address -> pointer into the RAM image (abort if outside). */
uint8_t *vg_ptr(struct vg *g, uint64_t va, size_t len);
uint64_t vg_pa(uint64_t va);
/* Allocate @len zeroed bytes in the linear map; returns the VA. */
uint64_t vg_alloc(struct vg *g, size_t len);
/* Append a registry node holding @r; returns the record's VA. */
uint64_t vg_add_record(struct vg *g, const struct vg_rec *r);
/* An ETMv4 metadata record for @cpu with trace ID @id. */
uint64_t vg_add_etm(struct vg *g, int cpu, uint32_t id);
void vg_put64(struct vg *g, uint64_t va, uint64_t v);
/* Write the ELF vmcore; @truncate_at > 0 cuts the file to that many bytes. */
void vg_write(struct vg *g, const char *path, long truncate_at);

/*
 * Write the same memory as makedumpfile's compressed format ("KDUMP",
 * header version 6, 4 KiB blocks, zlib-compressed pages, the VMCOREINFO
 * note in the sub-header's note area), as makedumpfile -c writes it.
 */
void vg_write_kdump(struct vg *g, const char *path);

#endif
