// SPDX-License-Identifier: GPL-2.0
/*
 * csdump: the split stage of the decoder (see decode_int.h).
 *
 * OpenCSD's own frame deformatter demultiplexes the sink; a custom decoder
 * registered with the library ("csdump-split") stands in for each trace
 * ID's decoder and hands what the deformatter gives it, in order, to the
 * caller's csd_op_fn: the pipeline's csd_oplist_record() keeps it for
 * replay, the one-thread decode pushes it straight into the trace ID's own
 * tree.
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <opencsd/c_api/opencsd_c_api.h>

#include "decode/decode_int.h"
#include "decode/ocsd.h"
#include "core/diag.h"

#define SPLIT_NAME	"csdump-split"
/* Bytes pushed per call into the deformatter. */
#define PUSH_BLOCK	(256u * 1024u)

/*
 * The caller's consumer of operations; stop: it asked to stop.  The
 * deformatter hands on a trace ID's bytes a frame at a time (15 bytes at
 * most); runs of them for one ID are gathered into one operation, so that
 * the decoder behind is called once a run instead of once a frame.
 */
#define GATHER	4096

struct split_out {
	csd_op_fn fn;
	void *ctx;
	const struct csd_decode_ctl *ctl;	/* its cuts */
	unsigned int sink;
	int stop;
	uint32_t g_len, g_index;	/* gathered DATA of trace ID g_id, from g_index */
	uint8_t g_id;
	uint8_t g[GATHER];
};

/* Hand on the bytes gathered; non-zero: stop. */
static int out_flush(struct split_out *o)
{
	uint32_t n = o->g_len;

	if (n && !o->stop) {
		o->g_len = 0;
		if (o->fn(o->ctx, o->g_id, OCSD_OP_DATA, o->g_index, o->g, n))
			o->stop = 1;
	}
	return o->stop;
}

/* Whether the cuts leave out the bytes of trace ID @id at @index. */
static bool is_cut(const struct split_out *o, uint8_t id, uint32_t index)
{
	size_t i;

	for (i = 0; i < o->ctl->n_cuts; i++)
		if (o->ctl->cuts[i].sink == o->sink && o->ctl->cuts[i].id == id &&
		    index >= o->ctl->cuts[i].index)
			return true;
	return false;
}

/* One operation of the deformatter's; non-zero: stop. */
static int out_op(struct split_out *o, uint8_t id, uint8_t kind, uint32_t index,
		  const uint8_t *data, uint32_t len)
{
	if (kind == OCSD_OP_DATA && o->ctl->n_cuts && is_cut(o, id, index))
		return o->stop;
	/* A piece of a frame or two is gathered; a block as big goes as it is. */
	if (kind == OCSD_OP_DATA && len < GATHER) {
		if (o->g_len && (id != o->g_id || len > GATHER - o->g_len) && out_flush(o))
			return 1;
		if (!o->g_len) {
			o->g_id = id;
			o->g_index = index;
		}
		memcpy(o->g + o->g_len, data, len);
		o->g_len += len;
		return o->stop;
	}
	if (out_flush(o))
		return 1;
	if (o->fn(o->ctx, id, kind, index, data, kind == OCSD_OP_DATA ? len : 0))
		o->stop = 1;
	return o->stop;
}

struct split_dcd {
	uint8_t id;
	struct split_out *out;
};

/* ---- the stand-in decoder, as an OpenCSD custom decoder ----------------- */

static ocsd_datapath_resp_t split_data_in(const void *handle, const ocsd_datapath_op_t op,
					  const ocsd_trc_index_t index, const uint32_t len,
					  const uint8_t *data, uint32_t *used)
{
	const struct split_dcd *s = handle;
	struct split_out *out = s->out;

	if (out->stop || out_op(out, s->id, (uint8_t)op, (uint32_t)index, data,
				op == OCSD_OP_DATA ? len : 0))
		return OCSD_RESP_FATAL_SYS_ERR;	/* stops the deformatter; deform() sees why */
	if (used)
		*used = op == OCSD_OP_DATA ? len : 0;
	return OCSD_RESP_CONT;
}

static void split_pkt_mon(const void *handle, const int flags)
{
	(void)handle;
	(void)flags;
}

static ocsd_err_t split_create(const int flags, const void *cfg, const ocsd_extern_dcd_cb_fns *cb,
			       ocsd_extern_dcd_inst_t *inst)
{
	const struct split_dcd *s = cfg;

	(void)flags;
	(void)cb;
	inst->fn_data_in = split_data_in;
	inst->fn_update_pkt_mon = split_pkt_mon;
	inst->decoder_handle = (void *)s;	/* the caller's, alive as long as the tree */
	inst->p_decoder_name = (char *)SPLIT_NAME;
	inst->cs_id = s->id;
	return OCSD_OK;
}

static ocsd_err_t split_destroy(const void *handle)
{
	(void)handle;
	return OCSD_OK;
}

static ocsd_err_t split_csid(const void *cfg, unsigned char *id)
{
	*id = ((const struct split_dcd *)cfg)->id;
	return OCSD_OK;
}

static ocsd_err_t split_pkt_str(const void *pkt, char *buf, const int len)
{
	(void)pkt;
	if (len > 0)
		buf[0] = '\0';
	return OCSD_OK;
}

static ocsd_extern_dcd_fact_t split_factory = {
	.createDecoder = split_create,
	.destroyDecoder = split_destroy,
	.csidFromConfig = split_csid,
	.pktToString = split_pkt_str,
};
static ocsd_err_t split_registered = OCSD_ERR_NOT_INIT;
static pthread_once_t split_once = PTHREAD_ONCE_INIT;

static void split_register(void)
{
	split_registered = ocsd_register_custom_decoder(SPLIT_NAME, &split_factory);
}

/* ---- the data path ------------------------------------------------------ */

static void resp_error(const char *what, const struct csd_sink *s, ocsd_datapath_resp_t r)
{
	csd_error("sink %s: %s (OpenCSD data path response %d)", s->name, what, (int)r);
}

/* Push @len bytes of whole frames through the deformatter, then end of trace. */
static enum csd_err deformat(dcd_tree_handle_t tree, const struct csd_sink *s, size_t len,
			     const struct split_out *out)
{
	size_t pos = 0, skipped = 0, first_bad = 0;
	ocsd_datapath_resp_t r;

	while (pos < len) {
		size_t left = len - pos;
		uint32_t block = left < PUSH_BLOCK ? (uint32_t)left : PUSH_BLOCK;
		uint32_t used = 0;

		r = ocsd_dt_process_data(tree, OCSD_OP_DATA, (ocsd_trc_index_t)pos, block,
					 s->data + pos, &used);
		pos += used;
		if (OCSD_DATA_RESP_IS_WAIT(r))
			r = csd_ocsd_flush(tree, NULL);
		if (out->stop)
			return CSD_OK;
		if (OCSD_DATA_RESP_IS_FATAL(r)) {
			/* Random bytes make the deformatter say INVALID_PARAM too. */
			if (r != OCSD_RESP_FATAL_INVALID_DATA && r != OCSD_RESP_FATAL_INVALID_PARAM) {
				resp_error("fatal deformatter error", s, r);
				return CSD_ERR_DECODE;
			}
			/* A hostile frame: reset (the decoders see it too), go on after it. */
			if (!skipped++)
				first_bad = pos;
			ocsd_dt_process_data(tree, OCSD_OP_RESET, 0, 0, NULL, NULL);
			pos = (pos + OCSD_DFRMTR_FRAME_SIZE) & ~(size_t)(OCSD_DFRMTR_FRAME_SIZE - 1);
		} else if (!used && !OCSD_DATA_RESP_IS_WAIT(r)) {
			resp_error("the deformatter made no progress", s, r);
			return CSD_ERR_DECODE;
		}
	}
	if (skipped)
		csd_warn("sink %s: %zu invalid frame(s) skipped, the first at byte %zu", s->name,
			 skipped, first_bad);
	r = ocsd_dt_process_data(tree, OCSD_OP_EOT, 0, 0, NULL, NULL);
	if (OCSD_DATA_RESP_IS_WAIT(r))
		r = csd_ocsd_flush(tree, NULL);
	if (out->stop)
		return CSD_OK;
	if (OCSD_DATA_RESP_IS_FATAL(r)) {
		resp_error("fatal error at end of trace", s, r);
		return CSD_ERR_DECODE;
	}
	return CSD_OK;
}

static enum csd_err split_formatted(const struct csd_sink *s, const bool want[CSD_TRACE_IDS],
				    size_t len, struct split_out *out)
{
	struct split_dcd dcd[CSD_TRACE_IDS];
	dcd_tree_handle_t tree;
	enum csd_err err;
	unsigned int id;

	pthread_once(&split_once, split_register);
	if (split_registered != OCSD_OK) {
		csd_error("cannot register csdump's decoder with OpenCSD (error %d)",
			  (int)split_registered);
		return CSD_ERR_DECODE;
	}
	csd_ocsd_lock();
	tree = ocsd_create_dcd_tree(OCSD_TRC_SRC_FRAME_FORMATTED, OCSD_DFRMTR_FRAME_MEM_ALIGN);
	for (id = 0; tree && id < CSD_TRACE_IDS; id++) {
		unsigned char csid;
		ocsd_err_t e;
		char buf[256];

		if (!want[id])
			continue;
		dcd[id].id = (uint8_t)id;
		dcd[id].out = out;
		e = ocsd_dt_create_decoder(tree, SPLIT_NAME, OCSD_CREATE_FLG_FULL_DECODER, &dcd[id],
					   &csid);
		if (e != OCSD_OK) {
			csd_error("sink %s: cannot attach to the deformatter (%s)", s->name,
				  csd_ocsd_strerror(e, buf, sizeof(buf)));
			ocsd_destroy_dcd_tree(tree);
			csd_ocsd_unlock();
			return CSD_ERR_DECODE;
		}
	}
	csd_ocsd_unlock();
	if (!tree) {
		csd_error("sink %s: cannot create an OpenCSD decode tree", s->name);
		return CSD_ERR_DECODE;
	}
	err = deformat(tree, s, len, out);
	csd_ocsd_lock();
	ocsd_destroy_dcd_tree(tree);
	csd_ocsd_unlock();
	return err;
}

enum csd_err csd_split_sink(const struct csd_sink *s, unsigned int sink,
			    const struct csd_decode_ctl *ctl, const bool want[CSD_TRACE_IDS],
			    bool formatted, uint8_t single_id, csd_op_fn fn, void *ctx)
{
	/* The deformatter takes whole 16-byte frames; the trace index is 32 bits. */
	size_t unit = formatted ? OCSD_DFRMTR_FRAME_SIZE : 1;
	size_t len = s->len > UINT32_MAX ? UINT32_MAX : s->len;
	struct split_out *out = malloc(sizeof(*out));
	enum csd_err err = CSD_OK;
	size_t pos;

	len -= len % unit;
	if (len < s->len)
		csd_warn("sink %s: %zu bytes of trace, %zu of them decoded (%s)", s->name, s->len,
			 len, len == UINT32_MAX - UINT32_MAX % unit ? "the first 4 GiB" :
			 "not a whole number of 16-byte frames");
	if (!out)
		return CSD_ERR_NOMEM;
	out->fn = fn;
	out->ctx = ctx;
	out->ctl = ctl;
	out->sink = sink;
	out->stop = 0;
	out->g_len = 0;
	if (formatted) {
		err = split_formatted(s, want, len, out);
	} else {
		/*
		 * One trace ID's raw stream: the operations are blocks, small
		 * enough that leaving one out (csd_decode_cut) loses little.
		 */
		for (pos = 0; pos < len && !out->stop; pos += GATHER) {
			uint32_t n = len - pos < GATHER ? (uint32_t)(len - pos) : GATHER;

			out_op(out, single_id, OCSD_OP_DATA, (uint32_t)pos, s->data + pos, n);
		}
		if (!out->stop)
			out_op(out, single_id, OCSD_OP_EOT, 0, NULL, 0);
	}
	out_flush(out);	/* nothing is left after an end of trace; after a stop, nothing goes */
	free(out);
	return err;
}
