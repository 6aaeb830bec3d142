// SPDX-License-Identifier: GPL-2.0
/*
 * The real Juno capture through a vmcore: vmcoregen puts its ETB contents and
 * its six ETMs' registers into registry records of an arm64 vmcore; csdump
 * must load from it exactly what the snapshot holds, and stock perf must
 * decode the perf.data made from the vmcore exactly as the one made from the
 * snapshot (same samples, CPUs and symbols, with the snapshot's memory image).
 * Usage: test_juno_vmcore [TRACES_DIR]; exit 77 without the capture or perf.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "format/elfimage.h"
#include "core/extract.h"
#include "format/input.h"
#include "core/perf_cs_etm.h"
#include "format/snapshot.h"
#include "testutil.h"
#include "vgdump.h"
#include "vmcoregen.h"

static void build_vmcore(const struct csd_dump *snap, const char *path)
{
	struct vg g;

	vg_init(&g, 1);
	vg_add_dump(&g, snap, "tmc_etb0");
	vg_write(&g, path, 0);
	vg_free(&g);
}

/* perf script's cpu,ip,sym output for @data with image @elf, malloc'ed. */
static char *perf_script(const char *data, const char *elf)
{
	char cmd[8192], *out = NULL;
	size_t len = 0;
	FILE *p, *m = open_memstream(&out, &len);
	int c;

	snprintf(cmd, sizeof(cmd), "perf script -i '%s' -k '%s' -F cpu,ip,sym 2>/dev/null",
		 data, elf);
	p = popen(cmd, "r");
	if (!p || !m)
		abort();
	while ((c = fgetc(p)) != EOF)
		fputc(c, m);
	CHECK(pclose(p) == 0, "perf script failed on %s", data);
	fclose(m);
	return out;
}

int main(int argc, char **argv)
{
	const char *traces = argc > 1 ? argv[1] : "../shared/traces";
	char snapdir[4096], vmcore[4096], exdir[4096], snapdata[4096], elf[4096], vmdata[4096];
	struct csd_dump snap = { 0 }, vm = { 0 };
	struct csd_input_status st;
	char *tmp, *a, *b;
	size_t lines = 0;

	snprintf(snapdir, sizeof(snapdir), "%s/juno_r1_1", traces);
	if (!csd_snapshot_is_dir(snapdir) || system("perf --version >/dev/null 2>&1")) {
		printf("SKIP: %s or perf absent\n", snapdir);
		return TEST_SKIP;
	}
	tmp = test_tmpdir("junovm");
	snprintf(vmcore, sizeof(vmcore), "%s/juno.vmcore", tmp);
	snprintf(exdir, sizeof(exdir), "%s/ex", tmp);
	snprintf(snapdata, sizeof(snapdata), "%s/snap.data", tmp);
	snprintf(elf, sizeof(elf), "%s/snap.elf", tmp);
	snprintf(vmdata, sizeof(vmdata), "%s/ex/perf.data", tmp);

	CHECK(csd_snapshot_read(snapdir, &snap) == CSD_OK, "snapshot");
	build_vmcore(&snap, vmcore);
	CHECK(csd_input_load(vmcore, &vm, &st) == CSD_OK && !st.partial, "vmcore load");
	CHECK(vm.n_etms == snap.n_etms && vm.n_sinks == 1, "records");
	CHECK(!memcmp(vm.etms, snap.etms, snap.n_etms * sizeof(*snap.etms)), "ETM registers");
	CHECK(vm.sinks[0].len == snap.sinks[0].len &&
	      !memcmp(vm.sinks[0].data, snap.sinks[0].data, snap.sinks[0].len), "ETB contents");

	CHECK(csd_extract_write(&vm, NULL, vmcore, exdir) == CSD_OK, "extract");
	CHECK(csd_perf_write_cs_etm(&snap, snapdata) == CSD_OK, "snapshot perf.data");
	CHECK(csd_elfimage_write(&snap, elf) == CSD_OK, "image");
	a = perf_script(snapdata, elf);
	b = perf_script(vmdata, elf);
	for (const char *p = a; (p = strchr(p, '\n')); p++)
		lines++;
	printf("perf script: %zu lines from the snapshot's perf.data\n", lines);
	CHECK(lines > 4000, "perf decoded only %zu samples", lines);
	CHECK(!strcmp(a, b), "perf decodes the vmcore's perf.data differently");
	free(a);
	free(b);
	csd_dump_free(&snap);
	csd_dump_free(&vm);
	test_rmtree(tmp);
	free(tmp);
	return test_result("test_juno_vmcore");
}
