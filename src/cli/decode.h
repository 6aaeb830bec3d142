/* SPDX-License-Identifier: GPL-2.0 */
/* csdump: the decode and snapshot subcommands (argv[0] is the subcommand name). */
#ifndef CSD_CLI_DECODE_H
#define CSD_CLI_DECODE_H

int csd_cmd_decode(int argc, char **argv);
int csd_cmd_snapshot(int argc, char **argv);

#endif
