/* The plugin's shadow call stack (plugins/qemu/call_stack.c) on block
 * sequences made by hand, one rule of call_stack.h each: a call pushes its
 * return address, a return pops to the frame it returns to (past frames a
 * tail call or an unwinder left), a return to no frame changes nothing,
 * a branch through a register to a frame's return address returns there,
 * longjmp (a BR to where setjmp's call returned) pops to the frame of the
 * function that called setjmp, a signal handler's entry pushes a frame for
 * the interrupted code and its sigreturn pops it (a restarted system call
 * too), the depth is bounded, a forked child's copy, and the stacks kept
 * for sampled operations and the exact counts per path. */
#include <stdio.h>
#include <string.h>

#include "call_stack.h"
#include "harness.h"

/* A block [start, end) whose last instruction is at end - 4. */
static struct tb_info tb_call(uint64_t start, uint64_t end, uint64_t target)
{
	struct tb_info t;
	memset(&t, 0, sizeof(t));
	t.vaddr = start;
	t.fallthrough = end;
	t.ends_in_branch = 1;
	t.br_pc = end - 4;
	t.br_direct = 1;
	t.br_target = target;
	t.br_uarch = AP_UARCH_BR_CALL;
	return t;
}
static struct tb_info tb_ret(uint64_t start, uint64_t end)
{
	struct tb_info t = tb_call(start, end, 0);
	t.br_direct = 0;
	t.br_uarch = AP_UARCH_BR_RETURN | AP_UARCH_BR_INDIRECT;
	return t;
}
static struct tb_info tb_br(uint64_t start, uint64_t end)
{
	struct tb_info t = tb_ret(start, end);
	t.br_uarch = AP_UARCH_BR_INDIRECT;
	return t;
}
static struct tb_info tb_b(uint64_t start, uint64_t end, uint64_t target, int cond)
{
	struct tb_info t = tb_call(start, end, target);
	t.br_uarch = cond ? AP_UARCH_BR_COND : 0;
	return t;
}
static struct tb_info tb_plain(uint64_t start, uint64_t end)
{
	struct tb_info t;
	memset(&t, 0, sizeof(t));
	t.vaddr = start;
	t.fallthrough = end;
	return t;
}

/* The frames' return addresses, newest first, as "a,b,c". */
static const char *frames(const struct call_stack *cs)
{
	static char buf[512];
	size_t n = 0;
	buf[0] = 0;
	for (uint32_t i = 0; i < cs->n && n + 24 < sizeof(buf); i++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%llx", i ? "," : "",
		                      (unsigned long long)cs->f[(cs->top - 1 - i) & (cs->cap - 1)].ret);
	return buf;
}

TEST(calls_returns_and_tail_calls)
{
	struct call_stack cs;
	CHECK(cs_init(&cs, 16) == 0);
	struct tb_info main_a = tb_call(0x1000, 0x1010, 0x2000); /* main: bl f */
	cs_after_tb(&cs, &main_a, 0x2000);
	CHECK_EQ_STR(frames(&cs), "1010");
	struct tb_info f_a = tb_call(0x2000, 0x2008, 0x3000); /* f: bl g */
	cs_after_tb(&cs, &f_a, 0x3000);
	CHECK_EQ_STR(frames(&cs), "2008,1010");
	struct tb_info g_tail = tb_b(0x3000, 0x3010, 0x4000, 0); /* g: b h (tail call) */
	cs_after_tb(&cs, &g_tail, 0x4000);
	CHECK_EQ_STR(frames(&cs), "2008,1010");
	struct tb_info h_ret = tb_ret(0x4000, 0x4004); /* h: ret, to f */
	cs_after_tb(&cs, &h_ret, 0x2008);
	CHECK_EQ_STR(frames(&cs), "1010");
	/* a return past a frame (an unwinder's): to main directly */
	cs_after_tb(&cs, &f_a, 0x3000);
	cs_after_tb(&cs, &h_ret, 0x1010);
	CHECK_EQ_STR(frames(&cs), "");
	/* a return to no frame changes nothing */
	cs_after_tb(&cs, &main_a, 0x2000);
	cs_after_tb(&cs, &h_ret, 0x9999);
	CHECK_EQ_STR(frames(&cs), "1010");
	CHECK_EQ_U64(cs.unmatched, 1);
	/* plain blocks and taken / not taken branches change nothing */
	struct tb_info p = tb_plain(0x2000, 0x2040), c = tb_b(0x2040, 0x2050, 0x2000, 1);
	cs_after_tb(&cs, &p, 0x2040);
	cs_after_tb(&cs, &c, 0x2000);
	cs_after_tb(&cs, &c, 0x2050);
	CHECK_EQ_STR(frames(&cs), "1010");
	CHECK_EQ_U64(cs.signals, 0);
	cs_free(&cs);
}

TEST(longjmp_pops_to_the_frame_that_called_setjmp)
{
	struct call_stack cs;
	CHECK(cs_init(&cs, 16) == 0);
	struct tb_info main_a = tb_call(0x1000, 0x1010, 0x2000); /* main: bl jumper */
	struct tb_info j_setjmp = tb_call(0x2000, 0x2010, 0x7000); /* jumper: bl setjmp */
	struct tb_info setjmp_ret = tb_ret(0x7000, 0x7010);
	struct tb_info j_deep = tb_call(0x2010, 0x2020, 0x3000); /* jumper: bl deep */
	struct tb_info deep_a = tb_call(0x3000, 0x3010, 0x3100); /* deep: bl deeper */
	struct tb_info deeper_a = tb_call(0x3100, 0x3110, 0x7100); /* deeper: bl longjmp */
	struct tb_info longjmp_br = tb_br(0x7100, 0x7120); /* __longjmp: br x30 */
	cs_after_tb(&cs, &main_a, 0x2000);
	cs_after_tb(&cs, &j_setjmp, 0x7000);
	cs_after_tb(&cs, &setjmp_ret, 0x2010); /* setjmp returns once */
	CHECK_EQ_STR(frames(&cs), "1010");
	cs_after_tb(&cs, &j_deep, 0x3000);
	cs_after_tb(&cs, &deep_a, 0x3100);
	cs_after_tb(&cs, &deeper_a, 0x7100);
	CHECK_EQ_STR(frames(&cs), "3110,3010,2020,1010");
	CHECK(cs_resumes_at(&cs, 0x2010));
	cs_after_tb(&cs, &longjmp_br, 0x2010); /* ... and again, from longjmp */
	CHECK_EQ_STR(frames(&cs), "1010");
	/* a switch's BR elsewhere changes nothing */
	cs_after_tb(&cs, &j_deep, 0x3000);
	cs_after_tb(&cs, &longjmp_br, 0x3044);
	CHECK_EQ_STR(frames(&cs), "2020,1010");
	cs_free(&cs);
}

TEST(signal_handlers_push_and_sigreturn_pops)
{
	struct call_stack cs;
	CHECK(cs_init(&cs, 16) == 0);
	struct tb_info main_a = tb_call(0x1000, 0x1010, 0x2000);
	cs_after_tb(&cs, &main_a, 0x2000);
	/* a system call block 0x2000..0x2008 (svc at 0x2004); the handler runs next */
	struct tb_info svc = tb_plain(0x2000, 0x2008);
	cs_after_tb(&cs, &svc, 0x5000);
	CHECK_EQ_STR(frames(&cs), "2008,1010");
	CHECK_EQ_U64(cs.signals, 1);
	struct tb_info h_call = tb_call(0x5000, 0x5010, 0x6000), work_ret = tb_ret(0x6000, 0x6010);
	cs_after_tb(&cs, &h_call, 0x6000);
	cs_after_tb(&cs, &work_ret, 0x5010);
	struct tb_info h_ret = tb_ret(0x5010, 0x5020); /* to the restorer: no frame */
	cs_after_tb(&cs, &h_ret, 0x8000);
	CHECK_EQ_STR(frames(&cs), "2008,1010");
	struct tb_info restorer = tb_plain(0x8000, 0x8008); /* svc rt_sigreturn */
	cs_after_tb(&cs, &restorer, 0x2004);           /* the call restarts */
	CHECK_EQ_STR(frames(&cs), "1010");
	/* a handler entered after a conditional branch resumes at either side */
	struct tb_info c = tb_b(0x2000, 0x2010, 0x2100, 1);
	cs_after_tb(&cs, &c, 0x5000);
	CHECK_EQ_STR(frames(&cs), "2010,1010");
	cs_after_tb(&cs, &restorer, 0x2100);
	CHECK_EQ_STR(frames(&cs), "1010");
	cs_free(&cs);
}

TEST(depth_is_bounded_and_a_copy_keeps_the_frames)
{
	struct call_stack cs, child;
	CHECK(cs_init(&cs, 3) == 0 && cs_init(&child, 3) == 0);
	struct tb_info r = tb_call(0x1000, 0x1010, 0x1000); /* recursion */
	for (int i = 0; i < 10; i++)
		cs_after_tb(&cs, &r, 0x1000);
	CHECK_EQ_U64(cs.n, 3);
	CHECK_EQ_U64(cs.dropped, 7);
	CHECK_EQ_STR(frames(&cs), "1010,1010,1010");
	cs_copy_frames(&child, &cs);
	CHECK_EQ_STR(frames(&child), "1010,1010,1010");
	struct tb_info ret = tb_ret(0x1010, 0x1020);
	for (int i = 0; i < 5; i++)
		cs_after_tb(&cs, &ret, 0x1010);
	CHECK_EQ_U64(cs.n, 0); /* the dropped frames are unknown: returns to them change nothing */
	CHECK_EQ_STR(frames(&child), "1010,1010,1010");
	cs_reset(&child);
	CHECK_EQ_U64(child.n, 0);
	cs_free(&cs);
	cs_free(&child);
}

TEST(sampled_stacks_and_exact_counts_per_path)
{
	struct call_stack cs;
	CHECK(cs_init(&cs, 16) == 0);
	struct tb_info main_a = tb_call(0x1000, 0x1010, 0x2000), f_ret = tb_ret(0x2000, 0x2010);
	cs_count_block(&cs, 0x1000, 4);
	cs_after_tb(&cs, &main_a, 0x2000);
	cs_note_sample(&cs, 77, 123, 0x2004);
	for (int i = 0; i < 3; i++)
		cs_count_block(&cs, 0x2000, 4);
	cs_after_tb(&cs, &f_ret, 0x1010);
	cs_count_block(&cs, 0x1010, 2);
	CHECK_EQ_U64(cs.n_samples, 1);
	CHECK_EQ_U64(cs.n_samples_words, 5);
	CHECK_EQ_U64(cs.samples[0], 77);
	CHECK_EQ_U64(cs.samples[1], 123);
	CHECK_EQ_U64(cs.samples[2], 2);
	CHECK_EQ_U64(cs.samples[3], 0x2004);
	CHECK_EQ_U64(cs.samples[4], 0x1010);
	char buf[256] = "";
	FILE *f = fmemopen(buf, sizeof(buf), "w");
	CHECK(f && cs_write_paths(&cs, f) == 0);
	fclose(f);
	/* three paths: main's two blocks (no frame) and f's (one frame) */
	CHECK(strstr(buf, "4 1000\n") && strstr(buf, "12 2000 1010\n") && strstr(buf, "2 1010\n"));
	CHECK_EQ_U64(cs.n_paths, 3);
	cs_free(&cs);
}

TEST_MAIN(CASE(calls_returns_and_tail_calls), CASE(longjmp_pops_to_the_frame_that_called_setjmp),
          CASE(signal_handlers_push_and_sigreturn_pops), CASE(depth_is_bounded_and_a_copy_keeps_the_frames),
          CASE(sampled_stacks_and_exact_counts_per_path))
