/* `armprof system --pc-sample`: the agent's raw samples (system_pcs_raw.h)
 * as a perf.data of PERF_RECORD_SAMPLEs (docs/system.md, "PC sampling"). */
#ifndef ARMPROF_TOOL_SYSTEM_PCS_H
#define ARMPROF_TOOL_SYSTEM_PCS_H

#include <stdint.h>

#include "cli_output.h"

/* What the agent's reads gave, for the summary line. */
struct pcs_summary {
	uint64_t reads;      /* reads of one vCPU's PC sample */
	uint64_t samples;    /* of which a PC sample */
	uint64_t by_el[4];   /* samples by PMPCSR.EL */
	uint64_t no_sample;  /* 0xFFFFFFFF */
	uint64_t errors;     /* error responses */
	uint64_t with_tid;   /* samples with a CONTEXTIDR_EL1 (thread) other than 0 */
	uint32_t ncpus;
	uint64_t period_ns;
};

/* Converts raw_path into the perf.data opened as out (seekable). Returns 0,
 * or 1 when the raw file is malformed, 2 on an I/O error (printed as
 * "armprof system: PATH: reason"). */
int system_pcs_convert(const char *raw_path, struct cli_output *out, const char *out_name,
                       struct pcs_summary *sum);

/* The summary line on stderr. */
void system_pcs_print(const struct pcs_summary *sum, const char *out_name);

#endif
