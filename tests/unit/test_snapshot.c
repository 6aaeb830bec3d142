// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test of the snapshot reader: a synthetic snapshot with the awkward
 * parts of the format (two cores, an STM with its own buffer, a buffer split
 * over two files, dump offsets, a dump listed twice, a missing dump file, a
 * dump longer than its file), broken snapshots, and, when ../shared is there,
 * the real Juno capture checked against the values in its .ini files.
 */
#include <stdio.h>
#include <string.h>

#include "core/dump.h"
#include "format/snapshot.h"
#include "testutil.h"

static const char etm_ini[] =
	"[device]\nname=%s\nclass=trace_source\ntype=ETM4.1\n\n[regs]\n"
	"TRCCONFIGR(0x004)=0x000000C1\nTRCTRACEIDR(id:0x010)=0x%x\n"
	"TRCAUTHSTATUS(0x3EE)=0xCC\nTRCIDR0(0x078)=0x28000EA1\n"
	"TRCIDR1(0x079)=0x4100F403\nTRCIDR2(0x07A)=0x00000488\n"
	"TRCIDR8=0x5\n";

static void write_etm(const char *dir, const char *file, const char *name, unsigned int id)
{
	char buf[1024];

	snprintf(buf, sizeof(buf), etm_ini, name, id);
	test_write(dir, file, buf, -1);
}

static char *make_synthetic(void)
{
	char *dir = test_tmpdir("snap");
	static const unsigned char mem[16] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 };

	test_write(dir, "snapshot.ini",
		   "; comment\n[snapshot]\nversion=1.0\n\n[device_list]\n"
		   "device0=core_a.ini\ndevice1=core_b.ini\ndevice2=etm_a.ini\n"
		   "device3=etm_b.ini\ndevice4=stm.ini\n\n[trace]\nmetadata=trace.ini\n", -1);
	test_write(dir, "trace.ini",
		   "[trace_buffers]\nbuffers=buffer0, buffer1\n\n"
		   "[buffer0]\nname=ETB_0\nfile=part1.bin,part2.bin\nformat=coresight\n\n"
		   "[buffer1]\nname=STM_BUF\nfile=stm.bin\nformat=coresight\n\n"
		   "[core_trace_sources]\ncpu_2=ETM_A\ncpu_7=ETM_B\n\n"
		   "[source_buffers]\nETM_A=ETB_0\nETM_B(stream:0)=ETB_0\nSTM_0=STM_BUF\n", -1);
	test_write(dir, "core_a.ini",
		   "[device]\nname=cpu_2\nclass=core\ntype=Cortex-A53\n\n"
		   "[dump1]\nfile=mem.bin\naddress=0xffff000000001000\noffset=4\nlength=8\n\n"
		   "[dump2]\nfile=missing.bin\naddress=0x2000\n", -1);
	test_write(dir, "core_b.ini",
		   "[device]\nname=cpu_7\nclass=core\ntype=Cortex-A57\n\n"
		   "[dump_same]\nfile=mem.bin\naddress=0xffff000000001000\noffset=0x4\nlength=8\n\n"
		   "[dump_long]\nfile=mem.bin\naddress=0x3000\nlength=17\n\n"
		   "[dumpwhole]\nfile=mem.bin\naddress=0x4000\n", -1);
	write_etm(dir, "etm_a.ini", "ETM_A", 0x12);
	write_etm(dir, "etm_b.ini", "ETM_B", 0x17);
	test_write(dir, "stm.ini", "[device]\nname=STM_0\nclass=trace_source\ntype=STM\n", -1);
	test_write(dir, "part1.bin", "AAAA", 4);
	test_write(dir, "part2.bin", "BBBBBB", 6);
	test_write(dir, "stm.bin", "SSSS", 4);
	test_write(dir, "mem.bin", mem, sizeof(mem));
	return dir;
}

static void test_synthetic(void)
{
	char *dir = make_synthetic();
	struct csd_dump d = { 0 };
	enum csd_err err;

	test_reset_msgs();
	err = csd_snapshot_read(dir, &d);
	CHECK(err == CSD_OK, "err %d", err);
	CHECK(d.n_etms == 2, "%zu ETMs", d.n_etms);
	if (d.n_etms == 2) {
		CHECK(d.etms[0].cpu == 2 && d.etms[1].cpu == 7, "cpus %llu %llu",
		      (unsigned long long)d.etms[0].cpu, (unsigned long long)d.etms[1].cpu);
		CHECK(csd_etm_trace_id(&d.etms[0]) == 0x12, "id");
		CHECK(csd_etm_trace_id(&d.etms[1]) == 0x17, "id");
		CHECK(d.etms[0].trcconfigr == 0xc1 && d.etms[0].trcidr0 == 0x28000ea1 &&
		      d.etms[0].trcidr1 == 0x4100f403 && d.etms[0].trcidr2 == 0x488 &&
		      d.etms[0].trcidr8 == 5 && d.etms[0].trcauthstatus == 0xcc, "regs");
		CHECK(csd_dump_etm_by_trace_id(&d, 0x17) == &d.etms[1], "by id");
	}
	CHECK(d.n_sinks == 1, "%zu sinks (the STM buffer must be left out)", d.n_sinks);
	if (d.n_sinks == 1) {
		CHECK(!strcmp(d.sinks[0].name, "ETB_0"), "name %s", d.sinks[0].name);
		CHECK(d.sinks[0].len == 10 && !memcmp(d.sinks[0].data, "AAAABBBBBB", 10),
		      "concatenated buffer files");
		CHECK(d.sinks[0].flags == (CSD_F_SAVED | CSD_F_FORMATTED), "flags %x",
		      d.sinks[0].flags);
	}
	/* dump1 == dump_same, dump2 missing, dump_long too long, dumpwhole kept. */
	CHECK(d.n_segs == 2, "%zu segments", d.n_segs);
	if (d.n_segs == 2) {
		static const unsigned char want[8] = { 4, 5, 6, 7, 8, 9, 10, 11 };

		CHECK(d.segs[0].vaddr == 0xffff000000001000ull && d.segs[0].len == 8 &&
		      !memcmp(d.segs[0].data, want, 8), "offset/length dump");
		CHECK(d.segs[1].vaddr == 0x4000 && d.segs[1].len == 16 && d.segs[1].data[15] == 15,
		      "whole-file dump");
	}
	CHECK(strstr(test_msgs(), "missing.bin"), "missing dump reported: %s", test_msgs());
	CHECK(strstr(test_msgs(), "[dump_long]"), "long dump reported");
	CHECK(strstr(test_msgs(), "STM_BUF"), "STM buffer reported");
	csd_dump_free(&d);
	test_rmtree(dir);
	free(dir);
}

static void remove_file(const char *dir, const char *file)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	if (strcmp(file, "snapshot.ini")) {
		remove(path);
		return;
	}
	test_write(dir, file, "[snapshot]\0version=1.0\n", 24);
}

static void expect_failure(const char *what, const char *file, const char *text)
{
	char *dir = make_synthetic();
	struct csd_dump d = { 0 };
	enum csd_err err;

	if (text)
		test_write(dir, file, text, -1);
	else
		remove_file(dir, file);
	test_reset_msgs();
	err = csd_snapshot_read(dir, &d);
	CHECK(err != CSD_OK, "%s: accepted", what);
	CHECK(test_msgs()[0] != '\0', "%s: nothing reported", what);
	csd_dump_free(&d);
	test_rmtree(dir);
	free(dir);
}

static void test_broken(void)
{
	expect_failure("version 2.0", "snapshot.ini",
		       "[snapshot]\nversion=2.0\n[trace]\nmetadata=trace.ini\n");
	expect_failure("no trace section", "snapshot.ini",
		       "[snapshot]\nversion=1.0\n[device_list]\ndevice0=etm_a.ini\n");
	expect_failure("no trace.ini", "trace.ini", NULL);
	expect_failure("no ETMv4 source", "snapshot.ini",
		       "[snapshot]\nversion=1.0\n[device_list]\ndevice0=core_a.ini\n"
		       "[trace]\nmetadata=trace.ini\n");
	expect_failure("binary ini", "snapshot.ini", NULL);
	expect_failure("buffer file missing", "part2.bin", NULL);
}

static void test_duplicate_trace_id(void)
{
	char *dir = make_synthetic();
	struct csd_dump d = { 0 };

	write_etm(dir, "etm_b.ini", "ETM_B", 0x12);
	test_reset_msgs();
	CHECK(csd_snapshot_read(dir, &d) == CSD_OK, "read");
	CHECK(d.n_etms == 1, "duplicate trace ID kept: %zu ETMs", d.n_etms);
	CHECK(strstr(test_msgs(), "0x12"), "duplicate reported");
	csd_dump_free(&d);
	test_rmtree(dir);
	free(dir);
}

/* The real Juno capture; expected values read by hand from its .ini files. */
static void test_juno(const char *traces)
{
	char dir[4096];
	struct csd_dump d = { 0 };

	snprintf(dir, sizeof(dir), "%s/juno_r1_1", traces);
	if (!csd_snapshot_is_dir(dir)) {
		printf("%s absent: real-capture part not run\n", dir);
		return;
	}
	CHECK(csd_snapshot_read(dir, &d) == CSD_OK, "juno read");
	CHECK(d.n_etms == 6, "%zu ETMs", d.n_etms);
	for (size_t i = 0; i < d.n_etms; i++) {
		CHECK(d.etms[i].cpu == i, "cpu");
		CHECK(csd_etm_trace_id(&d.etms[i]) == 0x10 + i, "trace id");
		CHECK(d.etms[i].trcconfigr == 0xc1 && d.etms[i].trcauthstatus == 0xcc, "regs");
	}
	CHECK(d.n_sinks == 1 && d.sinks[0].len == 65536 && !strcmp(d.sinks[0].name, "ETB_0"),
	      "one 64 KiB ETB");
	CHECK(d.n_segs == 1 && d.segs[0].vaddr == 0xFFFFFFC000081000ull &&
	      d.segs[0].len == 0x50000, "kernel dump once");
	csd_dump_free(&d);
}

int main(int argc, char **argv)
{
	test_capture_msgs();
	test_synthetic();
	test_broken();
	test_duplicate_trace_id();
	test_juno(argc > 1 ? argv[1] : "../shared/traces");
	return test_result("test_snapshot");
}
