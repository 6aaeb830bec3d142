// SPDX-License-Identifier: GPL-2.0
/*
 * csdump: the decode on worker threads, the consumer on the calling one.
 *
 * Per sink, the split stage runs here (it is cheap: the deformatter alone);
 * then the trace IDs are shared out among the workers, heaviest first, each
 * worker replaying the operations of its IDs into their decode trees.  Each
 * worker hands over its tagged events in batches through a ring, in tag
 * order, with a watermark: every event it will still produce has a tag at
 * least that high.  The consumer merges the workers' streams by tag: the
 * events arrive exactly as csd_decode_inline() gives them, for any number of
 * workers (decode_int.h says why).
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "decode/decode_int.h"
#include "decode/ocsd.h"
#include "core/diag.h"

#define BATCH_EVENTS	2048
#define N_BATCHES	8
#define MAX_WORKERS	16
/* Operations between two watermark updates of a worker. */
#define MARK_EVERY	1024

/* ---- the operations of a sink, recorded by the split stage ------------- */

/* One recorded operation (see struct csd_oplist). */
struct csd_op {
	uint64_t off;		/* DATA: offset of the bytes in csd_oplist.data */
	uint32_t len;		/* DATA: byte count */
	uint32_t index;		/* trace index the deformatter gave */
	uint8_t id;		/* trace ID */
	uint8_t kind;		/* ocsd_datapath_op_t */
};

/* The operations of a sink, recorded for replay on the workers. */
struct csd_oplist {
	struct csd_op *ops;
	size_t n, cap;
	uint8_t *data;
	size_t len, data_cap;
	uint64_t id_bytes[CSD_TRACE_IDS];	/* DATA bytes per trace ID */
	bool nomem;
};

/* A csd_op_fn appending to the csd_oplist @ctx (zeroed first); sets nomem. */
int csd_oplist_record(void *ctx, uint8_t id, uint8_t kind, uint32_t index,
		      const uint8_t *data, uint32_t len);
void csd_oplist_free(struct csd_oplist *l);

/* A csd_op_fn appending to the struct csd_oplist @ctx (zeroed first); sets nomem. */
static void oplist_free(struct csd_oplist *l)
{
	free(l->ops);
	free(l->data);
	memset(l, 0, sizeof(*l));
}

static bool grow(void **p, size_t *cap, size_t need, size_t size)
{
	size_t c = *cap ? *cap : 1024;
	void *n;

	if (need <= *cap)
		return true;
	while (c < need)
		c *= 2;
	n = realloc(*p, c * size);
	if (!n)
		return false;
	*p = n;
	*cap = c;
	return true;
}

static int oplist_record(void *ctx, uint8_t id, uint8_t kind, uint32_t index,
			 const uint8_t *data, uint32_t len)
{
	struct csd_oplist *l = ctx;
	struct csd_op *op;

	if (kind != OCSD_OP_DATA)
		len = 0;
	if (!grow((void **)&l->ops, &l->cap, l->n + 1, sizeof(*l->ops)) ||
	    !grow((void **)&l->data, &l->data_cap, l->len + len, 1)) {
		l->nomem = true;
		return 1;
	}
	op = &l->ops[l->n++];
	op->id = id;
	op->kind = kind;
	op->index = index;
	op->off = l->len;
	op->len = len;
	if (len) {
		memcpy(l->data + l->len, data, len);
		l->len += len;
		l->id_bytes[id & (CSD_TRACE_IDS - 1)] += len;
	}
	return 0;
}


/* Replay recorded operation @seq into @x, tagged @seq; non-zero: stop. */
static int idec_op(struct csd_idec *x, const struct csd_oplist *l, size_t seq)
{
	const struct csd_op *op = &l->ops[seq];

	return csd_idec_push(x, seq, op->id, op->kind, op->index, l->data + op->off, op->len);
}

/* ---- the workers and the merge ----------------------------------------- */

struct batch {
	size_t n;
	struct csd_tagged_ev ev[BATCH_EVENTS];
};

struct merge;

struct worker {
	struct merge *m;
	bool ids[CSD_TRACE_IDS];
	uint64_t load;			/* DATA bytes of its IDs */
	struct batch *b;		/* N_BATCHES, a ring; [head, head + count) ready */
	size_t head, count, fill;
	size_t rpos;			/* consumer's position in the head batch */
	uint64_t mark;			/* every tag below it has been published */
	bool done;
	enum csd_err err;
	pthread_t tid;
	bool started;
};

struct merge {
	const struct csd_dump *d;
	const struct csd_sink *s;
	uint8_t sink;
	const struct csd_oplist *l;
	struct csd_decode_where *where;
	struct worker w[MAX_WORKERS];
	size_t n;
	atomic_bool stop;		/* the consumer wants no more */
	pthread_mutex_t lock;
	pthread_cond_t cond;
};

/* Worker: publish the batch being filled (if any) and the watermark @mark. */
static void publish(struct worker *w, uint64_t mark, bool done)
{
	struct merge *m = w->m;

	pthread_mutex_lock(&m->lock);
	if (atomic_load(&m->stop)) {
		/* The consumer is gone: keep off its batches. */
		w->done = done;
		pthread_mutex_unlock(&m->lock);
		return;
	}
	if (w->b[w->fill].n)
		w->count++;
	w->mark = mark;
	w->done = done;
	pthread_cond_broadcast(&m->cond);
	while (w->b[w->fill].n && w->count == N_BATCHES && !atomic_load(&m->stop))
		pthread_cond_wait(&m->cond, &m->lock);
	if (!atomic_load(&m->stop) && w->b[w->fill].n) {
		w->fill = (w->head + w->count) % N_BATCHES;
		w->b[w->fill].n = 0;
	}
	pthread_mutex_unlock(&m->lock);
}

static int produce(void *ctx, const struct csd_tagged_ev *tev)
{
	struct worker *w = ctx;
	struct batch *b = &w->b[w->fill];

	if (atomic_load_explicit(&w->m->stop, memory_order_relaxed))
		return 1;
	b->ev[b->n++] = *tev;
	if (b->n == BATCH_EVENTS)
		publish(w, tev->tag, false);	/* more of this tag may follow */
	return 0;
}

static void *work(void *arg)
{
	struct worker *w = arg;
	struct merge *m = w->m;
	struct csd_idec *x = csd_idec_new(m->d, m->s, m->sink, w->ids, produce, w);
	size_t seq;

	if (!x)
		w->err = CSD_ERR_DECODE;
	for (seq = 0; x && seq < m->l->n; seq++) {
		const struct csd_op *op = &m->l->ops[seq];

		if (w->ids[op->id & (CSD_TRACE_IDS - 1)])
			csd_where_set(m->where, m->sink, op->id, op->index);
		if (idec_op(x, m->l, seq))
			break;
		if (seq % MARK_EVERY == MARK_EVERY - 1)
			publish(w, seq + 1, false);
	}
	if (x)
		csd_idec_report(x);
	csd_idec_free(x);
	publish(w, UINT64_MAX, true);
	return NULL;
}

/* Share the trace IDs out: heaviest first, to the least loaded worker. */
static size_t assign(struct merge *m, const bool ids[CSD_TRACE_IDS], size_t want)
{
	bool left[CSD_TRACE_IDS];
	size_t i, n_ids = 0, n;

	for (i = 0; i < CSD_TRACE_IDS; i++) {
		left[i] = ids[i];
		n_ids += ids[i];
	}
	n = want < n_ids ? want : n_ids;
	if (!n)
		n = 1;
	for (;;) {
		size_t best = CSD_TRACE_IDS, k, low = 0;

		for (i = 0; i < CSD_TRACE_IDS; i++)
			if (left[i] && (best == CSD_TRACE_IDS ||
					m->l->id_bytes[i] > m->l->id_bytes[best]))
				best = i;
		if (best == CSD_TRACE_IDS)
			break;
		for (k = 1; k < n; k++)
			if (m->w[k].load < m->w[low].load)
				low = k;
		m->w[low].ids[best] = true;
		m->w[low].load += m->l->id_bytes[best];
		left[best] = false;
	}
	return n;
}

/*
 * Consumer: hand on, in tag order, every published event that no worker can
 * still undercut.  Returns when all workers are done or the consumer stops.
 */
static void consume(struct merge *m, csd_ev_fn fn, void *ctx, const struct csd_decode_opts *o,
		    uint64_t done_before, uint64_t total)
{
	pthread_mutex_lock(&m->lock);
	for (;;) {
		struct worker *best = NULL;
		uint64_t best_tag = UINT64_MAX, bound = UINT64_MAX;
		bool all_done = true;
		size_t k;

		for (k = 0; k < m->n; k++) {
			struct worker *w = &m->w[k];
			uint64_t t;

			all_done &= w->done && !w->count;
			if (w->count) {
				t = w->b[w->head].ev[w->rpos].tag;
				if (!best || t < best_tag) {
					if (best && best_tag < bound)
						bound = best_tag;
					best = w;
					best_tag = t;
					continue;
				}
			} else {
				t = w->mark;
			}
			if (t < bound)
				bound = t;
		}
		if (all_done || atomic_load(&m->stop))
			break;
		if (!best || best_tag >= bound) {
			pthread_cond_wait(&m->cond, &m->lock);
			continue;
		}
		pthread_mutex_unlock(&m->lock);
		{
			struct batch *b = &best->b[best->head];
			size_t i;

			/* The batch stays ours until we give it back below. */
			for (i = best->rpos; i < b->n && b->ev[i].tag < bound; i++)
				if (fn(ctx, &b->ev[i].ev)) {
					atomic_store(&m->stop, true);
					break;
				}
			best->rpos = i;
			if (o->progress && i && m->l->ops[b->ev[i - 1].tag].kind == OCSD_OP_DATA)
				o->progress(o->progress_ctx,
					    done_before + m->l->ops[b->ev[i - 1].tag].index, total);
			pthread_mutex_lock(&m->lock);
			if (best->rpos == b->n || atomic_load(&m->stop)) {
				best->rpos = 0;
				best->head = (best->head + 1) % N_BATCHES;
				best->count--;
				pthread_cond_broadcast(&m->cond);
			}
		}
	}
	pthread_cond_broadcast(&m->cond);
	pthread_mutex_unlock(&m->lock);
}

static enum csd_err decode_sink(const struct csd_dump *d, uint8_t sink,
				const struct csd_oplist *l, const bool ids[CSD_TRACE_IDS],
				size_t workers, csd_ev_fn fn, void *ctx,
				const struct csd_decode_opts *o, const struct csd_decode_ctl *ctl,
				uint64_t done_before, uint64_t total, bool *stopped)
{
	struct merge *m = calloc(1, sizeof(*m));
	enum csd_err err = CSD_OK;
	size_t k;

	if (!m)
		return CSD_ERR_NOMEM;
	m->d = d;
	m->s = &d->sinks[sink];
	m->sink = sink;
	m->l = l;
	m->where = ctl->where;
	if (m->where)
		atomic_store(&m->where->workers, 1);
	atomic_init(&m->stop, false);
	pthread_mutex_init(&m->lock, NULL);
	pthread_cond_init(&m->cond, NULL);
	m->n = assign(m, ids, workers);
	for (k = 0; k < m->n; k++) {
		struct worker *w = &m->w[k];

		w->m = m;
		w->b = malloc(N_BATCHES * sizeof(*w->b));
		if (!w->b) {
			err = CSD_ERR_NOMEM;
			break;
		}
		w->b[0].n = 0;
	}
	for (k = 0; k < m->n && err == CSD_OK; k++) {
		if (pthread_create(&m->w[k].tid, NULL, work, &m->w[k])) {
			csd_error("cannot start a decoder thread");
			err = CSD_ERR_DECODE;
			break;
		}
		m->w[k].started = true;
	}
	if (err != CSD_OK)
		atomic_store(&m->stop, true);
	consume(m, fn, ctx, o, done_before, total);
	for (k = 0; k < m->n; k++) {
		if (m->w[k].started)
			pthread_join(m->w[k].tid, NULL);
		if (err == CSD_OK)
			err = m->w[k].err;
		free(m->w[k].b);
	}
	*stopped = atomic_load(&m->stop);
	pthread_mutex_destroy(&m->lock);
	pthread_cond_destroy(&m->cond);
	free(m);
	return err;
}

int csd_decode_cpus(void)
{
	cpu_set_t set;
	long n;

	if (!sched_getaffinity(0, sizeof(set), &set) && CPU_COUNT(&set) > 0)
		return CPU_COUNT(&set);
	n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 && n < 4096 ? (int)n : 1;
}

enum csd_err csd_decode_pipelined(const struct csd_dump *d, const struct csd_decode_opts *o,
				  const struct csd_decode_ctl *ctl, size_t workers,
				  csd_ev_fn fn, void *ctx)
{
	bool ids[CSD_TRACE_IDS], stopped = false;
	uint64_t total = 0, done = 0;
	enum csd_err err;
	size_t i;
	int single;

	if (workers < 1)
		workers = 1;
	if (workers > MAX_WORKERS)
		workers = MAX_WORKERS;
	err = csd_decode_prepare(d, o, ids, &single, &total);
	for (i = 0; i < d->n_sinks && err == CSD_OK && !stopped; i++) {
		const struct csd_sink *s = &d->sinks[i];
		struct csd_oplist l;
		bool formatted;
		uint8_t raw;

		if (!csd_sink_route(s, single, &formatted, &raw)) {
			done += s->len;
			continue;
		}
		memset(&l, 0, sizeof(l));
		err = csd_split_sink(s, (unsigned int)i, ctl, ids, formatted, raw, oplist_record,
				     &l);
		if (err == CSD_OK && l.nomem)
			err = CSD_ERR_NOMEM;
		if (err == CSD_OK)
			err = decode_sink(d, (uint8_t)i, &l, ids, workers, fn, ctx, o, ctl, done,
					  total, &stopped);
		oplist_free(&l);
		done += s->len;
	}
	return err;
}
