/* SPDX-License-Identifier: GPL-2.0 */
/*
 * csdump: the glue to OpenCSD's C API that the decoder's stages share.
 *
 * OpenCSD's C API keeps global state (a map of trees, the error logger):
 * trees are created and destroyed under csd_ocsd_lock(), and its logger is
 * silenced (csd_ocsd_silence(), before a decode) so that decoding threads
 * never write it.
 */
#ifndef CSD_OCSD_H
#define CSD_OCSD_H

#include <stddef.h>

#include <opencsd/c_api/opencsd_c_api.h>

void csd_ocsd_lock(void);
void csd_ocsd_unlock(void);

/* The library's own error logger says nothing. */
void csd_ocsd_silence(void);

/* Flush @tree while it answers WAIT (bounded; stops early when *@stop). */
ocsd_datapath_resp_t csd_ocsd_flush(dcd_tree_handle_t tree, const int *stop);

/* "OpenCSD error N: text" for @err into @buf. */
const char *csd_ocsd_strerror(int err, char *buf, size_t len);

#endif
