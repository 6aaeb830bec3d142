// SPDX-License-Identifier: GPL-2.0
/* csdump info / csdump extract. */
#include <stdio.h>

#include "cli.h"
#include "cli_cmds.h"

int csd_cmd_info(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "csdump info: not implemented yet\n");
	return CSD_EXIT_USAGE;
}

int csd_cmd_extract(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "csdump extract: not implemented yet\n");
	return CSD_EXIT_USAGE;
}
