/* SPDX-License-Identifier: GPL-2.0 */
/* csdump: the subcommands (argv[0] is the subcommand name); cli.c lists them. */
#ifndef CSD_CLI_CMDS_H
#define CSD_CLI_CMDS_H

int csd_cmd_info(int argc, char **argv);
int csd_cmd_extract(int argc, char **argv);
int csd_cmd_perf(int argc, char **argv);
int csd_cmd_decode(int argc, char **argv);
int csd_cmd_snapshot(int argc, char **argv);
int csd_cmd_report(int argc, char **argv);

#endif
