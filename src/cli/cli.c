// SPDX-License-Identifier: GPL-2.0
/*
 * csdump: the command line.  Each subcommand parses its arguments and calls
 * the library; the table below is the only place that lists them.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmds.h"
#include "decode/lead.h"
#include "decode/program.h"
#include "decode/vmlinux.h"
#include "format/input.h"

struct csd_cmd {
	const char *name;
	int (*run)(int argc, char **argv);	/* argv[0] is the subcommand name */
	const char *summary;
};

static const struct csd_cmd cmds[] = {
	{ "info", csd_cmd_info, "list the trace records of a vmcore" },
	{ "extract", csd_cmd_extract, "write trace, metadata and perf.data from a vmcore" },
	{ "perf", csd_cmd_perf, "write a perf.data that `perf script` decodes" },
	{ "decode", csd_cmd_decode, "decode the trace: what each CPU executed last" },
	{ "snapshot", csd_cmd_snapshot, "write an OpenCSD snapshot directory" },
	{ "report", csd_cmd_report, "write an HTML page of each CPU's last moments" },
};

#define N_CMDS (sizeof(cmds) / sizeof(cmds[0]))

static void usage(FILE *f)
{
	fputs("usage: csdump COMMAND [ARGS...]\n"
	      "       csdump COMMAND --help   (or: csdump help COMMAND)\n"
	      "       csdump --version\n\n"
	      "csdump reads the CoreSight trace that a Linux kernel with the\n"
	      "coresight-kdump series saved at panic out of its vmcore.\n\n"
	      "commands:\n", f);
	for (size_t i = 0; i < N_CMDS; i++)
		fprintf(f, "  %-9s %s\n", cmds[i].name, cmds[i].summary);
	fputs(csd_exit_codes_help, f);
}

int csd_cli_main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return CSD_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "help") && argc > 2) {
		/* csdump help COMMAND: that command's --help. */
		char *args[] = { argv[2], (char *)"--help", NULL };

		for (size_t i = 0; i < N_CMDS; i++)
			if (!strcmp(argv[2], cmds[i].name))
				return cmds[i].run(2, args);
		fprintf(stderr, "csdump help: unknown command '%s'\n\n", argv[2]);
		usage(stderr);
		return CSD_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return CSD_EXIT_OK;
	}
	if (!strcmp(argv[1], "--version")) {
		puts("csdump " CSD_VERSION);
		return CSD_EXIT_OK;
	}
	for (size_t i = 0; i < N_CMDS; i++)
		if (!strcmp(argv[1], cmds[i].name))
			return cmds[i].run(argc - 1, argv + 1);
	fprintf(stderr, "csdump: unknown command '%s'\n\n", argv[1]);
	usage(stderr);
	return CSD_EXIT_USAGE;
}

const char csd_exit_codes_help[] =
	"\nexit status:\n"
	"  0  success\n"
	"  1  usage error\n"
	"  2  input unreadable, not a vmcore or snapshot, or an output failed\n"
	"  3  the vmcore has no coresight-kdump registry (kernel without the series)\n"
	"  4  the registry is intact but holds no saved trace\n"
	"  5  some records were bad and skipped, or (decode) some trace could not be\n"
	"     decoded or there was no program image; the intact ones were used\n";

int csd_exit_code(enum csd_err err)
{
	switch (err) {
	case CSD_OK:
		return CSD_EXIT_OK;
	case CSD_ERR_USAGE:
		return CSD_EXIT_USAGE;
	case CSD_ERR_NOREGISTRY:
		return CSD_EXIT_NOREGISTRY;
	case CSD_ERR_NOTRACE:
		return CSD_EXIT_NOTRACE;
	default:
		return CSD_EXIT_INPUT;
	}
}

/*
 * Any input (vmcore, extract directory, snapshot) into @d, plus vmlinux's
 * code when the input carries no memory of its own.  Returns an exit code:
 * 0, CSD_EXIT_PARTIAL (some records skipped) or a failure.
 */
int csd_cli_load(const char *input, const char *vmlinux, struct csd_dump *d,
		 struct csd_vmlinux **vm)
{
	struct csd_input_status st = { 0 };
	enum csd_err err = csd_input_load(input, d, &st);

	*vm = NULL;
	if (err != CSD_OK)
		return csd_exit_code(err);
	if (vmlinux) {
		err = csd_vmlinux_open(vmlinux, vm);
		if (err == CSD_OK)
			err = csd_vmlinux_check(*vm);
		if (err == CSD_OK)
			err = csd_program_from_vmlinux(d, input, *vm);
		if (err != CSD_OK)
			return csd_exit_code(err);
	}
	/* A wrapped sink's ID-less leading bytes, when they are the failing CPU's. */
	err = csd_lead_attribute(d, input);
	if (err != CSD_OK)
		return csd_exit_code(err);
	return st.partial ? CSD_EXIT_PARTIAL : CSD_EXIT_OK;
}

bool csd_cli_parse_num(const char *s, long max, long *out)
{
	char *end;
	long v;

	v = strtol(s, &end, 0);
	if (!*s || *end || v < 0 || v > max)
		return false;
	*out = v;
	return true;
}

int csd_cli_parse_io(int argc, char **argv, const char *usage, bool want_out,
		     const char *name, int key, struct csd_cli_io *a)
{
	struct option opts[4] = { { "output", required_argument, NULL, 'o' } };
	char optstring[8] = "";
	size_t n = 1, k = 0;
	int c;

	if (name)
		opts[n++] = (struct option){ name, required_argument, NULL, key };
	opts[n] = (struct option){ "help", no_argument, NULL, 'h' };
	if (want_out) {
		optstring[k++] = 'o';
		optstring[k++] = ':';
	}
	if (name) {
		optstring[k++] = (char)key;
		optstring[k++] = ':';
	}
	optstring[k] = 'h';
	memset(a, 0, sizeof(*a));
	optind = 0;
	while ((c = getopt_long(argc, argv, optstring, opts, NULL)) != -1) {
		if (c == 'h') {
			printf("%s%s", usage, csd_exit_codes_help);
			return CSD_EXIT_OK;
		}
		if (c == 'o' && want_out)
			a->out = optarg;
		else if (name && c == key)
			a->arg = optarg;
		else
			goto usage;
	}
	if (optind == argc - 1 && (a->out || !want_out)) {
		a->input = argv[optind];
		return -1;
	}
usage:
	fputs(usage, stderr);
	return CSD_EXIT_USAGE;
}
