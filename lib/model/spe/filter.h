/* Filtering sample records: CollectRecord() (spec/002 3.2.2 Table 4, 3.2.3,
 * 4.3.8 PMSEVFR_EL1, 4.3.9 PMSFCR_EL1, 4.3.13 PMSLATFR_EL1).
 *
 * Pure functions on register values. The CONSTRAINED UNPREDICTABLE cases
 * (ConstrainedUnpredictableBool() in the pseudocode) are configuration:
 * true = discard the record, false = behave as if that filter were disabled
 * (the reading 4.3.9 gives; for FT it is the only way to reach "as if
 * FT == 0", gap SPE-3.2.3-27). */
#ifndef ARMPROF_MODEL_SPE_FILTER_H
#define ARMPROF_MODEL_SPE_FILTER_H

#include <stdbool.h>
#include <stdint.h>

/* PMSFCR_EL1 fields (4.3.9). */
#define AP_PMSFCR_FE (1ull << 0)
#define AP_PMSFCR_FT (1ull << 1)
#define AP_PMSFCR_FL (1ull << 2)
#define AP_PMSFCR_B  (1ull << 16)
#define AP_PMSFCR_LD (1ull << 17)
#define AP_PMSFCR_ST (1ull << 18)
/* PMSLATFR_EL1.MINLAT [11:0] (4.3.13). */
#define AP_PMSLATFR_MINLAT_MASK 0xFFFull
/* The event bits CollectRecord() compares: events<63:48,31:24,15:12,7,5,3,1>
 * (3.2.3, SPE-3.2.3-18); the rest of PMSEVFR_EL1 is RES0 (SPE-4.3.8-13). */
#define AP_SPE_FILTERABLE_EVENTS 0xFFFF0000FF00F0AAull

/* Which type-filter bits select an operation (Table 4). An operation can
 * answer to more than one: an atomic that returns a value is collected by
 * LD or ST (3.2.2, gap SPE-3.2.2-6); OTHER answers to none. */
enum ap_spe_type_bits {
	AP_SPE_TYPE_OTHER = 0,
	AP_SPE_TYPE_BRANCH = 1u << 0, /* PMSFCR_EL1.B */
	AP_SPE_TYPE_LOAD = 1u << 1,   /* PMSFCR_EL1.LD */
	AP_SPE_TYPE_STORE = 1u << 2,  /* PMSFCR_EL1.ST */
	/* FEAT_SPE_EFT (DDI 0487 J1.1.1 SPEFilterByType: the TYPE bit positions) */
	AP_SPE_TYPE_FP = 1u << 3,     /* PMSFCR_EL1.FP */
	AP_SPE_TYPE_SIMD = 1u << 4,   /* PMSFCR_EL1.SIMD */
};

/* The registers, as stored (their RES0 bits clear: a feature the
 * configuration lacks has its fields zero). */
struct ap_spe_filter_regs {
	uint64_t pmsfcr, pmsevfr, pmslatfr;
};

struct ap_spe_filter_policy {
	bool fe_zero_discards; /* SPE-3.2.3-17, SPE-4.3.9-17 */
	bool ft_none_discards; /* SPE-3.2.3-19, SPE-4.3.9-15, Table 4 row 2 */
	bool fl_zero_discards; /* SPE-3.2.3-24, SPE-4.3.9-13 */
};

/* What SPE after v1 adds to the filters (docs/requirements-later.md):
 * its registers and its CONSTRAINED UNPREDICTABLE choices. */
struct ap_spe_filter_later {
	uint64_t pmsnevfr;      /* FEAT_SPE_FnE */
	uint64_t pmsdsfr;       /* FEAT_SPE_FDS */
	uint64_t events;        /* event bits later versions make filterable (LATER-EVF-1) */
	bool eft;               /* FEAT_SPE_EFT: FT with no type bit is not UNPREDICTABLE */
	bool fne_zero_discards;    /* LATER-FNE-5: FnE == 1 with PMSNEVFR_EL1 == 0 */
	bool fne_overlap_discards; /* LATER-FNE-6: FE and FnE select the same event */
};

/* CollectRecord(events, total_latency, optype): true if the record passes
 * every enabled filter. type_bits is an enum ap_spe_type_bits mask. */
bool ap_spe_collect_record(const struct ap_spe_filter_regs *r, const struct ap_spe_filter_policy *p,
                           uint64_t events, uint32_t total_latency, unsigned type_bits);
/* The same with what later versions add (l may be NULL: SPEv1). */
bool ap_spe_collect_record_later(const struct ap_spe_filter_regs *r, const struct ap_spe_filter_policy *p,
                                 const struct ap_spe_filter_later *l, uint64_t events,
                                 uint32_t total_latency, unsigned type_bits);
/* SPEFilterByDataSource() (FEAT_SPE_FDS, LATER-FDS-4): false if the record
 * of a load (or an atomic returning a value) with Data Source ds is
 * filtered out; records without a Data Source always pass. */
bool ap_spe_collect_data_source(const struct ap_spe_filter_regs *r, const struct ap_spe_filter_later *l,
                                bool is_load, bool has_ds, uint16_t ds);

#endif
