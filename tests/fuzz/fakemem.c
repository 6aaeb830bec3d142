// SPDX-License-Identifier: GPL-2.0
/* The fuzzers' memory source and a registry image laid out as docs/record-abi.md says. */
#include <stdio.h>
#include <string.h>
#include <zlib.h>

#include "fakemem.h"

static enum csd_err fake_read(void *priv, enum csd_space space, uint64_t addr, void *buf,
			      size_t len)
{
	const struct fakemem *f = priv;
	uint64_t base = space == CSD_KVADDR ? FAKE_VA : FAKE_PA;

	if (addr < base || addr - base > f->len || len > f->len - (addr - base))
		return CSD_ERR_UNMAPPED;
	memcpy(buf, f->bytes + (addr - base), len);
	return CSD_OK;
}

static const char *fake_info(void *priv)
{
	return ((const struct fakemem *)priv)->info;
}

static void fake_close(void *priv)
{
	(void)priv;
}

static const struct csd_mem_ops fake_ops = {
	.read = fake_read,
	.vmcoreinfo = fake_info,
	.close = fake_close,
};

void fakemem_init(struct csd_mem *m, struct fakemem *f)
{
	memset(m, 0, sizeof(*m));
	m->ops = &fake_ops;
	m->priv = f;
	snprintf(m->name, sizeof(m->name), "fuzz");
}

#define STR_(x) #x
#define STR(x) STR_(x)

const char fake_vmcoreinfo[] =
	"OSRELEASE=6.1.0-fuzz\n"
	"PAGESIZE=4096\n"
	"SYMBOL(_stext)=ffff800008010000\n"
	"KERNELOFFSET=0\n"
	"NUMBER(CORESIGHT_KDUMP_VERSION)=1\n"
	"SYMBOL(coresight_kdump_list)=ffff000000100000\n"
	"SIZE(coresight_kdump_record)=128\n"
	"OFFSET(coresight_kdump_node.list)=" STR(FAKE_LIST_OFF) "\n";

static void put(uint8_t *p, const void *v, size_t n)
{
	memcpy(p, v, n);
}

struct builder {
	uint8_t *buf;
	size_t size, used;
	uint64_t last;		/* offset of the last list_head */
};

static size_t take(struct builder *b, size_t len)
{
	size_t at = b->used;

	b->used = (b->used + len + 15) & ~(size_t)15;
	return at;
}

/* Append a node holding a record of @data (written at @offset in a buffer of @cap). */
static void node(struct builder *b, uint16_t kind, uint16_t flags, int32_t cpu, const char *name,
		 const uint8_t *data, uint64_t len, uint64_t cap, uint64_t offset, uint32_t id)
{
	size_t n = take(b, FAKE_LIST_OFF + 16), buf = take(b, cap);
	uint8_t *r = b->buf + n;
	uint32_t magic = 0x444b5343, crc = (uint32_t)crc32(0, data, (uInt)len);
	uint16_t version = 1, size = 128;
	uint64_t va = FAKE_VA + buf, pa = FAKE_PA + buf, list = FAKE_VA + n + FAKE_LIST_OFF;
	uint64_t head = FAKE_VA;

	for (uint64_t i = 0; i < len; i++)
		b->buf[buf + (offset + i) % cap] = data[i];
	put(r, &magic, 4);
	put(r + 4, &version, 2);
	put(r + 6, &size, 2);
	put(r + 8, &kind, 2);
	put(r + 10, &flags, 2);
	put(r + 12, &cpu, 4);
	strncpy((char *)r + 16, name, 31);
	put(r + 48, &va, 8);
	put(r + 56, &pa, 8);
	put(r + 64, &cap, 8);
	put(r + 72, &len, 8);
	put(r + 80, &offset, 8);
	put(r + 88, &crc, 4);
	put(r + 92, &id, 4);
	/* list_add_tail */
	put(r + FAKE_LIST_OFF, &head, 8);
	put(r + FAKE_LIST_OFF + 8, &(uint64_t){ FAKE_VA + b->last }, 8);
	put(b->buf + b->last, &list, 8);
	put(b->buf + 8, &list, 8);
	b->last = n + FAKE_LIST_OFF;
}

static void etm(struct builder *b, int cpu, uint32_t id)
{
	uint64_t meta[10] = { 0x4040404040404040ull, (uint64_t)cpu, 7, 0xc1, id,
			      0x28000ea1, 0x4100f403, 0x488, 0, 0xcc };
	char name[16];

	snprintf(name, sizeof(name), "etm%d", cpu);
	node(b, 2, 1, cpu, name, (const uint8_t *)meta, sizeof(meta), sizeof(meta), 0, id);
}

size_t fake_registry(uint8_t *buf, size_t size, size_t sink_len)
{
	struct builder b = { buf, size, 0, 0 };
	uint8_t trace[1024];
	uint64_t head = FAKE_VA;

	if (size < 4096 || sink_len > sizeof(trace))
		return 0;
	memset(buf, 0, size);
	for (size_t i = 0; i < sizeof(trace); i++)
		trace[i] = i % 16 == 0 ? 0x21 : (uint8_t)(i * 37) & 0xfe;
	take(&b, 16);
	put(buf, &head, 8);
	put(buf + 8, &head, 8);
	etm(&b, 0, 0x10);
	node(&b, 1, 1 | 2 | 4, -1, "tmc_etf0", trace, sink_len, sink_len, sink_len / 3, 0);
	etm(&b, 1, 0x11);
	return b.used;
}
