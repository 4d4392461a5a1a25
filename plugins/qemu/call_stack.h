/* The shadow call stack of a guest thread (issue 20): followed in the
 * replay from the executed calls and returns, since the plugin API of QEMU
 * 7.2 reads no register (no stack pointer, no frame pointer). Each frame is
 * the return address of a call; the sampled operation's stack is its PC,
 * then the frames' return addresses, newest first (perf's call chain order).
 *
 *   BL/BLR         push the return address (the call's PC + 4);
 *   RET            pops to the newest frame whose return address is the
 *                  target (frames skipped on the way were left by tail
 *                  calls or by an unwinder), or changes nothing when no
 *                  frame has it (a return into a frame never seen: the
 *                  stack resynchronises at the next return that matches);
 *   BR             (tail calls through a pointer, switch tables, longjmp's
 *                  return in glibc) pops the same way when its target is a
 *                  frame's return address, else changes nothing;
 *   longjmp        a RET or BR to no frame's return address but to where a
 *                  call made by a frame's code returned before (setjmp's
 *                  return address: longjmp returns there a second time) pops
 *                  the frames above that frame;
 *   B, B.cond,     a tail call changes nothing: the callee returns to the
 *   fall-through   caller's caller, whose frame is on the stack;
 *   anything else  control reached an address the previous block cannot go
 *                  to (a signal handler's entry, or the return from one):
 *                  when a frame has that address, pop to it (the signal
 *                  frame below); else push a signal frame whose return
 *                  address is where the interrupted code resumes (the
 *                  block's next PC, or a restarted system call's PC), so
 *                  the handler appears called from the interrupted code.
 *
 * The stack holds at most `depth` frames (a ring: deeper frames drop the
 * oldest, which are then unknown, and the stack never grows without
 * bound). A new thread starts empty; a forked child starts with the
 * forking thread's stack (process.c). Private to plugins/qemu. */
#ifndef ARMPROF_CALL_STACK_H
#define ARMPROF_CALL_STACK_H

#include <stddef.h>
#include <stdint.h>

#include "plugin_state.h"

/* --call-graph-depth's bound (and default). */
#define CS_MAX_DEPTH 1024u
#define CS_DEFAULT_DEPTH 128u

struct cs_frame {
	uint64_t ret;  /* where the frame's code resumes */
	uint64_t alt;  /* another address it may resume at (a signal frame: the
	                  branch target / the restarted call), else = ret */
	uint64_t hash; /* of the return addresses up to this frame: a path key */
	uint64_t returned; /* the last address a call made by this frame's code
	                      returned to (its own code: where setjmp returned) */
};

struct cs_path; /* exact counts per path (call_stack.c) */

struct call_stack {
	struct cs_frame *f; /* ring of cap frames (cap: a power of two) */
	uint32_t cap, depth; /* depth: the limit asked for (<= cap) */
	uint32_t n;         /* frames held, newest at top - 1 */
	uint32_t top;
	uint64_t dropped;   /* frames pushed out at the bottom */
	uint64_t unmatched; /* returns to no frame on the stack */
	uint64_t signals;   /* signal frames pushed */
	uint64_t returned0; /* frame.returned of the code below every frame */
	/* The stacks of sampled operations: words tid, time, n, pc, n - 1
	 * return addresses; grown by doubling (amortized: no allocation per
	 * sample once the run is under way). */
	uint64_t *samples;
	size_t n_samples_words, cap_samples_words;
	uint64_t n_samples;
	/* Exact executed operations per (path, block), on request. */
	struct cs_path *paths; /* open addressing, grown at half full */
	size_t n_paths, cap_paths;
	uint64_t *path_frames; /* the paths' return addresses */
	size_t n_path_frames, cap_path_frames;
};

/* Set up (empty, depth frames) and free. Return 0 or -1 (out of memory). */
int cs_init(struct call_stack *cs, uint32_t depth);
void cs_free(struct call_stack *cs);
/* A new thread on the vCPU: empty (the samples and counts stay). */
void cs_reset(struct call_stack *cs);
/* The stack of another (a forked child's start): frames only. */
void cs_copy_frames(struct call_stack *dst, const struct call_stack *src);

/* 1 when cs_pop_to(cs, pc) would change the stack (a frame resumes at pc,
 * or a call from a frame's code returned there). */
int cs_resumes_at(const struct call_stack *cs, uint64_t pc);
/* The rare cases of cs_after_tb (out of line). */
void cs_push(struct call_stack *cs, uint64_t ret, uint64_t alt);
int cs_pop_to(struct call_stack *cs, uint64_t pc);
void cs_unexpected(struct call_stack *cs, const struct tb_info *tb, uint64_t next_pc);

/* Block tb ended and control went to next_pc: follow calls and returns.
 * Inline: on the replay's per-block path; the usual block (a direct
 * branch or a fall-through to where it can go) costs two comparisons. */
static inline void cs_after_tb(struct call_stack *cs, const struct tb_info *tb, uint64_t next_pc)
{
	uint8_t f = tb->br_uarch; /* 0 without a closing branch */
	/* The usual block first: no call, return or branch to a register,
	 * and control went on to the next instruction (a branch's is
	 * br_pc + 4, the block's fallthrough) or to a branch's target. */
	if (!(f & (AP_UARCH_BR_CALL | AP_UARCH_BR_RETURN | AP_UARCH_BR_INDIRECT))) {
		/* One test of both (|, &: no branch on which one it was, which
		 * is the program's own branch outcome). */
		if ((next_pc == tb->fallthrough) | (tb->ends_in_branch & (next_pc == tb->br_target)))
			return;
	} else if (f & AP_UARCH_BR_CALL) {
		cs_push(cs, tb->br_pc + 4, tb->br_pc + 4);
		return;
	} else {
		if (!cs_pop_to(cs, next_pc) && (f & AP_UARCH_BR_RETURN))
			cs->unmatched++;
		return;
	}
	cs_unexpected(cs, tb, next_pc);
}

/* The stack of the sampled operation at pc (time: its timestamp, the
 * thread's operation number), kept for the outputs. */
void cs_note_sample(struct call_stack *cs, int64_t tid, uint64_t time, uint64_t pc);
/* Count n executed operations of the block starting at pc on the current
 * path (exact per-path counts). */
void cs_count_block(struct call_stack *cs, uint64_t pc, uint32_t n);

/* Outputs: append the samples' stacks (binary, host-endian 64-bit words
 * per sample: tid, time, n, then n addresses: the PC and the return
 * addresses; after the file's 8-byte magic CS_STACKS_MAGIC) and the
 * per-path counts (text lines "count pc ret ret ...", hex addresses) to f.
 * Return 0 or -1 (a write failed). */
#define CS_STACKS_MAGIC "APSTACK1"
int cs_write_samples(const struct call_stack *cs, FILE *f);
int cs_write_paths(const struct call_stack *cs, FILE *f);

#endif
