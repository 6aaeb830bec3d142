// SPDX-License-Identifier: GPL-2.0
/* csdump: the one handle on vmlinux (see vmlinux.h). */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/diag.h"
#include "decode/vmlinux.h"

enum csd_err csd_vmlinux_open(const char *path, struct csd_vmlinux **out)
{
	struct csd_vmlinux *vm;

	*out = NULL;
	vm = calloc(1, sizeof(*vm));
	if (!vm)
		return CSD_ERR_NOMEM;
	vm->path = path;
	elf_version(EV_CURRENT);
	vm->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (vm->fd < 0) {
		csd_error("%s: %s", path, strerror(errno));
		free(vm);
		return CSD_ERR_IO;
	}
	vm->elf = elf_begin(vm->fd, ELF_C_READ_MMAP, NULL);
	*out = vm;
	return CSD_OK;
}

void csd_vmlinux_close(struct csd_vmlinux *vm)
{
	if (!vm)
		return;
	if (vm->elf)
		elf_end(vm->elf);
	close(vm->fd);
	free(vm);
}

const char *csd_vmlinux_why(const struct csd_vmlinux *vm)
{
	int e = elf_errno();

	if (e)
		return elf_errmsg(e);
	if (!vm->elf || elf_kind(vm->elf) != ELF_K_ELF)
		return "it does not begin with the ELF magic 7f 45 4c 46";
	return "unreadable ELF header";
}

enum csd_err csd_vmlinux_check(const struct csd_vmlinux *vm)
{
	const char *path = vm->path;
	Elf *elf = vm->elf;
	GElf_Ehdr eh;

	if (!elf || elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh)) {
		csd_error("%s: not an ELF file (%s)", path, csd_vmlinux_why(vm));
		return CSD_ERR_FORMAT;
	}
	if (eh.e_machine != EM_AARCH64 || gelf_getclass(elf) != ELFCLASS64) {
		csd_error("%s: an ELF file for machine %u%s, not an AArch64 (%u) vmlinux", path,
			  eh.e_machine, eh.e_machine == EM_X86_64 ? " (x86-64)" : "", EM_AARCH64);
		return CSD_ERR_ARCH;
	}
	return CSD_OK;
}
