/* `armprof system --snapshot-every`: see system_ss.h.
 *
 * One CSV row per external snapshot request and vCPU, in request order:
 *   time_ns,cpu,captured,PMSSCR,PMCCNTSVR,PMEVCNTSVR0,...,PMEVCNTSVR<N-1>
 * captured is 1 when the request started a Capture event (Capture events
 * allowed, Table D13-10) and every read of the saved values was answered;
 * the saved values are then the vCPU's counters at that instant (a row with
 * 0 keeps the values of the last capture). Deltas between a vCPU's rows are
 * the counts per period. */
#include "system_ss.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_io.h"
#include "system_pcs_raw.h"

int system_ss_convert(const char *raw_path, struct cli_output *out, const char *out_name)
{
	/* No file at all: QEMU never started the agent (its own error is on
	 * stderr already). */
	if (access(raw_path, F_OK) != 0 && errno == ENOENT) {
		fprintf(stderr, "armprof system: %s (the snapshot agent's series): QEMU wrote none (did it start the agent?)\n",
		        raw_path);
		return 2;
	}
	uint8_t *buf;
	size_t len;
	if (cli_read_all("system", raw_path, &buf, &len) != 0)
		return 2;
	char why[256];
	struct ss_raw raw;
	if (ss_raw_open(&raw, buf, len, why, sizeof(why)) != 0) {
		fprintf(stderr, "armprof system: %s: %s\n", raw_path, why);
		free(buf);
		return 1;
	}
	char line[64 + 21 * (SS_RAW_MAX_COUNTERS + 2)];
	int n = snprintf(line, sizeof(line), "time_ns,cpu,captured,PMSSCR,PMCCNTSVR");
	for (uint32_t c = 0; c < raw.counters; c++)
		n += snprintf(line + n, sizeof(line) - (size_t)n, ",PMEVCNTSVR%u", c);
	snprintf(line + n, sizeof(line) - (size_t)n, "\n");
	int rc = cli_output_write(out, line, strlen(line)) ? 2 : 0;
	struct ss_record rec;
	unsigned long long rows = 0, captured = 0;
	int got = 0;
	while (!rc && (got = ss_raw_next(&raw, &rec, why, sizeof(why))) == 1) {
		int ok = rec.captured && !rec.error;
		n = snprintf(line, sizeof(line), "%" PRIu64 ",%u,%d,0x%" PRIx64 ",%" PRIu64, rec.time_ns, rec.cpu, ok,
		             rec.pmsscr, rec.ccntsvr);
		for (uint32_t c = 0; c < raw.counters; c++)
			n += snprintf(line + n, sizeof(line) - (size_t)n, ",%" PRIu64, rec.evcntsvr[c]);
		snprintf(line + n, sizeof(line) - (size_t)n, "\n");
		rows++;
		captured += (unsigned long long)ok;
		if (cli_output_write(out, line, strlen(line)))
			rc = 2;
	}
	if (!rc && got < 0) {
		fprintf(stderr, "armprof system: %s: %s\n", raw_path, why);
		rc = 1;
	}
	free(buf);
	if (!rc)
		fprintf(stderr, "armprof system: --snapshot-every: %llu requests of %u vCPUs every %llu ns, %llu "
		                "captured: %s\n", rows, raw.ncpus, (unsigned long long)raw.period_ns, captured,
		        out_name);
	return rc;
}
