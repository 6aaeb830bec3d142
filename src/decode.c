// SPDX-License-Identifier: GPL-2.0
/*
 * csdump: ETMv4 decode through OpenCSD's C API.
 *
 * The caller owns the data path: we push the sink's bytes into the decode
 * tree in blocks, flush while the tree says WAIT, and stop on FATAL.  The
 * element callback only fills a struct csd_ev on the stack and hands it on;
 * nothing is allocated per element.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <opencsd/c_api/opencsd_c_api.h>

#include "decode.h"
#include "diag.h"
#include "image.h"

#define CSD_TRACE_IDS	128
/* Bytes pushed per call: small enough for a lively progress report. */
#define PUSH_BLOCK	(256u * 1024u)
/* Flushes in a row before we call the tree stuck. */
#define MAX_FLUSHES	1000000u

struct tree_ctx {
	const struct csd_dump *d;
	struct csd_image img;
	csd_ev_fn fn;
	void *fn_ctx;
	int cpu_of[CSD_TRACE_IDS];
	uint8_t sink;
	bool formatted;		/* frames through the deformatter */
	int stop;
};

static const char *const exc_names[] = {
	[0] = "PE reset",	[1] = "debug halt",	[2] = "call",
	[3] = "trap",		[4] = "SError",		[6] = "instruction debug",
	[7] = "data debug",	[10] = "alignment",	[11] = "instruction fault",
	[12] = "data fault",	[14] = "IRQ",		[15] = "FIQ",
};

const char *csd_exception_name(uint32_t number)
{
	if (number < sizeof(exc_names) / sizeof(exc_names[0]))
		return exc_names[number];
	return NULL;
}

const char *csd_ev_kind_name(enum csd_ev_kind k)
{
#define KIND_NAME(kind, name) case kind: return name;
	switch (k) {
	CSD_EV_KINDS(KIND_NAME)
	}
#undef KIND_NAME
	return "unknown";
}

const char *csd_trace_on_reason(uint32_t reason)
{
	switch (reason) {
	case TRACE_ON_NORMAL:	return "start or filter";
	case TRACE_ON_OVERFLOW:	return "after overflow";
	case TRACE_ON_EX_DEBUG:	return "after debug";
	}
	return "unknown";
}

const char *csd_unsync_reason(uint32_t reason)
{
	switch (reason) {
	case UNSYNC_INIT_DECODER:	return "start of trace";
	case UNSYNC_RESET_DECODER:	return "decoder reset";
	case UNSYNC_OVERFLOW:		return "overflow";
	case UNSYNC_DISCARD:		return "discard";
	case UNSYNC_BAD_PACKET:		return "bad packet";
	case UNSYNC_EOT:		return "end of trace";
	}
	return "unknown";
}

static uint32_t mem_read(const void *p, const ocsd_vaddr_t addr, const ocsd_mem_space_acc_t space,
			 const uint32_t len, uint8_t *buf)
{
	struct tree_ctx *t = (struct tree_ctx *)p;

	(void)space;
	return (uint32_t)csd_image_read(&t->img, addr, buf, len);
}

/* Returns 0 for elements csdump does not report. */
static int ev_from_elem(struct csd_ev *ev, const ocsd_generic_trace_elem *e)
{
	switch (e->elem_type) {
	case OCSD_GEN_TRC_ELEM_INSTR_RANGE:
		ev->kind = CSD_EV_RANGE;
		ev->start = e->st_addr;
		ev->end = e->en_addr;
		ev->n_instr = e->num_instr_range;
		return 1;
	case OCSD_GEN_TRC_ELEM_ADDR_NACC:
		ev->kind = CSD_EV_NACC;
		ev->start = e->st_addr;
		return 1;
	case OCSD_GEN_TRC_ELEM_EXCEPTION:
		ev->kind = CSD_EV_EXCEPTION;
		ev->number = e->exception_number;
		ev->end = e->excep_ret_addr ? e->en_addr : 0;
		return 1;
	case OCSD_GEN_TRC_ELEM_EXCEPTION_RET:
		ev->kind = CSD_EV_EXC_RETURN;
		return 1;
	case OCSD_GEN_TRC_ELEM_TRACE_ON:
		ev->kind = CSD_EV_TRACE_ON;
		ev->number = e->trace_on_reason;
		return 1;
	case OCSD_GEN_TRC_ELEM_NO_SYNC:
		ev->kind = CSD_EV_NO_SYNC;
		ev->number = e->unsync_eot_info;
		return 1;
	case OCSD_GEN_TRC_ELEM_PE_CONTEXT:
		ev->kind = CSD_EV_CONTEXT;
		ev->el = e->context.el_valid ? (uint8_t)e->context.exception_level : 0xff;
		ev->ctxid = e->context.ctxt_id_valid ? e->context.context_id : 0;
		return 1;
	case OCSD_GEN_TRC_ELEM_EO_TRACE:
		ev->kind = CSD_EV_EOT;
		return 1;
	default:
		return 0;
	}
}

static ocsd_datapath_resp_t on_elem(const void *p, const ocsd_trc_index_t index,
				    const uint8_t id, const ocsd_generic_trace_elem *e)
{
	struct tree_ctx *t = (struct tree_ctx *)p;
	struct csd_ev ev;

	if (t->stop)
		return OCSD_RESP_WAIT;
	memset(&ev, 0, sizeof(ev));
	if (!ev_from_elem(&ev, e))
		return OCSD_RESP_CONT;
	ev.trace_id = id;
	ev.sink = t->sink;
	ev.index = index;
	ev.cpu = id < CSD_TRACE_IDS ? t->cpu_of[id] : -1;
	if (t->fn(t->fn_ctx, &ev)) {
		t->stop = 1;
		return OCSD_RESP_WAIT;
	}
	return OCSD_RESP_CONT;
}

static void etm_cfg(ocsd_etmv4_cfg *cfg, const struct csd_etm *m)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->reg_idr0 = (uint32_t)m->trcidr0;
	cfg->reg_idr1 = (uint32_t)m->trcidr1;
	cfg->reg_idr2 = (uint32_t)m->trcidr2;
	cfg->reg_idr8 = (uint32_t)m->trcidr8;
	cfg->reg_configr = (uint32_t)m->trcconfigr;
	cfg->reg_traceidr = (uint32_t)m->trctraceidr;
	/* TRCIDR1.TRCARCHMIN (bits 7:4) >= 4: ETMv4.4+, a v8.3+ PE. */
	cfg->arch_ver = ((m->trcidr1 >> 4) & 0xf) >= 4 ? ARCH_AA64 : ARCH_V8;
	cfg->core_prof = profile_CortexA;
}

static void report_lib_error(const char *what, const struct csd_sink *s)
{
	char msg[256] = "";
	ocsd_trc_index_t idx = 0;
	uint8_t id = 0;
	ocsd_err_t err = ocsd_get_last_err(&idx, &id, msg, sizeof(msg));

	csd_error("decode of sink %s: %s (OpenCSD error %d at byte %" PRIu64
		", trace ID 0x%x: %s)", s->name, what, (int)err, (uint64_t)idx, id, msg);
}

/* Build the tree for one sink; returns NULL (message printed) on failure. */
static dcd_tree_handle_t tree_create(struct tree_ctx *t, const struct csd_sink *s,
				     const struct csd_decode_opts *o)
{
	dcd_tree_handle_t tree;
	int used = 0;
	size_t i;

	t->formatted = s->flags & CSD_F_FORMATTED || t->d->n_etms > 1;
	if (t->formatted)
		tree = ocsd_create_dcd_tree(OCSD_TRC_SRC_FRAME_FORMATTED,
					    OCSD_DFRMTR_FRAME_MEM_ALIGN);
	else
		tree = ocsd_create_dcd_tree(OCSD_TRC_SRC_SINGLE, 0);
	if (!tree) {
		csd_error("sink %s: cannot create an OpenCSD decode tree", s->name);
		return NULL;
	}
	if (ocsd_dt_add_callback_mem_acc(tree, 0, ~(ocsd_vaddr_t)0, OCSD_MEM_SPACE_ANY,
					 mem_read, t) != OCSD_OK) {
		report_lib_error("cannot set up the decode tree", s);
		goto fail;
	}
	for (i = 0; i < t->d->n_etms; i++) {
		const struct csd_etm *m = &t->d->etms[i];
		unsigned int id = csd_etm_trace_id(m);
		ocsd_etmv4_cfg cfg;
		unsigned char csid;

		if (o->cpu >= 0 && m->cpu != (uint64_t)o->cpu)
			continue;
		if (id == 0 || id >= 0x70 || t->cpu_of[id] != -1) {
			csd_warn("CPU %" PRIu64 ": trace ID 0x%x is %s; "
				"its trace is not decoded", m->cpu, id,
				t->cpu_of[id] != -1 ? "used twice" : "reserved");
			continue;
		}
		etm_cfg(&cfg, m);
		if (ocsd_dt_create_decoder(tree, OCSD_BUILTIN_DCD_ETMV4I,
					   OCSD_CREATE_FLG_FULL_DECODER, &cfg, &csid) != OCSD_OK) {
			report_lib_error("cannot create an ETMv4 decoder", s);
			goto fail;
		}
		t->cpu_of[id] = m->cpu > 0x7fffffff ? -1 : (int)m->cpu;
		used++;
	}
	if (!used) {
		csd_error("no trace unit with a usable trace ID in the metadata");
		goto fail;
	}
	/* Attaches to the decoders that exist: after creating them. */
	if (ocsd_dt_set_gen_elem_outfn(tree, on_elem, t) != OCSD_OK) {
		report_lib_error("cannot attach the element callback", s);
		goto fail;
	}
	return tree;
fail:
	ocsd_destroy_dcd_tree(tree);
	return NULL;
}

/* Flush until the tree stops asking to wait. */
static ocsd_datapath_resp_t tree_flush(struct tree_ctx *t, dcd_tree_handle_t tree)
{
	ocsd_datapath_resp_t r = OCSD_RESP_WAIT;
	unsigned int n;

	for (n = 0; n < MAX_FLUSHES && OCSD_DATA_RESP_IS_WAIT(r) && !t->stop; n++)
		r = ocsd_dt_process_data(tree, OCSD_OP_FLUSH, 0, 0, NULL, NULL);
	return r;
}

static enum csd_err decode_sink(struct tree_ctx *t, dcd_tree_handle_t tree,
				const struct csd_sink *s, const struct csd_decode_opts *o,
				uint64_t done_before, uint64_t total)
{
	/* The deformatter takes whole 16-byte frames; the trace index is 32 bits. */
	size_t unit = t->formatted ? OCSD_DFRMTR_FRAME_SIZE : 1;
	size_t len = s->len > UINT32_MAX ? UINT32_MAX : s->len;
	size_t pos = 0, skipped = 0, first_bad = 0;

	len -= len % unit;
	if (len < s->len)
		csd_warn("sink %s: %zu bytes of trace, %zu of them decoded (%s)", s->name, s->len,
			 len, len == UINT32_MAX - UINT32_MAX % unit ? "the first 4 GiB" :
			 "not a whole number of 16-byte frames");
	while (pos < len && !t->stop) {
		size_t left = len - pos;
		uint32_t block = left < PUSH_BLOCK ? (uint32_t)left : PUSH_BLOCK;
		uint32_t used = 0;
		ocsd_datapath_resp_t r;

		r = ocsd_dt_process_data(tree, OCSD_OP_DATA, (ocsd_trc_index_t)pos, block,
					 s->data + pos, &used);
		pos += used;
		if (OCSD_DATA_RESP_IS_WAIT(r))
			r = tree_flush(t, tree);
		if (OCSD_DATA_RESP_IS_FATAL(r)) {
			/* Random bytes make the deformatter say INVALID_PARAM too. */
			if (r != OCSD_RESP_FATAL_INVALID_DATA && r != OCSD_RESP_FATAL_INVALID_PARAM) {
				report_lib_error("fatal decoder error", s);
				return CSD_ERR_DECODE;
			}
			/* A hostile frame: drop the decode state, go on after it. */
			if (!skipped++)
				first_bad = pos;
			ocsd_dt_process_data(tree, OCSD_OP_RESET, 0, 0, NULL, NULL);
			pos = (pos + unit) - (pos + unit) % unit;
		} else if (!used && !OCSD_DATA_RESP_IS_WAIT(r) && !t->stop) {
			report_lib_error("decoder made no progress", s);
			return CSD_ERR_DECODE;
		}
		if (o->progress)
			o->progress(o->progress_ctx, done_before + pos, total);
	}
	if (skipped)
		csd_warn("sink %s: %zu invalid frame(s) skipped, the first at byte %zu", s->name,
			 skipped, first_bad);
	if (!t->stop) {
		ocsd_datapath_resp_t r = ocsd_dt_process_data(tree, OCSD_OP_EOT, 0, 0, NULL, NULL);

		if (OCSD_DATA_RESP_IS_WAIT(r))
			r = tree_flush(t, tree);
		if (OCSD_DATA_RESP_IS_FATAL(r)) {
			report_lib_error("fatal error at end of trace", s);
			return CSD_ERR_DECODE;
		}
	}
	return CSD_OK;
}

enum csd_err csd_decode(const struct csd_dump *d, const struct csd_decode_opts *o,
			csd_ev_fn fn, void *ctx)
{
	static const struct csd_decode_opts defaults = { .cpu = -1 };
	enum csd_err err = CSD_OK;
	uint64_t total = 0, done = 0;
	struct tree_ctx t;
	size_t i;

	if (!o)
		o = &defaults;
	if (!d->n_etms) {
		csd_error("no ETM metadata: nothing to decode");
		return CSD_ERR_NOTRACE;
	}
	if (o->cpu >= 0) {
		for (i = 0; i < d->n_etms && d->etms[i].cpu != (uint64_t)o->cpu; i++)
			;
		if (i == d->n_etms) {
			csd_error("no trace unit of CPU %d in the metadata", o->cpu);
			return CSD_ERR_USAGE;
		}
	}
	ocsd_def_errlog_init(OCSD_ERR_SEV_ERROR, 0);
	for (i = 0; i < d->n_sinks; i++)
		total += d->sinks[i].len;

	memset(&t, 0, sizeof(t));
	t.d = d;
	t.fn = fn;
	t.fn_ctx = ctx;
	err = csd_image_index(&t.img, d->segs, d->n_segs);
	for (i = 0; i < d->n_sinks && err == CSD_OK && !t.stop; i++) {
		const struct csd_sink *s = &d->sinks[i];
		dcd_tree_handle_t tree;
		size_t k;

		for (k = 0; k < CSD_TRACE_IDS; k++)
			t.cpu_of[k] = -1;
		t.sink = (uint8_t)i;
		tree = tree_create(&t, s, o);
		if (!tree) {
			err = CSD_ERR_DECODE;
			break;
		}
		err = decode_sink(&t, tree, s, o, done, total);
		ocsd_destroy_dcd_tree(tree);
		done += s->len;
	}
	csd_image_release(&t.img);
	return err;
}
