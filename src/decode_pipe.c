// SPDX-License-Identifier: GPL-2.0
/*
 * csdump: decode on one core, consume on the other.
 *
 * A worker thread runs csd_decode() and hands its events over in batches;
 * the calling thread runs the consumer (formatting, output) on them.  One
 * producer, one consumer, a FIFO of batches: the consumer sees exactly the
 * events, in exactly the order, that csd_decode() would have given it.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "decode.h"
#include "diag.h"

#define BATCH_EVENTS	2048
#define N_BATCHES	8

struct batch {
	size_t n;
	struct csd_ev ev[BATCH_EVENTS];
};

struct pipe {
	const struct csd_dump *d;
	const struct csd_decode_opts *o;
	struct batch *b;		/* N_BATCHES, a ring */
	size_t head, count;		/* ready batches: head .. head + count */
	size_t fill;			/* the batch the producer fills */
	bool done;
	atomic_bool stop;		/* the consumer wants no more */
	enum csd_err err;
	pthread_mutex_t lock;
	pthread_cond_t cond;
};

/* Producer: publish the batch being filled and wait for a free one. */
static void publish(struct pipe *p)
{
	pthread_mutex_lock(&p->lock);
	p->count++;
	pthread_cond_broadcast(&p->cond);
	while (p->count == N_BATCHES && !atomic_load(&p->stop))
		pthread_cond_wait(&p->cond, &p->lock);
	if (atomic_load(&p->stop)) {
		/* Keep off the consumer's batches; produce() refuses from now on. */
		pthread_mutex_unlock(&p->lock);
		return;
	}
	p->fill = (p->head + p->count) % N_BATCHES;
	pthread_mutex_unlock(&p->lock);
	p->b[p->fill].n = 0;
}

static int produce(void *ctx, const struct csd_ev *ev)
{
	struct pipe *p = ctx;
	struct batch *b = &p->b[p->fill];

	if (atomic_load_explicit(&p->stop, memory_order_relaxed))
		return 1;
	b->ev[b->n++] = *ev;
	if (b->n == BATCH_EVENTS)
		publish(p);
	return 0;
}

static void *worker(void *arg)
{
	struct pipe *p = arg;
	enum csd_err err = csd_decode(p->d, p->o, produce, p);

	pthread_mutex_lock(&p->lock);
	if (p->b[p->fill].n && !atomic_load(&p->stop))
		p->count++;
	p->err = err;
	p->done = true;
	pthread_cond_broadcast(&p->cond);
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

enum csd_err csd_decode_pipelined(const struct csd_dump *d, const struct csd_decode_opts *o,
				  csd_ev_fn fn, void *ctx)
{
	struct pipe p;
	pthread_t tid;
	enum csd_err err;

	memset(&p, 0, sizeof(p));
	p.d = d;
	p.o = o;
	p.b = malloc(N_BATCHES * sizeof(*p.b));
	if (!p.b)
		return CSD_ERR_NOMEM;
	p.b[0].n = 0;
	atomic_init(&p.stop, false);
	pthread_mutex_init(&p.lock, NULL);
	pthread_cond_init(&p.cond, NULL);
	if (pthread_create(&tid, NULL, worker, &p)) {
		/* No second thread: decode here. */
		free(p.b);
		pthread_mutex_destroy(&p.lock);
		pthread_cond_destroy(&p.cond);
		return csd_decode(d, o, fn, ctx);
	}
	for (;;) {
		struct batch *b;
		size_t i;

		pthread_mutex_lock(&p.lock);
		while (!p.count && !p.done)
			pthread_cond_wait(&p.cond, &p.lock);
		if (!p.count) {
			pthread_mutex_unlock(&p.lock);
			break;
		}
		b = &p.b[p.head];
		pthread_mutex_unlock(&p.lock);

		for (i = 0; i < b->n && !atomic_load(&p.stop); i++)
			if (fn(ctx, &b->ev[i]))
				atomic_store(&p.stop, true);

		pthread_mutex_lock(&p.lock);
		p.head = (p.head + 1) % N_BATCHES;
		p.count--;
		pthread_cond_broadcast(&p.cond);
		pthread_mutex_unlock(&p.lock);
	}
	pthread_join(tid, NULL);
	err = p.err;
	free(p.b);
	pthread_mutex_destroy(&p.lock);
	pthread_cond_destroy(&p.cond);
	return err;
}
