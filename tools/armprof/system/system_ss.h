/* `armprof system --snapshot-every`: the snapshot agent's raw file
 * (system_pcs_raw.h) as a CSV counter series (docs/system.md, "PMU
 * snapshots"). */
#ifndef ARMPROF_TOOL_SYSTEM_SS_H
#define ARMPROF_TOOL_SYSTEM_SS_H

#include "cli_output.h"

/* Writes raw_path's series to out. Returns 0, 1 when the raw file is
 * malformed, 2 on an I/O error (printed). Prints a summary line. */
int system_ss_convert(const char *raw_path, struct cli_output *out, const char *out_name);

#endif
