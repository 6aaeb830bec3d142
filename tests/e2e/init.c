// SPDX-License-Identifier: GPL-2.0
/*
 * init for the end-to-end QEMU crash tests (a static binary, the only program
 * in either initramfs).
 *
 * The same binary is /init of both initramfs images:
 *
 * First kernel (no /proc/vmcore): mount proc, sysfs, debugfs and devtmpfs,
 * then run /e2e/script line by line.  The script, written by the host for
 * one scenario, loads the test CoreSight devices, enables the session,
 * loads the capture kernel and crashes the machine.  Commands:
 *
 *   log TEXT              print TEXT on the console
 *   write PATH TEXT       write "TEXT\n" to PATH in one write()
 *   copy SRC DST          copy file SRC to DST (4 KiB writes, in order)
 *   expect PATH TEXT      fail unless PATH's first line equals TEXT
 *   insmod PATH           load the kernel module PATH (finit_module, no
 *                         parameters; the test device is a module)
 *   kexec                 kexec_file_load(KEXEC_FILE_ON_CRASH) of
 *                         /capture/Image, /capture/initrd, /capture/cmdline
 *   sleep MS              sleep MS milliseconds
 *   pin CPU               run on CPU only from now on (sched_setaffinity)
 *   efault PATH           read PATH into address 0, which nothing maps: the
 *                         kernel's copy to user space faults, and the fault
 *                         path ends in the uaccess fixup (EFAULT), no oops
 *   ls DIR                print DIR's entries, sorted, on one console line
 *   perf SINK cpus|thread open the cs_etm PMU as perf record does (the sink
 *                         by its hash in cs_etm/sinks/SINK, or none for
 *                         SINK "default": the driver's choice, a CPU's
 *                         TRBE where it has one; the AUX buffer mapped)
 *                         CPU-wide on every online CPU, or for this task;
 *                         enable; leave the session open
 *   yield MS              for MS milliseconds this task and a child on the
 *                         same CPU take turns (sched_yield): context switches;
 *                         after each turn the perf sessions' AUX trace is
 *                         marked read, as perf record would
 *
 * If the script ends and the machine is still alive, that is a failure.
 *
 * Capture kernel (/proc/vmcore exists): find the virtio disk whose serial
 * is "vmcore", write a 4 KiB header ("CSDUMP-E2E-VMCORE 1\nsize=N\n") and
 * /proc/vmcore after it (all-zero blocks skipped: the disk image is a
 * fresh sparse file), then power off.
 *
 * Every message starts with "e2e-init: "; the host looks for
 * "e2e-init: FAILED" and "e2e-init: vmcore saved" on the console.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <sched.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/kexec.h>
#include <linux/perf_event.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define DISK_SERIAL	"vmcore"
#define HDR_SIZE	4096
#define COPY_CHUNK	(1 << 20)
#define SCRIPT		"/e2e/script"

static void say(const char *fmt, ...)
{
	char line[512];
	va_list ap;
	int n;

	n = snprintf(line, sizeof(line), "e2e-init: ");
	va_start(ap, fmt);
	vsnprintf(line + n, sizeof(line) - n, fmt, ap);
	va_end(ap);
	fprintf(stderr, "%s\n", line);
}

static void power_off(void)
{
	sync();
	reboot(RB_POWER_OFF);
	/* Only reached if reboot() failed: init must not exit. */
	for (;;)
		pause();
}

static void __attribute__((noreturn)) fail(const char *fmt, ...)
{
	char msg[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	say("FAILED: %s", msg);
	power_off();
	for (;;)
		pause();
}

static void mount_fs(const char *src, const char *dir, const char *type)
{
	mkdir(dir, 0755);
	if (mount(src, dir, type, 0, NULL) && errno != EBUSY)
		fail("mount %s on %s: %s", type, dir, strerror(errno));
}

static void write_all(int fd, const char *buf, size_t len, const char *what)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			fail("write %s: %s", what, n ? strerror(errno) : "short write");
		buf += n;
		len -= (size_t)n;
	}
}

static void cmd_write(const char *path, const char *text)
{
	char buf[256];
	int fd, len;
	ssize_t n;

	len = snprintf(buf, sizeof(buf), "%s\n", text);
	if (len < 0 || (size_t)len >= sizeof(buf))
		fail("write %s: text too long", path);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		fail("open %s: %s", path, strerror(errno));
	/* sysfs and debugfs take one write() per value. */
	n = write(fd, buf, len);
	if (n != len)
		fail("write '%s' to %s: %s", text, path,
		     n < 0 ? strerror(errno) : "short write");
	close(fd);
}

static void cmd_copy(const char *src, const char *dst)
{
	static char buf[4096];
	int in, out;
	size_t total = 0;
	ssize_t n;

	in = open(src, O_RDONLY);
	if (in < 0)
		fail("open %s: %s", src, strerror(errno));
	out = open(dst, O_WRONLY);
	if (out < 0)
		fail("open %s: %s", dst, strerror(errno));
	while ((n = read(in, buf, sizeof(buf))) > 0) {
		write_all(out, buf, (size_t)n, dst);
		total += (size_t)n;
	}
	if (n < 0)
		fail("read %s: %s", src, strerror(errno));
	close(in);
	close(out);
	say("copied %zu bytes from %s to %s", total, src, dst);
}

/* The first line of @path, without its newline, into @buf; fails on error. */
static void read_line(const char *path, char *buf, size_t size)
{
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		fail("open %s: %s", path, strerror(errno));
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		fail("read %s: %s", path, strerror(errno));
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
}

static void cmd_expect(const char *path, const char *text)
{
	char buf[256];

	read_line(path, buf, sizeof(buf));
	if (strcmp(buf, text))
		fail("%s reads '%s', expected '%s'", path, buf, text);
}

/*
 * Where the kernel put module @path's .text, in its own words (sysfs), for
 * the tests to resolve the module's symbols: "" if it does not say.
 */
static void module_text(const char *path, char *out, size_t size)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	char name[128], file[256];
	ssize_t n;
	size_t i;
	int fd;

	snprintf(name, sizeof(name), "%.*s", (int)strcspn(base, "."), base);
	for (i = 0; name[i]; i++)
		if (name[i] == '-')
			name[i] = '_';
	snprintf(file, sizeof(file), "/sys/module/%s/sections/.text", name);
	out[0] = '\0';
	fd = open(file, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	n = read(fd, out, size - 1);
	close(fd);
	out[n > 0 ? n : 0] = '\0';
	out[strcspn(out, "\n")] = '\0';
}

static void cmd_insmod(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	char text[32];

	if (fd < 0)
		fail("insmod: open %s: %s", path, strerror(errno));
	if (syscall(SYS_finit_module, fd, "", 0))
		fail("insmod %s: %s", path, strerror(errno));
	close(fd);
	module_text(path, text, sizeof(text));
	say("module %s loaded, .text at %s", path, text[0] ? text : "unknown");
}

static void cmd_kexec(void)
{
	char cmdline[1024];
	int kfd, ifd, cfd;
	ssize_t n;
	long ret;

	kfd = open("/capture/Image", O_RDONLY);
	ifd = open("/capture/initrd", O_RDONLY);
	cfd = open("/capture/cmdline", O_RDONLY);
	if (kfd < 0 || ifd < 0 || cfd < 0)
		fail("open /capture/{Image,initrd,cmdline}: %s", strerror(errno));
	n = read(cfd, cmdline, sizeof(cmdline) - 1);
	if (n <= 0)
		fail("read /capture/cmdline");
	cmdline[n] = '\0';
	cmdline[strcspn(cmdline, "\n")] = '\0';
	close(cfd);

	ret = syscall(SYS_kexec_file_load, kfd, ifd, strlen(cmdline) + 1,
		      cmdline, KEXEC_FILE_ON_CRASH);
	if (ret)
		fail("kexec_file_load: %s", strerror(errno));
	close(kfd);
	close(ifd);
	say("capture kernel loaded (cmdline: %s)", cmdline);
}

static void cmd_pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		fail("pin to CPU %d: %s", cpu, strerror(errno));
	say("running on CPU %d", sched_getcpu());
}

/*
 * The kernel's fault path (el1_abort() to __do_kernel_fault()) runs once,
 * and ends in the exception table's fixup: read() returns EFAULT.
 */
static void cmd_efault(const char *path)
{
	void *volatile nowhere = NULL;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		fail("efault: open %s: %s", path, strerror(errno));
	n = read(fd, nowhere, 16);
	if (n != -1 || errno != EFAULT)
		fail("efault: read of %s into address 0 gave %zd (%s), not EFAULT",
		     path, n, n < 0 ? strerror(errno) : "no error");
	close(fd);
	say("efault: read of %s into address 0: EFAULT", path);
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* "e2e-init: ls DIR: a b c": what probed, for the host to check. */
static void cmd_ls(const char *dir)
{
	char *names[256], line[4096];
	size_t n = 0, len = 0, i;
	struct dirent *de;
	DIR *d;

	d = opendir(dir);
	if (!d)
		fail("opendir %s: %s", dir, strerror(errno));
	while ((de = readdir(d)) && n < sizeof(names) / sizeof(names[0])) {
		if (de->d_name[0] == '.')
			continue;
		names[n] = strdup(de->d_name);
		if (!names[n])
			fail("ls %s: out of memory", dir);
		n++;
	}
	closedir(d);
	qsort(names, n, sizeof(names[0]), name_cmp);
	line[0] = '\0';
	for (i = 0; i < n; i++) {
		int w = snprintf(line + len, sizeof(line) - len, "%s%s",
				 i ? " " : "", names[i]);

		if (w > 0 && (size_t)w < sizeof(line) - len)
			len += (size_t)w;
		free(names[i]);
	}
	say("ls %s: %s", dir, line);
}

/* The first line of @path as an unsigned number (decimal or 0x hex). */
static unsigned long read_num(const char *path)
{
	char buf[64];

	read_line(path, buf, sizeof(buf));
	if (!buf[0])
		fail("%s is empty", path);
	return strtoul(buf, NULL, 0);
}

#define PMU_DIR		"/sys/bus/event_source/devices/cs_etm"
#define RING_PAGES	8	/* + 1 for the header page */
#define AUX_PAGES	256	/* 1 MiB; yield consumes it (perf_consume()) */

/* The sessions' ring buffer headers, for perf_consume(). */
static struct perf_event_mmap_page *perf_rings[64];
static unsigned int perf_nrings;

/*
 * Mark all the AUX trace so far read, as perf record does once it has
 * written it out: a per-thread session writes the sink's trace into the
 * AUX area at every context switch, and a full area stops the event (and
 * takes the sink out of the kdump registry) until it is read.
 */
static void perf_consume(void)
{
	for (unsigned int i = 0; i < perf_nrings; i++)
		__atomic_store_n(&perf_rings[i]->aux_tail,
				 __atomic_load_n(&perf_rings[i]->aux_head, __ATOMIC_ACQUIRE),
				 __ATOMIC_RELEASE);
}

/*
 * One cs_etm event, as tools/perf's cs_etm recording sets it up: config2
 * holds the sink's hash (format/sinkid is config2:0-31), the AUX area
 * follows the ring buffer.  Kernel and user space are traced.
 */
static void perf_open_one(unsigned int type, unsigned long sink, pid_t pid,
			  int cpu)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = type,
		.config2 = sink,
		.disabled = 1,
		.sample_period = 1,
		.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID,
	};
	long page = sysconf(_SC_PAGESIZE);
	struct perf_event_mmap_page *up;
	void *aux;
	int fd;

	fd = syscall(SYS_perf_event_open, &attr, pid, cpu, -1, 0);
	if (fd < 0)
		fail("perf_event_open(cs_etm, pid %d, cpu %d): %s", pid, cpu,
		     strerror(errno));
	up = mmap(NULL, (RING_PAGES + 1) * page, PROT_READ | PROT_WRITE,
		  MAP_SHARED, fd, 0);
	if (up == MAP_FAILED)
		fail("mmap the ring buffer: %s", strerror(errno));
	up->aux_offset = (RING_PAGES + 1) * page;
	up->aux_size = AUX_PAGES * page;
	aux = mmap(NULL, up->aux_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		   up->aux_offset);
	if (aux == MAP_FAILED)
		fail("mmap the AUX area: %s", strerror(errno));
	if (perf_nrings < sizeof(perf_rings) / sizeof(perf_rings[0]))
		perf_rings[perf_nrings++] = up;
	if (ioctl(fd, PERF_EVENT_IOC_ENABLE, 0))
		fail("enable the cs_etm event: %s", strerror(errno));
	/* fd and both mappings stay: the session lasts until the crash. */
}

static void cmd_perf(const char *sink_name, const char *mode)
{
	char path[256];
	unsigned long type, sink;
	long cpu, ncpus;

	type = read_num(PMU_DIR "/type");
	sink = 0;	/* "default": no sink given, as perf record -e cs_etm// */
	if (strcmp(sink_name, "default")) {
		snprintf(path, sizeof(path), PMU_DIR "/sinks/%s", sink_name);
		sink = read_num(path);
	}
	if (!strcmp(mode, "thread")) {
		perf_open_one(type, sink, 0, -1);
	} else if (!strcmp(mode, "cpus")) {
		ncpus = sysconf(_SC_NPROCESSORS_ONLN);
		for (cpu = 0; cpu < ncpus && cpu < 64; cpu++)
			perf_open_one(type, sink, -1, cpu);
	} else {
		fail("perf: mode '%s' is neither cpus nor thread", mode);
	}
	say("perf: cs_etm sink %s (0x%lx), %s session enabled", sink_name,
	    sink, mode);
}

static void cmd_yield(long ms)
{
	struct timespec start, now;
	unsigned long turns = 0;
	cpu_set_t set;
	pid_t child;
	int status;

	/* Both on this CPU, so that each yield switches to the other. */
	CPU_ZERO(&set);
	CPU_SET(sched_getcpu(), &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		fail("yield: pin: %s", strerror(errno));
	child = fork();
	if (child < 0)
		fail("yield: fork: %s", strerror(errno));
	clock_gettime(CLOCK_MONOTONIC, &start);
	do {
		sched_yield();
		turns++;
		perf_consume();
		clock_gettime(CLOCK_MONOTONIC, &now);
	} while ((now.tv_sec - start.tv_sec) * 1000 +
		 (now.tv_nsec - start.tv_nsec) / 1000000 < ms);
	if (child == 0)
		_exit(0);
	waitpid(child, &status, 0);
	say("yield: %lu turns in %ld ms", turns, ms);
}

static void run_script(void)
{
	char line[512];
	unsigned int lineno = 0;
	FILE *f;

	f = fopen(SCRIPT, "r");
	if (!f)
		fail("open %s: %s", SCRIPT, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		char *cmd, *arg1, *rest;

		lineno++;
		line[strcspn(line, "\n")] = '\0';
		cmd = strtok(line, " ");
		if (!cmd || cmd[0] == '#')
			continue;
		arg1 = strtok(NULL, " ");
		rest = strtok(NULL, "");
		if (!strcmp(cmd, "log")) {
			say("%s%s%s", arg1 ? arg1 : "", rest ? " " : "",
			    rest ? rest : "");
		} else if (!strcmp(cmd, "write") && arg1 && rest) {
			say("write %s > %s", rest, arg1);
			cmd_write(arg1, rest);
		} else if (!strcmp(cmd, "copy") && arg1 && rest) {
			cmd_copy(arg1, rest);
		} else if (!strcmp(cmd, "expect") && arg1 && rest) {
			cmd_expect(arg1, rest);
		} else if (!strcmp(cmd, "insmod") && arg1) {
			cmd_insmod(arg1);
		} else if (!strcmp(cmd, "kexec")) {
			cmd_kexec();
		} else if (!strcmp(cmd, "ls") && arg1) {
			cmd_ls(arg1);
		} else if (!strcmp(cmd, "perf") && arg1 && rest) {
			cmd_perf(arg1, rest);
		} else if (!strcmp(cmd, "yield") && arg1) {
			cmd_yield(atol(arg1));
		} else if (!strcmp(cmd, "pin") && arg1) {
			cmd_pin(atoi(arg1));
		} else if (!strcmp(cmd, "efault") && arg1) {
			cmd_efault(arg1);
		} else if (!strcmp(cmd, "sleep") && arg1) {
			struct timespec ts = {
				.tv_sec = atol(arg1) / 1000,
				.tv_nsec = (atol(arg1) % 1000) * 1000000L,
			};

			nanosleep(&ts, NULL);
		} else {
			fail("%s:%u: bad command '%s'", SCRIPT, lineno, cmd);
		}
	}
	fclose(f);
	fail("%s ended and the machine is still alive", SCRIPT);
}

/* The /dev node of the virtio disk whose serial is DISK_SERIAL. */
static int open_disk(void)
{
	int tries;

	/* virtio-mmio disks probe in reverse order: match by serial. */
	for (tries = 0; tries < 50; tries++) {
		struct dirent *de;
		DIR *d = opendir("/sys/block");

		while (d && (de = readdir(d))) {
			char path[300], serial[64] = "";
			ssize_t n;
			int fd;

			if (strncmp(de->d_name, "vd", 2))
				continue;
			snprintf(path, sizeof(path), "/sys/block/%s/serial",
				 de->d_name);
			fd = open(path, O_RDONLY);
			if (fd < 0)
				continue;
			n = read(fd, serial, sizeof(serial) - 1);
			close(fd);
			serial[n > 0 ? n : 0] = '\0';
			serial[strcspn(serial, "\n")] = '\0';
			if (strcmp(serial, DISK_SERIAL))
				continue;
			snprintf(path, sizeof(path), "/dev/%s", de->d_name);
			closedir(d);
			fd = open(path, O_WRONLY);
			if (fd < 0)
				fail("open %s: %s", path, strerror(errno));
			say("vmcore disk is %s", path);
			return fd;
		}
		if (d)
			closedir(d);
		usleep(100000);
	}
	fail("no virtio disk with serial '%s'", DISK_SERIAL);
}

static int all_zero(const char *buf, size_t len)
{
	return len == 0 || (buf[0] == 0 && !memcmp(buf, buf + 1, len - 1));
}

static void save_vmcore(void)
{
	static char hdr[HDR_SIZE];
	off_t pos = HDR_SIZE;
	unsigned long long total = 0;
	char *buf;
	int in, out;
	ssize_t n;

	in = open("/proc/vmcore", O_RDONLY);
	if (in < 0)
		fail("open /proc/vmcore: %s", strerror(errno));
	out = open_disk();
	buf = malloc(COPY_CHUNK);
	if (!buf)
		fail("out of memory");
	while ((n = read(in, buf, COPY_CHUNK)) > 0) {
		if (!all_zero(buf, (size_t)n)) {
			if (lseek(out, pos, SEEK_SET) != pos)
				fail("seek disk: %s", strerror(errno));
			write_all(out, buf, (size_t)n, "vmcore disk");
		}
		pos += n;
		total += (unsigned long long)n;
	}
	if (n < 0)
		fail("read /proc/vmcore at %llu: %s", total, strerror(errno));
	snprintf(hdr, sizeof(hdr), "CSDUMP-E2E-VMCORE 1\nsize=%llu\n", total);
	if (lseek(out, 0, SEEK_SET) != 0)
		fail("seek disk: %s", strerror(errno));
	write_all(out, hdr, sizeof(hdr), "vmcore disk header");
	if (fsync(out))
		fail("fsync vmcore disk: %s", strerror(errno));
	close(out);
	close(in);
	free(buf);
	say("vmcore saved (%llu bytes)", total);
}

int main(void)
{
	struct stat st;

	mount_fs("proc", "/proc", "proc");
	mount_fs("sysfs", "/sys", "sysfs");
	mount_fs("devtmpfs", "/dev", "devtmpfs");

	if (stat("/proc/vmcore", &st) == 0) {
		say("capture kernel: saving /proc/vmcore");
		save_vmcore();
		power_off();
	}

	mount_fs("debugfs", "/sys/kernel/debug", "debugfs");
	say("first kernel: running %s", SCRIPT);
	run_script();
	return 0;
}
