/* `armprof system --pc-sample`: see system_pcs.h.
 *
 * Each PC sample becomes one PERF_RECORD_SAMPLE of a software event named
 * "pmpcsr" (attr type 1, PERF_TYPE_SOFTWARE, config 0) with IP (the sampled
 * PC), TID, TIME (guest time in ns), CPU (the vCPU) and PERIOD (the agent's
 * period in ns), header misc USER for an EL0 sample and KERNEL otherwise.
 * The thread is CONTEXTIDR_EL1: Linux writes the current thread's id there
 * at every context switch when built with CONFIG_PID_IN_CONTEXTIDR, as
 * Debian's arm64 kernel is; the process id is not sampled, so pid = tid.
 * Reads that gave no sample (0xFFFFFFFF) or an error response are counted,
 * not written. */
#include "system_pcs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "armprof/error.h"
#include "armprof/perfdata.h"
#include "cli_io.h"
#include "system_pcs_raw.h"

int system_pcs_convert(const char *raw_path, struct cli_output *out, const char *out_name,
                       struct pcs_summary *sum)
{
	memset(sum, 0, sizeof(*sum));
	/* No file at all: QEMU never started the agent (its own error is on
	 * stderr already). */
	if (access(raw_path, F_OK) != 0 && errno == ENOENT) {
		fprintf(stderr, "armprof system: %s (the PC-sampling agent's samples): QEMU wrote none (did it start the agent?)\n",
		        raw_path);
		return 2;
	}
	uint8_t *buf;
	size_t len;
	if (cli_read_all("system", raw_path, &buf, &len) != 0)
		return 2;
	char why[256];
	struct pcs_raw raw;
	if (pcs_raw_open(&raw, buf, len, why, sizeof(why)) != 0) {
		fprintf(stderr, "armprof system: %s: %s\n", raw_path, why);
		free(buf);
		return 1;
	}
	sum->ncpus = raw.ncpus;
	sum->period_ns = raw.period_ns;

	struct ap_perf_write_event ev = {
		.type = 1, .config = 0, .sample_period = raw.period_ns,
		.sample_type = AP_PERF_SAMPLE_IP | AP_PERF_SAMPLE_TID | AP_PERF_SAMPLE_TIME |
		               AP_PERF_SAMPLE_CPU | AP_PERF_SAMPLE_PERIOD,
		.name = "pmpcsr",
	};
	struct ap_perf_write_config cfg;
	ap_perf_write_config_init(&cfg);
	cfg.spe = 0;
	cfg.events = &ev;
	cfg.n_events = 1;
	cfg.nr_cpus = raw.ncpus;
	cfg.sample_time = 1;
	struct ap_error_ctx err;
	struct ap_perf_writer *w;
	if (ap_perf_writer_create_fd(&w, out->fd, &cfg, &err) != 0) {
		fprintf(stderr, "armprof system: %s: %s\n", out_name, err.message);
		free(buf);
		return 2;
	}
	int rc = 0, wrc = 0;
	struct pcs_record rec;
	int got;
	while ((got = pcs_raw_next(&raw, &rec, why, sizeof(why))) == 1) {
		sum->reads++;
		if (rec.kind == PCS_ERROR) {
			sum->errors++;
			continue;
		}
		if (rec.kind == PCS_NO_SAMPLE) {
			sum->no_sample++;
			continue;
		}
		sum->samples++;
		sum->by_el[rec.el]++;
		if (rec.contextidr_el1)
			sum->with_tid++;
		struct ap_perf_sample s = {
			.event = 0, .misc = rec.el == 0 ? AP_PERF_MISC_USER : AP_PERF_MISC_KERNEL, .ip = rec.pc,
			.pid = (int32_t)rec.contextidr_el1, .tid = (int32_t)rec.contextidr_el1,
			.time = rec.time_ns, .cpu = (int32_t)rec.cpu, .period = raw.period_ns,
		};
		if (!wrc)
			wrc = ap_perf_write_sample(w, &s);
	}
	if (got < 0) {
		fprintf(stderr, "armprof system: %s: %s\n", raw_path, why);
		rc = 1;
	}
	free(buf);
	if (rc || (wrc && wrc != -AP_ERR_IO)) {
		if (!rc)
			fprintf(stderr, "armprof system: %s: %s\n", out_name, ap_errstr(wrc));
		ap_perf_writer_destroy(w);
		return rc ? rc : 2;
	}
	/* finish names a write error that happened on the way too */
	if (ap_perf_writer_finish(w, &err) != 0) {
		fprintf(stderr, "armprof system: %s: %s\n", out_name, err.message);
		return 2;
	}
	return 0;
}

void system_pcs_print(const struct pcs_summary *s, const char *out_name)
{
	fprintf(stderr,
	        "armprof system: --pc-sample: %llu reads of %u vCPUs every %llu ns: %llu samples "
	        "(EL0 %llu, EL1 %llu, EL2 %llu, EL3 %llu; %llu with a thread), %llu without a sample, "
	        "%llu error responses: %s\n",
	        (unsigned long long)s->reads, s->ncpus, (unsigned long long)s->period_ns,
	        (unsigned long long)s->samples, (unsigned long long)s->by_el[0],
	        (unsigned long long)s->by_el[1], (unsigned long long)s->by_el[2],
	        (unsigned long long)s->by_el[3], (unsigned long long)s->with_tid,
	        (unsigned long long)s->no_sample, (unsigned long long)s->errors, out_name);
}
