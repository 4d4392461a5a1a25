/* `armprof system`: the guest's console (system_console.h). */
#include "system_console.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void console_init(struct console *c, const char *nonce)
{
	memset(c, 0, sizeof(*c));
	c->phase = CONSOLE_BOOT;
	int n = snprintf(c->marker, sizeof(c->marker), "ARMPROF-%.32s ", nonce);
	c->marker_len = n > 0 ? (size_t)n : 0;
}

/* A boot line into the log, keeping the newest lines when it is full. */
static void log_line(struct console *c, const char *line, size_t len)
{
	if (len + 1 > sizeof(c->log) / 2)
		len = sizeof(c->log) / 2 - 1;
	if (c->log_len + len + 1 > sizeof(c->log)) {
		/* drop whole lines from the front until the line fits */
		size_t drop = c->log_len + len + 1 - sizeof(c->log);
		const char *nl = memchr(c->log + drop, '\n', c->log_len - drop);
		drop = nl ? (size_t)(nl - c->log) + 1 : c->log_len;
		memmove(c->log, c->log + drop, c->log_len - drop);
		c->log_len -= drop;
		c->log_dropped = 1;
	}
	memcpy(c->log + c->log_len, line, len);
	c->log_len += len;
	c->log[c->log_len++] = '\n';
}

/* A complete boot line: a marker, or the boot's output. */
static void boot_line(struct console *c)
{
	size_t len = c->line_len;
	if (len > 0 && c->line[len - 1] == '\r')
		len--;
	c->line[len] = 0;
	c->line_len = 0;
	if (len >= c->marker_len && memcmp(c->line, c->marker, c->marker_len) == 0) {
		const char *rest = c->line + c->marker_len;
		if (strcmp(rest, "start") == 0) {
			c->phase = CONSOLE_RUN;
			c->at_line_start = 1;
			return;
		}
		if (strncmp(rest, "error ", 6) == 0) {
			rest += 6;
			size_t k = strcspn(rest, " ");
			snprintf(c->kind, sizeof(c->kind), "%.*s", (int)k, rest);
			snprintf(c->message, sizeof(c->message), "%s", rest[k] ? rest + k + 1 : "");
			c->phase = CONSOLE_ERROR;
			return;
		}
	}
	log_line(c, c->line, len);
}

/* Output bytes, gathered into runs. */
struct emitter {
	console_out_fn out;
	void *ctx;
	char buf[4096];
	size_t n;
	int failed;
};

static void emit_flush(struct emitter *e)
{
	if (e->n && !e->failed && e->out(e->ctx, e->buf, e->n) != 0)
		e->failed = 1;
	e->n = 0;
}

static void emit(struct emitter *e, const char *bytes, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		if (e->n == sizeof(e->buf))
			emit_flush(e);
		e->buf[e->n++] = bytes[i];
	}
}

/* What was held back at a line start turned out to be output: the held
 * newline, the matched part of the marker, and (in_marker) its tail. */
static void release_held(struct console *c, struct emitter *e)
{
	if (c->held_newline)
		emit(e, "\n", 1);
	emit(e, c->marker, c->matched);
	if (c->in_marker)
		emit(e, c->line, c->line_len);
	c->held_newline = 0;
	c->matched = 0;
	c->in_marker = 0;
	c->line_len = 0;
	c->at_line_start = 0;
}

/* "exit N", N in 0..255: the exit marker's tail. */
static int parse_exit(const char *tail, size_t len, int *status)
{
	if (len < 6 || len > 8 || memcmp(tail, "exit ", 5) != 0)
		return 0;
	int v = 0;
	for (size_t i = 5; i < len; i++) {
		if (tail[i] < '0' || tail[i] > '9')
			return 0;
		v = v * 10 + (tail[i] - '0');
	}
	if (v > 255)
		return 0;
	*status = v;
	return 1;
}

/* One byte of the command's output phase. */
static void run_byte(struct console *c, struct emitter *e, char b)
{
	if (c->in_marker) {
		if (b == '\n') {
			if (parse_exit(c->line, c->line_len, &c->status)) {
				c->phase = CONSOLE_EXIT; /* the newline before it is init's */
				return;
			}
		} else if (c->line_len < 16) {
			c->line[c->line_len++] = b;
			return;
		}
		release_held(c, e); /* not the marker after all */
	} else if (c->at_line_start && c->matched < c->marker_len) {
		if (b == c->marker[c->matched]) {
			if (++c->matched == c->marker_len) {
				c->in_marker = 1;
				c->line_len = 0;
			}
			return;
		}
		release_held(c, e);
	}
	if (c->held_newline) {
		emit(e, "\n", 1);
		c->held_newline = 0;
	}
	if (b == '\n') {
		c->held_newline = 1;
		c->at_line_start = 1;
		c->matched = 0;
	} else {
		emit(e, &b, 1);
		c->at_line_start = 0;
	}
}

int console_feed(struct console *c, const char *bytes, size_t len, console_out_fn out, void *ctx)
{
	struct emitter e = { .out = out, .ctx = ctx };
	for (size_t i = 0; i < len; i++) {
		char b = bytes[i];
		switch (c->phase) {
		case CONSOLE_BOOT:
			if (b == '\n')
				boot_line(c);
			else if (c->line_len < sizeof(c->line) - 1)
				c->line[c->line_len++] = b;
			break;
		case CONSOLE_RUN:
			run_byte(c, &e, b);
			break;
		case CONSOLE_EXIT:
		case CONSOLE_ERROR:
			i = len; /* after the marker: poweroff messages */
			break;
		}
	}
	emit_flush(&e);
	return e.failed ? -1 : 0;
}

int console_finish(struct console *c, console_out_fn out, void *ctx)
{
	struct emitter e = { .out = out, .ctx = ctx };
	if (c->phase == CONSOLE_RUN) {
		release_held(c, &e);
	} else if (c->phase == CONSOLE_BOOT && c->line_len) {
		log_line(c, c->line, c->line_len);
		c->line_len = 0;
	}
	emit_flush(&e);
	return e.failed ? -1 : 0;
}
