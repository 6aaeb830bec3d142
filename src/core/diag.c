// SPDX-License-Identifier: GPL-2.0
/* csdump: diagnostics, routed to one replaceable handler. */
#include <stdarg.h>
#include <stdio.h>

#include "core/csd_err.h"
#include "core/diag.h"

static void stderr_handler(enum csd_level level, const char *msg, void *arg)
{
	static const char *const prefix[] = {
		[CSD_LVL_ERROR] = "error: ",
		[CSD_LVL_WARN] = "warning: ",
		[CSD_LVL_INFO] = "",
	};

	(void)arg;
	fprintf(stderr, "csdump: %s%s\n", prefix[level], msg);
}

static csd_msg_fn handler = stderr_handler;
static void *handler_arg;

void csd_set_msg_handler(csd_msg_fn fn, void *arg)
{
	handler = fn ? fn : stderr_handler;
	handler_arg = fn ? arg : NULL;
}

static void emit(enum csd_level level, const char *fmt, va_list ap)
{
	char msg[1024];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	handler(level, msg, handler_arg);
}

void csd_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	emit(CSD_LVL_ERROR, fmt, ap);
	va_end(ap);
}

void csd_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	emit(CSD_LVL_WARN, fmt, ap);
	va_end(ap);
}

void csd_info(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	emit(CSD_LVL_INFO, fmt, ap);
	va_end(ap);
}

const char *csd_strerror(enum csd_err err)
{
	static const char *const names[] = {
		[CSD_OK] = "success",
		[CSD_ERR_IO] = "input/output error",
		[CSD_ERR_NOMEM] = "out of memory",
		[CSD_ERR_FORMAT] = "not in the expected format",
		[CSD_ERR_ARCH] = "wrong architecture",
		[CSD_ERR_NOREGISTRY] = "no coresight_kdump registry (kernel without the series)",
		[CSD_ERR_UNMAPPED] = "address not present in the dump",
		[CSD_ERR_CORRUPT] = "data failed a consistency check",
		[CSD_ERR_NOTRACE] = "no saved trace",
		[CSD_ERR_USAGE] = "usage error",
		[CSD_ERR_DECODE] = "trace decoding failed",
	};

	if ((unsigned int)err < sizeof(names) / sizeof(names[0]) && names[err])
		return names[err];
	return "unknown error";
}
