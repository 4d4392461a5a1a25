/* The call-stack views of `armprof report`: --flame (folded stacks, the
 * input of FlameGraph's flamegraph.pl and speedscope) and --children (the
 * functions' inclusive weights, as perf report --children shows them). */
#ifndef ARMPROF_TOOL_REPORT_STACKS_H
#define ARMPROF_TOOL_REPORT_STACKS_H

#include <stdio.h>

#include "report_format.h"

/* One line "root;caller;callee WEIGHT" per folded stack whose weight (the
 * key's count) is not 0, heaviest first: ap_report_folded_stacks after
 * ap_report_sort(r, key). */
void report_write_flame(FILE *out, const struct ap_report *r, enum ap_report_key key);
/* The inclusive function table (ap_report_inclusive, ranked by v->sort, at
 * most v->top_functions rows) in fmt: text, a JSON object, or CSV. */
void report_write_children(FILE *out, enum report_format fmt, const struct ap_report *r,
                           const struct report_view *v);

#endif
