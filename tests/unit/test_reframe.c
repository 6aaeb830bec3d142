// SPDX-License-Identifier: GPL-2.0
/*
 * The per-trace-ID re-framing that csdump perf applies, checked by OpenCSD:
 * the Juno capture's ETB is split by trace ID and re-framed one ID after the
 * other (cs_frame.c), written as a snapshot, and trc_pkt_lister must decode,
 * for every trace ID, exactly the elements it decodes from the original.
 * Usage: test_reframe [TRACES_DIR]; exit 77 without the capture or the lister.
 */
#include <stdio.h>
#include <string.h>

#include "core/cs_frame.h"
#include "format/snapshot.h"
#include "testutil.h"

static enum csd_err reframe(struct csd_sink *s, const struct csd_dump *d)
{
	struct csd_streams st = { 0 };
	uint8_t *all = NULL;
	size_t len = 0;

	if (csd_frames_demux(s->data, s->len, &st))
		return CSD_ERR_NOMEM;
	for (size_t e = 0; e < d->n_etms; e++) {
		uint8_t id = csd_etm_trace_id(&d->etms[e]), *f, *p;
		size_t flen;

		if (!st.len[id] || csd_frames_format(id, st.data[id], st.len[id], &f, &flen))
			continue;
		p = realloc(all, len + flen);
		if (!p)
			abort();
		all = p;
		memcpy(all + len, f, flen);
		len += flen;
		free(f);
	}
	csd_streams_free(&st);
	free(s->data);
	s->data = all;
	s->len = len;
	return CSD_OK;
}

/* trc_pkt_lister's decoded elements of @dir for trace ID @id, without indices. */
static char *elements(const char *dir, const char *work, unsigned int id)
{
	char cmd[8192], line[4096], *out = NULL, tag[16];
	size_t len = 0;
	FILE *p, *m = open_memstream(&out, &len);

	snprintf(cmd, sizeof(cmd), "cd '%s' && trc_pkt_lister -ss_dir '%s' -decode -logstdout "
		 "-no_time_print 2>/dev/null", work, dir);
	snprintf(tag, sizeof(tag), "ID:%x; ", id);
	p = popen(cmd, "r");
	if (!p || !m)
		abort();
	while (fgets(line, sizeof(line), p)) {
		const char *t = strstr(line, tag);

		/* The lister's own start/end markers depend on the buffer's layout. */
		if (t && strstr(t, "OCSD_GEN_TRC_ELEM_") && !strstr(t, "NO_SYNC") &&
		    !strstr(t, "EO_TRACE"))
			fputs(t, m);
	}
	pclose(p);
	fclose(m);
	return out;
}

int main(int argc, char **argv)
{
	const char *traces = argc > 1 ? argv[1] : "../shared/traces";
	char src[4096], dst[4096], abs_src[4096];
	struct csd_dump d = { 0 };
	char *tmp;

	snprintf(src, sizeof(src), "%s/juno_r1_1", traces);
	if (!csd_snapshot_is_dir(src) || system("command -v trc_pkt_lister >/dev/null") ||
	    !realpath(src, abs_src)) {
		printf("SKIP: %s or trc_pkt_lister absent\n", src);
		return TEST_SKIP;
	}
	tmp = test_tmpdir("reframe");
	snprintf(dst, sizeof(dst), "%s/snap", tmp);
	CHECK(csd_snapshot_read(abs_src, &d) == CSD_OK && d.n_sinks == 1, "read");
	CHECK(reframe(&d.sinks[0], &d) == CSD_OK, "reframe");
	CHECK(csd_snapshot_write(&d, dst) == CSD_OK, "write");
	for (size_t e = 0; e < d.n_etms; e++) {
		unsigned int id = csd_etm_trace_id(&d.etms[e]);
		char *a = elements(abs_src, tmp, id), *b = elements(dst, tmp, id);
		size_t n = 0;

		for (const char *p = a; (p = strchr(p, '\n')); p++)
			n++;
		printf("trace ID 0x%x: %zu elements\n", id, n);
		CHECK(!strcmp(a, b), "trace ID 0x%x decodes differently after re-framing", id);
		free(a);
		free(b);
	}
	csd_dump_free(&d);
	test_rmtree(tmp);
	free(tmp);
	return test_result("test_reframe");
}
