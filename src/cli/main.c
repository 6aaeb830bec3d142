// SPDX-License-Identifier: GPL-2.0
/* csdump: the command-line tool; everything is in cli.c and the library. */
#include "cli/cli.h"

int main(int argc, char **argv)
{
	return csd_cli_main(argc, argv);
}
