// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test of module code from a vmcore (src/decode/modtext.c) on memory
 * built by hand: a vmap_area list as a 6.1 arm64 kernel lays it out (va_start
 * at 0, va_end at 8, list at 40; VMCOREINFO says 0 and 40), with areas in the
 * 2 GiB below _stext and above it, a guard page, an area vmlinux covers, one
 * named twice, one inside out, an area over the whole kernel half, a list
 * that never returns to its head, and VMCOREINFO without the keys.  The
 * pages expected are written down from the layout, not from the code.
 */
#include <string.h>

#include "core/diag.h"
#include "decode/modtext.h"
#include "testutil.h"

#define PAGE		4096u
#define STEXT		0xffff800008010000ull
#define HEAD		0xffff800008600000ull	/* SYMBOL(vmap_area_list) */
#define AREAS		0xffff000010000000ull	/* the vmap_area structs (linear map) */
#define AREA_SIZE	64u
#define MOD1		0xffff800000370000ull	/* 2 pages mapped, a guard page after */
#define MOD3		0xffff800000400000ull	/* covered by the image ("vmlinux") */
#define MOD5		0xffff800000600000ull	/* 1 page */
#define ABOVE		0xffff800009000000ull	/* above _stext: not module space */

struct region {
	uint64_t vaddr;
	size_t len;
	uint8_t *data;
};

struct fake {
	struct region r[8];
	size_t n;
	const char *info;
	uint8_t areas[16 * AREA_SIZE];
	uint8_t head[16];
	uint8_t mod1[2 * PAGE], mod3[PAGE], mod5[PAGE], above[PAGE];
};

static enum csd_err fake_read(void *priv, enum csd_space space, uint64_t addr, void *buf,
			      size_t len)
{
	struct fake *f = priv;

	if (space != CSD_KVADDR)
		return CSD_ERR_UNMAPPED;
	for (size_t i = 0; i < f->n; i++)
		if (addr >= f->r[i].vaddr && addr - f->r[i].vaddr <= f->r[i].len &&
		    len <= f->r[i].len - (addr - f->r[i].vaddr)) {
			memcpy(buf, f->r[i].data + (addr - f->r[i].vaddr), len);
			return CSD_OK;
		}
	return CSD_ERR_UNMAPPED;
}

static const char *fake_info(void *priv)
{
	return ((struct fake *)priv)->info;
}

static void fake_close(void *priv)
{
	(void)priv;
}

static const struct csd_mem_ops fake_ops = { fake_read, fake_info, fake_close };

static const char INFO[] =
	"OSRELEASE=6.1.0\nPAGESIZE=4096\nSYMBOL(_stext)=ffff800008010000\n"
	"SYMBOL(vmap_area_list)=ffff800008600000\nOFFSET(vmap_area.va_start)=0\n"
	"OFFSET(vmap_area.list)=40\n";

static void put64(uint8_t *p, uint64_t v)
{
	memcpy(p, &v, 8);
}

static uint64_t list_of(int i)
{
	return AREAS + (uint64_t)i * AREA_SIZE + 40;
}

/* Area @i: [@start, @end), its list's next the area @next (-1: the head). */
static void area(struct fake *f, int i, uint64_t start, uint64_t end, int next)
{
	uint8_t *a = f->areas + i * AREA_SIZE;

	put64(a, start);
	put64(a + 8, end);
	put64(a + 40, next < 0 ? HEAD : list_of(next));
}

static void region(struct fake *f, uint64_t vaddr, void *data, size_t len)
{
	f->r[f->n++] = (struct region){ vaddr, len, data };
}

/* The list head -> area 0 -> 1 -> ... as set by area(); every page patterned. */
static void fake_init(struct fake *f, const char *info)
{
	memset(f, 0, sizeof(*f));
	f->info = info;
	put64(f->head, list_of(0));
	region(f, HEAD, f->head, sizeof(f->head));
	region(f, AREAS, f->areas, sizeof(f->areas));
	memset(f->mod1, 0x11, PAGE);
	memset(f->mod1 + PAGE, 0x12, PAGE);
	memset(f->mod3, 0x33, PAGE);
	memset(f->mod5, 0x55, PAGE);
	memset(f->above, 0x99, PAGE);
	region(f, MOD1, f->mod1, sizeof(f->mod1));
	region(f, MOD3, f->mod3, sizeof(f->mod3));
	region(f, MOD5, f->mod5, sizeof(f->mod5));
	region(f, ABOVE, f->above, sizeof(f->above));
}

/* A dump whose image holds "vmlinux" over MOD3's page. */
static void dump_init(struct csd_dump *d)
{
	uint8_t *img = calloc(1, PAGE);

	memset(d, 0, sizeof(*d));
	d->kernel_stext = STEXT;
	CHECK(img && csd_dump_add_seg(d, "vmlinux", MOD3, img, PAGE), "image");
}

static int run(struct fake *f, struct csd_dump *d, size_t max_runs, struct csd_modtext *mt)
{
	struct csd_mem m = { .ops = &fake_ops, .priv = f };

	return csd_modtext_read(d, &m, max_runs, mt);
}

static bool seg_is(const struct csd_dump *d, size_t i, uint64_t vaddr, const uint8_t *want,
		   size_t len)
{
	return i < d->n_segs && d->segs[i].vaddr == vaddr && d->segs[i].len == len &&
	       d->segs[i].module && !memcmp(d->segs[i].data, want, len);
}

static void test_areas(void)
{
	struct csd_modtext mt;
	struct csd_dump d;
	struct fake f;

	fake_init(&f, INFO);
	area(&f, 0, MOD1, MOD1 + 3 * PAGE, 1);		/* the third page a guard */
	area(&f, 1, ABOVE, ABOVE + PAGE, 2);		/* above _stext */
	area(&f, 2, MOD3, MOD3 + PAGE, 3);		/* vmlinux's */
	area(&f, 3, MOD5 + PAGE, MOD5, 4);		/* inside out */
	area(&f, 4, MOD5, MOD5 + PAGE, 5);
	area(&f, 5, MOD1, MOD1 + 2 * PAGE, -1);		/* MOD1 again */
	dump_init(&d);
	CHECK(run(&f, &d, CSD_MODTEXT_MAX_RUNS, &mt) == CSD_OK, "read");
	CHECK(mt.runs == 2 && mt.bytes == 3 * PAGE && mt.areas == 6 && !mt.cut && !mt.why,
	      "runs %zu bytes %zu areas %zu cut %d why %s", mt.runs, mt.bytes, mt.areas,
	      mt.cut, mt.why ? mt.why : "-");
	CHECK(d.n_segs == 3, "%zu segments: vmlinux and 2 runs", d.n_segs);
	CHECK(seg_is(&d, 1, MOD1, f.mod1, 2 * PAGE), "MOD1's 2 pages, one run");
	CHECK(seg_is(&d, 2, MOD5, f.mod5, PAGE), "MOD5's page");
	csd_dump_free(&d);

	/* At most one run: the rest is left out, and said. */
	dump_init(&d);
	CHECK(run(&f, &d, 1, &mt) == CSD_OK && mt.runs == 1 && mt.cut && d.n_segs == 2,
	      "max_runs 1: runs %zu cut %d", mt.runs, mt.cut);
	csd_dump_free(&d);
}

static void test_hostile(void)
{
	struct csd_modtext mt;
	struct csd_dump d;
	struct fake f;

	/* An area over the whole kernel half: only the window's mapped pages. */
	fake_init(&f, INFO);
	area(&f, 0, 0xffff000000000000ull, 0xfffffffffffff000ull, -1);
	dump_init(&d);
	CHECK(run(&f, &d, CSD_MODTEXT_MAX_RUNS, &mt) == CSD_OK && mt.runs == 2 &&
	      mt.bytes == 3 * PAGE && d.n_segs == 3, "whole half: runs %zu bytes %zu",
	      mt.runs, mt.bytes);
	csd_dump_free(&d);

	/* A list that never comes back to its head: bounded, and said. */
	fake_init(&f, INFO);
	area(&f, 0, MOD1, MOD1 + 2 * PAGE, 1);
	area(&f, 1, MOD5, MOD5 + PAGE, 1);		/* its own next */
	dump_init(&d);
	CHECK(run(&f, &d, CSD_MODTEXT_MAX_RUNS, &mt) == CSD_OK && mt.why &&
	      mt.areas == CSD_MODTEXT_MAX_AREAS + 1 && mt.runs == 2 && mt.bytes == 3 * PAGE,
	      "cycle: areas %zu runs %zu why %s", mt.areas, mt.runs, mt.why ? mt.why : "-");
	csd_dump_free(&d);

	/* A next pointer into nothing. */
	fake_init(&f, INFO);
	area(&f, 0, MOD1, MOD1 + 2 * PAGE, 1);
	put64(f.areas + 40, 0xffff0000dead0028ull);
	dump_init(&d);
	CHECK(run(&f, &d, CSD_MODTEXT_MAX_RUNS, &mt) == CSD_OK && mt.why && mt.runs == 1,
	      "cut list: runs %zu why %s", mt.runs, mt.why ? mt.why : "-");
	csd_dump_free(&d);

	/* No keys, or no _stext: nothing, and why. */
	fake_init(&f, "PAGESIZE=4096\n");
	dump_init(&d);
	CHECK(run(&f, &d, CSD_MODTEXT_MAX_RUNS, &mt) == CSD_OK && mt.why && !mt.runs &&
	      d.n_segs == 1, "no keys");
	d.kernel_stext = 0;
	fake_init(&f, INFO);
	CHECK(run(&f, &d, CSD_MODTEXT_MAX_RUNS, &mt) == CSD_OK && mt.why && !mt.runs,
	      "no _stext");
	csd_dump_free(&d);
}

int main(void)
{
	test_capture_msgs();
	test_areas();
	test_hostile();
	return test_result("modtext");
}
