/* armprof decode FILE|- : decode an SPE stream into records or packets. */
#define _DEFAULT_SOURCE /* madvise */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "armprof/number.h"
#include "armprof/decode.h"
#include "armprof/perfdata.h"
#include "armprof/report.h"
#include "cli_inputs.h"
#include "cli_io.h"
#include "commands.h"
#include "decode_perf.h"
#include "decode_sink.h"
#include "perf_input.h"
#include "record_format.h"

const char cmd_decode_summary[] = "decode an SPE stream into records (text, jsonl, csv, parquet, spe-parser) or packets";

static void usage(FILE *out)
{
	fprintf(out,
	        "usage: armprof decode [--format text|jsonl|csv|parquet|spe-parser] [-o OUT [--split]]\n"
	        "                      [--packets]\n"
	        "                      [--stats] [--chunk-size N] [-j N] [--binary ELF [--load-bias N]]\n"
	        "                      [--cpu-model CPU] [--spe-later] FILE|-\n"
	        "  --format F      record output format (default text; jsonl schema: docs/jsonl-schema.md,\n"
	        "                  parquet schema: docs/parquet-schema.md)\n"
	        "                  spe-parser: -o PREFIX writes Arm spe-parser's PREFIX-ldst.parquet,\n"
	        "                  PREFIX-br.parquet and PREFIX-other.parquet, its columns and values\n"
	        "  -o OUT          write to OUT (default standard output; parquet needs -o)\n"
	        "  --split         parquet: OUT is a directory of ldst.parquet, br.parquet and\n"
	        "                  other.parquet, one per operation class, replaced as a whole\n"
	        "                  (a DIR with other files is refused; not to standard output)\n"
	        "  -j N            decode a perf.data's AUX buffers on N threads (default: the\n"
	        "                  CPUs available that other threads leave idle now, at least 1;\n"
	        "                  one thread under 2 MiB of AUX data); the output is -j 1's\n"
	        "  --binary ELF    parquet: the symbol column names each PC's function in ELF,\n"
	        "                  loaded at --load-bias N (default 0)\n"
	        "  --packets       one line per packet: offset, raw bytes, description\n"
	        "  --stats         print stream totals to stderr\n"
	        "  --chunk-size N  feed the decoder N bytes at a time (default 1 MiB)\n"
	        "  --spe-later     decode what SPE after v1 defines in v1's reserved values, as perf\n"
	        "                  7.x does: Address INDEX 4 = previous branch target (prev_br_tgt),\n"
	        "                  branch GCS and call/return (br_cr); docs/requirements-later.md\n"
	        "  --cpu-model CPU name the Data Source values (IMPLEMENTATION DEFINED) as this CPU\n"
	        "                  does: neoverse-n1, neoverse-n2, neoverse-v1, neoverse-v2, ampereone\n"
	        "                  or none (default: a perf.data's CPUID; else the values only)\n"
	        "  FILE may be a perf.data (docs/perfdata.md): its AUX buffers are decoded,\n"
	        "  --cpu N / --tid N select them, and a line per buffer goes to stderr\n"
	        "  (all with --stats; else the truncated and collision ones); a selection that\n"
	        "  selects nothing is an error\n"
	        "  '-' is standard input: it, a FIFO or a device is read by its magic too (a\n"
	        "  perf.data is copied to a temporary file; raw data streams as it comes). Raw\n"
	        "  input with no record in its first 64 MiB (/dev/zero) is not SPE data: stop.\n"
	        "exit status: 0 decoded (an empty input: with a warning), 1 the input held errors,\n"
	        "  is not SPE data or the selection is empty, 2 usage or I/O error (docs/outputs.md)\n");
}

struct decode_run {
	int packets;
	int spe_later; /* --spe-later: SPE after v1's values are shown as defined */
	struct decode_sink *sink;
};

static int on_record(void *ctx, const struct ap_record *rec)
{
	struct decode_run *run = ctx;
	decode_sink_put(run->sink, rec, NULL);
	return 0;
}

static int on_packet(void *ctx, uint64_t offset, const uint8_t *bytes,
                     const struct ap_packet *pkt, int in_record)
{
	struct decode_run *run = ctx;
	struct ap_packet shown = *pkt;
	if (run->spe_later && ap_pkt_later_defined(pkt))
		shown.reserved = 0; /* a defined value of SPE after v1 (--spe-later) */
	packet_format_write(decode_sink_stream(run->sink), offset, bytes, &shown, in_record);
	return 0;
}

/* --binary: the symbols of the parquet symbol column. NULL after printing. */
static struct ap_report *load_symbols(const char *path, uint64_t bias)
{
	struct ap_report *r = NULL;
	struct ap_error_ctx err = { 0 };
	if (ap_report_create(&r) != 0) {
		fprintf(stderr, "armprof decode: out of memory\n");
		return NULL;
	}
	if (ap_report_load_binary(r, path, bias, &err) != 0) {
		if (err.message[0])
			fprintf(stderr, "armprof decode: --binary: %s\n", err.message);
		else
			fprintf(stderr, "armprof decode: %s: cannot load symbols\n", path);
		ap_report_destroy(r);
		return NULL;
	}
	if (err.message[0]) /* a debug file found but refused */
		fprintf(stderr, "armprof decode: warning: %s\n", err.message);
	return r;
}

static int parse_size(const char *s, size_t *out)
{
	uint64_t v;
	if (ap_parse_u64_scaled(s, &v) < 0 || v == 0 || v > (1ull << 30))
		return -1;
	*out = (size_t)v;
	return 0;
}

int cmd_decode(int argc, char **argv)
{
	struct decode_run run = { 0 };
	struct decode_sink_opts so = { .fmt = FMT_TEXT };
	const char *path = NULL, *binary = NULL;
	uint64_t load_bias = 0;
	unsigned jobs = 0; /* 0: the default (decode_threads) */
	int stats = 0;
	size_t chunk = 1u << 20;
	int32_t sel_cpu = AP_PERF_ANY, sel_tid = AP_PERF_ANY; /* perf.data selection */
	uint64_t midr = 0; /* --cpu-model */
	int have_midr = 0;
	int spe_later = 0; /* --spe-later */

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage(stdout);
			return EXIT_OK;
		} else if ((!strcmp(a, "--format") && i + 1 < argc) || !strncmp(a, "--format=", 9)) {
			const char *f = a[8] == '=' ? a + 9 : argv[++i];
			if (decode_sink_parse_format(f, &so) != 0) {
				fprintf(stderr, "armprof decode: unknown format '%s' (text, jsonl, csv, parquet, spe-parser)\n", f);
				return EXIT_USAGE;
			}
		} else if (!strcmp(a, "-o") && i + 1 < argc) {
			so.out_path = argv[++i];
		} else if (!strcmp(a, "--split")) {
			so.split = 1;
		} else if (!strcmp(a, "--binary") && i + 1 < argc) {
			binary = argv[++i];
		} else if ((!strcmp(a, "-j") || !strcmp(a, "--load-bias")) && i + 1 < argc) {
			uint64_t v;
			if (ap_parse_u64(argv[++i], &v) < 0 || (a[1] == 'j' && (v < 1 || v > 64))) {
				fprintf(stderr, "armprof decode: bad %s '%s'%s\n", a, argv[i],
				        a[1] == 'j' ? " (1 to 64)" : "");
				return EXIT_USAGE;
			}
			if (a[1] == 'j')
				jobs = (unsigned)v;
			else
				load_bias = v;
		} else if (!strcmp(a, "--packets")) {
			run.packets = 1;
		} else if (!strcmp(a, "--spe-later")) {
			spe_later = 1;
		} else if (!strcmp(a, "--stats")) {
			stats = 1;
		} else if (!strcmp(a, "--chunk-size") && i + 1 < argc) {
			if (parse_size(argv[++i], &chunk) != 0) {
				fprintf(stderr, "armprof decode: bad --chunk-size '%s'\n", argv[i]);
				return EXIT_USAGE;
			}
		} else if ((!strcmp(a, "--cpu") || !strcmp(a, "--tid")) && i + 1 < argc) {
			if (perf_input_parse_id(argv[++i], a[2] == 'c' ? &sel_cpu : &sel_tid) != 0) {
				fprintf(stderr, "armprof decode: bad %s '%s'\n", a, argv[i]);
				return EXIT_USAGE;
			}
		} else if (!strcmp(a, "--cpu-model") && i + 1 < argc) {
			if (ap_ds_cpu_model(argv[++i], &midr) != 0) {
				fprintf(stderr, "armprof decode: --cpu-model '%s': expected %s\n", argv[i],
				        ap_ds_cpu_model_names());
				return EXIT_USAGE;
			}
			have_midr = 1;
		} else if (a[0] == '-' && a[1] != '\0') {
			fprintf(stderr, "armprof decode: unknown option '%s'\n", a);
			usage(stderr);
			return EXIT_USAGE;
		} else if (!path) {
			path = a;
		} else {
			fprintf(stderr, "armprof decode: more than one input ('%s', '%s')\n", path, a);
			return EXIT_USAGE;
		}
	}
	if (!path) {
		usage(stderr);
		return EXIT_USAGE;
	}
	so.packets = run.packets;
	const char *bad = so.parquet && run.packets ? "--packets lists packets as text, not parquet"
	                  : so.spe_parser && (!so.out_path || !strcmp(so.out_path, "-"))
	                      ? "--format spe-parser needs -o PREFIX (it writes three files)"
	                  : so.parquet && !so.out_path ? "--format parquet needs -o OUT"
	                  : so.split && (!so.parquet || so.spe_parser) ? "--split is for --format parquet"
	                  : so.split && !strcmp(so.out_path, "-")
	                      ? "--split writes a directory of three files: -o DIR, not standard output"
	                  : binary && (!so.parquet || so.spe_parser) ? "--binary is for --format parquet"
	                  : NULL;
	if (bad) {
		fprintf(stderr, "armprof decode: %s\n", bad);
		return EXIT_USAGE;
	}
	if (so.parquet && !so.split && !so.spe_parser && !strcmp(so.out_path, "-") && isatty(STDOUT_FILENO)) {
		fprintf(stderr, "armprof decode: not writing parquet to a terminal\n");
		return EXIT_USAGE;
	}

	cli_input_note(binary); /* no output may be it (nor the input) */
	int perf = perf_input_sniff("decode", path); /* perf.data: decode its AUX buffers */
	if (perf < 0)
		return EXIT_USAGE;
	FILE *in = perf ? NULL : cli_open_input("decode", path);
	if (!perf && !in)
		return EXIT_USAGE;
	/* A perf.data's header is checked before any output is opened. */
	struct perf_input pin;
	if (perf) {
		int prc = perf_input_open(&pin, "decode", path, sel_cpu, sel_tid);
		if (prc)
			return prc;
	}
	struct ap_report *symbols = binary ? load_symbols(binary, load_bias) : NULL;
	uint8_t *buf = malloc(chunk);
	so.symbols = symbols;
	so.encoding = have_midr ? ap_ds_encoding_of_midr(midr) : AP_DS_ENC_RAW;
	if (!buf || (binary && !symbols) || !(run.sink = decode_sink_open(&so))) {
		if (!buf)
			fprintf(stderr, "armprof decode: out of memory\n");
		free(buf);
		ap_report_destroy(symbols);
		if (in && in != stdin)
			fclose(in);
		if (perf)
			perf_input_close(&pin, NULL);
		return EXIT_USAGE;
	}

	struct ap_decoder_config cfg;
	ap_decoder_config_init(&cfg);
	cfg.on_record = on_record;
	cfg.on_packet = run.packets ? on_packet : NULL;
	cfg.ctx = &run;
	cfg.spe_later = (uint8_t)spe_later;
	run.spe_later = spe_later;
	struct ap_decoder dec;
	ap_decoder_init(&dec, &cfg);
	struct ap_decoder_stats perf_totals;

	int io_error = 0;
	uint64_t cut_excused = 0; /* records cut where the capture says why */
	size_t n;
	if (perf) {
		struct decode_perf_opts po = { .path = path, .cpu = sel_cpu, .tid = sel_tid,
		                               .verbose = stats, .packets = run.packets, .fmt = so.fmt,
		                               .jobs = jobs, /* 0: decode_threads' default */
		                               .have_encoding = have_midr, .spe_later = spe_later };
		int prc = decode_perf(&pin, &po, run.sink, &perf_totals, &cut_excused);
		if (prc) {
			free(buf);
			decode_sink_close(run.sink, 0); /* bad input: no partial output */
			ap_report_destroy(symbols);
			return prc;
		}
	}
	/* A regular file is mapped, not read: copying it in through read() was a
	 * fifth of `decode --format jsonl` (perf record, _copy_to_iter). */
	/* Guarded: a file that shrinks meanwhile reads as zeros from there,
	 * and is an error below, instead of SIGBUS. */
	struct ap_error_ctx shrank = { 0 };
	struct ap_mapped_file mf = { .guard_ = -1 };
	if (in && in != stdin && ap_mapped_file_open(&mf, fileno(in), &shrank) != 0)
		mf.data = NULL; /* read with stdio instead */
	const uint8_t *map = mf.data;
	size_t map_len = mf.len;
	int not_spe = 0;
	if (map) {
		/* Pages fed are dropped from the mapping as it goes (the decoder
		 * keeps a split packet's bytes itself): the resident size stays
		 * flat on a stream of any size, not the size of the file. */
		size_t page = (size_t)sysconf(_SC_PAGESIZE), dropped = 0;
		for (size_t off = 0; off < map_len && !not_spe && !ap_mapped_file_check(&mf, NULL); off += chunk) {
			size_t end = map_len - off < chunk ? map_len : off + chunk;
			ap_decoder_feed(&dec, map + off, end - off);
			not_spe = cli_no_record_stop("decode", path, &dec);
			if (end / page * page > dropped + (8u << 20)) {
				madvise((void *)(map + dropped), end / page * page - dropped, MADV_DONTNEED);
				dropped = end / page * page;
			}
		}
		if (ap_mapped_file_check(&mf, &shrank)) {
			fprintf(stderr, "armprof decode: %s: %s\n", path, shrank.message);
			io_error = 1;
		}
		ap_mapped_file_close(&mf);
	} else {
		while (in && !not_spe && (n = fread(buf, 1, chunk, in)) > 0) {
			ap_decoder_feed(&dec, buf, n);
			not_spe = cli_no_record_stop("decode", path, &dec);
		}
	}
	if (in && ferror(in)) {
		fprintf(stderr, "armprof decode: %s: read error at byte %llu\n", path,
		        (unsigned long long)dec.offset);
		io_error = 1;
	}
	ap_decoder_finish(&dec);
	free(buf);
	if (in && in != stdin)
		fclose(in);
	/* The output is put in place when the input was read and is SPE data
	 * (records with errors included: every decodable record is written). */
	if (decode_sink_close(run.sink, !io_error && !not_spe) != 0 && !not_spe)
		io_error = 1;
	ap_report_destroy(symbols);

	const struct ap_decoder_stats *st = perf ? &perf_totals : ap_decoder_stats(&dec);
	if (stats)
		fprintf(stderr,
		        "%s: %llu bytes, %llu packets, %llu records (%llu with errors, %llu truncated), "
		        "%llu unknown and %llu reserved packets, %llu padding and %llu alignment bytes\n",
		        path, (unsigned long long)st->bytes, (unsigned long long)st->packets,
		        (unsigned long long)st->records, (unsigned long long)st->records_with_errors,
		        (unsigned long long)st->truncated_records,
		        (unsigned long long)st->unknown_packets, (unsigned long long)st->reserved_packets,
		        (unsigned long long)st->pad_bytes, (unsigned long long)st->align_bytes);
	if (io_error)
		return EXIT_USAGE;
	if (not_spe)
		return EXIT_DATA_ERROR;
	if (!perf && !st->bytes)
		fprintf(stderr, "armprof decode: %s: warning: the input is empty (no SPE data)\n", path);
	if (st->records_with_errors > cut_excused) {
		fprintf(stderr, "armprof decode: %s: %llu of %llu records held errors\n", path,
		        (unsigned long long)(st->records_with_errors - cut_excused), (unsigned long long)st->records);
		return EXIT_DATA_ERROR;
	}
	return EXIT_OK;
}
