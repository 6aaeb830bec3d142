// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile-memory test of the registry walk: a good registry (vmcoregen's RAM
 * image) is damaged at random (bytes of records, list pointers and buffers
 * overwritten, thousands of times, fixed seed) and read through an in-memory
 * memory source.  Under ASan/UBSan nothing may crash, loop or leak, and what
 * is accepted must be intact: every sink's bytes have the CRC its record
 * states, every ETM's block is one the kernel could have written.
 */
#include <string.h>
#include <zlib.h>

#include "core/diag.h"
#include "core/registry.h"
#include "testutil.h"
#include "vmcoregen.h"

#define ITERATIONS 4000

struct fake {
	const struct vg *g;
	uint8_t *ram;		/* the generator's RAM, damaged and restored */
};

static enum csd_err fake_read(void *priv, enum csd_space space, uint64_t addr,
			      void *buf, size_t len)
{
	struct fake *f = priv;
	uint64_t pa;

	if (space == CSD_KVADDR) {
		/* The generator's two mappings, without aborting on others. */
		if (addr >= VG_PAGE_OFFSET && addr - VG_PAGE_OFFSET < VG_RAM_SIZE)
			pa = addr - VG_PAGE_OFFSET + VG_PHYS_OFFSET;
		else if (addr >= VG_KIMAGE_VADDR + VG_KASLR &&
			 addr - (VG_KIMAGE_VADDR + VG_KASLR) < 0x100000)
			pa = addr - (VG_KIMAGE_VADDR + VG_KASLR) + VG_KERNEL_PA;
		else
			return CSD_ERR_UNMAPPED;
	} else {
		pa = addr;
	}
	if (pa < VG_PHYS_OFFSET || pa - VG_PHYS_OFFSET > VG_RAM_SIZE ||
	    len > VG_RAM_SIZE - (pa - VG_PHYS_OFFSET))
		return CSD_ERR_UNMAPPED;
	memcpy(buf, f->ram + (pa - VG_PHYS_OFFSET), len);
	return CSD_OK;
}

static const char *fake_info(void *priv)
{
	return ((struct fake *)priv)->g->info;
}

static void fake_close(void *priv)
{
	(void)priv;
}

static const struct csd_mem_ops fake_ops = { fake_read, fake_info, fake_close };

static void quiet(enum csd_level level, const char *msg, void *arg)
{
	(void)level;
	(void)msg;
	(void)arg;
}

static uint32_t rnd(uint32_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 17;
	*x ^= *x << 5;
	return *x;
}

static void check_intact(const struct csd_registry *reg, const struct csd_dump *d)
{
	size_t sink = 0;

	for (size_t i = 0; i < reg->n; i++) {
		const struct csd_record *r = &reg->recs[i];

		if (r->state != CSD_REC_OK || r->kind != CSD_REC_KIND_TRACE)
			continue;
		CHECK(sink < d->n_sinks, "an intact trace record without its sink");
		if (sink >= d->n_sinks)
			return;
		CHECK(crc32(0, d->sinks[sink].data, (uInt)d->sinks[sink].len) == r->data_crc &&
		      d->sinks[sink].len == r->data_len, "sink %zu accepted with a wrong CRC", sink);
		sink++;
	}
	for (size_t i = 0; i < d->n_etms; i++)
		CHECK(csd_trace_id_valid(csd_etm_trace_id(&d->etms[i])),
		      "ETM with trace ID 0x%x accepted", csd_etm_trace_id(&d->etms[i]));
}

int main(void)
{
	static uint8_t trace[4000];
	struct vg g;
	struct fake f;
	struct csd_mem m = { .ops = &fake_ops, .priv = &f, .name = "fake" };
	uint32_t x = 0x12345678;
	size_t outcomes[3] = { 0 };
	uint64_t lo, hi;

	/* Silence the library: thousands of reports are expected. */
	csd_set_msg_handler(quiet, NULL);
	for (size_t i = 0; i < sizeof(trace); i++)
		trace[i] = (uint8_t)rnd(&x);
	vg_init(&g, 1);
	for (int cpu = 0; cpu < 4; cpu++)
		vg_add_etm(&g, cpu, 0x10 + (uint32_t)cpu);
	for (int s = 0; s < 3; s++) {
		struct vg_rec r = { .kind = 1, .flags = CSD_F_SAVED | CSD_F_FORMATTED, .cpu = -1,
				    .name = s ? "tmc_etf1" : "tmc_etr0", .data = trace,
				    .data_len = 1000u + 700u * (unsigned int)s, .capacity = 3000,
				    .data_offset = 500u * (unsigned int)s, .vmalloc = s == 2 };

		vg_add_record(&g, &r);
	}
	lo = vg_pa(VG_PAGE_OFFSET + 0x400000) - VG_PHYS_OFFSET;	/* the arena */
	hi = g.next_free - VG_PHYS_OFFSET;
	f.g = &g;
	f.ram = g.ram;
	for (int it = 0; it < ITERATIONS; it++) {
		struct csd_registry reg;
		struct csd_dump d = { 0 };
		int n = 1 + (int)(rnd(&x) % 4);
		uint64_t saved_at[4], saved[4];
		enum csd_err err;

		for (int k = 0; k < n; k++) {
			uint64_t at = (lo + rnd(&x) % (hi - lo)) & ~7ull;

			saved_at[k] = at;
			memcpy(&saved[k], f.ram + at, 8);
			if (rnd(&x) % 4 == 0) {
				/* a whole pointer: somewhere plausible, or anywhere */
				uint64_t v = rnd(&x) % 2 ? VG_PAGE_OFFSET + lo + rnd(&x) % (hi - lo) :
					     (uint64_t)rnd(&x) << 32 | rnd(&x);

				memcpy(f.ram + at, &v, 8);
			} else {
				f.ram[at + rnd(&x) % 8] ^= (uint8_t)(1u << (rnd(&x) % 8));
			}
		}
		err = csd_registry_load(&m, &reg, &d);
		outcomes[err == CSD_OK ? 0 : err == CSD_ERR_NOTRACE ? 1 : 2]++;
		if (err == CSD_OK)
			check_intact(&reg, &d);
		csd_registry_free(&reg);
		csd_dump_free(&d);
		/* Undo the damage, last first (two may share a word). */
		for (int k = n - 1; k >= 0; k--)
			memcpy(f.ram + saved_at[k], &saved[k], 8);
		if (test_failures)
			break;
	}
	printf("%d damaged registries: %zu loaded, %zu without trace, %zu refused\n",
	       ITERATIONS, outcomes[0], outcomes[1], outcomes[2]);
	CHECK(outcomes[0] > ITERATIONS / 4, "too few survived: the damage is not local");
	vg_free(&g);
	return test_result("test_registry_mutate");
}
