// SPDX-License-Identifier: GPL-2.0
/* csdump: the `info` listing of a registry (see registry_info.h). */
#include <stdint.h>
#include <stdlib.h>

#include "core/registry.h"
#include "core/registry_info.h"

/* "  stopped: fault at 0x..." when a version 2 record says what stopped it. */
static void print_stop(FILE *out, const struct csd_record *r)
{
	const char *name = csd_stop_name(r->stop_reason);

	if (r->state == CSD_REC_BAD || !r->stop_reason)
		return;
	if (name)
		fprintf(out, "  stopped: %s", name);
	else
		fprintf(out, "  stopped: reason %u", r->stop_reason);
	if (r->stop_addr)
		fprintf(out, " at 0x%016llx", (unsigned long long)r->stop_addr);
	/* Version 3: a TRBE's TRBSR_EL1 (a fault's EC and FSC, "filled") */
	if (r->sink_status)
		fprintf(out, "  TRBSR 0x%llx", (unsigned long long)r->sink_status);
}

static void print_record(FILE *out, const struct csd_registry *reg, const struct csd_record *r)
{
	char flags[CSD_REC_FLAGS_STR_MAX], cpu[16];
	const char *crc = !r->crc_checked ? "-" : r->crc_ok ? "ok" : "bad";
	bool caveat;
	const char *verdict = csd_rec_verdict(reg, r, &caveat);

	snprintf(cpu, sizeof(cpu), r->cpu < 0 ? "-" : "%d", r->cpu);
	fprintf(out, "0x%016llx %-8s %-20s %4s %10llu %10llu %-26s %s%s%s",
		(unsigned long long)r->addr,
		r->kind == CSD_REC_KIND_TRACE ? "trace" : r->kind == CSD_REC_KIND_ETM ? "metadata" : "?",
		r->name[0] ? r->name : "?", cpu, (unsigned long long)r->capacity,
		(unsigned long long)r->data_len, csd_rec_flags_str(r->flags, flags, sizeof(flags)),
		crc, r->state == CSD_REC_BAD ? "  BAD: " : verdict ? "  " : "",
		r->state == CSD_REC_BAD ? r->problem : verdict ? verdict : "");
	print_stop(out, r);
	fputc('\n', out);
}

enum csd_err csd_registry_info(const struct csd_mem *m, FILE *out, struct csd_info_counts *c)
{
	struct csd_registry reg;
	enum csd_err err;

	*c = (struct csd_info_counts){ 0 };
	err = csd_registry_walk(m, &reg);
	if (err) {
		csd_registry_free(&reg);
		return err;
	}
	fprintf(out, "%-18s %-8s %-20s %4s %10s %10s %-26s %s\n", "ADDRESS", "KIND", "DEVICE",
		"CPU", "CAPACITY", "DATA_LEN", "FLAGS", "CRC");
	for (size_t i = 0; i < reg.n; i++) {
		struct csd_record *r = &reg.recs[i];
		uint8_t *data;
		size_t len;

		/* The CRC verdict needs the data: read it, keep nothing. */
		if (r->state == CSD_REC_OK) {
			if (csd_record_read(m, &reg, r, &data, &len) == CSD_OK) {
				free(data);
				c->n_trace += r->kind == CSD_REC_KIND_TRACE;
			}
		}
		print_record(out, &reg, r);
	}
	if (reg.cut)
		fprintf(out, "list cut: %s\n", reg.cut_reason);
	fprintf(out, "%zu record(s), %zu bad, %zu with saved trace\n", reg.n, reg.n_bad, c->n_trace);
	c->n = reg.n;
	c->n_bad = reg.n_bad;
	c->cut = reg.cut;
	csd_registry_free(&reg);
	return CSD_OK;
}
