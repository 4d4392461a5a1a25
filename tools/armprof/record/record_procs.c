/* The processes of a recording (see record_procs.h). */
#include "armprof/number.h"
#include "record_procs.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_io.h"

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

void record_process_path(char *out, size_t cap, const char *base, int pid)
{
	if (pid)
		snprintf(out, cap, "%s.%d", base, pid);
	else
		snprintf(out, cap, "%s", base);
}

size_t record_child_pids(const char *stats_path, int *pids, size_t max, size_t *more)
{
	char dir[4096];
	snprintf(dir, sizeof(dir), "%s", stats_path);
	char *slash = strrchr(dir, '/');
	const char *base = slash ? stats_path + (slash - dir) + 1 : stats_path;
	if (slash)
		*slash = 0;
	else
		snprintf(dir, sizeof(dir), ".");
	size_t n = 0, len = strlen(base);
	*more = 0;
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	for (struct dirent *e; (e = readdir(d));) {
		/* BASE.PID exactly: not the .tmp of a write under way */
		if (strncmp(e->d_name, base, len) != 0 || e->d_name[len] != '.')
			continue;
		uint64_t pid;
		if (ap_parse_u64(e->d_name + len + 1, &pid) < 0 || pid == 0 || pid > INT32_MAX)
			continue;
		if (n < max)
			pids[n++] = (int)pid;
		else
			(*more)++;
	}
	closedir(d);
	qsort(pids, n, sizeof(*pids), cmp_int);
	return n;
}

void record_stats_add(struct record_stats *t, const struct record_stats *s)
{
#define ADD(f) t->f += s->f
	ADD(ops), ADD(sample_pop), ADD(sample_feed), ADD(sample_filtrate), ADD(sample_collision);
	ADD(records), ADD(records_discarded), ADD(spe_bytes), ADD(mgmt_events), ADD(buffer_drains);
	ADD(lost_bytes), ADD(loads), ADD(stores), ADD(l1d_misses), ADD(l2_misses), ADD(llc_misses);
	ADD(peer_hits), ADD(tlb_walks), ADD(branches), ADD(mispredicts), ADD(detailed_ops);
	ADD(replay_cpu_ns), ADD(ring_full_waits), ADD(ring_full_wait_ns), ADD(ring_drain_waits);
	ADD(ring_drain_wait_ns), ADD(model_waits), ADD(model_wait_ns), ADD(loop_run_ops), ADD(checkpoints), ADD(ended_by_exec);
	ADD(interleave_switches), ADD(interleave_timeouts), ADD(interleave_windows), ADD(interleave_wake_holds);
	ADD(aarch64_execs_failed);
	ADD(stack_samples), ADD(stack_unmatched), ADD(stack_signals), ADD(stack_dropped);
	if (!t->aarch64_exec_failed_path[0])
		memcpy(t->aarch64_exec_failed_path, s->aarch64_exec_failed_path, sizeof(t->aarch64_exec_failed_path));
	if (s->interleave)
		t->interleave = s->interleave;
#undef ADD
	for (size_t i = 0; i < s->n_vcpus && t->n_vcpus < RECORD_MAX_VCPUS; i++)
		t->vcpu[t->n_vcpus++] = s->vcpu[i];
}

struct pc_total {
	uint64_t pc, count;
	char kind[24];
};

static int cmp_pc(const void *a, const void *b)
{
	uint64_t x = ((const struct pc_total *)a)->pc, y = ((const struct pc_total *)b)->pc;
	return (x > y) - (x < y);
}

int record_merge_counts(const char *const *paths, size_t n, const char *out, char *err, size_t errlen)
{
	struct pc_total *all = NULL;
	size_t len = 0, cap = 0;
	int rc = 0;
	for (size_t k = 0; k < n && !rc; k++) {
		FILE *f = fopen(paths[k], "r");
		if (!f) {
			snprintf(err, errlen, "%s: %s", paths[k], strerror(errno));
			rc = -1;
			break;
		}
		char line[256];
		for (unsigned no = 1; fgets(line, sizeof(line), f); no++) {
			if (line[0] == '#')
				continue;
			if (len == cap) {
				size_t c = cap ? 2 * cap : 4096;
				struct pc_total *p = realloc(all, c * sizeof(*p));
				if (!p) {
					snprintf(err, errlen, "out of memory");
					rc = -1;
					break;
				}
				all = p;
				cap = c;
			}
			struct pc_total *t = &all[len];
			if (sscanf(line, "0x%" SCNx64 " %" SCNu64 " %23s", &t->pc, &t->count, t->kind) != 3) {
				snprintf(err, errlen, "%s:%u: not a 'PC COUNT KIND' line", paths[k], no);
				rc = -1;
				break;
			}
			len++;
		}
		fclose(f);
	}
	struct cli_output o;
	if (!rc && cli_output_open(&o, "record", out) != 0) {
		snprintf(err, errlen, "%s: not written", out);
		rc = -1;
	}
	if (!rc) {
		/* Stable for equal PCs is not needed: their kinds agree (one
		 * instruction at one PC in every process: fork shares the code). */
		if (len)
			qsort(all, len, sizeof(*all), cmp_pc);
		fprintf(o.f, "# armprof exact operation counts: pc count kind\n");
		for (size_t i = 0; i < len;) {
			size_t j = i;
			uint64_t sum = 0;
			while (j < len && all[j].pc == all[i].pc)
				sum += all[j++].count;
			fprintf(o.f, "0x%" PRIx64 " %" PRIu64 " %s\n", all[i].pc, sum, all[i].kind);
			i = j;
		}
		rc = cli_output_close(&o, "record", 1) == 0 ? 0 : -1;
		if (rc)
			snprintf(err, errlen, "%s: not written", out);
	}
	free(all);
	return rc;
}
