// SPDX-License-Identifier: GPL-2.0
#include "snapdir.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "buf.h"

static void bprintf(struct buf *b, const char *fmt, ...)
{
	char line[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n > 0)
		buf_put(b, line, (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1);
}

static int put_file(const char *dir, const char *name, const void *data, size_t len,
		    char *err, size_t errlen)
{
	char path[4096];
	int ret;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	ret = write_file_atomic(path, data, len);
	if (ret)
		snprintf(err, errlen, "%s: %s", path, strerror(-ret));
	return ret;
}

static int put_buf(const char *dir, const char *name, struct buf *b, char *err, size_t errlen)
{
	int ret = put_file(dir, name, b->p, b->len, err, errlen);

	buf_free(b);
	return ret;
}

static int write_core(const char *dir, const struct image *img, unsigned int cpu,
		      char *err, size_t errlen)
{
	struct buf b = { 0 };
	char name[64];
	size_t i;

	bprintf(&b, "[device]\nname=cpu_%u\nclass=core\ntype=Cortex-A57\n\n", cpu);
	bprintf(&b, "[regs]\nPC(size:64)=0x%llx\nSP(size:64)=0\nSCTLR_EL1=0x1007\nCPSR=0x1C5\n",
		(unsigned long long)img->segs[0].vaddr);
	for (i = 0; i < img->n_segs; i++)
		bprintf(&b, "\n[dump%zu]\nfile=mem_%zu.bin\naddress=0x%llx\nlength=0x%zx\n",
			i + 1, i, (unsigned long long)img->segs[i].vaddr, img->segs[i].len);
	snprintf(name, sizeof(name), "cpu_%u.ini", cpu);
	return put_buf(dir, name, &b, err, errlen);
}

static int write_etm(const char *dir, const struct snap_etm *e, char *err, size_t errlen)
{
	const struct etm4_regs *r = &e->regs;
	struct buf b = { 0 };
	char name[64];

	bprintf(&b, "[device]\nname=ETM_%u\nclass=trace_source\ntype=ETM4\n\n[regs]\n", e->cpu);
	bprintf(&b, "TRCCONFIGR(0x004)=0x%08llx\n", (unsigned long long)r->trcconfigr);
	bprintf(&b, "TRCTRACEIDR(0x010)=0x%08llx\n", (unsigned long long)r->trctraceidr);
	bprintf(&b, "TRCAUTHSTATUS(0x3EE)=0x%08llx\n", (unsigned long long)r->trcauthstatus);
	bprintf(&b, "TRCIDR0(0x078)=0x%08llx\n", (unsigned long long)r->trcidr0);
	bprintf(&b, "TRCIDR1(0x079)=0x%08llx\n", (unsigned long long)r->trcidr1);
	bprintf(&b, "TRCIDR2(0x07A)=0x%08llx\n", (unsigned long long)r->trcidr2);
	bprintf(&b, "TRCIDR8(0x060)=0x%08llx\n", (unsigned long long)r->trcidr8);
	bprintf(&b, "TRCIDR9(0x061)=0x00000000\nTRCIDR10(0x062)=0x00000000\n");
	bprintf(&b, "TRCIDR11(0x063)=0x00000000\nTRCIDR12(0x064)=0x00000000\n");
	bprintf(&b, "TRCIDR13(0x065)=0x00000000\n");
	snprintf(name, sizeof(name), "etm_%u.ini", e->cpu);
	return put_buf(dir, name, &b, err, errlen);
}

int snapdir_write(const char *dir, const struct image *img, const struct snap_etm *etms,
		  size_t n_etms, const uint8_t *trace, size_t len, char *err, size_t errlen)
{
	struct buf snap = { 0 }, tr = { 0 };
	char name[64];
	size_t i;
	int ret;

	if (mkdir(dir, 0755) && errno != EEXIST) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", dir, strerror(errno));
		return ret;
	}
	for (i = 0; i < img->n_segs; i++) {
		snprintf(name, sizeof(name), "mem_%zu.bin", i);
		ret = put_file(dir, name, img->segs[i].data, img->segs[i].len, err, errlen);
		if (ret)
			return ret;
	}
	ret = put_file(dir, "cstrace.bin", trace, len, err, errlen);
	bprintf(&snap, "[snapshot]\nversion=1.0\n\n[device_list]\n");
	bprintf(&tr, "[trace_buffers]\nbuffers=buffer0\n\n[buffer0]\nname=ETB_0\n"
		"file=cstrace.bin\nformat=coresight\n\n[source_buffers]\n");
	for (i = 0; i < n_etms && !ret; i++) {
		bprintf(&snap, "device%zu=cpu_%u.ini\n", 2 * i, etms[i].cpu);
		bprintf(&snap, "device%zu=etm_%u.ini\n", 2 * i + 1, etms[i].cpu);
		bprintf(&tr, "ETM_%u=ETB_0\n", etms[i].cpu);
		ret = write_core(dir, img, etms[i].cpu, err, errlen);
		if (!ret)
			ret = write_etm(dir, &etms[i], err, errlen);
	}
	bprintf(&snap, "\n[trace]\nmetadata=trace.ini\n");
	bprintf(&tr, "\n[core_trace_sources]\n");
	for (i = 0; i < n_etms; i++)
		bprintf(&tr, "cpu_%u=ETM_%u\n", etms[i].cpu, etms[i].cpu);
	if (!ret)
		ret = put_buf(dir, "trace.ini", &tr, err, errlen);
	if (!ret)
		ret = put_buf(dir, "snapshot.ini", &snap, err, errlen);
	buf_free(&tr);
	buf_free(&snap);
	return ret;
}

static void put_u64(uint8_t *p, uint64_t v)
{
	unsigned int i;

	for (i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

void etm4_meta_block(const struct snap_etm *etm, uint8_t out[ETM4_META_SIZE])
{
	const struct etm4_regs *r = &etm->regs;
	const uint64_t v[10] = {
		0x4040404040404040ull, etm->cpu, 7, r->trcconfigr, r->trctraceidr,
		r->trcidr0, r->trcidr1, r->trcidr2, r->trcidr8, r->trcauthstatus,
	};
	unsigned int i;

	for (i = 0; i < 10; i++)
		put_u64(out + 8 * i, v[i]);
}
