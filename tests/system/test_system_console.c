/* armprof system's reading of the guest console (tools/armprof/system/system_console.c):
 * the protocol of system/kit/init.sh. Boot lines are kept as a log; the
 * command's output passes through byte for byte, whatever the chunks it
 * arrives in, but for the newline init prints before the exit marker; the
 * markers count only with this run's nonce and at the start of a line. */
#include "harness.h"
#include "system_console.h"

struct sink {
	char buf[8192];
	size_t len;
	int fail_after; /* 0: never fail */
	int calls;
};

static int sink_out(void *ctx, const char *bytes, size_t len)
{
	struct sink *s = ctx;
	if (s->fail_after && ++s->calls >= s->fail_after)
		return -1;
	if (s->len + len < sizeof(s->buf)) {
		memcpy(s->buf + s->len, bytes, len);
		s->len += len;
	}
	s->buf[s->len] = 0;
	return 0;
}

/* Feeds text in chunks of `chunk` bytes (0: all at once) and finishes. */
static struct console *run(const char *text, size_t chunk, struct sink *s)
{
	static struct console c;
	console_init(&c, "0123abcd");
	memset(s, 0, sizeof(*s));
	size_t n = strlen(text);
	if (!chunk)
		chunk = n ? n : 1;
	for (size_t i = 0; i < n; i += chunk)
		console_feed(&c, text + i, i + chunk <= n ? chunk : n - i, sink_out, s);
	console_finish(&c, sink_out, s);
	return &c;
}

#define BOOT "[    0.1] Booting Linux\r\nsome noise\r\n"
#define START "ARMPROF-0123abcd start\n"
#define EXIT(n) "\nARMPROF-0123abcd exit " #n "\n[ 3.0] reboot: Power down\r\n"

TEST(output_passes_through_in_any_chunks)
{
	static const char *const outputs[] = {
		"hello\n", "no final newline", "", "\n\n", "two\nlines\n", "AR", "ARMPROF-0123abcd", "ARMPROF-0123abce exit 1\n",
		"ARMPROF-0123abcd exit x\n", "x ARMPROF-0123abcd exit 3\n", "tab\there\r\n",
	};
	for (size_t i = 0; i < sizeof(outputs) / sizeof(outputs[0]); i++) {
		for (size_t chunk = 0; chunk < 8; chunk++) {
			char text[512];
			snprintf(text, sizeof(text), BOOT START "%s" EXIT(42), outputs[i]);
			struct sink s;
			struct console *c = run(text, chunk, &s);
			CHECK(c->phase == CONSOLE_EXIT);
			CHECK_EQ_U64(c->status, 42);
			CHECK_EQ_STR(s.buf, outputs[i]);
		}
	}
}

TEST(boot_lines_are_the_log_not_output)
{
	struct sink s;
	struct console *c = run(BOOT START "x" EXIT(0), 3, &s);
	CHECK_EQ_STR(s.buf, "x");
	CHECK(c->log_len == strlen("[    0.1] Booting Linux\nsome noise\n"));
	CHECK(!memcmp(c->log, "[    0.1] Booting Linux\nsome noise\n", c->log_len));
	CHECK_EQ_U64(c->status, 0);
}

TEST(exit_status_range)
{
	struct sink s;
	CHECK_EQ_U64(run(START EXIT(255), 0, &s)->status, 255);
	/* not a status: output, and the run never ended */
	struct console *c = run(START "\nARMPROF-0123abcd exit 256\n", 0, &s);
	CHECK(c->phase == CONSOLE_RUN);
	CHECK_EQ_STR(s.buf, "\nARMPROF-0123abcd exit 256\n");
}

TEST(error_marker_before_start)
{
	struct sink s;
	struct console *c = run(BOOT "armprof guest: kernel lines\nARMPROF-0123abcd error spe no driver here\n", 5, &s);
	CHECK(c->phase == CONSOLE_ERROR);
	CHECK_EQ_STR(c->kind, "spe");
	CHECK_EQ_STR(c->message, "no driver here");
	CHECK_EQ_STR(s.buf, "");
	/* another run's nonce is a boot line like any other */
	c = run("ARMPROF-99999999 start\nARMPROF-99999999 error spe x\n", 0, &s);
	CHECK(c->phase == CONSOLE_BOOT);
}

TEST(console_ends_mid_command)
{
	struct sink s;
	struct console *c = run(BOOT START "partial\nARMPROF-0123", 4, &s);
	CHECK(c->phase == CONSOLE_RUN);
	CHECK_EQ_STR(s.buf, "partial\nARMPROF-0123");
	c = run(BOOT "no newline at the end", 4, &s);
	CHECK(c->phase == CONSOLE_BOOT);
	CHECK(c->log_len == strlen("[    0.1] Booting Linux\nsome noise\nno newline at the end\n"));
}

TEST(log_keeps_the_last_lines)
{
	static struct console c;
	console_init(&c, "0123abcd");
	char line[200];
	struct sink s;
	memset(&s, 0, sizeof(s));
	for (int i = 0; i < 2000; i++) {
		snprintf(line, sizeof(line), "boot line %04d with some words to fill the log up\n", i);
		console_feed(&c, line, strlen(line), sink_out, &s);
	}
	CHECK(c.log_dropped);
	CHECK(c.log_len <= sizeof(c.log));
	CHECK(c.log[c.log_len - 1] == '\n');
	CHECK(!memcmp(c.log + c.log_len - strlen(line), line, strlen(line)));
	CHECK(!strncmp(c.log, "boot line ", 10)); /* whole lines only */
}

TEST(output_failure_is_reported)
{
	struct console c;
	console_init(&c, "0123abcd");
	struct sink s;
	memset(&s, 0, sizeof(s));
	s.fail_after = 1;
	const char *text = START "some output\n";
	CHECK(console_feed(&c, text, strlen(text), sink_out, &s) == -1);
}

TEST_MAIN(CASE(output_passes_through_in_any_chunks), CASE(boot_lines_are_the_log_not_output),
          CASE(exit_status_range), CASE(error_marker_before_start), CASE(console_ends_mid_command),
          CASE(log_keeps_the_last_lines), CASE(output_failure_is_reported))
