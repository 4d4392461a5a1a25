/* What the plugin writes (plugin_outputs.h). */
#define _XOPEN_SOURCE 700 /* realpath */
#include "plugin_outputs.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "call_stack.h"
#include "guest_maps.h"
#include "qemu_plugin_api.h"
#include "spe_sink.h"

struct pc_count {
	uint64_t pc, count;
	const struct insn_info *in;
};

static int cmp_pc(const void *a, const void *b)
{
	const struct pc_count *x = a, *y = b;
	return x->pc < y->pc ? -1 : x->pc > y->pc;
}

/* path whole or not at all: through a temporary file beside it, renamed
 * when complete. A path that is there and not a regular file (a device, a
 * FIFO: the plugin run by hand with spe=/dev/stdout) is written directly,
 * never replaced; a symbolic link keeps pointing where it did (its target
 * is replaced). -1 with errno set on failure. */
static int write_atomically(const char *path, int (*emit)(FILE *f, const void *ctx), const void *ctx)
{
	struct stat st;
	char real[PATH_MAX], tmp[PATH_MAX + 16];
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		FILE *f = fopen(path, "wb");
		if (!f)
			return -1;
		int r = emit(f, ctx);
		int e = errno;
		if (fclose(f) != 0 || r < 0) {
			if (r < 0)
				errno = e;
			return -1;
		}
		return 0;
	}
	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode) && realpath(path, real))
		path = real;
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	FILE *f = fopen(tmp, "wb");
	if (!f)
		return -1;
	int r = emit(f, ctx);
	int e = errno;
	if (r == 0 && fflush(f) != 0)
		r = -1, e = errno;
	if (fclose(f) != 0 && r == 0)
		r = -1, e = errno;
	if (r == 0 && rename(tmp, path) != 0)
		r = -1, e = errno;
	if (r < 0) {
		remove(tmp);
		errno = e;
		return -1;
	}
	return 0;
}

static int emit_counts_locked(FILE *f, const struct plugin_run_view *run);

/* Under tb_lock: a thread still translating cannot change the TB list. */
static int emit_counts(FILE *f, const void *ctx)
{
	const struct plugin_run_view *run = ctx;
	pthread_mutex_lock(run->tb_lock);
	int r = emit_counts_locked(f, run);
	pthread_mutex_unlock(run->tb_lock);
	return r;
}

static int emit_counts_locked(FILE *f, const struct plugin_run_view *run)
{
	size_t n = 0;
	for (struct tb_info *t = *run->all_tbs; t; t = t->next)
		n += t->n;
	struct pc_count *pcs = malloc((n ? n : 1) * sizeof(*pcs));
	if (!pcs)
		return -1;
	/* Executions per TB id, summed over the vCPUs. */
	uint64_t *execs = calloc(*run->n_tbs_translated ? *run->n_tbs_translated : 1, sizeof(*execs));
	if (!execs) {
		free(pcs);
		return -1;
	}
	/* Every vCPU's replay has drained (on_exit_cb): its counts are final. */
	for (unsigned i = 0; i < PLUGIN_MAX_VCPUS; i++) {
		const struct vcpu_state *v = run->vcpus[i];
		uint32_t cap = v ? v->rs.execs_cap : 0;
		for (uint64_t id = 0; id < cap && id < *run->n_tbs_translated; id++)
			execs[id] += v->rs.execs[id];
		/* A checkpoint leaves each thread's TB under way open: counted
		 * at its start, but not yet among the operations fed. */
		if (v && v->active && v->rs.cur && v->rs.cur->id < cap)
			execs[v->rs.cur->id]--;
	}
	size_t k = 0;
	for (struct tb_info *t = *run->all_tbs; t; t = t->next) {
		uint64_t e = execs[t->id];
		for (uint32_t i = 0; i < t->n; i++)
			pcs[k++] = (struct pc_count){ t->insn[i].pc, e, &t->insn[i] };
	}
	free(execs);
	qsort(pcs, k, sizeof(*pcs), cmp_pc);
	fprintf(f, "# armprof exact operation counts: pc count kind\n");
	for (size_t i = 0; i < k;) {
		size_t j = i;
		uint64_t sum = 0;
		while (j < k && pcs[j].pc == pcs[i].pc)
			sum += pcs[j++].count;
		if (sum)
			fprintf(f, "0x%" PRIx64 " %" PRIu64 " %s\n", pcs[i].pc, sum, ap_a64_kind_name(&pcs[i].in->cls));
		i = j;
	}
	free(pcs);
	return ferror(f) ? -1 : 0;
}

static int emit_spe(FILE *f, const void *ctx)
{
	const struct plugin_run_view *run = ctx;
	for (unsigned i = 0; i < PLUGIN_MAX_VCPUS; i++) {
		if (!run->vcpus[i] || !run->vcpus[i]->sink)
			continue;
		size_t len, more;
		const uint8_t *b = spe_sink_bytes(run->vcpus[i]->sink, &len);
		const uint8_t *m = spe_sink_buffered(run->vcpus[i]->sink, &more);
		if ((len && fwrite(b, 1, len, f) != len) || (more && fwrite(m, 1, more, f) != more))
			return -1;
	}
	return 0;
}

/* The call stacks of the sampled operations and the exact counts per
 * call path (call_stack.h), every vCPU's. */
static int emit_stacks(FILE *f, const void *ctx)
{
	const struct plugin_run_view *run = ctx;
	if (fwrite(CS_STACKS_MAGIC, 1, 8, f) != 8)
		return -1;
	for (unsigned i = 0; i < PLUGIN_MAX_VCPUS; i++)
		if (run->vcpus[i] && run->vcpus[i]->cs && cs_write_samples(run->vcpus[i]->cs, f) != 0)
			return -1;
	return 0;
}

static int emit_stack_counts(FILE *f, const void *ctx)
{
	const struct plugin_run_view *run = ctx;
	fprintf(f, "# armprof exact operation counts per call path: count block-pc return-addresses...\n");
	for (unsigned i = 0; i < PLUGIN_MAX_VCPUS; i++)
		if (run->vcpus[i] && run->vcpus[i]->cs && cs_write_paths(run->vcpus[i]->cs, f) != 0)
			return -1;
	return 0;
}

static int emit_stats(FILE *f, const void *ctx)
{
	const struct plugin_run_view *run = ctx;
	uint64_t off = 0;
	struct ap_spe_counts tot = { 0 };
	uint64_t ops = 0, drains = 0, lost = 0, mismatch = 0, detailed = 0, replay_ns = 0, run_ops = 0;
	struct ring_wait full = { 0, 0 }, drain = { 0, 0 }, empty = { 0, 0 };
	uint64_t cs_unmatched = 0, cs_signals = 0, cs_dropped = 0, cs_samples = 0;
	int model_threads = 0; /* some vCPU replayed on a model thread (one may fail to start) */
	struct ap_uarch_stats us = { 0 };
	fprintf(f, "# armprof plugin run summary\n");
	fprintf(f, "model=%d\ntiming=%d\ninterval=%" PRIu64 "\ntbs_translated=%" PRIu64 "\n", run->opts->model,
	        run->opts->timing, run->opts->interval, *run->n_tbs_translated);
	/* Where QEMU put the program's entry point: with the ELF e_entry it
	 * gives the load bias report needs to symbolize a PIE. */
	fprintf(f, "entry=0x%" PRIx64 "\n", run->entry_code);
	/* The program's files and where they are: its own load address (the
	 * entry above is the dynamic loader's for a dynamic program) and the
	 * shared libraries' symbols. */
	guest_maps_write(f);
	for (unsigned i = 0; i < PLUGIN_MAX_VCPUS; i++) {
		struct vcpu_state *v = run->vcpus[i];
		if (!v)
			continue;
		ops += v->rs.ops;
		size_t len = 0;
		struct ap_spe_counts c = { 0 };
		uint64_t d = 0, l = 0;
		if (v->sink) {
			size_t more = 0;
			spe_sink_bytes(v->sink, &len);
			spe_sink_buffered(v->sink, &more);
			len += more;
			spe_sink_counts(v->sink, &c, &d, &l);
		}
		/* One line per vCPU: where its bytes are in the SPE output. */
		fprintf(f,
		        "vcpu=%u tid=%" PRId64 " ops=%" PRIu64 " offset=%" PRIu64 " bytes=%zu sample_pop=%" PRIu64
		        " records=%" PRIu64 "\n",
		        i, v->tid, v->rs.ops, off, len, c.sample_pop, c.records_written);
		off += len;
		tot.sample_pop += c.sample_pop;
		tot.sample_feed += c.sample_feed;
		tot.sample_filtrate += c.sample_filtrate;
		tot.sample_collision += c.sample_collision;
		tot.records_written += c.records_written;
		tot.records_discarded += c.records_discarded;
		tot.bytes_written += c.bytes_written;
		tot.mgmt_events += c.mgmt_events;
		drains += d;
		lost += l;
		mismatch += v->spe_batch_mismatch;
		detailed += v->rs.detailed_ops;
		replay_ns += v->ring.replay_cpu_ns;
		full.n += v->ring.full.n, full.ns += v->ring.full.ns;
		drain.n += v->ring.drain.n, drain.ns += v->ring.drain.ns;
		empty.n += v->ring.empty.n, empty.ns += v->ring.empty.ns;
		run_ops += v->rs.run_ops;
		model_threads |= v->ring.threaded || v->ring.hub;
		if (v->cs) {
			cs_unmatched += v->cs->unmatched, cs_signals += v->cs->signals;
			cs_dropped += v->cs->dropped, cs_samples += v->cs->n_samples;
		}
		if (v->core) {
			const struct ap_uarch_stats *s = ap_uarch_core_stats(v->core);
			us.loads += s->loads, us.stores += s->stores, us.l1d_misses += s->l1d_misses;
			us.l2_misses += s->l2_misses, us.llc_misses += s->llc_misses;
			us.peer_hits += s->peer_hits, us.tlb_walks += s->tlb_walks;
			us.branches += s->branches, us.mispredicts += s->mispredicts;
		}
	}
	/* The call stacks (call_stack.h): how often they resynchronised. */
	fprintf(f, "call_graph=%d\nstack_samples=%" PRIu64 "\nstack_unmatched_returns=%" PRIu64
	        "\nstack_signal_frames=%" PRIu64 "\nstack_dropped_frames=%" PRIu64 "\n",
	        run->opts->call_graph, cs_samples, cs_unmatched, cs_signals, cs_dropped);
	/* Every thread, for its COMM in perf.data (a vCPU line names only
	 * the latest thread that ran on it). */
	for (unsigned k = 0; k < run->n_thread_ids; k++)
		fprintf(f, "thread=%" PRId64 "\n", run->thread_ids[k]);
	fprintf(f, "ops=%" PRIu64 "\nsample_pop=%" PRIu64 "\nsample_feed=%" PRIu64 "\nsample_filtrate=%" PRIu64
	        "\nsample_collision=%" PRIu64 "\nrecords=%" PRIu64 "\nrecords_discarded=%" PRIu64
	        "\nspe_bytes=%" PRIu64 "\nmgmt_events=%" PRIu64 "\nbuffer_drains=%" PRIu64 "\nlost_bytes=%" PRIu64 "\n",
	        ops, tot.sample_pop, tot.sample_feed, tot.sample_filtrate, tot.sample_collision,
	        tot.records_written, tot.records_discarded, off, tot.mgmt_events, drains, lost);
	fprintf(f, "spe_batch_mismatch=%" PRIu64 "\n", mismatch);
	/* A checkpoint: the program is about to meet this signal (it was at
	 * its default action), and the outputs cover it up to then. */
	if (run->stopped_by_signal)
		fprintf(f, "stopped_by_signal=%d\n", run->stopped_by_signal);
	/* Written as the program entered execve: if this file is what is
	 * left, the exec replaced the program, and the outputs end there. */
	if (run->ended_by_exec)
		fprintf(f, "ended_by_exec=1\n");
	/* The host could not run an aarch64 program the program exec'd (no
	 * binfmt_misc handler): armprof record says so. */
	if (run->aarch64_execs_failed)
		fprintf(f, "aarch64_execs_failed=%" PRIu64 "\naarch64_exec_failed_path=%s\n", run->aarch64_execs_failed,
		        run->aarch64_exec_failed_path);
	fprintf(f, "checkpoints=%" PRIu64 "\n", run->checkpoints);
	fprintf(f, "timing_window=%" PRIu64 "\ndetailed_ops=%" PRIu64 "\n", run->detail_window, detailed);
	/* Where the time went: the replay of the event logs through the
	 * models, on model threads (pipeline=1) or the program's own. */
	if (run->hub) {
		replay_ns += run->hub->cpu_ns;
		empty.n += run->hub->idle.n, empty.ns += run->hub->idle.ns;
	}
	fprintf(f, "inline_ring=%d\n", run->inline_ring);
	fprintf(f, "pipeline=%d\nreplay_cpu_ns=%" PRIu64 "\nloop_run_ops=%" PRIu64 "\n", model_threads, replay_ns,
	        run_ops);
	/* Both threads busy? How often and how long the program's threads
	 * waited on their rings (for room, and at drains) and the model
	 * threads waited for a batch (ring_wait.h), summed over vCPUs. */
	fprintf(f, "ring_full_waits=%" PRIu64 "\nring_full_wait_ns=%" PRIu64 "\nring_drain_waits=%" PRIu64
	        "\nring_drain_wait_ns=%" PRIu64 "\nmodel_waits=%" PRIu64 "\nmodel_wait_ns=%" PRIu64 "\n",
	        full.n, full.ns, drain.n, drain.ns, empty.n, empty.ns);
	/* Interleaved replay (replay_hub.h): the quantum, how often the hub
	 * went from one thread's log to another's, and how often it went on
	 * without a thread that logged nothing in time, and how often a
	 * thread's replay stopped where it woke others until they were back. */
	fprintf(f, "interleave=%" PRIu64 "\ninterleave_switches=%" PRIu64 "\ninterleave_timeouts=%" PRIu64
	        "\ninterleave_windows=%" PRIu64 "\ninterleave_wake_holds=%" PRIu64 "\n",
	        run->hub ? run->hub->quantum : 0, run->hub ? run->hub->switches : 0,
	        run->hub ? run->hub->timeouts : 0, run->hub ? run->hub->windows : 0,
	        run->hub ? run->hub->wake_holds : 0);
	fprintf(f, "loads=%" PRIu64 "\nstores=%" PRIu64 "\nl1d_misses=%" PRIu64 "\nl2_misses=%" PRIu64
	        "\nllc_misses=%" PRIu64 "\npeer_hits=%" PRIu64 "\ntlb_walks=%" PRIu64 "\nbranches=%" PRIu64
	        "\nmispredicts=%" PRIu64 "\n",
	        us.loads, us.stores, us.l1d_misses, us.l2_misses, us.llc_misses, us.peer_hits, us.tlb_walks,
	        us.branches, us.mispredicts);
	return ferror(f) ? -1 : 0;
}

/* The outputs, each written whole or not at all; the summary last, so
 * that its presence says the others are complete. */
void plugin_write_outputs(const struct plugin_run_view *run)
{
	uint64_t mismatch = 0;
	for (unsigned i = 0; i < PLUGIN_MAX_VCPUS; i++)
		mismatch += run->vcpus[i] ? run->vcpus[i]->spe_batch_mismatch : 0;
	if (mismatch) {
		char msg[160];
		snprintf(msg, sizeof(msg),
		         "armprof plugin: %" PRIu64 " operations selected inside a batch (described as Other)\n",
		         mismatch);
		qemu_plugin_outs(msg);
	}
	/* A forked child's outputs: the same names with ".PID" added. */
	char counts[1100], out[1100], stats[1100], stacks[1100], stack_counts[1100], suffix[24] = "";
	if (run->child)
		snprintf(suffix, sizeof(suffix), ".%d", (int)getpid());
	snprintf(counts, sizeof(counts), "%s%s", run->opts->counts, suffix);
	snprintf(out, sizeof(out), "%s%s", run->opts->out, suffix);
	snprintf(stats, sizeof(stats), "%s%s", run->opts->stats, suffix);
	snprintf(stacks, sizeof(stacks), "%s%s", run->opts->stacks, suffix);
	snprintf(stack_counts, sizeof(stack_counts), "%s%s", run->opts->stack_counts, suffix);
	/* The summary only when the others were written: without it, armprof
	 * record says that nothing was (a full disk), never that a file it
	 * expected is missing. */
	const char *bad = NULL;
	int err = 0;
	if (run->opts->counts[0] && write_atomically(counts, emit_counts, run) < 0)
		bad = counts, err = errno;
	if (!bad && run->opts->stacks[0] && run->opts->call_graph && write_atomically(stacks, emit_stacks, run) < 0)
		bad = stacks, err = errno;
	if (!bad && run->opts->stack_counts[0] && run->opts->call_graph &&
	    write_atomically(stack_counts, emit_stack_counts, run) < 0)
		bad = stack_counts, err = errno;
	if (!bad && run->opts->out[0] && run->opts->model && write_atomically(out, emit_spe, run) < 0)
		bad = out, err = errno;
	if (!bad && run->opts->stats[0] && write_atomically(stats, emit_stats, run) < 0)
		bad = stats, err = errno;
	/* A child that outlived the recording finds armprof's directory
	 * gone: nobody is left to tell. */
	if (bad && (!run->child || err != ENOENT)) {
		char msg[1200];
		snprintf(msg, sizeof(msg), "armprof plugin: %s: cannot write: %s\n", bad, strerror(err ? err : EIO));
		/* QEMU shows plugin output only with -d plugin: stderr too. */
		qemu_plugin_outs(msg);
		fputs(msg, stderr);
	}
}

