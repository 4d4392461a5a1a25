/* What `armprof record` says on standard error when the run is over
 * (record_summary.h). */
#define _XOPEN_SOURCE 700 /* readlink */
#include "record_summary.h"

#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static double pct(uint64_t a, uint64_t b)
{
	return b ? 100.0 * (double)a / (double)b : 0.0;
}

/* Where the profile went, for the summary: the path, and where a symbolic
 * link there points (its target was written), into buf. */
static const char *output_place(const char *path, char *buf, size_t cap)
{
	struct stat st;
	char target[PATH_MAX];
	ssize_t n;
	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode) && (n = readlink(path, target, sizeof(target) - 1)) > 0) {
		target[n] = 0;
		snprintf(buf, cap, "%s (a link to %s)", path, target);
	} else {
		snprintf(buf, cap, "%s", path);
	}
	return buf;
}

void record_summary(const struct record_opts *o, const char *prog, int status,
                    const struct record_stats *st, int main_exec, size_t n_procs, int written)
{
	if (st->stopped_by_signal)
		fprintf(stderr,
		        "armprof record: %s was ended by signal %" PRIu64 " (%s, status %d); the profile covers "
		        "it up to the signal\n",
		        prog, st->stopped_by_signal, strsignal((int)st->stopped_by_signal), status);
	else if (main_exec)
		fprintf(stderr,
		        "armprof record: %s replaced itself with another program (execve), which exited with "
		        "status %d; the profile covers it up to the exec (QEMU 7.2 runs the new program "
		        "without armprof's plugin)\n",
		        prog, status);
	else
		fprintf(stderr, "armprof record: %s exited with status %d\n", prog, status);
	uint64_t child_execs = st->ended_by_exec - (main_exec ? 1 : 0);
	if (child_execs)
		fprintf(stderr, "armprof record: %" PRIu64 " of the child processes replaced their program (execve): "
		        "each is profiled up to its exec\n", child_execs);
	if (st->aarch64_execs_failed)
		fprintf(stderr,
		        "armprof record: %" PRIu64 " exec%s of an aarch64 program failed with ENOEXEC (\"Exec format "
		        "error\"; the first: %s): this host has no binfmt_misc handler that runs aarch64 programs "
		        "under qemu-aarch64 (with one, the new program runs, though without armprof's plugin)\n",
		        st->aarch64_execs_failed, st->aarch64_execs_failed == 1 ? "" : "s", st->aarch64_exec_failed_path);
	if (o->model) {
		char place[2 * PATH_MAX + 32];
		fprintf(stderr,
		        "armprof record: %" PRIu64 " operations fed, SAMPLE_POP %" PRIu64 ", %" PRIu64
		        " sampled, %" PRIu64 " records (%.1f KiB) %s%s (%s, %zu thread%s",
		        st->ops, st->sample_pop, st->sample_feed, st->records, (double)st->spe_bytes / 1024.0,
		        written ? "in " : "NOT written to ", output_place(o->output, place, sizeof(place)),
		        o->format == RECORD_OUT_RAW ? "raw SPE" : "perf.data", st->n_vcpus, st->n_vcpus == 1 ? "" : "s");
		if (n_procs > 1)
			fprintf(stderr, " in %zu processes: the program and the children it forked", n_procs);
		fprintf(stderr, ")%s\n", written ? "" : ": see the error above");
		if (st->sample_feed)
			fprintf(stderr, "armprof record: mean interval %.1f operations (programmed %" PRIu64 "%s)\n",
			        (double)st->sample_pop / (double)st->sample_feed, o->interval,
			        o->jitter ? ", with jitter" : "");
		if (st->sample_collision || st->lost_bytes || st->records_discarded)
			fprintf(stderr, "armprof record: %" PRIu64 " collisions, %" PRIu64 " records discarded, %" PRIu64
			        " bytes lost\n", st->sample_collision, st->records_discarded, st->lost_bytes);
	} else {
		fprintf(stderr, "armprof record: %" PRIu64 " operations executed (--no-model: no SPE data written); events "
		        "logged %s\n",
		        st->ops, st->inline_ring ? "inline by QEMU" : "by the plugin's callbacks");
	}
	if (o->timing) {
		uint64_t acc = st->loads + st->stores;
		fprintf(stderr,
		        "armprof record: timing model: %" PRIu64 " accesses, L1D refill %.1f%%, LLC miss %.1f%%, "
		        "TLB walk %.2f%%, peer-core %.2f%%; %" PRIu64 " branches, %.1f%% mispredicted\n",
		        acc, pct(st->l1d_misses, acc), pct(st->llc_misses, acc), pct(st->tlb_walks, acc),
		        pct(st->peer_hits, acc), st->branches, pct(st->mispredicts, st->branches));
		if (st->timing_window)
			fprintf(stderr,
			        "armprof record: timing windows of %" PRIu64 " operations before each sample: "
			        "%.1f%% of the operations modelled in full\n",
			        st->timing_window, pct(st->detailed_ops, st->ops));
	}
	if (o->model || o->timing)
		fprintf(stderr, "armprof record: the models took %.2f s of CPU time (%s); %.1f%% of the operations "
		        "were in loop runs, replayed a run at a time; events logged %s\n",
		        (double)st->replay_cpu_ns / 1e9,
		        st->pipeline ? "on model threads, beside the program's" : "on the program's threads",
		        pct(st->loop_run_ops, st->ops),
		        st->inline_ring ? "inline by QEMU" : "by the plugin's callbacks");
	/* Both threads busy (issue 30)? With model threads, how long each
	 * side waited for the other on the event rings: the program's threads
	 * while every batch was still being replayed, and at drains (the
	 * end, checkpoints); the model threads while nothing was logged. */
	if ((o->model || o->timing) && st->pipeline)
		fprintf(stderr,
		        "armprof record: ring waits: the program's threads waited for the models %" PRIu64
		        " times, %.3f s (ring full), and %" PRIu64 " times, %.3f s (drains); the model threads "
		        "waited for events %" PRIu64 " times, %.3f s\n",
		        st->ring_full_waits, (double)st->ring_full_wait_ns / 1e9, st->ring_drain_waits,
		        (double)st->ring_drain_wait_ns / 1e9, st->model_waits, (double)st->model_wait_ns / 1e9);
	/* How often the call stacks had to resynchronise (plugins/qemu/call_stack.h). */
	if (st->call_graph)
		fprintf(stderr,
		        "armprof record: call stacks: %" PRIu64 " sampled operations with theirs; %" PRIu64
		        " returns to no frame on the stack, %" PRIu64 " signal frames, %" PRIu64
		        " frames beyond --call-graph-depth\n",
		        st->stack_samples, st->stack_unmatched, st->stack_signals, st->stack_dropped);
	if (!o->timing && o->model && st->n_vcpus > 1)
		fprintf(stderr, "armprof record: each thread was replayed %s (--no-timing: without caches the threads "
		        "do not meet, and their order changes nothing)\n",
		        st->pipeline ? "on a model thread of its own" : "on itself");
	else if (o->timing && st->n_vcpus > 1) {
		if (st->interleave)
			fprintf(stderr,
			        "armprof record: the threads were replayed in model-clock order, each within about %" PRIu64
			        " cycles of the others where they share lines (%" PRIu64 " hand-overs, %" PRIu64
			        " windows side by side where they did not, %" PRIu64 " wake-ups held for the threads they woke, %" PRIu64
			        " timed-out waits for a thread)\n",
			        st->interleave, st->interleave_switches, st->interleave_windows, st->interleave_wake_holds,
			        st->interleave_timeouts);
		else
			fprintf(stderr, "armprof record: each thread was replayed %s: threads meet in the caches only where "
			        "their replays overlap in host time\n",
			        st->pipeline ? "on a model thread of its own (--interleave 0)"
			                     : "on itself (--no-pipeline, or a host with one CPU)");
	}
}
