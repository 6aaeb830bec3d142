// SPDX-License-Identifier: GPL-2.0
/*
 * etm4enc: ETMv4 packet encoder. Packet formats from the ETMv4 architecture
 * specification (IHI0064), chapter "Descriptions of trace packets".
 */
#include "etm4.h"

#include <string.h>

#include "a64.h"
#include "rng.h"

/* Packet headers */
#define H_ASYNC		0x00	/* 11 x 0x00, then 0x80 */
#define H_TRACE_INFO	0x01
#define H_TIMESTAMP	0x02	/* | 1: a cycle count follows */
#define H_TRACE_ON	0x04
#define H_EXCEPTION	0x06
#define H_CCNT_F1	0x0e
#define H_EXCEPT_RTN	0x07
#define H_ADDR_CTXT_32	0x82
#define H_ADDR_CTXT_64	0x85
#define H_ADDR_MATCH	0x90	/* + history index 0..2 */
#define H_ADDR_S_IS0	0x95
#define H_ADDR_L_32	0x9a
#define H_ADDR_L_64	0x9d
#define H_ATOM_F1	0xf6	/* | E */
#define H_ATOM_F2	0xd8	/* | atoms[1:0] */
#define H_ATOM_F3	0xf8	/* | atoms[2:0] */
#define H_ATOM_F6	0xc0	/* | A << 5 | count: count + 3 E, then N if A else E */

#define CCNT_THRESHOLD	4

void etm4_regs(const struct etm4_cfg *cfg, unsigned int cpu, struct csd_etm *r)
{
	r->cpu = cpu;
	/* TRCCONFIGR: bit 0 RES1 on ETMv4.0, CCI 4, CID 6, VMID 7, TS 11, RS 12 */
	r->trcconfigr = 1u | (cfg->cycle_count ? 1u << 4 : 0) |
			(cfg->ctxid ? 1u << 6 : 0) | (cfg->vmid ? 1u << 7 : 0) |
			(cfg->timestamps ? 1u << 11 : 0) | (cfg->retstack ? 1u << 12 : 0);
	r->trctraceidr = cfg->trace_id;
	/*
	 * TRCIDR0: RES1, TRCBB, TRCCCI, RETSTACK, NUMEVENT=4, TSSIZE=64 bits,
	 * COMMOPT=1 (no commit fields in cycle count packets).
	 */
	r->trcidr0 = 0x28000ea1;
	/* TRCIDR1: designer Arm, ETMv4.0 revision 2 */
	r->trcidr1 = 0x4100f402;
	/* TRCIDR2: IASIZE 64-bit, CIDSIZE 32-bit, VMIDSIZE 8-bit, CCSIZE 12 */
	r->trcidr2 = 0x00000488;
	r->trcidr8 = 0;		/* MAXSPEC 0: every P0 element is committed */
	r->trcauthstatus = 0xcc;
}

void etm4_init(struct etm4_enc *e, const struct etm4_cfg *cfg)
{
	memset(e, 0, sizeof(*e));
	e->cfg = *cfg;
	if (!e->cfg.sync_period)
		e->cfg.sync_period = 4096;
	e->rng = cfg->seed ^ ((uint64_t)cfg->trace_id << 48);
	e->ts = 0x100000 + rng_below(&e->rng, 1ull << 40);
	e->atom_limit = 1 + (unsigned int)rng_below(&e->rng, 24);
}

void etm4_free(struct etm4_enc *e)
{
	buf_free(&e->out);
}

static void put(struct etm4_enc *e, uint8_t b)
{
	buf_put1(&e->out, b);
}

static void hdr(struct etm4_enc *e, uint8_t b)
{
	e->n_packets++;
	put(e, b);
}

/* Atom packets, oldest atom in bit 0. Format 4 and 5 patterns. */
static const uint8_t f4_pat[4] = { 0xe, 0x0, 0xa, 0x5 };
static const struct { uint8_t hdr, pat; } f5[4] = {
	{ 0xf5, 0x1e }, { 0xd5, 0x00 }, { 0xd6, 0x0a }, { 0xd7, 0x15 },
};

/* A cycle count field: COUNT[6:0], COUNT[13:7] (12-bit counter: two bytes). */
static void put_count(struct etm4_enc *e)
{
	uint32_t cc = CCNT_THRESHOLD + (uint32_t)rng_below(&e->rng, 4000);

	put(e, (uint8_t)((cc & 0x7f) | (cc > 0x7f ? 0x80 : 0)));
	if (cc > 0x7f)
		put(e, (uint8_t)((cc >> 7) & 0x7f));
}

static unsigned int leading_e(uint32_t atoms, unsigned int n)
{
	unsigned int i = 0;

	while (i < n && (atoms >> i & 1))
		i++;
	return i;
}

static void flush_atoms(struct etm4_enc *e)
{
	uint32_t a = e->atoms;
	unsigned int n = e->n_atoms;

	while (n) {
		unsigned int run = leading_e(a, n), used = 0, i;

		if (run >= 3 && run < n && run <= 23) {
			/* Format 6: run E atoms then one N (A = 1). */
			hdr(e, (uint8_t)(H_ATOM_F6 | 0x20 | (run - 3)));
			used = run + 1;
		} else if (run >= 4) {
			unsigned int k = run > 24 ? 24 : run;

			/* Format 6: k - 1 E atoms then one E (A = 0). */
			hdr(e, (uint8_t)(H_ATOM_F6 | (k - 4)));
			used = k;
		}
		for (i = 0; !used && n >= 5 && i < 4; i++)
			if ((a & 0x1f) == f5[i].pat) {
				hdr(e, f5[i].hdr);
				used = 5;
			}
		for (i = 0; !used && n >= 4 && i < 4; i++)
			if ((a & 0xf) == f4_pat[i]) {
				hdr(e, 0xdc | i);
				used = 4;
			}
		if (!used) {
			if (n >= 3) {
				hdr(e, H_ATOM_F3 | (a & 7));
				used = 3;
			} else if (n == 2) {
				hdr(e, H_ATOM_F2 | (a & 3));
				used = 2;
			} else {
				hdr(e, H_ATOM_F1 | (a & 1));
				used = 1;
			}
		}
		a >>= used;
		n -= used;
	}
	if (e->n_atoms && e->cfg.cycle_count) {
		/* Cycle count format 1, no commit field (COMMOPT = 1). */
		hdr(e, H_CCNT_F1);
		put_count(e);
	}
	e->ts += 1 + rng_below(&e->rng, 64);
	e->atoms = 0;
	e->n_atoms = 0;
	e->atom_limit = 1 + (unsigned int)rng_below(&e->rng, 24);
}

static void add_atom(struct etm4_enc *e, bool taken)
{
	e->atoms |= (uint32_t)taken << e->n_atoms;
	if (++e->n_atoms >= e->atom_limit)
		flush_atoms(e);
}

static void hist_push(struct etm4_enc *e, uint64_t addr)
{
	e->hist[2] = e->hist[1];
	e->hist[1] = e->hist[0];
	e->hist[0] = addr;
}

static void put_le(struct etm4_enc *e, uint64_t v, unsigned int bytes)
{
	while (bytes--) {
		put(e, (uint8_t)v);
		v >>= 8;
	}
}

/* Long address IS0 payload: A[8:2], A[15:9], A[23:16], A[31:24] (, A[63:32]). */
static void put_long_is0(struct etm4_enc *e, uint64_t addr, bool is64)
{
	put(e, (addr >> 2) & 0x7f);
	put(e, (addr >> 9) & 0x7f);
	put(e, (uint8_t)(addr >> 16));
	put(e, (uint8_t)(addr >> 24));
	if (is64)
		put_le(e, addr >> 32, 4);
}

static void put_context(struct etm4_enc *e, uint8_t el, uint32_t ctxid)
{
	bool c = e->cfg.ctxid, v = e->cfg.vmid;

	/* C, V, NS, SF (AArch64), EL */
	put(e, (uint8_t)((c ? 0x80 : 0) | (v ? 0x40 : 0) | 0x20 | 0x10 | (el & 3)));
	if (v)
		put(e, e->vmid);
	if (c)
		put_le(e, ctxid, 4);
	e->el = el;
	e->ctxid = ctxid;
}

static void emit_addr_ctxt(struct etm4_enc *e, uint64_t addr, uint8_t el, uint32_t ctxid)
{
	bool is64 = (addr >> 32) != (e->hist[0] >> 32);

	hdr(e, is64 ? H_ADDR_CTXT_64 : H_ADDR_CTXT_32);
	put_long_is0(e, addr, is64);
	put_context(e, el, ctxid);
	hist_push(e, addr);
}

static void emit_addr(struct etm4_enc *e, uint64_t addr)
{
	uint64_t diff = addr ^ e->hist[0];
	unsigned int i;

	if (e->cfg.exact_match)
		for (i = 0; i < 3; i++)
			if (addr == e->hist[i]) {
				hdr(e, (uint8_t)(H_ADDR_MATCH + i));
				hist_push(e, addr);
				return;
			}
	if (!(diff >> 9)) {
		hdr(e, H_ADDR_S_IS0);
		put(e, (addr >> 2) & 0x7f);
	} else if (!(diff >> 17)) {
		hdr(e, H_ADDR_S_IS0);
		put(e, (uint8_t)(0x80 | ((addr >> 2) & 0x7f)));
		put(e, (uint8_t)(addr >> 9));
	} else {
		bool is64 = diff >> 32;

		hdr(e, is64 ? H_ADDR_L_64 : H_ADDR_L_32);
		put_long_is0(e, addr, is64);
	}
	hist_push(e, addr);
}

/* Target address of a step: with a context packet when the context changed. */
static void emit_target(struct etm4_enc *e, const struct step *s)
{
	bool ctx_changed = s->el != e->el ||
			   (e->cfg.ctxid && s->ctxid != e->ctxid);

	if (ctx_changed)
		emit_addr_ctxt(e, s->target, s->el, s->ctxid);
	else
		emit_addr(e, s->target);
}

/*
 * Timestamp packet: the low-order bits of the timestamp that changed since
 * the last one traced (all of them after a sync), 7 bits a byte with a
 * continuation bit, the ninth byte 8 bits; then a cycle count when counting.
 */
static void emit_timestamp(struct etm4_enc *e, bool full)
{
	uint64_t v = e->ts, diff = full ? v : v ^ e->ts_traced;
	unsigned int bits = 1, n, i;

	while (bits < 64 && diff >> bits)
		bits++;
	n = bits > 56 ? 9 : (bits + 6) / 7;
	hdr(e, H_TIMESTAMP | (e->cfg.cycle_count ? 1 : 0));
	for (i = 0; i < n; i++) {
		if (i == 8)
			put(e, (uint8_t)(v >> 56));
		else
			put(e, (uint8_t)(((v >> (7 * i)) & 0x7f) | (i + 1 < n ? 0x80 : 0)));
	}
	if (e->cfg.cycle_count)
		put_count(e);
	e->ts_traced = v;
	e->n_timestamps++;
}

static void emit_sync(struct etm4_enc *e, bool trace_on, uint64_t pc, uint8_t el,
		      uint32_t ctxid)
{
	unsigned int i;

	flush_atoms(e);
	hdr(e, H_ASYNC);
	for (i = 0; i < 10; i++)
		put(e, 0x00);
	put(e, 0x80);
	hdr(e, H_TRACE_INFO);
	/* PLCTL: INFO section, and the cycle count threshold when counting */
	put(e, e->cfg.cycle_count ? 0x09 : 0x01);
	put(e, e->cfg.cycle_count ? 0x01 : 0x00);	/* INFO: CC enabled */
	if (e->cfg.cycle_count)
		put(e, CCNT_THRESHOLD);
	if (e->cfg.timestamps)
		emit_timestamp(e, true);
	if (trace_on)
		hdr(e, H_TRACE_ON);
	/*
	 * A decoder may start here (a wrapped buffer): forget the address
	 * history (Trace Info resets it) and the return stack.
	 */
	memset(e->hist, 0, sizeof(e->hist));
	e->rs_n = 0;
	emit_addr_ctxt(e, pc, el, ctxid);
	e->sync_at = e->drained + e->out.len;
}

void etm4_start(struct etm4_enc *e, uint64_t pc, uint8_t el, uint32_t ctxid)
{
	emit_sync(e, true, pc, el, ctxid);
	e->started = true;
}

void etm4_trace_on(struct etm4_enc *e, uint64_t pc, uint8_t el, uint32_t ctxid)
{
	flush_atoms(e);
	e->ts += 1000 + rng_below(&e->rng, 100000);	/* time passed untraced */
	if (e->cfg.timestamps)
		emit_timestamp(e, false);
	hdr(e, H_TRACE_ON);
	/* Calls and returns went untraced: the return stack is stale. */
	e->rs_n = 0;
	emit_addr_ctxt(e, pc, el, ctxid);
}

static void rs_push(struct etm4_enc *e, uint64_t addr)
{
	if (e->rs_n == ETM4_RS_DEPTH) {
		memmove(e->rs, e->rs + 1, (ETM4_RS_DEPTH - 1) * sizeof(e->rs[0]));
		e->rs_n--;
	}
	e->rs[e->rs_n++] = addr;
}

/* A return whose target is the top of the return stack needs no address. */
static bool rs_predicts(struct etm4_enc *e, const struct step *s)
{
	if (!e->cfg.retstack || s->kind != A64_RET || !e->rs_n)
		return false;
	if (e->rs[e->rs_n - 1] != s->target)
		return false;
	e->rs_n--;
	return true;
}

void etm4_step(struct etm4_enc *e, const struct step *s)
{
	if (e->drained + e->out.len - e->sync_at >= e->cfg.sync_period)
		emit_sync(e, false, s->start, e->el, e->ctxid);

	if (s->end == STEP_EXCEPTION) {
		flush_atoms(e);
		hdr(e, H_EXCEPTION);
		/* C = 0, E1:E0 = 0b01: return address follows */
		put(e, (uint8_t)(((s->exc_type & 0x1f) << 1) | 1));
		emit_addr(e, step_ret_addr(s));
		emit_target(e, s);
		return;
	}

	add_atom(e, s->taken);
	if (!s->taken)
		return;
	if (a64_links(s->kind) && e->cfg.retstack)
		rs_push(e, step_last(s) + 4);
	if (!a64_is_indirect(s->kind) || rs_predicts(e, s))
		return;
	flush_atoms(e);
	emit_target(e, s);
	if (s->kind == A64_ERET)
		hdr(e, H_EXCEPT_RTN);
}

void etm4_flush(struct etm4_enc *e)
{
	flush_atoms(e);
}

void etm4_drain(struct etm4_enc *e)
{
	e->drained += e->out.len;
	e->out.len = 0;
}
