// SPDX-License-Identifier: GPL-2.0
/* csdump: give a wrapped sink's ID-less leading bytes to their CPU (lead.h). */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "core/cs_frame.h"
#include "core/diag.h"
#include "decode/isolate.h"
#include "decode/lead.h"

/*
 * Exceptions that an instruction takes by itself (ETMv4 exception numbers,
 * IHI 0064H 6.4.13): a trap, a debug event (BRK: instruction debug), an
 * alignment, instruction or data fault.  Not a reset, a halt, an SError,
 * an IRQ or FIQ: those are taken between instructions, wherever the PE is.
 */
static bool synchronous(uint32_t number)
{
	switch (number) {
	case 3: case 6: case 7: case 10: case 11: case 12:
		return true;
	}
	return false;
}

int csd_lead_event(void *match, const struct csd_ev *ev)
{
	struct csd_lead_match *m = match;

	switch (ev->kind) {
	case CSD_EV_RANGE:
		m->last_end = ev->end;
		return 0;
	case CSD_EV_EXCEPTION:
		/*
		 * Taken where a range of the walk left the PE: at the end of the
		 * range (a fault inside a block) or at its branch's target (a
		 * BRK that begins a function).
		 */
		if (m->last_end && ev->end == m->fault && synchronous(ev->number)) {
			m->found = true;
			return 1;
		}
		m->last_end = 0;
		return 0;
	case CSD_EV_CONTEXT:
	case CSD_EV_TIMESTAMP:
	case CSD_EV_CYCLES:
		return 0;
	default:
		/* A gap, lost sync, no image, a runaway: no walk reaches the fault. */
		m->last_end = 0;
		return 0;
	}
}

static bool lead_finish(void *ctx)
{
	(void)ctx;
	return true;
}

/*
 * Do @lead's bytes, decoded as @etm's trace, take its recorded fault?  The
 * decode runs in a child (isolate.h: the library may crash on damaged
 * trace), its verdict in shared memory; a crash is reported and is a no.
 */
static enum csd_err takes_fault(const struct csd_dump *d, struct csd_sink *s,
				const struct csd_etm *etm, bool *found)
{
	struct csd_dump one = *d;
	struct csd_isolated j = {
		.d = &one,
		.o = { .cpu = (int)etm->cpu, .threads = 0 },
		.fn = csd_lead_event,
		.finish = lead_finish,
		.lost = "; those bytes, before the sink's first trace ID, are left out",
	};
	struct csd_lead_match *m;
	enum csd_err err;
	bool damaged;

	*found = false;
	m = mmap(NULL, sizeof(*m), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return CSD_OK;	/* not decoded unprotected: no attribution */
	*m = (struct csd_lead_match){ .fault = etm->stop_addr };
	j.fn_ctx = m;
	one.sinks = s;
	one.n_sinks = 1;
	err = csd_decode_isolated(&j, &damaged);
	*found = m->found && !damaged;
	munmap(m, sizeof(*m));
	return err;
}

static bool faulted(const struct csd_etm *etm)
{
	return etm->stop_known && etm->stop_reason == CSD_STOP_FAULT && etm->stop_addr &&
	       csd_trace_id_valid(csd_etm_trace_id(etm));
}

static enum csd_err attribute_sink(struct csd_dump *d, struct csd_sink *s, const char *input)
{
	const struct csd_etm *owner = NULL;
	enum csd_err err = CSD_OK;
	size_t n, at, hits = 0;
	uint8_t *lead;

	if (csd_frames_lead(s->data, s->len, &lead, &n, &at))
		return CSD_ERR_NOMEM;
	for (size_t i = 0; n && i < d->n_etms && err == CSD_OK; i++) {
		struct csd_sink one = { .data = lead, .len = n, .source_known = true,
					.source_id = csd_etm_trace_id(&d->etms[i]) };
		bool found;

		if (!faulted(&d->etms[i]))
			continue;
		/* Named in a crash report: the sink's bytes before its first ID. */
		snprintf(one.name, sizeof(one.name), "%.24s (lead)", s->name);
		err = takes_fault(d, &one, &d->etms[i], &found);
		if (found) {
			owner = &d->etms[i];
			hits++;
		}
	}
	free(lead);
	if (err != CSD_OK || hits != 1)
		return err;
	if (csd_frames_claim_lead(s, csd_etm_trace_id(owner)))
		return CSD_ERR_NOMEM;
	csd_info("%s: sink %s wrapped inside one source's run: its first %zu bytes hold no "
		 "trace ID, and they take CPU %llu's fault at 0x%llx: decoded as its trace "
		 "ID 0x%x", input, s->name, n, (unsigned long long)owner->cpu,
		 (unsigned long long)owner->stop_addr, csd_etm_trace_id(owner));
	return CSD_OK;
}

enum csd_err csd_lead_attribute(struct csd_dump *d, const char *input)
{
	bool any = false;

	for (size_t i = 0; i < d->n_etms; i++)
		any |= faulted(&d->etms[i]);
	for (size_t i = 0; any && i < d->n_sinks; i++) {
		enum csd_err err;

		if (!(d->sinks[i].flags & CSD_F_FORMATTED))
			continue;
		err = attribute_sink(d, &d->sinks[i], input);
		if (err != CSD_OK)
			return err;
	}
	return CSD_OK;
}
