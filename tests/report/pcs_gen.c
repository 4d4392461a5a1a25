/* A raw SPE stream of RECORDS load records over DISTINCT different PCs
 * (each PC 4-byte aligned, visited in a scrambled order, every PC at least
 * once when RECORDS >= DISTINCT): the input of the memory tests of
 * `armprof report` and `decode` (tests/report/report_memory.sh) and of the
 * report benchmarks (bench/bench_interop.sh), whose memory must not grow
 * with the number of records, and grow by a bounded amount per distinct PC.
 * With `mixed`, each record's events (11 bits), data source (16 values) and
 * operation (load or store) are drawn at random too, as bench_gen_perfdata's
 * are: nearly every record is then a distinct sample of `--format pprof`
 * (a stack, operation, data source and event set).
 *   pcs_gen OUT RECORDS DISTINCT [mixed] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "armprof/number.h"
#include "armprof/record.h"

int main(int argc, char **argv)
{
	uint64_t n, distinct;
	int mixed = argc == 5 && !strcmp(argv[4], "mixed");
	if ((argc != 4 && !mixed) || ap_parse_u64_scaled(argv[2], &n) < 0 || ap_parse_u64_scaled(argv[3], &distinct) < 0 ||
	    distinct == 0) {
		fprintf(stderr, "usage: pcs_gen OUT RECORDS DISTINCT [mixed]\n");
		return 2;
	}
	FILE *f = fopen(argv[1], "wb");
	if (!f) {
		perror(argv[1]);
		return 2;
	}
	static uint8_t buf[1 << 16];
	size_t len = 0;
	uint64_t x = 0x9E3779B97F4A7C15ull;
	for (uint64_t i = 0; i < n; i++) {
		struct ap_record r;
		memset(&r, 0, sizeof(r));
		/* (i mod distinct) times a prime that does not divide distinct,
		 * mod distinct: every PC of [0, distinct) once per round, scrambled */
		uint64_t prime = distinct % 1000003 ? 1000003 : 999983;
		uint64_t k = (uint64_t)((unsigned __int128)(i % distinct) * prime % distinct);
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		r.has = AP_HAS_PC | AP_HAS_OP | AP_HAS_EVENTS | AP_HAS_LAT_TOTAL | AP_HAS_LAT_ISSUE | AP_HAS_VADDR |
		        AP_HAS_DATA_SOURCE | AP_HAS_TS;
		r.pc = 0x400000 + 4 * k;
		r.el = 0;
		r.ns = 1;
		r.op_class = AP_OP_CLASS_LDST;
		r.events = AP_EV_RETIRED | AP_EV_L1D_ACCESS | ((x & 1) ? AP_EV_L1D_REFILL : 0);
		r.lat_total = (uint16_t)(x >> 8 & 0x3FF);
		r.lat_issue = (uint16_t)(x >> 20 & 0x3F);
		r.vaddr = 0x10000000 + (x >> 24 & 0xFFFFF8);
		r.data_source = (x & 1) ? 14 : 0;
		r.data_source_size = 1;
		r.ts = i;
		if (mixed) {
			uint64_t y = x * 0x9E3779B97F4A7C15ull;
			r.events = (y >> 20) & 0x7FF;
			r.data_source = (uint16_t)(y >> 40 & 0xF);
			r.op_subclass = (y >> 50 & 1) ? AP_OP_ST : 0;
			if (r.op_subclass & AP_OP_ST)
				r.has &= ~AP_HAS_DATA_SOURCE; /* a load's data source only */
		}
		int w = ap_record_encode(buf + len, sizeof(buf) - len, &r, NULL);
		if (w < 0) {
			if (fwrite(buf, 1, len, f) != len)
				break;
			len = 0;
			w = ap_record_encode(buf, sizeof(buf), &r, NULL);
		}
		len += (size_t)w;
	}
	if (fwrite(buf, 1, len, f) != len || fclose(f) != 0) {
		perror(argv[1]);
		return 2;
	}
	return 0;
}
