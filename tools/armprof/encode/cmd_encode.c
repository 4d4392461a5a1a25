/* armprof encode: the SPE text format (docs/spe-text-format.md) -> bytes. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "armprof/asm.h"
#include "cli_io.h"
#include "commands.h"

const char cmd_encode_summary[] = "turn the SPE text format into SPE bytes (for tests and users)";

static void usage(FILE *out)
{
	fprintf(out, "usage: armprof encode [-o OUT] FILE|-\n"
	             "  reads the SPE text format (docs/spe-text-format.md) and writes the bytes\n"
	             "  to OUT (default: standard output, unless it is a terminal); a regular OUT\n"
	             "  (or a link's target) is replaced when complete, a device or FIFO written in\n"
	             "  place (docs/outputs.md)\n"
	             "exit status: 0 written, 1 the text has an error (FILE:LINE: message), 2 usage or I/O\n"
	             "  (a failed write, with its reason)\n");
}

int cmd_encode(int argc, char **argv)
{
	const char *in_path = NULL, *out_path = NULL;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(stdout);
			return EXIT_OK;
		} else if ((!strcmp(argv[i], "-o") || !strcmp(argv[i], "--output")) && i + 1 < argc) {
			out_path = argv[++i];
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "armprof encode: unknown option '%s'\n", argv[i]);
			return EXIT_USAGE;
		} else if (!in_path) {
			in_path = argv[i];
		} else {
			fprintf(stderr, "armprof encode: more than one input\n");
			return EXIT_USAGE;
		}
	}
	if (!in_path) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!out_path && isatty(STDOUT_FILENO)) {
		fprintf(stderr, "armprof encode: refusing to write binary data to a terminal (use -o)\n");
		return EXIT_USAGE;
	}
	uint8_t *text;
	size_t len;
	if (cli_read_all("encode", in_path, &text, &len) != 0)
		return EXIT_USAGE;
	uint8_t *bytes;
	size_t n;
	struct ap_error_ctx err;
	int rc = ap_asm_assemble((const char *)text, len, 0, &bytes, &n, &err);
	free(text);
	if (rc < 0) {
		fprintf(stderr, "armprof encode: %s:%u: %s\n", in_path, err.line, err.message);
		return EXIT_DATA_ERROR;
	}
	struct cli_output out;
	if (cli_output_open(&out, "encode", out_path) != 0) {
		free(bytes);
		return EXIT_USAGE;
	}
	int ok = cli_output_write(&out, bytes, n) == 0;
	free(bytes);
	return cli_output_close(&out, "encode", ok) == 0 && ok ? EXIT_OK : EXIT_USAGE;
}
