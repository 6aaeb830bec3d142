// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test of the sinks' file names in an extract directory and a snapshot:
 * each is the device name made safe, unique among the sinks, for any number
 * of sinks (the 33rd sink of a machine is no different from the first).
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
	test_rmtree(dir);
	free(dir);
	return test_result("sink-names");
}
