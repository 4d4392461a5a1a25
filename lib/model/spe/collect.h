/* Collection controls: CollectContextIDR1(), CollectContextIDR2(),
 * CollectTimeStamp(), CollectPhysicalAddress() (spec/002 3.3, 3.3.1).
 *
 * Pure functions on a view of the PE state and PMSCR_EL1/PMSCR_EL2. Each
 * pseudocode function starts with "if !StatisticalProfilingEnabled() then
 * return FALSE"; the view carries that answer in .enabled. */
#ifndef ARMPROF_MODEL_SPE_COLLECT_H
#define ARMPROF_MODEL_SPE_COLLECT_H

#include <stdbool.h>
#include <stdint.h>

/* PMSCR_EL1 / PMSCR_EL2 fields (4.3.5, 4.3.7). */
#define AP_PMSCR_E0SPE (1ull << 0) /* EL2: E0HSPE */
#define AP_PMSCR_E1SPE (1ull << 1) /* EL2: E2SPE */
#define AP_PMSCR_CX    (1ull << 3)
#define AP_PMSCR_PA    (1ull << 4)
#define AP_PMSCR_TS    (1ull << 5)
#define AP_PMSCR_PCT   (1ull << 6)

enum ap_spe_ts_kind {
	AP_SPE_TS_NONE = 0,     /* TimeStamp_None */
	AP_SPE_TS_VIRTUAL = 1,  /* TimeStamp_Virtual: CNTVCT_EL0 */
	AP_SPE_TS_PHYSICAL = 2, /* TimeStamp_Physical: CNTPCT_EL0 */
};

struct ap_spe_collect_view {
	bool enabled;       /* StatisticalProfilingEnabled() */
	uint8_t el;         /* PSTATE.EL */
	bool secure;        /* IsSecure() */
	bool have_el2;      /* HaveEL(EL2) */
	bool tge;           /* HCR_EL2.TGE */
	bool owner_secure;  /* ProfilingBufferOwner() */
	uint8_t owner_el;
	uint64_t pmscr_el1, pmscr_el2;
};

bool ap_spe_collect_contextidr1(const struct ap_spe_collect_view *v);
bool ap_spe_collect_contextidr2(const struct ap_spe_collect_view *v);
enum ap_spe_ts_kind ap_spe_collect_timestamp(const struct ap_spe_collect_view *v);
bool ap_spe_collect_physical_address(const struct ap_spe_collect_view *v);

#endif
