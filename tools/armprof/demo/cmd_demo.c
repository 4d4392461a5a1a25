/* armprof demo: the built-in default input. Encodes a short SPE stream
 * written in the text format, decodes it and prints records and packets. */
#include <stdlib.h>
#include <string.h>

#include "armprof/asm.h"
#include "armprof/decode.h"
#include "commands.h"
#include "record_format.h"

const char cmd_demo_summary[] = "encode and decode a built-in example SPE stream";

static const char demo_text[] =
	"# a load that missed L1D and the LLC, from a Neoverse-like PE at EL0\n"
	"pc 0x400a10 el=0 ns=1; ctx el1 0x2a; op ld; ev retired l1d-access l1d-refill tlb-access llc-access llc-miss\n"
	"lat issue 4; lat total 212; va 0xffff8000ab00; lat xlat 9; pa 0x8ab00 ns=1; ds 14; ts 1000\n"
	"# a mispredicted conditional branch\n"
	"pc 0x400a20 el=0; op b cond; ev retired mispredicted; lat issue 1; lat total 7; tgt 0x400a00 el=0; ts 1010\n"
	"align 64\n"
	"# an atomic store-release, then a conditional select that failed\n"
	"pc 0x400b00 el=0; op st at ar; ev retired l1d-access tlb-access; lat issue 2; lat total 30\n"
	"va 0xffff8000ab40; lat xlat 1; pa 0x8ab40; end\n"
	"pad 3; pc 0x400b04 el=0; op other cond; ev retired not-taken; lat issue 0; lat total 1; end\n";

static int print_packet(void *ctx, uint64_t offset, const uint8_t *bytes,
                        const struct ap_packet *pkt, int in_record)
{
	packet_format_write(stdout, offset, bytes, pkt, in_record);
	return 0;
}

static int print_record(void *ctx, const struct ap_record *rec)
{
	record_format_write(stdout, *(enum record_format *)ctx, rec, AP_DS_ENC_NEOVERSE); /* the model's */
	return 0;
}

static int decode_with(const uint8_t *bytes, size_t n, ap_record_fn on_rec, ap_packet_fn on_pkt,
                       void *ctx)
{
	struct ap_decoder_config cfg;
	ap_decoder_config_init(&cfg);
	cfg.on_record = on_rec;
	cfg.on_packet = on_pkt;
	cfg.ctx = ctx;
	struct ap_decoder dec;
	ap_decoder_init(&dec, &cfg);
	ap_decoder_feed(&dec, bytes, n);
	ap_decoder_finish(&dec);
	return (int)dec.stats.records_with_errors;
}

int cmd_demo(int argc, char **argv)
{
	if (argc > 1) {
		fprintf(stderr, "usage: armprof demo\n");
		return strcmp(argv[1], "--help") ? EXIT_USAGE : EXIT_OK;
	}
	uint8_t *bytes;
	size_t n;
	struct ap_error_ctx err;
	if (ap_asm_assemble(demo_text, strlen(demo_text), 0, &bytes, &n, &err) != 0) {
		fprintf(stderr, "armprof demo: built-in text line %u: %s\n", err.line, err.message);
		return EXIT_USAGE;
	}
	printf("== %zu bytes of SPE data, packet by packet (armprof decode --packets)\n", n);
	decode_with(bytes, n, NULL, print_packet, NULL);
	enum record_format fmt = FMT_TEXT;
	printf("\n== records (armprof decode)\n");
	decode_with(bytes, n, print_record, NULL, &fmt);
	fmt = FMT_JSONL;
	printf("\n== records as jsonl (armprof decode --format jsonl)\n");
	int errors = decode_with(bytes, n, print_record, NULL, &fmt);
	free(bytes);
	return errors ? EXIT_DATA_ERROR : EXIT_OK;
}
