// SPDX-License-Identifier: GPL-2.0
/* csdump: subcommand dispatch. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

int csd_cli_main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "csdump: not yet\n");
	return CSD_EXIT_USAGE;
}
