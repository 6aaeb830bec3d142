/* SPDX-License-Identifier: GPL-2.0 */
/*
 * etm4enc: ETMv4 instruction trace packet encoder (IHI0064 chapter 6).
 *
 * Models one trace unit: an ETMv4.0 with 64-bit IS0 addresses, 32-bit context
 * IDs, 8-bit VMIDs, a 12-bit cycle counter, no speculation (TRCIDR8.MAXSPEC
 * = 0) and TRCIDR0.COMMOPT = 1, tracing AArch64 code. Feed it the path one
 * step at a time; it appends the packets to its byte stream.
 */
#ifndef ETM4ENC_ETM4_H
#define ETM4ENC_ETM4_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "core/dump.h"
#include "path.h"

#define ETM4_RS_DEPTH 15

struct etm4_cfg {
	uint8_t trace_id;	/* 0x01..0x6f */
	bool cycle_count;	/* TRCCONFIGR.CCI */
	bool ctxid;		/* TRCCONFIGR.CID */
	bool vmid;		/* TRCCONFIGR.VMID */
	bool retstack;		/* TRCCONFIGR.RS */
	bool timestamps;	/* TRCCONFIGR.TS: at each sync and Trace On */
	bool exact_match;	/* use Exact Match Address packets */
	uint32_t sync_period;	/* bytes of trace between A-sync + Trace Info */
	uint64_t seed;		/* atom grouping and cycle counts */
};

struct etm4_enc {
	struct etm4_cfg cfg;
	struct buf out;		/* the trace unit's byte stream */
	uint64_t drained;	/* bytes handed out by etm4_drain() */
	uint64_t sync_at;	/* stream offset of the last synchronisation */
	uint64_t hist[3];	/* address history, [0] the most recent */
	uint64_t rs[ETM4_RS_DEPTH];
	unsigned int rs_n;
	uint32_t atoms;		/* pending atoms, bit 0 the oldest, 1 = E */
	unsigned int n_atoms;
	unsigned int atom_limit;
	uint64_t rng;
	uint32_t ctxid;		/* context last traced */
	uint8_t el;
	uint8_t vmid;
	uint64_t ts;		/* the timestamp counter */
	uint64_t ts_traced;	/* the last value traced */
	bool started;
	/* statistics */
	uint64_t n_packets;
	uint64_t n_timestamps;
};

/* The register values a decoder needs for CPU @cpu, consistent with the trace. */
void etm4_regs(const struct etm4_cfg *cfg, unsigned int cpu, struct csd_etm *regs);

void etm4_init(struct etm4_enc *e, const struct etm4_cfg *cfg);
void etm4_free(struct etm4_enc *e);
/* Trace starts: A-sync, Trace Info, Trace On, address and context of @pc. */
void etm4_start(struct etm4_enc *e, uint64_t pc, uint8_t el, uint32_t ctxid);
/*
 * Trace resumes at @pc after a gap (filtered out, or not modelled): Trace On
 * and the address with context.
 */
void etm4_trace_on(struct etm4_enc *e, uint64_t pc, uint8_t el, uint32_t ctxid);
/*
 * Trace one step of the path (its range ends in a P0 element or exception).
 * A step with trace_on needs etm4_trace_on() first.
 */
void etm4_step(struct etm4_enc *e, const struct step *s);
/* Emit whatever is pending (atoms) so that a decoder sees every step. */
void etm4_flush(struct etm4_enc *e);
/* Forget the bytes of out (the caller has consumed them). */
void etm4_drain(struct etm4_enc *e);

#endif
