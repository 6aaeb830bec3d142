// SPDX-License-Identifier: GPL-2.0
/* csdump: the glue to OpenCSD's C API that every stage shares (see ocsd.h). */
#include <pthread.h>
#include <stdio.h>

#include "decode/ocsd.h"

/* Flushes in a row before we call the tree stuck. */
#define MAX_FLUSHES	100000u

static pthread_mutex_t ocsd_lock = PTHREAD_MUTEX_INITIALIZER;

void csd_ocsd_lock(void)
{
	pthread_mutex_lock(&ocsd_lock);
}

void csd_ocsd_unlock(void)
{
	pthread_mutex_unlock(&ocsd_lock);
}

void csd_ocsd_silence(void)
{
	ocsd_def_errlog_init(OCSD_ERR_SEV_NONE, 0);
}

const char *csd_ocsd_strerror(int err, char *buf, size_t len)
{
	char msg[200] = "";

	ocsd_err_str((ocsd_err_t)err, msg, (int)sizeof(msg));
	snprintf(buf, len, "OpenCSD error %d: %s", err, msg);
	return buf;
}

ocsd_datapath_resp_t csd_ocsd_flush(dcd_tree_handle_t tree, const int *stop)
{
	ocsd_datapath_resp_t r = OCSD_RESP_WAIT;
	unsigned int n;

	for (n = 0; n < MAX_FLUSHES && OCSD_DATA_RESP_IS_WAIT(r) && !(stop && *stop); n++)
		r = ocsd_dt_process_data(tree, OCSD_OP_FLUSH, 0, 0, NULL, NULL);
	return r;
}
