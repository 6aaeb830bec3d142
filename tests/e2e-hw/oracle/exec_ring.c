// SPDX-License-Identifier: GPL-2.0
/*
 * exec_ring: a QEMU TCG plugin that keeps, per vCPU, the last blocks of
 * guest code it executed, as QEMU's plugin interface reports them: the
 * oracle of the real-execution trace tests.  It shares nothing with the
 * trace unit model (that one is called from target/arm; this one is a
 * stock plugin) nor with csdump.
 *
 *   -plugin exec_ring.so,out=DIR,freeze=ADDR[,code=HEX...][,freeze=...]
 *           [,slide=ALIGN][,ring=N]
 *
 * A vCPU stops recording when it executes a block that starts at one of
 * the freeze addresses (the tests pass machine_kexec: the panicking CPU
 * runs it after the trace was saved, before the capture kernel; the other
 * CPUs stop executing at the crash-stop IPI).  A kernel with KASLR runs
 * at an offset known only once it booted: with slide=ALIGN (a power of
 * two: arm64 moves its image by multiples of 2 MiB), a block at ADDR plus
 * any multiple of ALIGN in the kernel's half of the address space counts,
 * if its first instructions are the code=HEX words (each a 32-bit
 * instruction, as in vmlinux at ADDR) given after that freeze=.  At exit each vCPU's
 * ring goes to DIR/cpuN.ring: records of { u64 start, u32 insns,
 * u32 frozen } oldest first, little endian.
 *
 * QEMU 7.2 reports a block's address as translated; a translation is
 * reused only at that address for the kernel's text (TARGET_TB_PCREL
 * aliases are other mappings of the same page, not used by the tests).
 */
#include <glib.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <qemu-plugin.h>

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

#define MAX_FREEZE 8
#define MAX_CODE 8
#define KERNEL_HALF 0xffff000000000000ull
#define MAX_CPUS 64

struct block {
	uint64_t start;
	uint32_t insns;
	int freeze;
};

struct ring {
	uint64_t *start;
	uint32_t *insns;
	uint64_t n;		/* blocks recorded, ever */
	int frozen;
};

static struct ring rings[MAX_CPUS];
struct freeze {
	uint64_t addr;
	uint32_t code[MAX_CODE];
	int n_code;
};

static struct freeze freeze_at[MAX_FREEZE];
static int n_freeze;
static uint64_t slide;
static uint64_t ring_size = 1u << 21;
static char *out_dir;

static void tb_exec(unsigned int cpu, void *udata)
{
	const struct block *b = udata;
	struct ring *r;
	uint64_t i;

	if (cpu >= MAX_CPUS)
		return;
	r = &rings[cpu];
	if (r->frozen)
		return;
	if (!r->start) {
		r->start = g_new0(uint64_t, ring_size);
		r->insns = g_new0(uint32_t, ring_size);
	}
	i = r->n++ % ring_size;
	r->start[i] = b->start;
	r->insns[i] = b->insns;
	if (b->freeze)
		r->frozen = 1;
}

/* Is the block at @start, @tb, the one @f names? */
static int freezes(const struct freeze *f, uint64_t start, struct qemu_plugin_tb *tb)
{
	int i;

	if (slide ? start < KERNEL_HALF || (start - f->addr) % slide : start != f->addr)
		return 0;
	if ((size_t)f->n_code > qemu_plugin_tb_n_insns(tb))
		return 0;
	for (i = 0; i < f->n_code; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		const uint8_t *p = qemu_plugin_insn_data(insn);
		uint32_t w;

		if (qemu_plugin_insn_size(insn) != 4)
			return 0;
		w = p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
		if (w != f->code[i])
			return 0;
	}
	return 1;
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	struct block *b = g_new0(struct block, 1);
	int i;

	(void)id;
	b->start = qemu_plugin_tb_vaddr(tb);
	b->insns = (uint32_t)qemu_plugin_tb_n_insns(tb);
	for (i = 0; i < n_freeze; i++)
		if (freezes(&freeze_at[i], b->start, tb))
			b->freeze = 1;
	qemu_plugin_register_vcpu_tb_exec_cb(tb, tb_exec, QEMU_PLUGIN_CB_NO_REGS, b);
}

static void put_le(FILE *f, uint64_t v, int bytes)
{
	while (bytes--) {
		fputc((int)(v & 0xff), f);
		v >>= 8;
	}
}

static void at_exit(qemu_plugin_id_t id, void *p)
{
	int cpu;

	(void)id;
	(void)p;
	for (cpu = 0; cpu < MAX_CPUS; cpu++) {
		struct ring *r = &rings[cpu];
		uint64_t first = r->n > ring_size ? r->n - ring_size : 0, k;
		char *path, *tmp;
		FILE *f;

		if (!r->n)
			continue;
		path = g_strdup_printf("%s/cpu%d.ring", out_dir, cpu);
		tmp = g_strdup_printf("%s.tmp", path);
		f = fopen(tmp, "wb");
		if (!f) {
			fprintf(stderr, "exec_ring: %s: cannot write\n", tmp);
		} else {
			for (k = first; k < r->n; k++) {
				put_le(f, r->start[k % ring_size], 8);
				put_le(f, r->insns[k % ring_size], 4);
				put_le(f, (uint64_t)r->frozen, 4);
			}
			if (fclose(f) || rename(tmp, path))
				fprintf(stderr, "exec_ring: %s: cannot write\n", path);
		}
		g_free(tmp);
		g_free(path);
	}
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
					   int argc, char **argv)
{
	int i;

	(void)info;
	for (i = 0; i < argc; i++) {
		const char *a = argv[i];

		if (!strncmp(a, "out=", 4)) {
			out_dir = g_strdup(a + 4);
		} else if (!strncmp(a, "freeze=", 7) && n_freeze < MAX_FREEZE) {
			freeze_at[n_freeze++].addr = strtoull(a + 7, NULL, 0);
		} else if (!strncmp(a, "code=", 5) && n_freeze &&
			   freeze_at[n_freeze - 1].n_code < MAX_CODE) {
			struct freeze *f = &freeze_at[n_freeze - 1];

			f->code[f->n_code++] = (uint32_t)strtoul(a + 5, NULL, 16);
		} else if (!strncmp(a, "slide=", 6)) {
			slide = strtoull(a + 6, NULL, 0);
			if (slide & (slide - 1)) {
				fprintf(stderr, "exec_ring: slide=%s is not a power of two\n", a + 6);
				return -1;
			}
		} else if (!strncmp(a, "ring=", 5)) {
			ring_size = strtoull(a + 5, NULL, 0);
		} else {
			fprintf(stderr, "exec_ring: unknown argument '%s'\n", a);
			return -1;
		}
	}
	if (!out_dir || !ring_size) {
		fprintf(stderr, "exec_ring: out=DIR is required\n");
		return -1;
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
