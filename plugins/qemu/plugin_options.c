/* The plugin's options file: key=value lines written by `armprof record`
 * (passed as -plugin armprof-qemu.so,cfg=PATH so that values may hold
 * commas and paths may hold anything but a newline). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "armprof/error.h"
#include "plugin_state.h"

static int parse_u64(const char *v, uint64_t *out)
{
	char *end;
	errno = 0;
	unsigned long long x = strtoull(v, &end, 0);
	if (errno || end == v || *end || *v == '-')
		return -1;
	*out = x;
	return 0;
}

static int append_line(char *dst, size_t cap, const char *line)
{
	size_t len = strlen(dst), add = strlen(line);
	if (len + add + 2 > cap)
		return -1;
	memcpy(dst + len, line, add);
	dst[len + add] = '\n';
	dst[len + add + 1] = 0;
	return 0;
}

int plugin_options_load(struct plugin_options *o, const char *path, char *err, size_t errlen)
{
	memset(o, 0, sizeof(*o));
	o->model = 1;
	o->timing = 1;
	o->pipeline = -1; /* a model thread when the host has a CPU to spare */
	o->loop_runs = 1;
	o->inline_ring = 1;
	o->interleave = 8; /* = armprof record's RECORD_DEFAULT_INTERLEAVE */
	o->interval = 1024;
	o->ts = 1;
	o->ctx = 1;
	o->buffer_bytes = 16u << 20;
	o->call_graph = 1;        /* = armprof record's default (--call-graph) */
	o->call_graph_depth = 128; /* = CS_DEFAULT_DEPTH */
	FILE *f = fopen(path, "r");
	if (!f) {
		snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
		return -AP_ERR_IO;
	}
	char line[4096];
	int lineno = 0, rc = 0;
	while (!rc && fgets(line, sizeof(line), f)) {
		lineno++;
		line[strcspn(line, "\r\n")] = 0;
		if (!line[0] || line[0] == '#')
			continue;
		char *eq = strchr(line, '=');
		if (!eq) {
			snprintf(err, errlen, "%s:%d: expected key=value", path, lineno);
			rc = -AP_ERR_FORMAT;
			break;
		}
		*eq = 0;
		const char *k = line, *v = eq + 1;
		uint64_t n = 0;
		struct {
			const char *name;
			char *dst;
		} paths[] = { { "out", o->out },       { "counts", o->counts },
			       { "stats", o->stats },   { "stacks", o->stacks },
			       { "stack_counts", o->stack_counts } };
		struct {
			const char *name;
			uint64_t *dst;
		} nums[] = { { "interval", &o->interval }, { "pmsfcr", &o->pmsfcr },
			     { "pmsevfr", &o->pmsevfr },   { "pmslatfr", &o->pmslatfr },
			     { "pmsnevfr", &o->pmsnevfr }, { "pmsdsfr", &o->pmsdsfr },
			     { "buffer", &o->buffer_bytes }, { "seed", &o->seed },
			     { "timing_window", &o->timing_window }, { "interleave", &o->interleave },
			     { "call_graph_depth", &o->call_graph_depth } };
		struct {
			const char *name;
			int *dst;
		} flags[] = { { "model", &o->model }, { "timing", &o->timing }, { "jitter", &o->jitter },
			      { "ts", &o->ts },       { "pa", &o->pa },         { "ctx", &o->ctx },
			      { "pipeline", &o->pipeline }, { "loop_runs", &o->loop_runs },
			      { "call_graph", &o->call_graph }, { "inline_ring", &o->inline_ring },
			      { "discard", &o->discard } };
		int done = 0;
		for (size_t i = 0; !done && i < sizeof(paths) / sizeof(paths[0]); i++)
			if (!strcmp(k, paths[i].name)) {
				snprintf(paths[i].dst, sizeof(o->out), "%s", v);
				done = 1;
			}
		for (size_t i = 0; !done && i < sizeof(nums) / sizeof(nums[0]); i++)
			if (!strcmp(k, nums[i].name)) {
				if (parse_u64(v, nums[i].dst) < 0) {
					snprintf(err, errlen, "%s:%d: %s: not a number: '%s'", path, lineno, k, v);
					rc = -AP_ERR_FORMAT;
				}
				done = 1;
			}
		for (size_t i = 0; !done && i < sizeof(flags) / sizeof(flags[0]); i++)
			if (!strcmp(k, flags[i].name)) {
				if (parse_u64(v, &n) < 0 || n > 1) {
					snprintf(err, errlen, "%s:%d: %s: expected 0 or 1: '%s'", path, lineno, k, v);
					rc = -AP_ERR_FORMAT;
				}
				*flags[i].dst = (int)n;
				done = 1;
			}
		if (!done && (!strcmp(k, "set") || !strcmp(k, "uarch"))) {
			int is_set = !strcmp(k, "set");
			if (append_line(is_set ? o->model_keys : o->uarch_keys,
			                is_set ? sizeof(o->model_keys) : sizeof(o->uarch_keys), v) < 0) {
				snprintf(err, errlen, "%s:%d: too many %s lines", path, lineno, k);
				rc = -AP_ERR_FORMAT;
			}
			done = 1;
		}
		if (!done) {
			snprintf(err, errlen, "%s:%d: unknown key '%s'", path, lineno, k);
			rc = -AP_ERR_FORMAT;
		}
	}
	fclose(f);
	if (!rc && (o->buffer_bytes < 4096 || o->buffer_bytes % 4096)) {
		snprintf(err, errlen, "%s: buffer must be a non-zero multiple of 4096 bytes", path);
		rc = -AP_ERR_FORMAT;
	}
	if (!rc && (o->call_graph_depth < 1 || o->call_graph_depth > 1024)) {
		snprintf(err, errlen, "%s: call_graph_depth must be 1 to 1024 (CS_MAX_DEPTH)", path);
		rc = -AP_ERR_FORMAT;
	}
	return rc;
}

int plugin_uarch_config(struct ap_uarch_config *cfg, const char *keys, char *err, size_t errlen)
{
	char buf[2048];
	snprintf(buf, sizeof(buf), "%s", keys);
	ap_uarch_config_init(cfg);
	for (char *save = NULL, *line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *eq = strchr(line, '=');
		if (eq)
			*eq = 0;
		if (!eq || ap_uarch_config_set(cfg, line, eq + 1) < 0) {
			snprintf(err, errlen, "bad timing-model setting '%s%s%s'", line, eq ? "=" : "",
			         eq ? eq + 1 : "");
			return -AP_ERR_INVALID;
		}
	}
	return 0;
}
