// SPDX-License-Identifier: GPL-2.0
/*
 * csdump: ETMv4 decode through OpenCSD's C API: the decode stage (see
 * decode_int.h), csd_decode_inline(), which runs both stages on this
 * thread, the deformatter's output going straight into the trace IDs'
 * trees, and csd_decode(), which chooses that or the workers.
 *
 * The caller owns the data path: each trace ID's operations are pushed into
 * its own single-source decode tree, flushed while the tree says WAIT.  The
 * element callback only fills a struct csd_ev on the stack and hands it on;
 * nothing is allocated per element.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode/decode.h"
#include "decode/decode_int.h"
#include "decode/ocsd.h"
#include "core/diag.h"
#include "decode/image.h"

/* The decoder of one trace ID. */
struct id_tree {
	dcd_tree_handle_t tree;
	uint64_t rejected;	/* times the decoder refused trace (FATAL) and was reset */
	/* Where the PE is, for its exceptions: the last context and range's. */
	uint8_t el, sec, isa;
};

struct csd_idec {
	const struct csd_dump *d;
	const struct csd_sink *s;
	struct csd_image img;	/* this decoder's own: its last-hit cache is mutable */
	struct id_tree t[CSD_TRACE_IDS];
	int cpu_of[CSD_TRACE_IDS];
	uint8_t sink;
	csd_tagged_fn fn;
	void *fn_ctx;
	csd_ev_fn ev_fn;	/* instead of fn, untagged: csd_decode_inline() */
	uint64_t tag;		/* the operation being replayed */
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
	case CSD_TRACE_ON_NORMAL:	return "start or filter";
	case CSD_TRACE_ON_OVERFLOW:	return "after overflow";
	case CSD_TRACE_ON_DEBUG:	return "after debug";
	}
	return "unknown";
}

const char *csd_runaway_reason(uint32_t reason)
{
	switch (reason) {
	case CSD_RUNAWAY_IMAGE_END:	return "ran to the end of the image without a branch";
	case CSD_RUNAWAY_PAST_FUNCTION:	return "ends far past the end of its function";
	}
	return "unknown";
}

const char *csd_unsync_reason(uint32_t reason)
{
	switch (reason) {
	case CSD_UNSYNC_START:		return "start of trace";
	case CSD_UNSYNC_RESET:		return "decoder reset";
	case CSD_UNSYNC_OVERFLOW:	return "overflow";
	case CSD_UNSYNC_DISCARD:	return "discard";
	case CSD_UNSYNC_BAD_PACKET:	return "bad packet";
	case CSD_UNSYNC_EOT:		return "end of trace";
	}
	return "unknown";
}

/* OpenCSD's reasons in csdump's own terms: its enums stay out of decode.h. */
static uint32_t trace_on_of(trace_on_reason_t r)
{
	switch (r) {
	case TRACE_ON_NORMAL:	return CSD_TRACE_ON_NORMAL;
	case TRACE_ON_OVERFLOW:	return CSD_TRACE_ON_OVERFLOW;
	case TRACE_ON_EX_DEBUG:	return CSD_TRACE_ON_DEBUG;
	}
	return CSD_TRACE_ON_UNKNOWN;
}

static uint32_t unsync_of(unsync_info_t u)
{
	switch (u) {
	case UNSYNC_UNKNOWN:		return CSD_UNSYNC_UNKNOWN;
	case UNSYNC_INIT_DECODER:	return CSD_UNSYNC_START;
	case UNSYNC_RESET_DECODER:	return CSD_UNSYNC_RESET;
	case UNSYNC_OVERFLOW:		return CSD_UNSYNC_OVERFLOW;
	case UNSYNC_DISCARD:		return CSD_UNSYNC_DISCARD;
	case UNSYNC_BAD_PACKET:		return CSD_UNSYNC_BAD_PACKET;
	case UNSYNC_EOT:		return CSD_UNSYNC_EOT;
	}
	return CSD_UNSYNC_UNKNOWN;
}

static uint32_t mem_read(const void *p, const ocsd_vaddr_t addr, const ocsd_mem_space_acc_t space,
			 const uint32_t len, uint8_t *buf)
{
	struct csd_idec *x = (struct csd_idec *)p;

	(void)space;
	return (uint32_t)csd_image_read(&x->img, addr, buf, len);
}

const char *csd_isa_name(uint32_t isa)
{
	switch (isa) {
	case CSD_ISA_A64:	return "A64";
	case CSD_ISA_A32:	return "A32";
	case CSD_ISA_T32:	return "T32";
	case CSD_ISA_OTHER:	return "other";
	}
	return "unknown";
}

const char *csd_sec_name(uint32_t sec)
{
	switch (sec) {
	case CSD_SEC_SECURE:	return "secure";
	case CSD_SEC_NONSECURE:	return "non-secure";
	case CSD_SEC_ROOT:	return "root";
	case CSD_SEC_REALM:	return "realm";
	}
	return "unknown";
}

/* ETMv4 exception numbers in an A-profile kernel engineer's words. */
static const char *const exc_words[] = {
	[0] = "PE reset",	[1] = "debug halt",	[2] = "SVC, HVC or SMC",
	[3] = "trap",		[4] = "SError",		[6] = "breakpoint or step",
	[7] = "watchpoint",	[10] = "alignment fault",
	[11] = "instruction abort", [12] = "data abort", [14] = "IRQ", [15] = "FIQ",
};

const char *csd_exception_words(const struct csd_ev *ev)
{
	if (ev->number == 2 && (ev->flags & CSD_EVF_CALLS))
		return ev->flags & CSD_EVF_SVC ? "SVC" : ev->flags & CSD_EVF_HVC ? "HVC" : "SMC";
	if (ev->number < sizeof(exc_words) / sizeof(exc_words[0]))
		return exc_words[ev->number];
	return NULL;
}

static uint8_t isa_of(ocsd_isa isa)
{
	switch (isa) {
	case ocsd_isa_aarch64:	return CSD_ISA_A64;
	case ocsd_isa_arm:	return CSD_ISA_A32;
	case ocsd_isa_thumb2:	return CSD_ISA_T32;
	case ocsd_isa_unknown:	return CSD_ISA_UNKNOWN;
	default:		return CSD_ISA_OTHER;
	}
}

static uint8_t sec_of(ocsd_sec_level sec)
{
	switch (sec) {
	case ocsd_sec_secure:		return CSD_SEC_SECURE;
	case ocsd_sec_nonsecure:	return CSD_SEC_NONSECURE;
	case ocsd_sec_root:		return CSD_SEC_ROOT;
	case ocsd_sec_realm:		return CSD_SEC_REALM;
	}
	return CSD_SEC_UNKNOWN;
}

static uint16_t range_flags(const ocsd_generic_trace_elem *e)
{
	uint16_t f = e->last_instr_exec ? CSD_EVF_TAKEN : 0;

	if (e->last_i_subtype == OCSD_S_INSTR_BR_LINK)
		f |= CSD_EVF_CALL;
	else if (e->last_i_subtype == OCSD_S_INSTR_V8_RET)
		f |= CSD_EVF_RET;
	else if (e->last_i_subtype == OCSD_S_INSTR_V8_ERET)
		f |= CSD_EVF_ERET;
	if (e->has_cc)
		f |= CSD_EVF_CC;
	return f;
}

/*
 * Exception 2 ("call") is made by SVC, HVC or SMC, the A64 instruction before
 * its preferred return address: read it from the image when it is there.
 */
static uint16_t call_flags(struct csd_idec *x, uint64_t ret)
{
	uint8_t b[4];
	uint32_t w;

	if (ret < 4 || csd_image_read(&x->img, ret - 4, b, 4) != 4)
		return 0;
	w = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
	switch (w & 0xffe0001f) {
	case 0xd4000001:	return CSD_EVF_SVC;
	case 0xd4000002:	return CSD_EVF_HVC;
	case 0xd4000003:	return CSD_EVF_SMC;
	}
	return 0;
}

/* Returns 0 for elements csdump does not report. */
static int ev_from_elem(struct csd_idec *x, struct id_tree *t, struct csd_ev *ev,
			const ocsd_generic_trace_elem *e)
{
	switch (e->elem_type) {
	case OCSD_GEN_TRC_ELEM_INSTR_RANGE:
		ev->kind = CSD_EV_RANGE;
		ev->start = e->st_addr;
		ev->end = e->en_addr;
		ev->n_instr = e->num_instr_range;
		ev->isa = t->isa = isa_of(e->isa);
		ev->flags = range_flags(e);
		ev->cc = e->has_cc ? e->cycle_count : 0;
		return 1;
	case OCSD_GEN_TRC_ELEM_ADDR_NACC:
		ev->kind = CSD_EV_NACC;
		ev->start = e->st_addr;
		return 1;
	case OCSD_GEN_TRC_ELEM_EXCEPTION:
		ev->kind = CSD_EV_EXCEPTION;
		ev->number = e->exception_number;
		ev->end = e->excep_ret_addr ? e->en_addr : 0;
		ev->el = t->el;
		ev->sec = t->sec;
		ev->isa = t->isa;
		if (ev->number == 2 && ev->end && t->isa != CSD_ISA_A32 && t->isa != CSD_ISA_T32)
			ev->flags = call_flags(x, ev->end);
		return 1;
	case OCSD_GEN_TRC_ELEM_EXCEPTION_RET:
		ev->kind = CSD_EV_EXC_RETURN;
		return 1;
	case OCSD_GEN_TRC_ELEM_TRACE_ON:
		ev->kind = CSD_EV_TRACE_ON;
		ev->number = trace_on_of(e->trace_on_reason);
		return 1;
	case OCSD_GEN_TRC_ELEM_NO_SYNC:
		ev->kind = CSD_EV_NO_SYNC;
		ev->number = unsync_of(e->unsync_eot_info);
		return 1;
	case OCSD_GEN_TRC_ELEM_PE_CONTEXT:
		ev->kind = CSD_EV_CONTEXT;
		ev->el = e->context.el_valid ? (uint8_t)e->context.exception_level : 0xff;
		ev->ctxid = e->context.ctxt_id_valid ? e->context.context_id : 0;
		ev->vmid = e->context.vmid_valid ? e->context.vmid : 0;
		ev->sec = sec_of(e->context.security_level);
		ev->isa = e->context.bits64 ? CSD_ISA_A64 : CSD_ISA_A32;
		ev->flags = (e->context.ctxt_id_valid ? CSD_EVF_CTXID : 0) |
			    (e->context.vmid_valid ? CSD_EVF_VMID : 0);
		t->el = ev->el;
		t->sec = ev->sec;
		return 1;
	case OCSD_GEN_TRC_ELEM_EO_TRACE:
		ev->kind = CSD_EV_EOT;
		return 1;
	case OCSD_GEN_TRC_ELEM_TIMESTAMP:
		ev->kind = CSD_EV_TIMESTAMP;
		ev->start = e->timestamp;
		if (e->has_cc) {
			ev->flags = CSD_EVF_CC;
			ev->cc = e->cycle_count;
		}
		return 1;
	case OCSD_GEN_TRC_ELEM_CYCLE_COUNT:
		ev->kind = CSD_EV_CYCLES;
		ev->flags = CSD_EVF_CC;
		ev->cc = e->cycle_count;
		return 1;
	default:
		return 0;
	}
}

static ocsd_datapath_resp_t on_elem(const void *p, const ocsd_trc_index_t index,
				    const uint8_t id, const ocsd_generic_trace_elem *e)
{
	struct csd_idec *x = (struct csd_idec *)p;
	struct csd_tagged_ev tev;

	if (x->stop)
		return OCSD_RESP_WAIT;
	memset(&tev, 0, sizeof(tev));
	if (!ev_from_elem(x, &x->t[id & (CSD_TRACE_IDS - 1)], &tev.ev, e))
		return OCSD_RESP_CONT;
	/*
	 * A range that ends in no branch where the image ends: the decoder
	 * ran off the image (a branch it took would end the range, an
	 * exception would leave the next opcode readable).
	 */
	if (tev.ev.kind == CSD_EV_RANGE && e->last_i_type == OCSD_INSTR_OTHER) {
		uint32_t w;

		if (csd_image_read(&x->img, tev.ev.end, &w, sizeof(w)) < sizeof(w)) {
			tev.ev.kind = CSD_EV_RUNAWAY;
			tev.ev.number = CSD_RUNAWAY_IMAGE_END;
		}
	}
	tev.tag = x->tag;
	tev.ev.trace_id = id;
	tev.ev.sink = x->sink;
	tev.ev.index = index;
	tev.ev.cpu = id < CSD_TRACE_IDS ? x->cpu_of[id] : -1;
	if (x->ev_fn ? x->ev_fn(x->fn_ctx, &tev.ev) : x->fn(x->fn_ctx, &tev)) {
		x->stop = 1;
		return OCSD_RESP_WAIT;
	}
	return OCSD_RESP_CONT;
}

/* OpenCSD's configuration of a trace unit: ETMv4 or ETE, by @m->kind. */
union tracer_cfg {
	ocsd_etmv4_cfg etm4;
	ocsd_ete_cfg ete;
};

/* The registers ocsd_etmv4_cfg and ocsd_ete_cfg share, from @m. */
#define TRACER_REGS(c, m) do {						\
		(c)->reg_idr0 = (uint32_t)(m)->trcidr0;			\
		(c)->reg_idr1 = (uint32_t)(m)->trcidr1;			\
		(c)->reg_idr2 = (uint32_t)(m)->trcidr2;			\
		(c)->reg_idr8 = (uint32_t)(m)->trcidr8;			\
		(c)->reg_configr = (uint32_t)(m)->trcconfigr;		\
		(c)->reg_traceidr = (uint32_t)(m)->trctraceidr;		\
	} while (0)

/* The name of OpenCSD's decoder for @m, and its configuration in @cfg. */
static const char *tracer_cfg(union tracer_cfg *cfg, const struct csd_etm *m)
{
	memset(cfg, 0, sizeof(*cfg));
	if (m->kind == CSD_TRACER_ETE) {
		TRACER_REGS(&cfg->ete, m);
		cfg->ete.reg_devarch = (uint32_t)m->trcdevarch;
		cfg->ete.arch_ver = ARCH_AA64;	/* csd_etm_is_v83() */
		cfg->ete.core_prof = profile_CortexA;
		return OCSD_BUILTIN_DCD_ETE;
	}
	TRACER_REGS(&cfg->etm4, m);
	cfg->etm4.arch_ver = csd_etm_is_v83(m) ? ARCH_AA64 : ARCH_V8;
	cfg->etm4.core_prof = profile_CortexA;
	return OCSD_BUILTIN_DCD_ETMV4I;
}

/* Calls in a row that take no byte before the decoder is deemed stuck. */
#define MAX_STALLS	16

/* Memory accessors per tree at most; see add_mem_acc(). */
#define MAX_ACCESSORS	64

/* A run of overlapping or adjacent segments: [lo, last], from v[first], n of them. */
struct seg_run {
	uint64_t lo, last;
	size_t first, n;
};

/*
 * The image as the library's memory accessors, one for each run of
 * overlapping or adjacent segments, so that an address outside the image
 * finds none (a trace may branch outside the image a million times): a run
 * of one segment is a buffer accessor, which the library reads itself; a run
 * of several goes through mem_read(), where the image decides which segment
 * wins.  Past MAX_ACCESSORS runs, one callback accessor for all addresses.
 */
static ocsd_err_t add_mem_acc(dcd_tree_handle_t tree, struct csd_idec *x)
{
	const struct csd_image *im = &x->img;
	struct seg_run run[MAX_ACCESSORS];
	ocsd_err_t e = OCSD_OK;
	size_t i, n = 0;

	for (i = 0; i < im->n; i++) {
		uint64_t lo = im->v[i]->vaddr, last = lo + (im->v[i]->len - 1);
		struct seg_run *r = n ? &run[n - 1] : NULL;

		if (r && (lo <= r->last || lo - r->last == 1)) {
			if (last > r->last)
				r->last = last;
			r->n++;
			continue;
		}
		if (n == MAX_ACCESSORS)
			return ocsd_dt_add_callback_mem_acc(tree, 0, ~(ocsd_vaddr_t)0,
							    OCSD_MEM_SPACE_ANY, mem_read, x);
		run[n++] = (struct seg_run){ .lo = lo, .last = last, .first = i, .n = 1 };
	}
	/*
	 * No image at all: the library still wants a memory accessor (it
	 * refuses every packet without one).  One over every address that reads
	 * nothing: each place the trace went becomes an address not accessible,
	 * as trc_pkt_lister reports it, with the exceptions, context and gaps.
	 */
	if (!n)
		return ocsd_dt_add_callback_mem_acc(tree, 0, ~(ocsd_vaddr_t)0, OCSD_MEM_SPACE_ANY,
						    mem_read, x);
	for (i = 0; i < n && e == OCSD_OK; i++) {
		const struct csd_seg *sg = im->v[run[i].first];

		if (run[i].n == 1 && sg->len <= UINT32_MAX)
			e = ocsd_dt_add_buffer_mem_acc(tree, sg->vaddr, OCSD_MEM_SPACE_ANY, sg->data,
						       (uint32_t)sg->len);
		else
			e = ocsd_dt_add_callback_mem_acc(tree, run[i].lo, run[i].last,
							 OCSD_MEM_SPACE_ANY, mem_read, x);
	}
	return e;
}

/* The single-source tree of trace ID @id, configured from its ETM @m. */
static dcd_tree_handle_t id_tree_create(struct csd_idec *x, const struct csd_etm *m,
					unsigned int id)
{
	ocsd_err_t e = OCSD_ERR_MEM;
	dcd_tree_handle_t tree;
	union tracer_cfg cfg;
	const char *dcd = tracer_cfg(&cfg, m);
	unsigned char csid;
	char buf[256];

	csd_ocsd_lock();
	tree = ocsd_create_dcd_tree(OCSD_TRC_SRC_SINGLE, 0);
	if (tree) {
		e = add_mem_acc(tree, x);
		if (e == OCSD_OK)
			e = ocsd_dt_create_decoder(tree, dcd, OCSD_CREATE_FLG_FULL_DECODER, &cfg,
						   &csid);
		/* Attaches to the decoders that exist: after creating them. */
		if (e == OCSD_OK)
			e = ocsd_dt_set_gen_elem_outfn(tree, on_elem, x);
		if (e != OCSD_OK) {
			ocsd_destroy_dcd_tree(tree);
			tree = NULL;
		}
	}
	csd_ocsd_unlock();
	if (!tree)
		csd_error("sink %s, trace ID 0x%x: cannot set up an %s decoder (%s)", x->s->name,
			  id, dcd, csd_ocsd_strerror(e, buf, sizeof(buf)));
	return tree;
}

/*
 * Is @id the source of a raw sink of @d?  In a raw (unformatted) buffer a
 * trace ID that the ATB reserves (0 is null) stands in no one's way: the
 * stream carries no IDs.
 */
static bool raw_source(const struct csd_dump *d, unsigned int id)
{
	for (size_t i = 0; i < d->n_sinks; i++) {
		const struct csd_sink *s = &d->sinks[i];

		if (!(s->flags & CSD_F_FORMATTED) &&
		    (s->source_known ? s->source_id == id : d->n_etms == 1))
			return true;
	}
	return false;
}

/* The trace IDs to decode (per @o's CPU), warning about unusable ones. */
static size_t decode_ids(const struct csd_dump *d, const struct csd_decode_opts *o,
			 bool ids[CSD_TRACE_IDS])
{
	size_t i, n = 0;

	for (i = 0; i < CSD_TRACE_IDS; i++)
		ids[i] = false;
	for (i = 0; i < d->n_etms; i++) {
		const struct csd_etm *m = &d->etms[i];
		unsigned int id = csd_etm_trace_id(m);

		if (o->cpu >= 0 && m->cpu != (uint64_t)o->cpu)
			continue;
		if ((!csd_trace_id_valid(id) && !(id < CSD_TRACE_IDS && raw_source(d, id))) ||
		    ids[id]) {
			csd_warn("CPU %" PRIu64 ": trace ID 0x%x is %s; its trace is not decoded",
				 m->cpu, id, ids[id] ? "used twice" : "reserved");
			continue;
		}
		ids[id] = true;
		n++;
	}
	return n;
}

enum csd_err csd_decode_prepare(const struct csd_dump *d, const struct csd_decode_opts *o,
				bool ids[CSD_TRACE_IDS], int *single, uint64_t *total)
{
	size_t i, n;

	if (!d->n_etms) {
		csd_error("no ETM metadata: nothing to decode");
		return CSD_ERR_NOTRACE;
	}
	if (o->cpu >= 0) {
		for (i = 0; i < d->n_etms && d->etms[i].cpu != (uint64_t)o->cpu; i++)
			;
		if (i == d->n_etms) {
			char cpus[256];
			size_t len = 0;

			/* The CPUs there are, as far as a line holds them. */
			cpus[0] = '\0';
			for (i = 0; i < d->n_etms && len < sizeof(cpus) - 32; i++) {
				int n = snprintf(cpus + len, sizeof(cpus) - len, "%s%" PRIu64,
						 i ? ", " : "", d->etms[i].cpu);

				if (n > 0)
					len += (size_t)n;
			}
			csd_error("--cpu %d: no trace unit of CPU %d in the metadata; it has %s "
				  "%s%s", o->cpu, o->cpu, d->n_etms == 1 ? "CPU" : "CPUs", cpus,
				  i < d->n_etms ? ", ..." : "");
			return CSD_ERR_USAGE;
		}
	}
	n = decode_ids(d, o, ids);
	if (!n) {
		csd_error("no trace unit with a usable trace ID in the metadata");
		return CSD_ERR_DECODE;
	}
	*single = -1;
	for (i = 0; n == 1 && i < CSD_TRACE_IDS; i++)
		if (ids[i])
			*single = (int)i;
	*total = 0;
	for (i = 0; i < d->n_sinks; i++)
		*total += d->sinks[i].len;
	/* Silent: decoding threads must not write the library's shared logger. */
	csd_ocsd_silence();
	return CSD_OK;
}

bool csd_sink_route(const struct csd_sink *s, int single, bool *formatted, uint8_t *raw_id)
{
	*formatted = s->flags & CSD_F_FORMATTED;
	*raw_id = 0;
	if (*formatted)
		return true;
	if (s->source_known) {
		*raw_id = s->source_id;
		return true;
	}
	if (single < 0) {
		csd_warn("sink %s: raw trace, and no single trace unit it could be of; not "
			 "decoded", s->name);
		return false;
	}
	*raw_id = (uint8_t)single;
	return true;
}

struct csd_idec *csd_idec_new(const struct csd_dump *d, const struct csd_sink *s, uint8_t sink,
			      const bool ids[CSD_TRACE_IDS], csd_tagged_fn fn, void *ctx)
{
	struct csd_idec *x = calloc(1, sizeof(*x));
	size_t i;

	if (!x)
		return NULL;
	x->d = d;
	x->s = s;
	x->sink = sink;
	x->fn = fn;
	x->fn_ctx = ctx;
	for (i = 0; i < CSD_TRACE_IDS; i++)
		x->cpu_of[i] = -1;
	if (csd_image_index(&x->img, d->segs, d->n_segs) != CSD_OK)
		goto fail;
	for (i = 0; i < d->n_etms; i++) {
		const struct csd_etm *m = &d->etms[i];
		unsigned int id = csd_etm_trace_id(m);

		if (id >= CSD_TRACE_IDS || !ids[id] || x->t[id].tree)
			continue;
		x->t[id].tree = id_tree_create(x, m, id);
		if (!x->t[id].tree)
			goto fail;
		x->t[id].el = 0xff;	/* not known before a context */
		x->cpu_of[id] = m->cpu > 0x7fffffff ? -1 : (int)m->cpu;
	}
	return x;
fail:
	csd_idec_free(x);
	return NULL;
}

void csd_idec_free(struct csd_idec *x)
{
	size_t i;

	if (!x)
		return;
	csd_ocsd_lock();
	for (i = 0; i < CSD_TRACE_IDS; i++)
		if (x->t[i].tree)
			ocsd_destroy_dcd_tree(x->t[i].tree);
	csd_ocsd_unlock();
	csd_image_release(&x->img);
	free(x);
}

bool csd_idec_stopped(const struct csd_idec *x)
{
	return x->stop;
}

void csd_idec_report(struct csd_idec *x)
{
	size_t i;

	for (i = 0; i < CSD_TRACE_IDS; i++)
		if (x->t[i].rejected)
			csd_warn("sink %s, trace ID 0x%zx: the decoder refused the trace %" PRIu64
				 " time(s) and was reset each time", x->s->name, i,
				 x->t[i].rejected);
}

int csd_idec_push(struct csd_idec *x, uint64_t tag, uint8_t id, uint8_t kind, uint32_t index,
		  const uint8_t *data, uint32_t len)
{
	struct id_tree *t = &x->t[id & (CSD_TRACE_IDS - 1)];
	ocsd_datapath_resp_t r = OCSD_RESP_CONT;
	unsigned int stalls = 0;
	uint32_t pos = 0;

	if (!t->tree || x->stop)
		return x->stop;
	x->tag = tag;
	if (kind != OCSD_OP_DATA) {
		r = ocsd_dt_process_data(t->tree, (ocsd_datapath_op_t)kind, index, 0, NULL, NULL);
		if (OCSD_DATA_RESP_IS_WAIT(r))
			r = csd_ocsd_flush(t->tree, &x->stop);
	}
	while (kind == OCSD_OP_DATA && pos < len && !x->stop) {
		uint32_t used = 0;

		r = ocsd_dt_process_data(t->tree, OCSD_OP_DATA, index + pos, len - pos, data + pos,
					 &used);
		pos += used;
		stalls = used ? 0 : stalls + 1;
		if (OCSD_DATA_RESP_IS_WAIT(r))
			r = csd_ocsd_flush(t->tree, &x->stop);
		if (!OCSD_DATA_RESP_IS_FATAL(r) && stalls < MAX_STALLS)
			continue;
		if (x->stop)
			break;
		/*
		 * The decoder refused a packet (or takes nothing): it starts over
		 * and looks for a sync in the rest of the bytes, past one it would
		 * not take at all; the other trace IDs go on.
		 */
		t->rejected++;
		ocsd_dt_process_data(t->tree, OCSD_OP_RESET, 0, 0, NULL, NULL);
		pos += !used;
		stalls = 0;
		r = OCSD_RESP_CONT;
	}
	if (OCSD_DATA_RESP_IS_FATAL(r) && !x->stop) {
		/* An end of trace or a flush the decoder refused: it starts over. */
		t->rejected++;
		ocsd_dt_process_data(t->tree, OCSD_OP_RESET, 0, 0, NULL, NULL);
	}
	return x->stop;
}

/* ---- both stages on this thread ----------------------------------------- */

/* The deformatter's operations straight into the trace IDs' trees. */
struct inline_ctx {
	struct csd_idec *x;
	uint64_t seq;			/* operations so far: the tag */
	const struct csd_decode_opts *o;
	const struct csd_decode_ctl *ctl;
	uint64_t done, total;		/* for o->progress */
	unsigned int sink;		/* for ctl->where */
};

static int inline_op(void *p, uint8_t id, uint8_t kind, uint32_t index, const uint8_t *data,
		     uint32_t len)
{
	struct inline_ctx *c = p;
	uint64_t seq = c->seq++;

	if (c->o->progress && kind == OCSD_OP_DATA && !(seq & 1023))
		c->o->progress(c->o->progress_ctx, c->done + index, c->total);
	csd_where_set(c->ctl->where, c->sink, id, index);
	return csd_idec_push(c->x, seq, id, kind, index, data, len);
}

enum csd_err csd_decode_inline(const struct csd_dump *d, const struct csd_decode_opts *o,
			       const struct csd_decode_ctl *ctl, csd_ev_fn fn, void *ctx)
{
	struct inline_ctx ic = { .o = o, .ctl = ctl };
	bool ids[CSD_TRACE_IDS];
	enum csd_err err = CSD_OK;
	bool stop = false;
	int single;
	size_t i;

	err = csd_decode_prepare(d, o, ids, &single, &ic.total);
	for (i = 0; i < d->n_sinks && err == CSD_OK && !stop; i++) {
		const struct csd_sink *s = &d->sinks[i];
		bool formatted;
		uint8_t raw;

		if (!csd_sink_route(s, single, &formatted, &raw)) {
			ic.done += s->len;
			continue;
		}
		ic.x = csd_idec_new(d, s, (uint8_t)i, ids, NULL, ctx);
		if (!ic.x)
			return CSD_ERR_DECODE;
		ic.x->ev_fn = fn;	/* no tags to keep: straight to the caller */
		ic.seq = 0;
		ic.sink = (unsigned int)i;
		err = csd_split_sink(s, (unsigned int)i, ctl, ids, formatted, raw, inline_op, &ic);
		csd_idec_report(ic.x);
		stop = csd_idec_stopped(ic.x);
		csd_idec_free(ic.x);
		ic.done += s->len;
	}
	return err;
}

/* ---- the entry point ------------------------------------------------------ */

enum csd_err csd_decode_ctl(const struct csd_dump *d, const struct csd_decode_opts *o,
			    const struct csd_decode_ctl *ctl, csd_ev_fn fn, void *ctx)
{
	static const struct csd_decode_opts defaults = { .cpu = -1 };
	static const struct csd_decode_ctl none;
	int workers;

	if (!o)
		o = &defaults;
	if (!ctl)
		ctl = &none;
	workers = o->threads;
	/* Workers only pay when there is a second CPU to run them. */
	if (workers < 0)
		workers = csd_decode_cpus() < 2 ? 0 : csd_decode_cpus();
	if (!workers)
		return csd_decode_inline(d, o, ctl, fn, ctx);
	return csd_decode_pipelined(d, o, ctl, (size_t)workers, fn, ctx);
}

enum csd_err csd_decode(const struct csd_dump *d, const struct csd_decode_opts *o,
			csd_ev_fn fn, void *ctx)
{
	return csd_decode_ctl(d, o, NULL, fn, ctx);
}
