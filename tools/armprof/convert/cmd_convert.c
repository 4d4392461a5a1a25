/* armprof convert IN OUT: raw SPE bytes <-> perf.data (Linux perf). */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "armprof/number.h"
#include "armprof/decode.h"
#include "armprof/perfdata.h"
#include "cli_inputs.h"
#include "cli_io.h"
#include "commands.h"
#include "convert_opts.h"
#include "perf_input.h"

const char cmd_convert_summary[] = "convert raw SPE data to perf.data (for perf report/script) and back";

static void usage(FILE *out)
{
	fprintf(out,
	        "usage: armprof convert [--to raw|perf] [options] IN OUT\n"
	        "  IN is raw SPE bytes or a perf.data (recognised by its magic, on a pipe too);\n"
	        "  '-' is stdin, OUT '-' stdout. OUT: a regular file (or a link's target) is\n"
	        "  replaced when complete; a device or FIFO is written in place (docs/outputs.md).\n"
	        "  OUT's format: --to, else its suffix (.data/.perf: perf.data, .spe/.raw/.bin: raw),\n"
	        "  else the other format than IN's.\n"
	        "raw -> perf.data:\n"
	        "  --binary PATH     the profiled ELF: one MMAP2 per executable segment, so perf\n"
	        "                    attributes PCs to its symbols\n"
	        "  --load-bias ADDR  added to the ELF's addresses (PIE load address; default 0)\n"
	        "  --pid N, --tid N  the profiled process and thread (default 1, tid = pid)\n"
	        "  --comm NAME       its command name (default: the binary's file name, or 'armprof')\n"
	        "  --cpu N           the CPU the data came from (default 0; -1: per-thread)\n"
	        "  --midr HEX        MIDR_EL1 for the CPUID feature (default 0x413fd0c1, Neoverse N1)\n"
	        "  --pmu-type N      attr.type of arm_spe_0 (default 10)\n"
	        "  --buffer-size N   split into AUX buffers of at most N bytes at record boundaries\n"
	        "                    (default 16 MiB: a stream of any length in bounded memory;\n"
	        "                    input with no record in its first 64 MiB is not SPE data)\n"
	        "perf.data -> raw:\n"
	        "  --cpu N, --tid N  only the AUX buffers of that CPU / thread (none: an error)\n"
	        "exit status: 0 converted, 1 the input is malformed or not SPE data, or the\n"
	        "  selection is empty, 2 usage or I/O error (a failed write, with its reason)\n");
}

static int parse_u64(const char *s, uint64_t *v)
{
	return ap_parse_u64(s, v) < 0 ? -1 : 0;
}

static int suffix_is(const char *path, const char *sfx)
{
	size_t n = strlen(path), k = strlen(sfx);
	return n >= k && !strcmp(path + n - k, sfx);
}

static int perf_to_raw(const struct convert_opts *o)
{
	struct perf_input in;
	int rc = perf_input_open(&in, "convert", o->in, o->have_cpu ? o->cpu : AP_PERF_ANY,
	                         o->have_tid ? o->tid : AP_PERF_ANY);
	if (rc)
		return rc;
	struct cli_output out;
	if (cli_output_open(&out, "convert", o->out) != 0) {
		perf_input_close(&in, NULL);
		return EXIT_USAGE;
	}
	/* Copied through a buffer: a write(2) straight from the mapping would
	 * fail with EFAULT, not fault, if the file shrank meanwhile
	 * (perf_input_check_read says so only for a fault). */
	enum { PIECE = 1u << 20 };
	uint8_t *piece = malloc(PIECE);
	const uint8_t *p;
	size_t n;
	int ok = piece != NULL;
	if (!piece)
		fprintf(stderr, "armprof convert: out of memory\n");
	while (ok && perf_input_next(&in, NULL, &p, &n))
		for (size_t off = 0; ok && off < n; off += PIECE) {
			size_t k = n - off < PIECE ? n - off : PIECE;
			memcpy(piece, p + off, k);
			ok = cli_output_write(&out, piece, k) == 0;
			perf_input_release(&in, p + off, k);
		}
	free(piece);
	/* A selection that selects nothing writes no file. */
	rc = perf_input_check_read(&in);
	if (!rc && ok)
		rc = perf_input_check_selection(&in);
	perf_input_close(&in, NULL);
	if (cli_output_close(&out, "convert", ok && !rc) != 0 && !rc)
		return EXIT_USAGE;
	return rc;
}

int cmd_convert(int argc, char **argv)
{
	struct convert_opts o = { .pid = 1, .cpu = 0, .midr = 0x413fd0c1, .pmu_type = 10 };
	const char *pos[2] = { NULL, NULL };
	int npos = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		uint64_t u;
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage(stdout);
			return EXIT_OK;
		} else if (!strcmp(a, "--to") && v) {
			o.to = argv[++i];
			if (strcmp(o.to, "raw") && strcmp(o.to, "perf")) {
				fprintf(stderr, "armprof convert: --to must be raw or perf, not '%s'\n", o.to);
				return EXIT_USAGE;
			}
		} else if (!strcmp(a, "--binary") && v) {
			o.binary = argv[++i];
		} else if (!strcmp(a, "--comm") && v) {
			o.comm = argv[++i];
		} else if ((!strcmp(a, "--pid") || !strcmp(a, "--tid") || !strcmp(a, "--cpu")) && v) {
			int32_t id;
			if (perf_input_parse_id(argv[++i], &id) != 0) {
				fprintf(stderr, "armprof convert: bad %s '%s'\n", a, argv[i]);
				return EXIT_USAGE;
			}
			if (!strcmp(a, "--pid"))
				o.pid = id;
			else if (!strcmp(a, "--tid"))
				o.tid = id, o.have_tid = 1;
			else
				o.cpu = id, o.have_cpu = 1;
		} else if ((!strcmp(a, "--midr") || !strcmp(a, "--pmu-type") || !strcmp(a, "--load-bias") ||
		            !strcmp(a, "--buffer-size")) && v) {
			if (parse_u64(argv[++i], &u) != 0 || (!strcmp(a, "--pmu-type") && u > UINT32_MAX)) {
				fprintf(stderr, "armprof convert: bad %s '%s'\n", a, argv[i]);
				return EXIT_USAGE;
			}
			if (!strcmp(a, "--midr"))
				o.midr = u;
			else if (!strcmp(a, "--pmu-type"))
				o.pmu_type = (uint32_t)u;
			else if (!strcmp(a, "--load-bias"))
				o.load_bias = u;
			else
				o.buffer_size = u;
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "armprof convert: unknown option or missing value '%s'\n", a);
			usage(stderr);
			return EXIT_USAGE;
		} else if (npos < 2) {
			pos[npos++] = a;
		} else {
			fprintf(stderr, "armprof convert: too many arguments ('%s')\n", a);
			return EXIT_USAGE;
		}
	}
	if (npos != 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	o.in = pos[0];
	o.out = pos[1];
	cli_input_note(o.binary); /* the output must not be it (nor the input) */
	if (!o.have_tid)
		o.tid = o.pid;
	/* By its magic ('-' and pipes too: cli_stream.h); --to raw: the input must be
	 * perf.data (the reader says why if it is not). */
	int in_perf = perf_input_sniff("convert", o.in);
	if (in_perf < 0)
		return EXIT_USAGE;
	if (o.to && !strcmp(o.to, "raw"))
		in_perf = 1;
	int out_perf;
	if (o.to)
		out_perf = !strcmp(o.to, "perf");
	else if (suffix_is(o.out, ".data") || suffix_is(o.out, ".perf"))
		out_perf = 1;
	else if (suffix_is(o.out, ".spe") || suffix_is(o.out, ".raw") || suffix_is(o.out, ".bin"))
		out_perf = 0;
	else
		out_perf = !in_perf;
	if (in_perf == out_perf) {
		fprintf(stderr, "armprof convert: %s is already %s; nothing to convert\n", o.in,
		        in_perf ? "perf.data" : "raw SPE data");
		return EXIT_USAGE;
	}
	return out_perf ? convert_raw_to_perf(&o) : perf_to_raw(&o);
}
