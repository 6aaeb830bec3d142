// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test of the sinks' file names in an extract directory and a snapshot:
 * each is the device name made safe, unique among the sinks, for any number
 * of sinks (the 33rd sink of a machine is no different from the first).
 * And the snapshot's [source_buffers]: each ETM's own sink where it has one,
 * raw or formatted, else the shared one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/dump.h"
#include "core/extract.h"
#include "format/snapshot.h"
#include "testutil.h"

#define N_SINKS 40

static int exists(const char *dir, const char *name)
{
	char path[4096];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return !stat(path, &st);
}

static void fill(struct csd_dump *d)
{
	struct csd_etm etm = { .cpu = 0, .trctraceidr = 0x10 };

	memset(d, 0, sizeof(*d));
	for (int i = 0; i < N_SINKS; i++) {
		char name[CSD_NAME_MAX];
		uint8_t *data = malloc(16);

		memset(data, i, 16);
		snprintf(name, sizeof(name), "tmc_etf%d", i);
		CHECK(csd_dump_add_sink(d, name, data, 16, 0), "add sink %d", i);
	}
	/* Unsafe, duplicate and empty names. */
	CHECK(csd_dump_add_sink(d, "tmc/etf0", calloc(1, 16), 16, 0), "add");
	CHECK(csd_dump_add_sink(d, "tmc_etf0", calloc(1, 16), 16, 0), "add");
	CHECK(csd_dump_add_sink(d, "", calloc(1, 16), 16, 0), "add");
	CHECK(csd_dump_add_etm(d, &etm), "add etm");
}

static void check_names(const char *dir, const char *what)
{
	char file[64];

	for (int i = 0; i < N_SINKS; i++) {
		snprintf(file, sizeof(file), "tmc_etf%d.bin", i);
		CHECK(exists(dir, file), "%s: %s missing", what, file);
		snprintf(file, sizeof(file), "sink%d.bin", i);
		CHECK(!exists(dir, file), "%s: %s written", what, file);
	}
	snprintf(file, sizeof(file), "tmc_etf0-%d.bin", N_SINKS);
	CHECK(exists(dir, file), "%s: unsafe name: %s missing", what, file);
	snprintf(file, sizeof(file), "tmc_etf0-%d.bin", N_SINKS + 1);
	CHECK(exists(dir, file), "%s: duplicate name: %s missing", what, file);
	snprintf(file, sizeof(file), "sink%d.bin", N_SINKS + 2);
	CHECK(exists(dir, file), "%s: empty name: %s missing", what, file);
}

/* Does @dir's trace.ini have the line @line? */
static int ini_has(const char *dir, const char *line)
{
	char path[4096], buf[256];
	int found = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/trace.ini", dir);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (!found && fgets(buf, sizeof(buf), f))
		found = !strncmp(buf, line, strlen(line)) && buf[strlen(line)] == '\n';
	fclose(f);
	return found;
}

/*
 * An ETF per CPU: CPU 0's wrapped (raw, its one source's stream), CPUs 1
 * and 2's did not (formatted, their records name their one source); and a
 * shared ETF, formatted, after them, for CPU 3.
 */
static void check_source_buffers(const char *dir)
{
	static const char *const names[] = { "etf0", "etf1", "etf2", "etf_shared" };
	struct csd_dump d;
	char out[4096];

	memset(&d, 0, sizeof(d));
	for (int i = 0; i < 4; i++) {
		struct csd_sink *s = csd_dump_add_sink(&d, names[i], calloc(1, 16), 16,
						       i ? CSD_F_FORMATTED : 0);

		CHECK(s, "add %s", names[i]);
		if (!s)
			return;
		if (i == 0) {
			s->source_known = true;
			s->source_id = 0x10;
		} else if (i < 3) {
			s->one_source = (uint8_t)(0x10 + 2 * i);
		}
	}
	for (int cpu = 0; cpu < 4; cpu++) {
		struct csd_etm etm = { .cpu = cpu, .trctraceidr = 0x10 + 2 * cpu };

		CHECK(csd_dump_add_etm(&d, &etm), "add etm %d", cpu);
	}
	snprintf(out, sizeof(out), "%s/own", dir);
	CHECK(csd_snapshot_write(&d, out) == CSD_OK, "snapshot: %s", test_msgs());
	CHECK(ini_has(out, "ETM_0=etf0"), "a raw sink of CPU 0's own");
	CHECK(ini_has(out, "ETM_1=etf1"), "a formatted sink naming CPU 1's ETM its one source");
	CHECK(ini_has(out, "ETM_2=etf2"), "a formatted sink naming CPU 2's ETM its one source");
	CHECK(ini_has(out, "ETM_3=etf_shared"), "the shared sink for an ETM with none of its own");
	csd_dump_free(&d);
}

int main(void)
{
	struct csd_dump d;
	char *dir = test_tmpdir("names"), out[4096];

	test_capture_msgs();
	fill(&d);
	snprintf(out, sizeof(out), "%s/x", dir);
	CHECK(csd_extract_write(&d, NULL, "test", out) == CSD_OK, "extract: %s", test_msgs());
	check_names(out, "extract");
	snprintf(out, sizeof(out), "%s/snap", dir);
	CHECK(csd_snapshot_write(&d, out) == CSD_OK, "snapshot: %s", test_msgs());
	check_names(out, "snapshot");
	csd_dump_free(&d);
	check_source_buffers(dir);
	test_rmtree(dir);
	free(dir);
	return test_result("sink-names");
}
