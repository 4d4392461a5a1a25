/* The raw files of QEMU's PC-sampling and snapshot agents
 * (tools/armprof/system/system_pcs_raw.h, what `armprof system --pc-sample` and
 * `--snapshot-every` read back): any bytes give the records or an error
 * naming an offset inside the input, never a crash; both readers get every
 * input.
 * A record must hold together: its vCPU below the header's count, a PC
 * sample's PC sign-extended from bit 55 with the EL and NS bits of its
 * PMPCSR, and the reader moving forward one whole record at a time. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "system_pcs_raw.h"

/* Checked in every build (NDEBUG included). */
#define CHECK(c) do { if (!(c)) abort(); } while (0)

static void snapshots(const uint8_t *data, size_t size)
{
	struct ss_raw r;
	char err[256];
	if (ss_raw_open(&r, data, size, err, sizeof(err)) != 0) {
		CHECK(!strncmp(err, "offset ", 7));
		return;
	}
	CHECK(r.counters <= SS_RAW_MAX_COUNTERS && r.ncpus > 0);
	struct ss_record rec;
	int got;
	size_t pos = r.pos;
	while ((got = ss_raw_next(&r, &rec, err, sizeof(err))) == 1) {
		CHECK(r.pos == pos + 32 + 8 * (size_t)r.counters && r.pos <= size && rec.cpu < r.ncpus);
		pos = r.pos;
	}
	if (got < 0)
		CHECK(!strncmp(err, "offset ", 7) && strtoul(err + 7, NULL, 10) < size);
	else
		CHECK(r.pos == size);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	snapshots(data, size);
	struct pcs_raw r;
	char err[256];
	if (pcs_raw_open(&r, data, size, err, sizeof(err)) != 0) {
		CHECK(!strncmp(err, "offset ", 7));
		return 0;
	}
	struct pcs_record rec;
	int got;
	size_t pos = r.pos;
	while ((got = pcs_raw_next(&r, &rec, err, sizeof(err))) == 1) {
		CHECK(r.pos == pos + PCS_RAW_RECORD && r.pos <= size);
		pos = r.pos;
		CHECK(rec.cpu < r.ncpus);
		if (rec.kind == PCS_SAMPLE) {
			CHECK((uint32_t)rec.pmpcsr != 0xFFFFFFFFu);
			CHECK(((rec.pc >> 55) & 1) ? rec.pc >> 56 == 0xff : rec.pc >> 56 == 0);
			CHECK(rec.el == ((rec.pmpcsr >> 61) & 3) && rec.ns == (rec.pmpcsr >> 63));
		}
	}
	if (got < 0) {
		unsigned long off = strtoul(err + 7, NULL, 10);
		CHECK(!strncmp(err, "offset ", 7) && off < size);
	} else {
		CHECK(r.pos == size);
	}
	return 0;
}
