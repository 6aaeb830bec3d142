// SPDX-License-Identifier: GPL-2.0
/*
 * corrupt_gen DIR [--good-only]: write the vmcores of the corrupt-input suite
 * into DIR (only the good one with --good-only).
 *
 * Every case starts from the good capture of tests/unit/vmcoregen (an arm64
 * ELF vmcore laid out from docs/record-abi.md) and breaks one thing: the file
 * (another architecture, truncation, no VMCOREINFO), VMCOREINFO's keys, the
 * list links, one record's fields, a buffer address, or the metadata.
 *
 * For each NAME.vmcore, NAME.expect/ holds what `csdump extract` must write
 * from the records that are intact: cstrace.bin (the first intact sink's
 * bytes in trace order), <device>.bin for each sink when there are several,
 * and metadata.bin (the intact ETMv4 blocks, in list order, ten u64 each).
 * These come from the bytes the generator put in, not from csdump.
 * tests/corrupt/vmcore.sh says what csdump must answer for each case.
 */
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vmcoregen.h"

#define F_SAVED		1u
#define F_WRAPPED	2u
#define F_FORMATTED	4u
/* The flags of the kernels with NUMBER(CORESIGHT_KDUMP_FLAGS) (patches 0010, 0015). */
#define F_FAILED	0x10u
#define F_FAULTED	0x20u
#define F_FLUSH_TIMEOUT	0x40u
#define UNMAPPED_VA	0xffff000100000000ull	/* beyond the 8 MiB of RAM */
#define UNMAPPED_PA	0x7f000000ull
#define NOTE_OFF	(sizeof(Elf64_Ehdr) + 2 * sizeof(Elf64_Phdr))	/* vg_write's layout */
#define RAM_OFF		4096ul
#define HEAD_FILE_OFF	(RAM_OFF + 0x280000)	/* coresight_kdump_list in the file */

/* Offsets in a record (docs/record-abi.md). */
#define R_MAGIC		0
#define R_VERSION	4
#define R_SIZE		6
#define R_KIND		8
#define R_CPU		12
#define R_NAME		16
#define R_VADDR		48
#define R_PADDR		56
#define R_CAPACITY	64
#define R_LEN		72
#define R_OFFSET	80
#define R_CRC		88

static const char *dir;
static uint8_t trace[8192];

/* What extract must write: sinks and metadata blocks of the intact records. */
struct expect {
	struct {
		char name[32];
		const uint8_t *data;
		size_t len;
	} sinks[8];
	size_t n_sinks;
	uint64_t meta[8][10];
	size_t n_meta;
};

static void die(const char *what)
{
	fprintf(stderr, "corrupt_gen: %s: %s\n", what, strerror(errno));
	exit(1);
}

static char *path_of(const char *name, const char *suffix)
{
	static char buf[4][4096];
	static int i;
	char *p = buf[i++ % 4];

	snprintf(p, sizeof(buf[0]), "%s/%s%s", dir, name, suffix);
	return p;
}

static void write_file(const char *path, const void *buf, size_t len)
{
	FILE *f = fopen(path, "wb");

	if (!f || fwrite(buf, 1, len, f) != len || fclose(f))
		die(path);
}

static void patch_file(const char *path, long off, const void *buf, size_t len)
{
	FILE *f = fopen(path, "r+b");

	if (!f || fseek(f, off, SEEK_SET) || fwrite(buf, 1, len, f) != len || fclose(f))
		die(path);
}

static void put(struct vg *g, uint64_t va, const void *v, size_t len)
{
	memcpy(vg_ptr(g, va, len), v, len);
}

static void put32(struct vg *g, uint64_t va, uint32_t v) { put(g, va, &v, 4); }

static uint64_t sink(struct vg *g, struct expect *e, const char *name, size_t len,
		     uint64_t cap, uint64_t offset, int intact)
{
	struct vg_rec r = {
		.kind = 1, .flags = F_SAVED | F_FORMATTED | (offset ? F_WRAPPED : 0), .cpu = -1,
		.name = name, .data = trace, .data_len = len, .capacity = cap,
		.data_offset = offset,
	};

	if (intact && e) {
		snprintf(e->sinks[e->n_sinks].name, 32, "%s", name);
		e->sinks[e->n_sinks].data = trace;
		e->sinks[e->n_sinks++].len = len;
	}
	return vg_add_record(g, &r);
}

/* An ETMv4 metadata record: @meta_cpu in the block, @traceidr its register. */
static uint64_t etm_full(struct vg *g, struct expect *e, int cpu, uint64_t meta_cpu,
			 uint32_t id, uint64_t traceidr, int intact)
{
	uint64_t meta[10] = {
		0x4040404040404040ull, meta_cpu, 7,
		0xc1, traceidr, 0x28000ea1, 0x4100f403, 0x488, 0, 0xcc,
	};
	char name[32];
	struct vg_rec r = {
		.kind = 2, .flags = F_SAVED, .cpu = cpu, .name = name,
		.data = (const uint8_t *)meta, .data_len = sizeof(meta), .trace_id = id,
	};

	snprintf(name, sizeof(name), "etm%d", cpu);
	if (intact && e)
		memcpy(e->meta[e->n_meta++], meta, sizeof(meta));
	return vg_add_record(g, &r);
}

static uint64_t etm(struct vg *g, struct expect *e, int cpu, uint32_t id, int intact)
{
	return etm_full(g, e, cpu, (uint64_t)cpu, id, id, intact);
}

/* The good capture: ETM 0, a wrapped ETF, ETM 1. */
static void good(struct vg *g, struct expect *e)
{
	vg_init(g, 1);
	etm(g, e, 0, 0x10, 1);
	sink(g, e, "tmc_etf0", 2048, 2048, 700, 1);
	etm(g, e, 1, 0x11, 1);
}

static void write_expect(const char *name, const struct expect *e)
{
	char *d = path_of(name, ".expect");

	if (mkdir(d, 0755) && errno != EEXIST)
		die(d);
	for (size_t i = 0; i < e->n_sinks; i++) {
		char f[4200];

		if (i == 0) {
			snprintf(f, sizeof(f), "%s/cstrace.bin", d);
			write_file(f, e->sinks[i].data, e->sinks[i].len);
		}
		if (e->n_sinks > 1) {
			snprintf(f, sizeof(f), "%s/%s.bin", d, e->sinks[i].name);
			write_file(f, e->sinks[i].data, e->sinks[i].len);
		}
	}
	{
		char f[4200];

		snprintf(f, sizeof(f), "%s/metadata.bin", d);
		write_file(f, e->meta, e->n_meta * sizeof(e->meta[0]));
	}
}

/* Write @g as NAME.vmcore (and its expectation when @e is given). */
static void emit(struct vg *g, const char *name, const struct expect *e, long truncate_at)
{
	vg_write(g, path_of(name, ".vmcore"), truncate_at);
	if (e)
		write_expect(name, e);
	vg_free(g);
}

/* ---- the file ------------------------------------------------------------ */

static void file_cases(void)
{
	struct expect e = { 0 };
	struct vg g;
	uint16_t x86 = EM_X86_64, exec = ET_EXEC;
	uint8_t junk[65536];
	uint32_t x = 7;
	struct stat st;
	const char *p;

	good(&g, &e);
	emit(&g, "good", &e, 0);
	good(&g, NULL);
	vg_write_kdump(&g, path_of("good", ".kdump"));
	vg_free(&g);

	/* Another architecture: the same dump, e_machine x86-64. */
	good(&g, NULL);
	emit(&g, "arch-x86", NULL, 0);
	patch_file(path_of("arch-x86", ".vmcore"), offsetof(Elf64_Ehdr, e_machine), &x86, 2);
	/* The compressed format names the machine in its utsname. */
	good(&g, NULL);
	vg_write_kdump(&g, path_of("arch-kdump-x86", ".vmcore"));
	vg_free(&g);
	patch_file(path_of("arch-kdump-x86", ".vmcore"), 12 + 65 * 4, "x86_64\0", 8);
	/* An ELF file, but an executable, not a core dump. */
	good(&g, NULL);
	emit(&g, "elf-not-core", NULL, 0);
	patch_file(path_of("elf-not-core", ".vmcore"), offsetof(Elf64_Ehdr, e_type), &exec, 2);

	write_file(path_of("text", ".vmcore"), "this is not a vmcore\n", 21);
	write_file(path_of("empty", ".vmcore"), "", 0);
	for (size_t i = 0; i < sizeof(junk); i++) {
		x = x * 1664525 + 1013904223;
		junk[i] = (uint8_t)(x >> 24);
	}
	write_file(path_of("random", ".vmcore"), junk, sizeof(junk));

	/* Truncated: in the ELF header, the program headers, the note, before
	 * the RAM, before the registry head, and by its last byte only. */
	static const struct { const char *name; long at; } cuts[] = {
		{ "trunc-ehdr", 40 }, { "trunc-phdrs", 120 }, { "trunc-note", NOTE_OFF + 40 },
		{ "trunc-noram", RAM_OFF }, { "trunc-head", HEAD_FILE_OFF - 4096 },
	};
	for (size_t i = 0; i < sizeof(cuts) / sizeof(cuts[0]); i++) {
		good(&g, NULL);
		emit(&g, cuts[i].name, NULL, cuts[i].at);
	}
	good(&g, NULL);
	emit(&g, "trunc-lastbyte", &e, (long)(RAM_OFF + VG_RAM_SIZE - 1));
	/* Cut inside the second sink's buffer: the first sink and ETM 0 stay. */
	{
		struct expect e2 = { 0 };
		uint64_t end;

		vg_init(&g, 1);
		sink(&g, &e2, "tmc_etf0", 1024, 1024, 0, 1);
		etm(&g, &e2, 0, 0x10, 1);
		sink(&g, NULL, "tmc_etr0", 8192, 8192, 0, 0);
		end = g.next_free;
		emit(&g, "trunc-buffer", &e2, (long)(RAM_OFF + end - VG_PHYS_OFFSET - 4096));
	}
	/* The compressed format: header, bitmaps, page data. */
	good(&g, NULL);
	vg_write_kdump(&g, path_of("trunc-kdump-header", ".vmcore"));
	vg_free(&g);
	p = path_of("trunc-kdump-header", ".vmcore");
	if (stat(p, &st) || truncate(p, 300))
		die(p);
	/* Only the signature; cut inside the sub-header (the second block). */
	p = path_of("trunc-kdump-signature", ".vmcore");
	good(&g, NULL);
	vg_write_kdump(&g, p);
	vg_free(&g);
	if (truncate(p, 8))
		die(p);
	p = path_of("trunc-kdump-subheader", ".vmcore");
	good(&g, NULL);
	vg_write_kdump(&g, p);
	vg_free(&g);
	if (truncate(p, 4096 + 100))
		die(p);
	p = path_of("trunc-kdump-half", ".vmcore");
	good(&g, NULL);
	vg_write_kdump(&g, p);
	vg_free(&g);
	if (stat(p, &st) || truncate(p, st.st_size / 2))
		die(p);
	p = path_of("trunc-kdump-bitmap", ".vmcore");
	good(&g, NULL);
	vg_write_kdump(&g, p);
	vg_free(&g);
	if (truncate(p, 2 * 4096 + 100))
		die(p);

	/* VMCOREINFO missing: the note renamed. */
	good(&g, NULL);
	emit(&g, "vmcoreinfo-missing", NULL, 0);
	patch_file(path_of("vmcoreinfo-missing", ".vmcore"), NOTE_OFF + 12, "XMCOREINFO", 10);
	/* VMCOREINFO replaced by binary garbage of the same length. */
	{
		size_t n;

		good(&g, NULL);
		n = g.info_len;
		emit(&g, "vmcoreinfo-binary", NULL, 0);
		patch_file(path_of("vmcoreinfo-binary", ".vmcore"), NOTE_OFF + 24, junk, n);
	}
}

/* ---- VMCOREINFO's keys ---------------------------------------------------- */

/* The good capture with the registry keys given here (NULL: left out). */
static void keys_case(const char *name, const char *version, const char *symbol,
		      const char *size, const char *offset, int intact)
{
	struct expect e = { 0 };
	struct vg g;

	vg_init(&g, 0);
	if (version)
		vg_info(&g, "NUMBER(CORESIGHT_KDUMP_VERSION)=%s\n", version);
	if (symbol)
		vg_info(&g, "SYMBOL(coresight_kdump_list)=%s\n", symbol);
	if (size)
		vg_info(&g, "SIZE(coresight_kdump_record)=%s\n", size);
	if (offset)
		vg_info(&g, "OFFSET(coresight_kdump_node.list)=%s\n", offset);
	etm(&g, &e, 0, 0x10, 1);
	sink(&g, &e, "tmc_etf0", 2048, 2048, 700, 1);
	etm(&g, &e, 1, 0x11, 1);
	emit(&g, name, intact ? &e : NULL, 0);
}

static void vmcoreinfo_cases(void)
{
	char head[32];

	snprintf(head, sizeof(head), "%llx",
		 (unsigned long long)(VG_KIMAGE_VADDR + VG_KASLR + 0x80000));
	keys_case("vmcoreinfo-noregistry", NULL, NULL, NULL, NULL, 0);
	keys_case("vmcoreinfo-only-symbol", NULL, head, NULL, NULL, 0);
	keys_case("vmcoreinfo-symbol-garbage", "1", "zz-not-hex", "128", "128", 0);
	keys_case("vmcoreinfo-symbol-empty", "1", "", "128", "128", 0);
	keys_case("vmcoreinfo-symbol-huge", "1", "1ffffffffffffffffff", "128", "128", 0);
	keys_case("vmcoreinfo-size-small", "1", head, "12", "128", 0);
	keys_case("vmcoreinfo-size-negative", "1", head, "-128", "128", 0);
	keys_case("vmcoreinfo-offset-odd", "1", head, "128", "13", 0);
	keys_case("vmcoreinfo-offset-huge", "1", head, "128", "99999999999999999999999", 0);
	keys_case("vmcoreinfo-version-garbage", "one", head, "128", "128", 0);
	keys_case("vmcoreinfo-version-future", "4", head, "128", "128", 1);
	keys_case("vmcoreinfo-head-unmapped", "1", "ffff000100000000", "128", "128", 0);
	keys_case("vmcoreinfo-head-null", "1", "0", "128", "128", 0);
}

/* ---- the list -------------------------------------------------------------- */

static void list_cases(void)
{
	struct expect e;
	struct vg g;
	uint64_t a, b;

	/* head.next into unmapped memory: no record at all. */
	vg_init(&g, 1);
	sink(&g, NULL, "tmc_etf0", 512, 512, 0, 0);
	vg_put64(&g, g.head, UNMAPPED_VA);
	emit(&g, "list-first-unmapped", NULL, 0);

	/* A node's next into unmapped memory: the nodes before it stay. */
	memset(&e, 0, sizeof(e));
	vg_init(&g, 1);
	sink(&g, &e, "tmc_etf0", 512, 512, 0, 1);
	a = etm(&g, &e, 0, 0x10, 1);
	etm(&g, NULL, 1, 0x11, 0);
	vg_put64(&g, a + VG_NODE_LIST_OFF, UNMAPPED_VA);
	emit(&g, "list-next-unmapped", &e, 0);

	/* A misaligned and a NULL next: ETM 0 and the sink stay. */
	memset(&e, 0, sizeof(e));
	vg_init(&g, 1);
	etm(&g, &e, 0, 0x10, 1);
	a = sink(&g, &e, "tmc_etf0", 512, 512, 0, 1);
	etm(&g, NULL, 1, 0x11, 0);
	vg_put64(&g, a + VG_NODE_LIST_OFF, a + VG_NODE_LIST_OFF + 0x203);
	emit(&g, "list-next-misaligned", &e, 0);
	memset(&e, 0, sizeof(e));
	vg_init(&g, 1);
	etm(&g, &e, 0, 0x10, 1);
	a = sink(&g, &e, "tmc_etf0", 512, 512, 0, 1);
	etm(&g, NULL, 1, 0x11, 0);
	vg_put64(&g, a + VG_NODE_LIST_OFF, 0);
	emit(&g, "list-next-null", &e, 0);

	/* A node pointing at itself. */
	memset(&e, 0, sizeof(e));
	vg_init(&g, 1);
	sink(&g, &e, "tmc_etf0", 512, 512, 0, 1);
	a = etm(&g, &e, 0, 0x10, 1);
	vg_put64(&g, a + VG_NODE_LIST_OFF, a + VG_NODE_LIST_OFF);
	emit(&g, "list-loop-self", &e, 0);

	/* The last node pointing back at the first. */
	memset(&e, 0, sizeof(e));
	vg_init(&g, 1);
	a = sink(&g, &e, "tmc_etf0", 512, 512, 0, 1);
	etm(&g, &e, 0, 0x10, 1);
	b = etm(&g, &e, 1, 0x11, 1);
	vg_put64(&g, b + VG_NODE_LIST_OFF, a + VG_NODE_LIST_OFF);
	emit(&g, "list-loop-earlier", &e, 0);

	/* The head's next pointing at the head's prev slot (a two-node cycle
	 * through the head itself is the normal end; this one is not). */
	vg_init(&g, 1);
	vg_put64(&g, g.head, g.head + 8);
	vg_put64(&g, g.head + 8, g.head + 8);
	emit(&g, "list-loop-head", NULL, 0);
}

/* ---- one record ------------------------------------------------------------ */

/* The good capture plus a second sink "victim" (returned) to be broken. */
static uint64_t with_victim(struct vg *g, struct expect *e)
{
	uint64_t v;

	memset(e, 0, sizeof(*e));
	vg_init(g, 1);
	etm(g, e, 0, 0x10, 1);
	sink(g, e, "tmc_etf0", 2048, 2048, 700, 1);
	v = sink(g, NULL, "victim", 1000, 4096, 3500, 0);
	etm(g, e, 1, 0x11, 1);
	return v;
}

/* One field of the victim's record set to a bad value. */
static const struct {
	const char *name;
	unsigned int off, width;
	uint64_t value;
} bad_fields[] = {
	{ "rec-magic", R_MAGIC, 4, 0x12345678 },
	{ "rec-version", R_VERSION, 2, 4 },
	{ "rec-version-zero", R_VERSION, 2, 0 },
	{ "rec-size-small", R_SIZE, 2, 64 },
	{ "rec-size-huge", R_SIZE, 2, 0xffff },
	{ "rec-kind", R_KIND, 2, 7 },
	{ "rec-len-over-capacity", R_LEN, 8, 5000 },		/* capacity 4096 */
	{ "rec-capacity-4g", R_CAPACITY, 8, 4ull << 30 },
	{ "rec-capacity-zero", R_CAPACITY, 8, 0 },
	{ "rec-offset-over-capacity", R_OFFSET, 8, 4096 },
	{ "rec-bad-crc", R_CRC, 4, 0xdeadbeef },
};

static void record_cases(void)
{
	struct expect e;
	struct vg g;
	uint64_t v;

	for (size_t i = 0; i < sizeof(bad_fields) / sizeof(bad_fields[0]); i++) {
		uint64_t le = bad_fields[i].value;	/* the host is little-endian too */

		v = with_victim(&g, &e);
		put(&g, v + bad_fields[i].off, &le, bad_fields[i].width);
		emit(&g, bad_fields[i].name, &e, 0);
	}

	v = with_victim(&g, &e);
	memset(vg_ptr(&g, v + R_NAME, 32), 'A', 32);
	emit(&g, "rec-name-unterminated", &e, 0);

	/* 1 GiB is within the bound: the buffer itself is not in the dump. */
	v = with_victim(&g, &e);
	vg_put64(&g, v + R_CAPACITY, 1ull << 30);
	vg_put64(&g, v + R_LEN, 1ull << 30);
	vg_put64(&g, v + R_OFFSET, 0);
	emit(&g, "rec-capacity-1g", &e, 0);

	/* The buffer nowhere: both addresses unmapped. */
	v = with_victim(&g, &e);
	vg_put64(&g, v + R_VADDR, UNMAPPED_VA);
	vg_put64(&g, v + R_PADDR, UNMAPPED_PA);
	emit(&g, "buf-unmapped", &e, 0);

	/* A buffer whose end wraps past the top of the address space. */
	v = with_victim(&g, &e);
	vg_put64(&g, v + R_VADDR, 0xfffffffffffff800ull);
	vg_put64(&g, v + R_PADDR, 0xfffffffffffff800ull);
	emit(&g, "buf-wraps-address-space", &e, 0);

	/* A bad physical address but a good virtual one: read by the latter. */
	memset(&e, 0, sizeof(e));
	vg_init(&g, 1);
	etm(&g, &e, 0, 0x10, 1);
	v = sink(&g, &e, "tmc_etf0", 2048, 2048, 700, 1);
	vg_put64(&g, v + R_PADDR, UNMAPPED_PA);
	emit(&g, "buf-paddr-unmapped", &e, 0);

	/* Only bad records: nothing to extract. */
	vg_init(&g, 1);
	v = sink(&g, NULL, "tmc_etf0", 512, 512, 0, 0);
	put32(&g, v + R_CRC, 0xdeadbeef);
	emit(&g, "rec-all-bad", NULL, 0);

	/* Intact, but nothing saved. */
	{
		struct vg_rec unsaved = { .kind = 1, .cpu = -1, .name = "tmc_etf0",
					  .data = trace, .data_len = 64 };

		vg_init(&g, 1);
		etm(&g, NULL, 0, 0x10, 0);
		vg_add_record(&g, &unsaved);
		emit(&g, "rec-unsaved", NULL, 0);
	}
}

/* ---- the metadata ------------------------------------------------------------ */

/* ETM 0 and the good sink, intact: the start of every metadata case. */
static void meta_base(struct vg *g, struct expect *e)
{
	memset(e, 0, sizeof(*e));
	vg_init(g, 1);
	etm(g, e, 0, 0x10, 1);
	sink(g, e, "tmc_etf0", 2048, 2048, 700, 1);
}

static void metadata_cases(void)
{
	/* A bad ETM 1: record CPU, block CPU, record trace ID, TRCTRACEIDR. */
	static const struct {
		const char *name;
		int cpu;
		uint64_t meta_cpu;
		uint32_t id, traceidr;
	} bad[] = {
		{ "meta-traceid-0x70", 1, 1, 0x70, 0x70 },	/* reserved IDs */
		{ "meta-traceid-0x7f", 1, 1, 0x7f, 0x7f },
		{ "meta-traceid-0", 1, 1, 0, 0 },
		{ "meta-traceid-mismatch", 1, 1, 0x11, 0x12 },
		{ "meta-cpu-mismatch", 1, 3, 0x11, 0x11 },	/* the block names CPU 3 */
	};
	struct expect e;
	struct vg g;
	uint64_t v;

	/* Two records for CPU 0, two CPUs with one trace ID: the first is kept. */
	meta_base(&g, &e);
	etm(&g, NULL, 0, 0x12, 0);
	etm(&g, &e, 1, 0x11, 1);
	emit(&g, "meta-dup-cpu", &e, 0);
	meta_base(&g, &e);
	etm(&g, NULL, 1, 0x10, 0);
	etm(&g, &e, 2, 0x12, 1);
	emit(&g, "meta-traceid-collide", &e, 0);

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		meta_base(&g, &e);
		etm_full(&g, NULL, bad[i].cpu, bad[i].meta_cpu, bad[i].id, bad[i].traceidr, 0);
		emit(&g, bad[i].name, &e, 0);
	}

	/* Metadata of the wrong length (must be 80 bytes); record CPU -1. */
	meta_base(&g, &e);
	v = etm(&g, NULL, 1, 0x11, 0);
	vg_put64(&g, v + R_LEN, 72);
	emit(&g, "meta-short", &e, 0);
	meta_base(&g, &e);
	v = etm(&g, NULL, 1, 0x11, 0);
	put32(&g, v + R_CPU, 0xffffffff);
	emit(&g, "meta-cpu-negative", &e, 0);
}

/* ---- the save's outcome (record-abi.md's FAILED, FAULTED, FLUSH_TIMEOUT) ---- */

/*
 * The good capture plus a sink "victim" whose record says @flags, nothing
 * saved in it, from a kernel that publishes NUMBER(CORESIGHT_KDUMP_FLAGS)
 * (@flags_key; 0: an older kernel).  With @alone, the victim is the only sink.
 */
static void outcome_case(const char *name, uint16_t flags, int flags_key, int alone)
{
	struct expect e = { 0 };
	struct vg_rec victim = { .kind = 1, .flags = flags, .cpu = -1, .name = "victim",
				 .data = trace, .capacity = 4096 };
	struct vg g;

	vg_init(&g, 1);
	if (flags_key)
		vg_info(&g, "NUMBER(CORESIGHT_KDUMP_FLAGS)=127\n");
	etm(&g, &e, 0, 0x10, 1);
	if (!alone)
		sink(&g, &e, "tmc_etf0", 2048, 2048, 700, 1);
	vg_add_record(&g, &victim);
	etm(&g, &e, 1, 0x11, 1);
	emit(&g, name, alone ? NULL : &e, 0);
}

static void outcome_cases(void)
{
	struct expect e = { 0 };
	struct vg_rec late = { .kind = 1, .cpu = -1, .name = "tmc_etf0", .data = trace,
			       .data_len = 2048,
			       .flags = F_SAVED | F_FORMATTED | F_FLUSH_TIMEOUT | 0x8000 };
	struct vg g;

	outcome_case("save-faulted", F_FAILED | F_FAULTED, 1, 0);
	outcome_case("save-notready", F_FAILED | F_FLUSH_TIMEOUT, 1, 0);
	outcome_case("save-gave-up", F_FAILED, 1, 0);
	outcome_case("save-not-run", 0, 1, 0);
	outcome_case("save-not-run-old-kernel", 0, 0, 0);
	outcome_case("save-faulted-only-sink", F_FAILED | F_FAULTED, 1, 1);
	/* Contradictions: the kernel never writes them. */
	outcome_case("save-saved-and-failed", F_SAVED | F_FAILED, 1, 0);
	outcome_case("save-faulted-not-failed", F_FAULTED, 1, 0);
	outcome_case("save-timeout-alone", F_FLUSH_TIMEOUT, 1, 0);
	/* Saved, its flush late, and a bit no kernel defines yet: extracted whole. */
	vg_init(&g, 1);
	vg_info(&g, "NUMBER(CORESIGHT_KDUMP_FLAGS)=127\n");
	etm(&g, &e, 0, 0x10, 1);
	vg_add_record(&g, &late);
	snprintf(e.sinks[0].name, 32, "tmc_etf0");
	e.sinks[0].data = trace;
	e.sinks[e.n_sinks++].len = 2048;
	emit(&g, "save-flush-timeout", &e, 0);
}

int main(int argc, char **argv)
{
	uint32_t x = 99;

	if (argc < 2 || (argc == 3 && strcmp(argv[2], "--good-only")) || argc > 3) {
		fprintf(stderr, "usage: corrupt_gen DIR [--good-only]\n");
		return 1;
	}
	dir = argv[1];
	/* CoreSight frames of trace ID 0x10 with (seeded) random payload. */
	for (size_t i = 0; i < sizeof(trace); i++) {
		x = x * 1664525 + 1013904223;
		trace[i] = (uint8_t)(x >> 24);
		if (i % 16 == 0)
			trace[i] = 0x10 << 1 | 1;	/* ID change to 0x10 */
		else if (i % 16 == 15)
			trace[i] = 0;			/* auxiliary bits */
		else if (i % 2 == 0)
			trace[i] &= 0xfe;		/* a data byte */
	}
	if (argc == 3) {
		struct expect e = { 0 };
		struct vg g;

		good(&g, &e);
		emit(&g, "good", &e, 0);
		return 0;
	}
	file_cases();
	vmcoreinfo_cases();
	list_cases();
	record_cases();
	metadata_cases();
	outcome_cases();
	return 0;
}
