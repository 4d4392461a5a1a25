/* Records for lib/report's unit tests (test_report.c,
 * test_report_shared_lines.c). */
#ifndef ARMPROF_TEST_REPORT_RECORDS_H
#define ARMPROF_TEST_REPORT_RECORDS_H

#include <string.h>

#include "armprof/codec.h"

/* A retired general-purpose load at pc with these events (E[2..9]),
 * total latency lat and Data Source ds. */
static inline struct ap_record load_rec(uint64_t pc, uint64_t events, uint16_t lat, uint16_t ds)
{
	struct ap_record r;
	memset(&r, 0, sizeof(r));
	r.has = AP_HAS_PC | AP_HAS_OP | AP_HAS_EVENTS | AP_HAS_LAT_TOTAL | AP_HAS_LAT_ISSUE |
	        AP_HAS_LAT_XLAT | AP_HAS_DATA_SOURCE;
	r.pc = pc;
	r.op_class = AP_OP_CLASS_LDST;
	r.op_subclass = AP_OP_LDST_GP;
	r.events = events | AP_EV_RETIRED;
	r.lat_total = lat;
	r.lat_issue = 2;
	r.lat_xlat = 1;
	r.data_source = ds;
	return r;
}

#endif
