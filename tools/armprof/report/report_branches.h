/* Branch pairs in `armprof report` (ap_report_branch_pairs, FEAT_SPE_PBT):
 * branch PC -> target with the previous branch target, by function. Written
 * only when the records have previous-branch-target packets (decoded with
 * --spe-later), so reports of SPEv1 data are unchanged. */
#ifndef ARMPROF_TOOL_REPORT_BRANCHES_H
#define ARMPROF_TOOL_REPORT_BRANCHES_H

#include <stdio.h>

#include "report_format.h"

void report_branches_text(FILE *out, const struct ap_report *r, const struct report_view *v);
/* ,\n"branch_pairs":[...] when there are pairs, else nothing. */
void report_branches_json(FILE *out, const struct ap_report *r, const struct report_view *v);

#endif
