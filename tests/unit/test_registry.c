// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test of the vmcore memory source and the registry walk, on arm64 ELF
 * vmcores written by vmcoregen (opened through libkdumpfile): good captures,
 * the same in makedumpfile's compressed format, a wrapped circular buffer, a buffer known only by its virtual address, a
 * bad CRC, a looped list, a list longer than the bound, a bad magic, a size
 * beyond the capacity, mismatched metadata, a truncated file, a vmcore
 * without the registry, and one whose records hold no saved trace.
 *
 * With "--write DIR" it also leaves its files (good.vmcore, good.kdump,
 * badcrc.vmcore, noregistry.vmcore, notrace.vmcore, ...) in DIR for the CLI
 * and valgrind tests.
 */
#include <string.h>

#include "core/extract.h"
#include "format/input.h"
#include "core/registry.h"
#include "testutil.h"
#include "vmcore/vmcore.h"
#include "vmcoregen.h"

static char *tmp;
static uint8_t trace[3000];

static void fill_trace(void)
{
	uint32_t x = 99;

	for (size_t i = 0; i < sizeof(trace); i++) {
		x = x * 1664525 + 1013904223;
		trace[i] = (uint8_t)(x >> 24);
	}
}

static uint64_t add_sink(struct vg *g, const char *name, uint64_t len, uint64_t cap,
			 uint64_t offset, int vmalloc, int bad_crc)
{
	struct vg_rec r = {
		.kind = 1, .flags = CSD_F_SAVED | CSD_F_FORMATTED | (offset ? CSD_F_WRAPPED : 0),
		.cpu = -1, .name = name, .data = trace, .data_len = len, .capacity = cap,
		.data_offset = offset, .vmalloc = vmalloc, .bad_crc = bad_crc,
	};

	return vg_add_record(g, &r);
}

/* Standard good capture: two ETMs, one wrapped sink. */
static void make_good(struct vg *g)
{
	vg_init(g, 1);
	vg_add_etm(g, 0, 0x10);
	add_sink(g, "tmc_etf0", 2048, 2048, 700, 0, 0);
	vg_add_etm(g, 1, 0x11);
}

/* Write @g, load it; returns the error, fills @d and @st. */
static enum csd_err load(struct vg *g, const char *name, long truncate_at,
			 struct csd_dump *d, struct csd_input_status *st)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", tmp, name);
	vg_write(g, path, truncate_at);
	vg_free(g);
	memset(d, 0, sizeof(*d));
	test_reset_msgs();
	return csd_input_load(path, d, st);
}

static void test_good(void)
{
	struct csd_input_status st;
	struct csd_dump d;
	struct vg g;
	enum csd_err err;

	make_good(&g);
	err = load(&g, "good.vmcore", 0, &d, &st);
	CHECK(err == CSD_OK, "good: %s", csd_strerror(err));
	CHECK(!st.partial, "good: partial");
	CHECK(d.n_sinks == 1 && d.n_etms == 2, "good: %zu sinks %zu etms", d.n_sinks, d.n_etms);
	if (d.n_sinks == 1) {
		CHECK(d.sinks[0].len == 2048 && !memcmp(d.sinks[0].data, trace, 2048),
		      "wrapped buffer unrolled in trace order");
		CHECK(!strcmp(d.sinks[0].name, "tmc_etf0"), "name %s", d.sinks[0].name);
		CHECK(d.sinks[0].flags == (CSD_F_SAVED | CSD_F_FORMATTED | CSD_F_WRAPPED), "flags");
	}
	if (d.n_etms == 2) {
		CHECK(d.etms[0].cpu == 0 && csd_etm_trace_id(&d.etms[0]) == 0x10, "etm0");
		CHECK(d.etms[1].cpu == 1 && d.etms[1].trcidr0 == 0x28000ea1 &&
		      d.etms[1].trcauthstatus == 0xcc, "etm1 registers");
	}
	CHECK(d.kaslr_offset == VG_KASLR, "KERNELOFFSET 0x%llx", (unsigned long long)d.kaslr_offset);
	CHECK(d.kernel_stext == VG_KIMAGE_VADDR + VG_KASLR + 0x10000, "_stext");
	CHECK(!strcmp(d.osrelease, "6.1.0-vmcoregen"), "osrelease %s", d.osrelease);
	csd_dump_free(&d);
}

/* The same capture in makedumpfile's compressed format. */
static void test_kdump_compressed(void)
{
	struct csd_input_status st;
	struct csd_dump d = { 0 };
	char path[4096];
	struct vg g;
	enum csd_err err;

	make_good(&g);
	snprintf(path, sizeof(path), "%s/good.kdump", tmp);
	vg_write_kdump(&g, path);
	vg_free(&g);
	test_reset_msgs();
	err = csd_input_load(path, &d, &st);
	CHECK(err == CSD_OK && !st.partial, "kdump-compressed: %s", csd_strerror(err));
	CHECK(d.n_sinks == 1 && d.n_etms == 2 && d.sinks[0].len == 2048 &&
	      !memcmp(d.sinks[0].data, trace, 2048), "kdump-compressed: same records");
	CHECK(d.kaslr_offset == VG_KASLR, "kdump-compressed: VMCOREINFO read");
	csd_dump_free(&d);
}

/*
 * A 52-bit VA kernel (64K pages, RHEL-like) on a CPU without FEAT_LVA: its
 * linear map starts at -(1 << 48), not at PAGE_OFFSET = -(1 << 52), and
 * ends at 6.1's PAGE_END, -(1 << 47).  No page tables in the image: the
 * records are read through VMCOREINFO's layout alone.
 */
static void test_va52_on_va48(void)
{
	static const char *const name[] = { "va52.vmcore", "va52.kdump" };
	struct csd_input_status st;
	char path[4096];
	struct csd_dump d;
	enum csd_err err;
	struct vg g;

	for (int kdump = 0; kdump < 2; kdump++) {
		vg_init_va(&g, 1, 52);
		vg_add_etm(&g, 0, 0x10);
		add_sink(&g, "tmc_etf0", 2048, 2048, 700, 0, 0);
		vg_add_etm(&g, 1, 0x11);
		snprintf(path, sizeof(path), "%s/%s", tmp, name[kdump]);
		if (kdump)
			vg_write_kdump(&g, path);
		else
			vg_write(&g, path, 0);
		vg_free(&g);
		memset(&d, 0, sizeof(d));
		test_reset_msgs();
		err = csd_input_load(path, &d, &st);
		CHECK(err == CSD_OK && !st.partial, "%s: %s partial %d (%s)", name[kdump],
		      csd_strerror(err), st.partial, test_msgs());
		CHECK(d.n_sinks == 1 && d.n_etms == 2, "%s: %zu sinks %zu etms", name[kdump],
		      d.n_sinks, d.n_etms);
		if (d.n_sinks == 1)
			CHECK(d.sinks[0].len == 2048 && !memcmp(d.sinks[0].data, trace, 2048),
			      "%s: trace in order", name[kdump]);
		csd_dump_free(&d);
	}
}

static void test_two_sinks_vmalloc(void)
{
	struct csd_input_status st;
	struct csd_dump d;
	struct vg g;
	enum csd_err err;

	vg_init(&g, 1);
	vg_add_etm(&g, 2, 0x12);
	add_sink(&g, "tmc_etr0", 1000, 4096, 3500, 1, 0);	/* virtual address only */
	add_sink(&g, "tmc_etf1", 16, 16, 0, 0, 0);
	err = load(&g, "vmalloc.vmcore", 0, &d, &st);
	CHECK(err == CSD_OK && d.n_sinks == 2, "two sinks: %s, %zu", csd_strerror(err), d.n_sinks);
	if (d.n_sinks == 2)
		CHECK(d.sinks[0].len == 1000 && !memcmp(d.sinks[0].data, trace, 1000) &&
		      d.sinks[1].len == 16, "buffer read by virtual address, wrapped");
	csd_dump_free(&d);
}

static void test_bad_crc(void)
{
	struct csd_input_status st;
	struct csd_dump d;
	struct vg g;
	enum csd_err err;

	vg_init(&g, 1);
	vg_add_etm(&g, 0, 0x10);
	add_sink(&g, "tmc_etf0", 512, 512, 0, 0, 1);
	add_sink(&g, "tmc_etf1", 256, 256, 0, 0, 0);
	err = load(&g, "badcrc.vmcore", 0, &d, &st);
	CHECK(err == CSD_OK, "bad crc: %s", csd_strerror(err));
	CHECK(st.partial && st.n_bad == 1, "bad crc: partial %d bad %u", st.partial, st.n_bad);
	CHECK(d.n_sinks == 1 && !strcmp(d.sinks[0].name, "tmc_etf1"), "intact sink kept");
	CHECK(strstr(test_msgs(), "CRC"), "CRC reported: %s", test_msgs());
	csd_dump_free(&d);
}

static void test_loop(void)
{
	struct csd_input_status st;
	struct csd_dump d;
	struct vg g;
	uint64_t first;
	enum csd_err err;

	vg_init(&g, 1);
	first = vg_add_etm(&g, 0, 0x10);
	add_sink(&g, "tmc_etf0", 64, 64, 0, 0, 0);
	vg_add_etm(&g, 1, 0x11);
	/* The last node points back at the first instead of the head. */
	vg_put64(&g, g.last, first + VG_NODE_LIST_OFF);
	err = load(&g, "loop.vmcore", 0, &d, &st);
	CHECK(err == CSD_OK && st.partial, "loop: %s partial %d", csd_strerror(err), st.partial);
	CHECK(d.n_sinks == 1 && d.n_etms == 2, "loop: records before the loop kept");
	CHECK(strstr(test_msgs(), "loop"), "loop reported");
	csd_dump_free(&d);
}

static void test_too_long(void)
{
	struct csd_input_status st;
	struct csd_dump d;
	struct vg g;
	enum csd_err err;

	vg_init(&g, 1);
	vg_add_etm(&g, 0, 0x10);
	add_sink(&g, "tmc_etf0", 64, 64, 0, 0, 0);
	for (int i = 0; i < CSD_REGISTRY_MAX_NODES + 5; i++) {
		struct vg_rec r = { .kind = 1, .cpu = -1, .name = "idle", .data = trace,
				    .data_len = 1 };

		vg_add_record(&g, &r);
	}
	err = load(&g, "long.vmcore", 0, &d, &st);
	CHECK(err == CSD_OK && st.partial && d.n_sinks == 1, "long list: %s", csd_strerror(err));
	CHECK(strstr(test_msgs(), "more than"), "bound reported");
	csd_dump_free(&d);
}

static void test_bad_fields(void)
{
	struct csd_input_status st;
	struct csd_dump d;
	struct vg g;
	uint64_t meta[10] = { 0x4040404040404040ull, 3, 7, 0, 0x13 };
	struct vg_rec wrong_cpu = { .kind = 2, .flags = 1, .cpu = 4, .name = "etm4",
				    .data = (uint8_t *)meta, .data_len = 80, .trace_id = 0x13 };
	struct vg_rec magic = { .kind = 1, .flags = 1, .cpu = -1, .name = "x", .data = trace,
				.data_len = 8, .magic = 0x12345678 };
	struct vg_rec version = { .kind = 1, .flags = 1, .cpu = -1, .name = "v", .data = trace,
				  .data_len = 8, .version = 4 };
	enum csd_err err;

	vg_init(&g, 1);
	vg_add_etm(&g, 0, 0x10);
	vg_add_etm(&g, 1, 0x10);			/* trace ID taken */
	vg_add_record(&g, &wrong_cpu);
	vg_add_record(&g, &magic);
	vg_add_record(&g, &version);
	add_sink(&g, "good", 100, 100, 0, 0, 0);
	/* data_len beyond capacity: patch the record written for it */
	{
		uint64_t rec = add_sink(&g, "liar", 100, 100, 0, 0, 0), big = 1000;

		memcpy(vg_ptr(&g, rec + 72, 8), &big, 8);
	}
	err = load(&g, "fields.vmcore", 0, &d, &st);
	CHECK(err == CSD_OK, "fields: %s", csd_strerror(err));
	CHECK(st.n_bad == 5, "fields: %u bad, expected 5", st.n_bad);
	CHECK(d.n_etms == 1 && d.n_sinks == 1 && !strcmp(d.sinks[0].name, "good"),
	      "only intact records kept: %zu etms %zu sinks", d.n_etms, d.n_sinks);
	CHECK(strstr(test_msgs(), "magic 0x12345678"), "magic reported");
	CHECK(strstr(test_msgs(), "exceeds capacity"), "length reported");
	CHECK(strstr(test_msgs(), "record version 4, this csdump reads 1 to 3"),
	      "version reported");
	csd_dump_free(&d);
}

static void test_truncated(void)
{
	struct csd_input_status st;
	struct csd_dump d;
	struct vg g;
	enum csd_err err;

	/* Cut inside the RAM, before the records and buffers (at 4 MiB). */
	make_good(&g);
	err = load(&g, "trunc.vmcore", 4096 + (3l << 20), &d, &st);
	CHECK(err != CSD_OK && err != CSD_ERR_NOMEM, "truncated: %s", csd_strerror(err));
	csd_dump_free(&d);
	/* Cut after the records, so a large buffer at the end is missing. */
	vg_init(&g, 1);
	vg_add_etm(&g, 0, 0x10);
	add_sink(&g, "small", 64, 64, 0, 0, 0);
	add_sink(&g, "big", 3000, 3000, 0, 0, 0);
	{
		uint64_t end_pa = g.next_free;	/* the big buffer ends here */

		err = load(&g, "trunc2.vmcore", (long)(4096 + end_pa - VG_PHYS_OFFSET - 1000),
			   &d, &st);
	}
	CHECK(err == CSD_OK && st.partial && d.n_sinks == 1 && !strcmp(d.sinks[0].name, "small"),
	      "truncated buffer: %s partial %d sinks %zu", csd_strerror(err), st.partial,
	      d.n_sinks);
	csd_dump_free(&d);
}

static void test_no_registry_no_trace(void)
{
	struct csd_input_status st;
	struct csd_dump d;
	struct vg g;
	struct vg_rec unsaved = { .kind = 1, .cpu = -1, .name = "tmc_etf0", .data = trace,
				  .data_len = 64 };
	enum csd_err err;

	vg_init(&g, 0);
	err = load(&g, "noregistry.vmcore", 0, &d, &st);
	CHECK(err == CSD_ERR_NOREGISTRY, "no registry: %s", csd_strerror(err));
	CHECK(strstr(test_msgs(), "without the coresight-kdump series"), "explained");
	csd_dump_free(&d);

	vg_init(&g, 1);
	vg_add_etm(&g, 0, 0x10);
	vg_add_record(&g, &unsaved);
	err = load(&g, "notrace.vmcore", 0, &d, &st);
	CHECK(err == CSD_ERR_NOTRACE, "no trace: %s", csd_strerror(err));
	csd_dump_free(&d);

	vg_init(&g, 1);
	err = load(&g, "empty.vmcore", 0, &d, &st);
	CHECK(err == CSD_ERR_NOTRACE, "empty registry: %s", csd_strerror(err));
	csd_dump_free(&d);
}

static void test_not_a_vmcore(void)
{
	struct csd_dump d = { 0 };
	char path[4096];

	snprintf(path, sizeof(path), "%s/junk", tmp);
	test_write(tmp, "junk", "this is not a vmcore\n", -1);
	CHECK(csd_input_load(path, &d, NULL) == CSD_ERR_FORMAT, "junk accepted");
	csd_dump_free(&d);
}

/*
 * Version 2 records say what stopped each CPU's trace: the fault on the
 * failing CPU, the crash-stop IPI on another; a version 1 record says
 * nothing, and a reason the ABI does not define is kept as it is.
 */
static void test_stop_fields(void)
{
	struct csd_input_status st;
	struct csd_dump d;
	struct vg g;
	uint64_t meta[10] = { 0x4040404040404040ull, 0, 7, 0xc1, 0x10, 0x28000ea1, 0x4100f403,
			      0x488, 0, 0xcc };
	struct vg_rec r = { .kind = 2, .flags = 1, .name = "etm", .data = (uint8_t *)meta,
			    .data_len = 80 };
	enum csd_err err;

	vg_init(&g, 1);
	r.cpu = 0, meta[1] = 0, meta[4] = r.trace_id = 0x10;
	r.stop_reason = 1, r.stop_addr = 0xffff800008123454ull;
	vg_add_record(&g, &r);
	r.cpu = 1, meta[1] = 1, meta[4] = r.trace_id = 0x12;
	r.stop_reason = 3, r.stop_addr = 0xffff800008002000ull;
	vg_add_record(&g, &r);
	r.cpu = 2, meta[1] = 2, meta[4] = r.trace_id = 0x14;
	r.stop_reason = 0, r.stop_addr = 0;
	vg_add_record(&g, &r);
	r.cpu = 3, meta[1] = 3, meta[4] = r.trace_id = 0x16;
	r.stop_reason = 9, r.stop_addr = 0;
	vg_add_record(&g, &r);
	add_sink(&g, "tmc_etf0", 100, 100, 0, 0, 0);
	err = load(&g, "stop.vmcore", 0, &d, &st);
	CHECK(err == CSD_OK, "stop: %s", csd_strerror(err));
	CHECK(st.n_bad == 0 && d.n_etms == 4, "stop: %u bad, %zu etms", st.n_bad, d.n_etms);
	if (d.n_etms == 4) {
		CHECK(d.etms[0].stop_known && d.etms[0].stop_reason == CSD_STOP_FAULT &&
		      d.etms[0].stop_addr == 0xffff800008123454ull, "cpu 0: the fault");
		CHECK(d.etms[1].stop_known && d.etms[1].stop_reason == CSD_STOP_IPI &&
		      d.etms[1].stop_addr == 0xffff800008002000ull, "cpu 1: the IPI");
		CHECK(!d.etms[2].stop_known && d.etms[2].stop_reason == CSD_STOP_NONE,
		      "cpu 2: version 1, nothing known");
		CHECK(d.etms[3].stop_known && d.etms[3].stop_reason == 9 &&
		      !csd_stop_name(d.etms[3].stop_reason), "cpu 3: an unknown reason kept");
	}
	CHECK(!strcmp(csd_stop_name(CSD_STOP_FAULT), "fault") &&
	      !strcmp(csd_stop_name(CSD_STOP_IPI), "ipi"), "stop names");
	csd_dump_free(&d);
}

/*
 * An Armv9 tracer's record holds perf's 88-byte ETE block (kernel patch
 * 0034): loaded as an ETE with its TRCDEVARCH, next to an ETMv4 of 80
 * bytes, and kept as one through an extract directory.  A block whose
 * length says one kind and whose magic or count says another is refused.
 */
static void test_ete_metadata(void)
{
	struct csd_input_status st;
	struct csd_dump d, back = { 0 };
	struct vg g;
	uint64_t ete[11] = { 0x5050505050505050ull, 0, 8, 0xc1, 0x10, 0x28000ea1, 0x4100fff0,
			     0x488, 0, 0xcc, 0x47705a13 };
	uint64_t etm[11] = { 0x4040404040404040ull, 1, 7, 0xc1, 0x12, 0x28000ea1, 0x4100f403,
			     0x488, 0, 0xcc };
	struct vg_rec r = { .kind = 2, .flags = 1, .name = "ete0", .data = (uint8_t *)ete,
			    .data_len = 88, .cpu = 0, .trace_id = 0x10 };
	char dir[4096];
	enum csd_err err;

	vg_init(&g, 1);
	vg_add_record(&g, &r);
	r = (struct vg_rec){ .kind = 2, .flags = 1, .name = "etm1", .data = (uint8_t *)etm,
			     .data_len = 80, .cpu = 1, .trace_id = 0x12 };
	vg_add_record(&g, &r);
	add_sink(&g, "tmc_etr0", 100, 100, 0, 0, 0);
	err = load(&g, "ete.vmcore", 0, &d, &st);
	CHECK(err == CSD_OK && st.n_bad == 0 && d.n_etms == 2, "ete: %s, %u bad, %zu tracers",
	      csd_strerror(err), st.n_bad, d.n_etms);
	if (d.n_etms == 2) {
		CHECK(d.etms[0].kind == CSD_TRACER_ETE && d.etms[0].trcdevarch == 0x47705a13 &&
		      d.etms[0].trcidr1 == 0x4100fff0 && csd_etm_trace_id(&d.etms[0]) == 0x10,
		      "ete: CPU 0 is an ETE with its TRCDEVARCH");
		CHECK(d.etms[1].kind == CSD_TRACER_ETM4 && d.etms[1].trcdevarch == 0,
		      "ete: CPU 1 is an ETMv4");
		snprintf(dir, sizeof(dir), "%s/ete.extract", tmp);
		err = csd_extract_write(&d, NULL, "ete.vmcore", dir);
		CHECK(err == CSD_OK, "ete: extract: %s", csd_strerror(err));
		err = csd_extract_read(dir, &back);
		CHECK(err == CSD_OK && back.n_etms == 2 && back.etms[0].kind == CSD_TRACER_ETE &&
		      back.etms[0].trcdevarch == 0x47705a13 && back.etms[1].kind == CSD_TRACER_ETM4,
		      "ete: metadata.bin keeps the ETE block (%s, %zu tracers)",
		      csd_strerror(err), back.n_etms);
		csd_dump_free(&back);
	}
	csd_dump_free(&d);

	/* ETE magic in 80 bytes; the ETMv4 block in 88; an ETE of 7 parameters. */
	vg_init(&g, 1);
	r = (struct vg_rec){ .kind = 2, .flags = 1, .name = "ete0", .data = (uint8_t *)ete,
			     .data_len = 80, .cpu = 0, .trace_id = 0x10 };
	vg_add_record(&g, &r);
	r = (struct vg_rec){ .kind = 2, .flags = 1, .name = "etm1", .data = (uint8_t *)etm,
			     .data_len = 88, .cpu = 1, .trace_id = 0x12 };
	etm[1] = 1;
	vg_add_record(&g, &r);
	ete[1] = 2, ete[2] = 7, ete[4] = 0x14;
	r = (struct vg_rec){ .kind = 2, .flags = 1, .name = "ete2", .data = (uint8_t *)ete,
			     .data_len = 88, .cpu = 2, .trace_id = 0x14 };
	vg_add_record(&g, &r);
	add_sink(&g, "tmc_etr0", 100, 100, 0, 0, 0);
	err = load(&g, "ete-bad.vmcore", 0, &d, &st);
	CHECK(st.n_bad == 3 && d.n_etms == 0, "ete-bad: %u bad, %zu tracers kept", st.n_bad,
	      d.n_etms);
	CHECK(strstr(test_msgs(), "magic 0x5050505050505050, expected 0x4040404040404040") &&
	      strstr(test_msgs(), "magic 0x4040404040404040, expected 0x5050505050505050") &&
	      strstr(test_msgs(), "has 7 parameters, expected 8"), "ete-bad: each says why: %s", test_msgs());
	csd_dump_free(&d);
}

/*
 * A TRBE's record (kernel patches 0035-0036): raw trace, in place, its CPU
 * and its one source named; csdump takes its bytes as that source's
 * stream, and so does an extract directory.  A STALE one (its CPU never
 * stopped) is kept, with a caveat that says so.
 */
static void test_trbe_record(void)
{
	struct csd_input_status st;
	struct csd_dump d, back = { 0 };
	struct csd_record rec = { .kind = CSD_REC_KIND_TRACE, .state = CSD_REC_OK };
	struct csd_registry reg = { 0 };
	struct vg g;
	struct vg_rec r = {
		.kind = 1, .flags = CSD_F_SAVED | CSD_F_IN_PLACE, .cpu = 1, .name = "trbe1",
		.data = trace, .data_len = 300, .capacity = 4096, .data_offset = 1000,
		.trace_id = 0x12, .vmalloc = 1, .stop_reason = 3,
		.stop_addr = 0xffff800008002000ull, .sink_status = 0x520001,
	};
	char dir[4096];
	bool caveat = false;
	const char *why;
	enum csd_err err;

	vg_init(&g, 1);
	vg_add_etm(&g, 1, 0x12);
	vg_add_record(&g, &r);
	err = load(&g, "trbe.vmcore", 0, &d, &st);
	/* Version 3 (a sink_status): read as version 2 is, the status aside. */
	CHECK(err == CSD_OK && st.n_bad == 0 && d.n_sinks == 1, "trbe: %s, %u bad, %zu sinks",
	      csd_strerror(err), st.n_bad, d.n_sinks);
	if (d.n_sinks == 1) {
		CHECK(!(d.sinks[0].flags & CSD_F_FORMATTED) && d.sinks[0].source_known &&
		      d.sinks[0].source_id == 0x12 && !d.sinks[0].one_source &&
		      d.sinks[0].len == 300 && !memcmp(d.sinks[0].data, trace, 300),
		      "trbe: the raw bytes, as the trace of source 0x12");
		snprintf(dir, sizeof(dir), "%s/trbe.extract", tmp);
		err = csd_extract_write(&d, NULL, "trbe.vmcore", dir);
		CHECK(err == CSD_OK, "trbe: extract: %s", csd_strerror(err));
		err = csd_extract_read(dir, &back);
		CHECK(err == CSD_OK && back.n_sinks == 1 && back.sinks[0].source_known &&
		      back.sinks[0].source_id == 0x12, "trbe: summary.txt keeps the source");
		csd_dump_free(&back);
	}
	csd_dump_free(&d);

	rec.flags = CSD_F_SAVED | CSD_F_IN_PLACE | CSD_F_WRAPPED | CSD_F_STALE;
	why = csd_rec_verdict(&reg, &rec, &caveat);
	CHECK(why && strstr(why, "stale") && caveat, "trbe: a stale record's caveat: %s",
	      why ? why : "none");
	rec.flags = CSD_F_STALE;
	vg_init(&g, 1);
	r.flags = CSD_F_STALE;
	vg_add_record(&g, &r);
	load(&g, "trbe-stale.vmcore", 0, &d, &st);
	CHECK(st.n_bad == 1 && strstr(test_msgs(), "stale without saved"),
	      "trbe: stale without saved is refused: %s", test_msgs());
	csd_dump_free(&d);
}

/*
 * A version 2 sink record that names its one source, holding frames with
 * no trace ID (one source's wrapped buffer): loaded as a raw sink of that
 * source.  The same bytes named by no source stay formatted.
 */
static void test_one_source_sink(void)
{
	struct csd_input_status st;
	struct csd_dump d;
	struct vg g;
	uint8_t frames[32];
	struct vg_rec r = { .kind = 1, .flags = CSD_F_SAVED | CSD_F_FORMATTED, .cpu = -1,
			    .name = "tmc_etf1", .data = frames, .data_len = sizeof(frames),
			    .trace_id = 0x12, .version = 2 };
	enum csd_err err;

	for (size_t i = 0; i < sizeof(frames); i++)
		frames[i] = (uint8_t)(i % 16 == 15 ? 0 : (i * 2) & 0xfe);
	vg_init(&g, 1);
	vg_add_etm(&g, 1, 0x12);
	vg_add_record(&g, &r);
	r.name = "tmc_etf2";
	r.trace_id = 0;
	vg_add_record(&g, &r);
	err = load(&g, "onesource.vmcore", 0, &d, &st);
	CHECK(err == CSD_OK && d.n_sinks == 2, "one source: %s, %zu sinks", csd_strerror(err),
	      d.n_sinks);
	if (d.n_sinks == 2) {
		CHECK(!(d.sinks[0].flags & CSD_F_FORMATTED) && d.sinks[0].source_known &&
		      d.sinks[0].source_id == 0x12 && d.sinks[0].len == 30,
		      "tmc_etf1: a raw sink of 0x12 (%zu bytes)", d.sinks[0].len);
		CHECK((d.sinks[1].flags & CSD_F_FORMATTED) && !d.sinks[1].source_known &&
		      d.sinks[1].len == sizeof(frames), "tmc_etf2: formatted, as saved");
	}
	csd_dump_free(&d);
}

int main(int argc, char **argv)
{
	const char *keep = argc > 2 && !strcmp(argv[1], "--write") ? argv[2] : NULL;

	test_capture_msgs();
	fill_trace();
	tmp = keep ? strdup(keep) : test_tmpdir("registry");
	test_good();
	test_kdump_compressed();
	test_two_sinks_vmalloc();
	test_va52_on_va48();
	test_bad_crc();
	test_loop();
	test_too_long();
	test_bad_fields();
	test_stop_fields();
	test_ete_metadata();
	test_trbe_record();
	test_one_source_sink();
	test_truncated();
	test_no_registry_no_trace();
	test_not_a_vmcore();
	if (!keep)
		test_rmtree(tmp);
	free(tmp);
	return test_result("test_registry");
}
