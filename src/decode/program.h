/* SPDX-License-Identifier: GPL-2.0 */
/*
 * csdump: the program image a decode reads opcodes from, built for an input
 * that carries none of its own: vmlinux's code and, for a vmcore, the kernel
 * text as it ran.
 */
#ifndef CSD_PROGRAM_H
#define CSD_PROGRAM_H

#include "core/csd_err.h"
#include "core/dump.h"
#include "core/mem.h"
#include "decode/vmlinux.h"

/*
 * When @d (loaded from @input) has no program image, give it vmlinux's code
 * at its runtime addresses, and, for a vmcore @input, the kernel text as it
 * ran where the vmcore holds it (best effort).  Messages name the files.
 */
enum csd_err csd_program_from_vmlinux(struct csd_dump *d, const char *input,
				      const struct csd_vmlinux *vm);

/*
 * Keep in @d->ktext the kernel text as it ran, for an extract directory to
 * carry: each span of vmlinux @vm's text that stays while the kernel runs,
 * with the bytes the decode of the vmcore @m would use (the vmcore's where
 * it has them, vmlinux's elsewhere).  Nothing when @m holds none of it.
 */
enum csd_err csd_program_keep_text(struct csd_dump *d, const struct csd_mem *m,
				   const struct csd_vmlinux *vm);

#endif
