/* armprof record's merge of a recording's processes (tools/armprof/
 * record_procs.c): finding the children's outputs, adding their statistics,
 * summing their per-PC counts (also under ASan). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "record_procs.h"

static const char *dir; /* harness_scratch_dir */

/* The scratch directory, made at first use and removed at exit. */
static void use_dir(void)
{
	dir = harness_scratch_dir("test_record_procs");
}

static void write_file(const char *name, const char *text)
{
	use_dir();
	char path[128];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	CHECK(f != NULL);
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static char *read_file(const char *name)
{
	static char text[4096];
	char path[128];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(text, 1, sizeof(text) - 1, f) : 0;
	text[n] = 0;
	if (f)
		fclose(f);
	return text;
}

/* Only BASE.PID: not the program's own file, a write under way or
 * another name. */
TEST(children_found_by_name)
{
	const char *names[] = { "stats.txt", "stats.txt.345", "stats.txt.12", "stats.txt.12.tmp", "stats.txt.x",
		                "stats.txt.", "spe.raw.12", "stats.txt.0" };
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		write_file(names[i], "");
	char stats[128];
	use_dir();
	snprintf(stats, sizeof(stats), "%s/stats.txt", dir);
	int pids[4];
	size_t more = 9;
	size_t n = record_child_pids(stats, pids, 4, &more);
	CHECK_EQ_U64(n, 2);
	CHECK_EQ_U64(more, 0);
	CHECK_EQ_U64(pids[0], 12);
	CHECK_EQ_U64(pids[1], 345);
	n = record_child_pids(stats, pids, 1, &more);
	CHECK_EQ_U64(n, 1);
	CHECK_EQ_U64(more, 1);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char path[128];
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		remove(path);
	}
}

TEST(stats_add_sums_and_appends_threads)
{
	static struct record_stats a, b;
	a.ops = 100, a.sample_pop = 100, a.records = 3, a.n_vcpus = 1, a.vcpu[0].tid = 10, a.entry = 0x400000;
	b.ops = 50, b.sample_pop = 50, b.records = 2, b.n_vcpus = 2, b.vcpu[0].tid = 20, b.vcpu[1].tid = 21;
	b.checkpoints = 1, b.entry = 0x500000;
	record_stats_add(&a, &b);
	CHECK_EQ_U64(a.ops, 150);
	CHECK_EQ_U64(a.sample_pop, 150);
	CHECK_EQ_U64(a.records, 5);
	CHECK_EQ_U64(a.checkpoints, 1);
	CHECK_EQ_U64(a.n_vcpus, 3);
	CHECK_EQ_U64(a.vcpu[2].tid, 21);
	CHECK_EQ_U64(a.entry, 0x400000); /* run-wide: the first process's */
}

TEST(counts_summed_per_pc)
{
	write_file("c1", "# armprof exact operation counts: pc count kind\n0x400008 5 load\n0x400000 1 other\n");
	write_file("c2", "0x400004 7 branch\n0x400008 2 load\n");
	char p1[128], p2[128], out[128], err[512] = "";
	snprintf(p1, sizeof(p1), "%s/c1", dir);
	snprintf(p2, sizeof(p2), "%s/c2", dir);
	snprintf(out, sizeof(out), "%s/merged", dir);
	const char *paths[] = { p1, p2 };
	CHECK_EQ_U64(record_merge_counts(paths, 2, out, err, sizeof(err)), 0);
	CHECK_EQ_STR(read_file("merged"), "# armprof exact operation counts: pc count kind\n"
	                                  "0x400000 1 other\n0x400004 7 branch\n0x400008 7 load\n");
	/* A malformed line: refused, naming the file and line; no output. */
	write_file("c3", "0x400000 1 other\n0x400004 seven branch\n");
	snprintf(p2, sizeof(p2), "%s/c3", dir);
	remove(out);
	CHECK(record_merge_counts(paths, 2, out, err, sizeof(err)) != 0);
	char want[160];
	snprintf(want, sizeof(want), "%s:2:", p2);
	CHECK(strstr(err, want) != NULL);
	CHECK(access(out, F_OK) != 0);
	/* A file that is not there. */
	snprintf(p2, sizeof(p2), "%s/none", dir);
	CHECK(record_merge_counts(paths, 2, out, err, sizeof(err)) != 0);
	CHECK(strstr(err, p2) != NULL);
	remove(p1);
	snprintf(p1, sizeof(p1), "%s/c2", dir);
	remove(p1);
	snprintf(p1, sizeof(p1), "%s/c3", dir);
	remove(p1);
}

TEST_MAIN(CASE(children_found_by_name), CASE(stats_add_sums_and_appends_threads), CASE(counts_summed_per_pc))
