/* armprof: command-line entry point; dispatches to one subcommand per file. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"

struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
};

static const struct command commands[] = {
#define AP_COMMAND(name) { #name, cmd_##name, cmd_##name##_summary },
#include "command_table.inc"
#undef AP_COMMAND
};

static void usage(FILE *out)
{
	fprintf(out, "usage: armprof COMMAND [ARGS]\n\ncommands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(out, "\n'armprof COMMAND --help' describes one command.\n");
}

/* What a command wrote to standard output must have reached it (a full
 * disk, /dev/full, a closed pipe with SIGPIPE ignored): else the exit
 * status says so, an I/O error (2), whatever the command returned. */
static int check_stdout(const char *cmd, int rc)
{
	errno = 0;
	int bad = fflush(stdout) != 0;
	int e = errno;
	bad |= ferror(stdout) != 0;
	if (fclose(stdout) != 0 && !bad) {
		bad = 1;
		e = errno;
	}
	if (!bad)
		return rc;
	if (e)
		fprintf(stderr, "armprof %s: standard output: write failed: %s\n", cmd, strerror(e));
	else
		fprintf(stderr, "armprof %s: standard output: write failed\n", cmd);
	return EXIT_USAGE;
}

int main(int argc, char **argv)
{
	/* A file size limit (ulimit -f) is an error the writer reports
	 * (EFBIG, "File too large") and cleans up after, not a signal that
	 * kills armprof with its temporary file left behind. */
	signal(SIGXFSZ, SIG_IGN);
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return check_stdout("help", EXIT_OK);
	}
	if (!strcmp(argv[1], "--version")) {
		printf("armprof 0.1.0\n");
		return check_stdout("--version", EXIT_OK);
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return check_stdout(commands[i].name, commands[i].run(argc - 1, argv + 1));
	fprintf(stderr, "armprof: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return EXIT_USAGE;
}
