/* The minimal Performance Monitors Unit that PMU snapshots need (spec/000
 * D13.9): N event counters (N IMPLEMENTATION DEFINED, PMCR_EL0.N), the cycle
 * counter PMCCNTR_EL0, the optional instruction counter PMICNTR_EL0
 * (FEAT_PMUv3_ICNTR), counting the events the host reports (for example
 * INST_RETIRED, the SPE SAMPLE_* events, PMU_SNAPSHOT).
 *
 * Register layouts and event numbers are not in the spec texts; they come
 * from DDI 0487 (D24.5 PMCR_EL0, PMEVTYPER<n>_EL0, PMCNTENSET_EL0; the common
 * event list) and are marked so where they are defined. Not modelled (see
 * docs/not-modelled/pcsr-snapshot.md): PMEVTYPER<n>_EL0 filtering by
 * Exception level and Security state, MDCR_EL2.HPMN ranges, overflow
 * interrupts, chaining, thresholds.
 *
 * The PMU is part of the PE (include/armprof/model.h): a host reports events
 * and cycles with ap_pe_pmu_event()/ap_pe_cycles(), software programs it
 * through the PMU System registers (ap_pe_mrs()/ap_pe_msr()) and agents
 * through the external frame (ap_pe_ext_read(), include/armprof/extregs.h). */
#ifndef ARMPROF_PMU_H
#define ARMPROF_PMU_H

#include "armprof/export.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* PMU event numbers (DDI 0487 D17.11 common event list and D13.9). */
#define AP_PMU_EV_SW_INCR          0x0000u
#define AP_PMU_EV_INST_RETIRED     0x0008u
#define AP_PMU_EV_CPU_CYCLES       0x0011u
#define AP_PMU_EV_BR_RETIRED       0x0021u
#define AP_PMU_EV_SAMPLE_POP       0x4000u /* SPE 2.6 Table 1 */
#define AP_PMU_EV_SAMPLE_FEED      0x4001u
#define AP_PMU_EV_SAMPLE_FILTRATE  0x4002u
#define AP_PMU_EV_SAMPLE_COLLISION 0x4003u
#define AP_PMU_EV_PMU_SNAPSHOT     0x8127u /* DDI 0487: successful PMU capture event */

#define AP_PMU_MAX_COUNTERS 31u /* PMCR_EL0.N is 5 bits; counter 31 is the cycle counter */

/* Bit numbers shared by PMCNTENSET_EL0/PMCNTENCLR_EL0/PMOVSSET_EL0 (DDI 0487). */
#define AP_PMU_BIT_CYCLE 31u
#define AP_PMU_BIT_INSTR 32u /* F0: the instruction counter, FEAT_PMUv3_ICNTR */

/* PMCR_EL0 fields (DDI 0487 D24.5.8). */
#define AP_PMCR_E   (1ull << 0)
#define AP_PMCR_P   (1ull << 1)  /* write 1: zero the event counters */
#define AP_PMCR_C   (1ull << 2)  /* write 1: zero the cycle counter */
#define AP_PMCR_D   (1ull << 3)  /* cycle counter counts every 64th cycle */
#define AP_PMCR_LC  (1ull << 6)  /* overflow of the cycle counter at bit 63 */
#define AP_PMCR_LP  (1ull << 7)  /* overflow of event counters at bit 63 (FEAT_PMUv3p5) */
#define AP_PMCR_N_SHIFT 11
#define AP_PMCR_N_MASK  (0x1full << AP_PMCR_N_SHIFT)

/* The PMU's IMPLEMENTATION DEFINED choices: ap_config.pmu (pmu.* keys). */
struct ap_pmu_config {
	uint8_t num_counters;   /* IMPLEMENTATION DEFINED N, 0..31 (SS-RVLKCZ) */
	bool icntr;             /* FEAT_PMUv3_ICNTR: PMICNTR_EL0 */
	bool pmuv3p5;           /* 64-bit event counters (PMCR_EL0.LP); else 32-bit */
	uint8_t pmcr_imp;       /* PMCR_EL0.IMP, IMPLEMENTATION DEFINED */
	uint8_t pmcr_idcode;    /* PMCR_EL0.IDCODE */
	/* PMCEID0_EL0 / PMCEID1_EL0: the common events the implementation has
	 * (bit n of [31:0]: event 0x0000+n / 0x0020+n; of [63:32]: 0x4000+n /
	 * 0x4020+n). IMPLEMENTATION DEFINED, except that a PE with SPE has the
	 * four SAMPLE_* events (SPE-2.6-1/2), which the PE adds. */
	uint64_t ceid0, ceid1;
};

/* The host reports `increment` occurrences of `event` (PMUEvent() in DDI
 * 0487): every enabled event counter whose PMEVTYPER<n>_EL0.evtCount is
 * `event` counts them, INST_RETIRED also PMICNTR_EL0. The PE counts SPE's
 * SAMPLE_POP/FEED/FILTRATE/COLLISION itself (spec/002 2.6 Table 1): a host
 * must not report those four, nor INST_RETIRED for the instructions it
 * gives ap_pe_retire() (which counts them); BR_RETIRED and the others are the
 * host's to report. */
struct ap_pe;
AP_API void ap_pe_pmu_event(struct ap_pe *pe, uint16_t event, uint64_t increment);
/* n processor clock cycles: PMCCNTR_EL0 (with PMCR_EL0.D) and any counter
 * counting CPU_CYCLES. */
AP_API void ap_pe_cycles(struct ap_pe *pe, uint64_t n);

#ifdef __cplusplus
}
#endif
#endif
