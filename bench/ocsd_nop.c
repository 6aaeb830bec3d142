// SPDX-License-Identifier: GPL-2.0
/*
 * ocsd_nop SNAPSHOT_DIR: the OpenCSD C API's own limit on a snapshot -- one
 * decode tree per sink, an ETMv4 decoder per trace unit, the memory dumps as
 * the library's buffer accessors, and an element callback that only counts.
 * Prints "ranges N bytes N seconds S" for the data path alone (loading the
 * snapshot is not timed).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <opencsd/c_api/opencsd_c_api.h>

#include "core/dump.h"
#include "format/snapshot.h"

static ocsd_datapath_resp_t count(const void *ctx, const ocsd_trc_index_t index,
				  const uint8_t id, const ocsd_generic_trace_elem *e)
{
	(void)index;
	(void)id;
	if (e->elem_type == OCSD_GEN_TRC_ELEM_INSTR_RANGE)
		++*(uint64_t *)ctx;
	return OCSD_RESP_CONT;
}

static int decode_sink(const struct csd_dump *d, const struct csd_sink *s, uint64_t *ranges)
{
	dcd_tree_handle_t t = ocsd_create_dcd_tree(OCSD_TRC_SRC_FRAME_FORMATTED,
						   OCSD_DFRMTR_FRAME_MEM_ALIGN);
	ocsd_datapath_resp_t r = OCSD_RESP_CONT;
	size_t i, pos = 0;

	if (!t)
		return -1;
	for (i = 0; i < d->n_etms; i++) {
		const struct csd_etm *m = &d->etms[i];
		ocsd_etmv4_cfg cfg = {
			.reg_idr0 = (uint32_t)m->trcidr0, .reg_idr1 = (uint32_t)m->trcidr1,
			.reg_idr2 = (uint32_t)m->trcidr2, .reg_idr8 = (uint32_t)m->trcidr8,
			.reg_configr = (uint32_t)m->trcconfigr,
			.reg_traceidr = (uint32_t)m->trctraceidr,
			.arch_ver = ARCH_V8, .core_prof = profile_CortexA,
		};
		unsigned char id;

		if (ocsd_dt_create_decoder(t, OCSD_BUILTIN_DCD_ETMV4I, OCSD_CREATE_FLG_FULL_DECODER,
					   &cfg, &id) != OCSD_OK)
			goto fail;
	}
	for (i = 0; i < d->n_segs; i++)
		if (ocsd_dt_add_buffer_mem_acc(t, d->segs[i].vaddr, OCSD_MEM_SPACE_ANY,
					       d->segs[i].data, (uint32_t)d->segs[i].len) != OCSD_OK)
			goto fail;
	if (ocsd_dt_set_gen_elem_outfn(t, count, ranges) != OCSD_OK)
		goto fail;
	while (pos < s->len && !OCSD_DATA_RESP_IS_FATAL(r)) {
		uint32_t used = 0;

		if (OCSD_DATA_RESP_IS_WAIT(r))
			r = ocsd_dt_process_data(t, OCSD_OP_FLUSH, 0, 0, NULL, NULL);
		else
			r = ocsd_dt_process_data(t, OCSD_OP_DATA, (ocsd_trc_index_t)pos,
						 (uint32_t)(s->len - pos), s->data + pos, &used);
		pos += used;
	}
	ocsd_dt_process_data(t, OCSD_OP_EOT, 0, 0, NULL, NULL);
	ocsd_destroy_dcd_tree(t);
	return OCSD_DATA_RESP_IS_FATAL(r) ? -1 : 0;
fail:
	ocsd_destroy_dcd_tree(t);
	return -1;
}

int main(int argc, char **argv)
{
	struct csd_dump d = { 0 };
	struct timespec t0, t1;
	uint64_t ranges = 0, bytes = 0;
	size_t i;
	int rc = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: ocsd_nop SNAPSHOT_DIR\n");
		return 2;
	}
	if (csd_snapshot_read(argv[1], &d) != CSD_OK) {
		csd_dump_free(&d);
		return 1;
	}
	ocsd_def_errlog_init(OCSD_ERR_SEV_ERROR, 0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < d.n_sinks && !rc; i++) {
		rc = decode_sink(&d, &d.sinks[i], &ranges);
		bytes += d.sinks[i].len;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("ranges %" PRIu64 " bytes %" PRIu64 " seconds %.3f\n", ranges, bytes,
	       (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	csd_dump_free(&d);
	return rc ? 1 : 0;
}
