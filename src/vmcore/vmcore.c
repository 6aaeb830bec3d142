// SPDX-License-Identifier: GPL-2.0
/* csdump: the libkdumpfile memory source. */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <libkdumpfile/kdumpfile.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/diag.h"
#include "vmcore/vmcore.h"
#include "core/vmcoreinfo.h"

#define VMCOREINFO_MAX	(64u << 10)
#define KIMAGE_SPAN	(128ull << 20)

struct vmcore {
	kdump_ctx_t *ctx;
	int fd;
	char *info;
	/* The arm64 layout from VMCOREINFO, for addresses kdump cannot translate. */
	int have_linear, have_kimage;
	uint64_t page_offset, page_end, phys_offset;
	uint64_t kimage_voffset, stext;
};

static int fallback_pa(const struct vmcore *vc, uint64_t va, size_t len, uint64_t *pa)
{
	if (vc->have_linear && va >= vc->page_offset && va < vc->page_end &&
	    len <= vc->page_end - va) {
		*pa = va - vc->page_offset + vc->phys_offset;
		return 0;
	}
	if (vc->have_kimage && va >= vc->stext && va - vc->stext < KIMAGE_SPAN &&
	    len <= KIMAGE_SPAN - (va - vc->stext)) {
		*pa = va - vc->kimage_voffset;
		return 0;
	}
	return -1;
}

static enum csd_err vmcore_read(void *priv, enum csd_space space, uint64_t addr,
				void *buf, size_t len)
{
	struct vmcore *vc = priv;
	kdump_addrspace_t as = space == CSD_KVADDR ? KDUMP_KVADDR : KDUMP_KPHYSADDR;
	size_t n = len;
	uint64_t pa;

	if (kdump_read(vc->ctx, as, addr, buf, &n) == KDUMP_OK && n == len)
		return CSD_OK;
	if (space == CSD_KVADDR && !fallback_pa(vc, addr, len, &pa)) {
		n = len;
		if (kdump_read(vc->ctx, KDUMP_KPHYSADDR, pa, buf, &n) == KDUMP_OK && n == len)
			return CSD_OK;
	}
	return CSD_ERR_UNMAPPED;
}

static const char *vmcore_info(void *priv)
{
	return ((struct vmcore *)priv)->info;
}

static void vmcore_close(void *priv)
{
	struct vmcore *vc = priv;

	if (vc->ctx)
		kdump_free(vc->ctx);
	if (vc->fd >= 0)
		close(vc->fd);
	free(vc->info);
	free(vc);
}

static const struct csd_mem_ops vmcore_ops = {
	.read = vmcore_read,
	.vmcoreinfo = vmcore_info,
	.close = vmcore_close,
};

/*
 * arm64's linear map, as 6.1's asm/memory.h lays it out: from PAGE_OFFSET,
 * -(1 << VA_BITS), to PAGE_END, -(1 << (VA_BITS_MIN - 1)), where
 * VA_BITS_MIN is 48 for a 52-bit kernel (which may run on a CPU without
 * FEAT_LVA: its linear map then starts at -(1 << 48), and PHYS_OFFSET is
 * lowered to match, so the one formula holds).
 */
static void setup_fallback(struct vmcore *vc)
{
	uint64_t va_bits;

	if (!vc->info)
		return;
	if (!csd_vmcoreinfo_u64(vc->info, "NUMBER(VA_BITS)", 0, &va_bits) &&
	    va_bits >= 36 && va_bits <= 52 &&
	    !csd_vmcoreinfo_u64(vc->info, "NUMBER(PHYS_OFFSET)", 0, &vc->phys_offset)) {
		uint64_t va_bits_min = va_bits > 48 ? 48 : va_bits;

		vc->page_offset = ~0ull << va_bits;		/* -(1 << VA_BITS) */
		vc->page_end = ~0ull << (va_bits_min - 1);	/* -(1 << (VA_BITS_MIN - 1)) */
		vc->have_linear = 1;
	}
	if (!csd_vmcoreinfo_u64(vc->info, "NUMBER(kimage_voffset)", 0, &vc->kimage_voffset) &&
	    !csd_vmcoreinfo_symbol(vc->info, "_stext", &vc->stext))
		vc->have_kimage = 1;
}

/*
 * A 52-bit VA kernel with 64K pages on a CPU without FEAT_LVA walks its
 * page tables as built for 52 bits: swapper_pg_dir has PTRS_PER_PGD for
 * VA_BITS and TTBR1 points TTBR1_BAL_OFFSET into it (asm/assembler.h's
 * offset_ttbr1), where the entries of the 48-bit addresses are.
 * libkdumpfile 0.5.1 takes the walk's geometry from TCR_EL1_T1SZ (48 bits
 * there) and reads the table from its start: every vmalloc address fails.
 * With the same number of levels for both sizes, the kernel's own software
 * walk (pgd_offset_k) is the one to follow: VA_BITS's geometry from
 * swapper_pg_dir.  Where the level counts differ (4K and 16K pages with
 * LPA2, 6.9 and later), the kernel folds a level instead; left to
 * libkdumpfile.
 */
static void set_pgt_geometry(struct vmcore *vc)
{
	uint64_t va_bits, t1sz, page_size;
	kdump_attr_t attr;
	int page_bits;

	if (!vc->info || csd_vmcoreinfo_u64(vc->info, "NUMBER(VA_BITS)", 0, &va_bits) ||
	    csd_vmcoreinfo_u64(vc->info, "NUMBER(TCR_EL1_T1SZ)", 0, &t1sz) ||
	    csd_vmcoreinfo_u64(vc->info, "PAGESIZE", 10, &page_size) ||
	    t1sz < 12 || t1sz > 28 || va_bits <= 64 - t1sz || va_bits > 52 ||
	    (page_size != 16384 && page_size != 65536))
		return;
	page_bits = page_size == 16384 ? 14 : 16;
	/* ARM64_HW_PGTABLE_LEVELS() of asm/pgtable-hwdef.h, for both sizes */
	if ((va_bits - 4) / (page_bits - 3) != (64 - t1sz - 4) / (page_bits - 3))
		return;
	attr.type = KDUMP_NUMBER;
	attr.val.number = va_bits;
	if (kdump_set_attr(vc->ctx, "addrxlat.force.virt_bits", &attr) != KDUMP_OK)
		csd_warn("cannot give libkdumpfile the page tables' VA_BITS %llu (%s); "
			 "vmalloc addresses may not translate", (unsigned long long)va_bits,
			 kdump_get_err(vc->ctx));
}

/* VMCOREINFO as a NUL-terminated string (a blob in libkdumpfile 0.5). */
static char *vmcoreinfo_text(kdump_ctx_t *ctx)
{
	kdump_attr_t attr;
	char *text = NULL;

	if (kdump_get_attr(ctx, "linux.vmcoreinfo.raw", &attr) != KDUMP_OK)
		return NULL;
	if (attr.type == KDUMP_STRING) {
		text = strndup(attr.val.string, VMCOREINFO_MAX);
	} else if (attr.type == KDUMP_BLOB) {
		const char *p = kdump_blob_pin(attr.val.blob);
		size_t n = kdump_blob_size(attr.val.blob);

		if (p)
			text = strndup(p, n < VMCOREINFO_MAX ? n : VMCOREINFO_MAX);
		kdump_blob_unpin(attr.val.blob);
	}
	return text;
}

/*
 * An ELF vmcore shorter than its program headers say was cut (a copy that
 * ran out of space, say).  Cut inside its notes, VMCOREINFO cannot be
 * trusted: refuse it.  Cut inside its memory, say so: what lies past the
 * end is missing (libkdumpfile may read it as zeros).
 */
static enum csd_err check_truncated(int fd, const char *path)
{
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	struct stat st;
	uint64_t notes_end = 0, load_end = 0;

	if (fstat(fd, &st) || pread(fd, &eh, sizeof(eh), 0) != (ssize_t)sizeof(eh) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_phentsize != sizeof(ph))
		return CSD_OK;		/* not ELF64: libkdumpfile checked the rest */
	for (unsigned int i = 0; i < eh.e_phnum; i++) {
		uint64_t end;

		if (pread(fd, &ph, sizeof(ph), (off_t)(eh.e_phoff + i * sizeof(ph))) !=
		    (ssize_t)sizeof(ph) || __builtin_add_overflow(ph.p_offset, ph.p_filesz, &end))
			break;
		if (ph.p_type == PT_NOTE && end > notes_end)
			notes_end = end;
		if (ph.p_type == PT_LOAD && end > load_end)
			load_end = end;
	}
	if (notes_end > (uint64_t)st.st_size) {
		csd_error("%s: truncated inside its ELF notes (%lld bytes, the notes end at %llu)",
			  path, (long long)st.st_size, (unsigned long long)notes_end);
		return CSD_ERR_FORMAT;
	}
	if (load_end > (uint64_t)st.st_size)
		csd_warn("%s: truncated: %lld bytes, its program headers describe %llu; the "
			 "memory past the end is missing", path, (long long)st.st_size,
			 (unsigned long long)load_end);
	return CSD_OK;
}

/*
 * makedumpfile's compressed format (diskdump) starts with a header of
 * DISKDUMP_HDR_LEN bytes (the 64-bit struct disk_dump_header up to nr_cpus)
 * and its sub-header in the blocks after the first; block_size at
 * DISKDUMP_BLOCK_SIZE_OFF, sub_hdr_size (blocks) after it.
 */
#define DISKDUMP_HDR_LEN	464
#define DISKDUMP_BLOCK_SIZE_OFF	428

/*
 * A compressed dump cut inside its headers is refused here, before
 * libkdumpfile sees it: libkdumpfile 0.5.1, having rejected such a header,
 * frees blocks that kdump_free() frees again (a crash of the plain build;
 * ASan and valgrind's allocators hide it).  Cut later, in the bitmaps or the
 * pages, libkdumpfile reads what is there.
 */
static enum csd_err check_diskdump_cut(int fd, const char *path)
{
	uint8_t h[DISKDUMP_HDR_LEN];
	struct stat st;
	uint32_t block, sub;
	uint64_t end;
	ssize_t n = pread(fd, h, sizeof(h), 0);

	if (n < 8 || (memcmp(h, "KDUMP   ", 8) && memcmp(h, "DISKDUMP", 8)) || fstat(fd, &st))
		return CSD_OK;
	if (n < (ssize_t)sizeof(h)) {
		csd_error("%s: truncated inside its makedumpfile header (%lld bytes, the "
			  "header is %d)", path, (long long)st.st_size, DISKDUMP_HDR_LEN);
		return CSD_ERR_FORMAT;
	}
	memcpy(&block, h + DISKDUMP_BLOCK_SIZE_OFF, 4);
	memcpy(&sub, h + DISKDUMP_BLOCK_SIZE_OFF + 4, 4);
	end = (uint64_t)block * (1 + (uint64_t)sub);
	if (end > (uint64_t)st.st_size) {
		csd_error("%s: truncated inside its makedumpfile headers (%lld bytes, its "
			  "sub-header ends at %llu)", path, (long long)st.st_size,
			  (unsigned long long)end);
		return CSD_ERR_FORMAT;
	}
	return CSD_OK;
}

/*
 * libkdumpfile's message without its own wording in front ("Cannot set
 * file.set.0.fd: "), which names an attribute of the library, not the file.
 */
static const char *kdump_why(kdump_ctx_t *ctx)
{
	const char *e = kdump_get_err(ctx), *p;

	if (!e)
		return "unknown error";
	if (!strncmp(e, "Cannot set file.", 16) && (p = strstr(e, ": ")) && p[2])
		return p + 2;
	return e;
}

static enum csd_err open_ctx(struct vmcore *vc, const char *path)
{
	const char *arch = NULL;
	kdump_status st;

	if (check_diskdump_cut(vc->fd, path))
		return CSD_ERR_FORMAT;
	vc->ctx = kdump_new();
	if (!vc->ctx)
		return CSD_ERR_NOMEM;
	st = kdump_open_fd(vc->ctx, vc->fd);
	if (st == KDUMP_ERR_NOTIMPL) {
		csd_error("%s: not a vmcore: neither an ELF core file nor a makedumpfile "
			  "(kdump-compressed or flattened) dump", path);
		return CSD_ERR_FORMAT;
	}
	if (st != KDUMP_OK) {
		csd_error("%s: not a vmcore csdump can read: %s", path, kdump_why(vc->ctx));
		return CSD_ERR_FORMAT;
	}
	/*
	 * Translate kernel addresses as Linux lays them out.  Set first: for a
	 * compressed dump, the architecture comes from the Linux utsname then.
	 */
	kdump_set_string_attr(vc->ctx, KDUMP_ATTR_OSTYPE, "linux");
	if (kdump_get_string_attr(vc->ctx, KDUMP_ATTR_ARCH_NAME, &arch) != KDUMP_OK ||
	    strcmp(arch, "aarch64")) {
		csd_error("%s: a %s dump; csdump reads arm64 (aarch64) vmcores", path,
			  arch ? arch : "unknown-architecture");
		return CSD_ERR_ARCH;
	}
	if (check_truncated(vc->fd, path))
		return CSD_ERR_FORMAT;
	vc->info = vmcoreinfo_text(vc->ctx);
	if (!vc->info)
		csd_warn("%s: no VMCOREINFO in the dump", path);
	setup_fallback(vc);
	set_pgt_geometry(vc);
	return CSD_OK;
}

enum csd_err csd_vmcore_open(const char *path, struct csd_mem *m)
{
	struct vmcore *vc = calloc(1, sizeof(*vc));
	enum csd_err err;

	memset(m, 0, sizeof(*m));
	if (!vc)
		return CSD_ERR_NOMEM;
	vc->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (vc->fd < 0) {
		csd_error("%s: cannot open: %s", path, strerror(errno));
		free(vc);
		return CSD_ERR_IO;
	}
	err = open_ctx(vc, path);
	if (err) {
		vmcore_close(vc);
		return err;
	}
	m->ops = &vmcore_ops;
	m->priv = vc;
	snprintf(m->name, sizeof(m->name), "%s", path);
	return CSD_OK;
}
