/* `armprof system`: the guest's console, read as it arrives. The guest's
 * /init (system/kit/init.sh) prints "ARMPROF-<nonce> start", then the
 * command's output, then "\nARMPROF-<nonce> exit <status>"; or, when it
 * cannot run the command, "ARMPROF-<nonce> error <kind> <message>". Before
 * start the console holds the boot (kept as a log for diagnostics); between
 * start and exit every byte is the command's and passes through unchanged
 * but for the newline init prints before the exit marker. */
#ifndef ARMPROF_TOOL_SYSTEM_CONSOLE_H
#define ARMPROF_TOOL_SYSTEM_CONSOLE_H

#include <stddef.h>

enum console_phase {
	CONSOLE_BOOT,  /* before the start marker */
	CONSOLE_RUN,   /* the command's output */
	CONSOLE_EXIT,  /* the exit marker was seen: status */
	CONSOLE_ERROR, /* the error marker was seen: kind, message */
};

/* The command's output, a run of bytes at a time; returns 0, or -1 to stop
 * (console_feed then returns -1). */
typedef int (*console_out_fn)(void *ctx, const char *bytes, size_t len);

#define CONSOLE_LOG_MAX 65536 /* boot log kept: the last this many bytes */

struct console {
	enum console_phase phase;
	char marker[64];     /* "ARMPROF-<nonce> " */
	size_t marker_len;
	int status;          /* CONSOLE_EXIT */
	char kind[16];       /* CONSOLE_ERROR: "spe" or "setup" */
	char message[1024];  /* CONSOLE_ERROR */
	char log[CONSOLE_LOG_MAX]; /* the boot's lines, '\n'-ended, without '\r' */
	size_t log_len;
	int log_dropped;     /* older lines were dropped to keep the last ones */
	/* The line being read: a boot line, or an exit marker's tail. */
	char line[4096];
	size_t line_len;
	/* CONSOLE_RUN: at the start of an output line, how many bytes match the
	 * marker so far (held back); a '\n' held back until the next byte
	 * shows it is not the one before the exit marker. */
	int at_line_start;
	size_t matched;
	int in_marker;       /* the marker matched: reading its tail */
	int held_newline;
};

/* nonce: the run's number (hex digits, at most 32). */
void console_init(struct console *c, const char *nonce);

/* The next bytes of the console. Output of the command goes to out.
 * Returns 0, or -1 when out did. */
int console_feed(struct console *c, const char *bytes, size_t len, console_out_fn out, void *ctx);

/* The console ended (QEMU exited): in CONSOLE_RUN, the bytes held back
 * are the command's and go to out. Returns 0, or -1 when out did. */
int console_finish(struct console *c, console_out_fn out, void *ctx);

#endif
