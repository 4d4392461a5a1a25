/* Configuration keys of SPE (struct ap_spe_config).
 * Created by the core; the SPE engine helper (M2) owns it from here and adds
 * keys for the engine choices it adds to struct ap_spe_config. */
#include <stddef.h>

#include "armprof/model.h"
#include "model/config_keys.h"

#define OFF(f) offsetof(struct ap_config, spe.f)

static const char *const ext_abort_names[] = { "serror", "sync", "async", NULL };
static const char *const late_disable_names[] = { "write", "discard", "discard-event", NULL };
static const char *const bad_ptr_names[] = { "write", "full", "translation", NULL };

static const struct ap_config_key spe_keys[] = {
	{ "spe.count_size", AP_CFG_U8, OFF(count_size), 2, 2, NULL,
	  "PMSIDR_EL1.CountSize; 0b0010 (12-bit saturating) is the only defined value (SPE-4.3.11-8)" },
	{ "spe.max_size", AP_CFG_U8, OFF(max_size), 4, 11, NULL,
	  "PMSIDR_EL1.MaxSize: log2 of the largest record, 4 (16 B) .. 11 (2 KB) (SPE-4.3.11-9..16)" },
	{ "spe.interval", AP_CFG_U8, OFF(interval), 0, 8, NULL,
	  "PMSIDR_EL1.Interval: 0=256, 2=512, 3=768, 4=1024, 5=1536, 6=2048, 7=3072, 8=4096 (SPE-4.3.11-17..25)" },
	{ "spe.ernd", AP_CFG_BOOL, OFF(ernd), 0, 1, NULL,
	  "PMSIDR_EL1.ERnd: random part counted after the interval, ECOUNT exists (SPE-2.2.1-5, SPE-4.3.11-26/27)" },
	{ "spe.lds", AP_CFG_BOOL, OFF(lds), 0, 1, NULL,
	  "PMSIDR_EL1.LDS: Data Source packets implemented (SPE-4.3.11-28)" },
	{ "spe.arch_inst", AP_CFG_BOOL, OFF(arch_inst), 0, 1, NULL,
	  "PMSIDR_EL1.ArchInst: architecture instruction (1) or micro-op (0) sampling (SPE-2.2-2)" },
	{ "spe.align", AP_CFG_U8, OFF(align), 0, 11, NULL,
	  "PMBIDR_EL1.Align: write pointer aligned to 2^align bytes, records padded (SPE-4.3.1-16..24)" },
	{ "spe.f", AP_CFG_BOOL, OFF(f), 0, 1, NULL,
	  "PMBIDR_EL1.F: buffer writes manage the Access flag and Dirty bit (SPE-4.3.1-6..8)" },
	{ "spe.evfr_impdef_mask", AP_CFG_U64, OFF(evfr_impdef_mask), 0, UINT64_MAX, NULL,
	  "PMSEVFR_EL1 bits in [63:48,31:24,15:12] that are implemented and filterable; others RES0 (SPE-4.3.8-9)" },
	{ "spe.speculative_sampling", AP_CFG_BOOL, OFF(speculative_sampling), 0, 1, NULL,
	  "speculative operations can be sampled; if 0, PMSEVFR_EL1.E[1] is RES1 (SPE-4.3.8-18)" },
	{ "spe.min_granule_log2", AP_CFG_U8, OFF(min_granule_log2), 12, 16, NULL,
	  "log2 of the smallest translation granule (12, 14, 16); PMBLIMITR_EL1[N-1:12] RES0 (SPE-4.3.2-8)" },
	{ "spe.reset.pmscr_el1", AP_CFG_U64, OFF(reset_pmscr_el1), 0, UINT64_MAX, NULL,
	  "PMSCR_EL1 value on reset (SPE-4.2-1)" },
	{ "spe.reset.pmscr_el2", AP_CFG_U64, OFF(reset_pmscr_el2), 0, UINT64_MAX, NULL,
	  "PMSCR_EL2 value on reset (SPE-4.2-1)" },
	{ "spe.reset.pmsicr_el1", AP_CFG_U64, OFF(reset_pmsicr_el1), 0, UINT64_MAX, NULL,
	  "PMSICR_EL1 value on reset (SPE-4.2-1, PMSICR-8/17)" },
	{ "spe.reset.pmsirr_el1", AP_CFG_U64, OFF(reset_pmsirr_el1), 0, UINT64_MAX, NULL,
	  "PMSIRR_EL1 value on reset (SPE-4.2-1)" },
	{ "spe.reset.pmsfcr_el1", AP_CFG_U64, OFF(reset_pmsfcr_el1), 0, UINT64_MAX, NULL,
	  "PMSFCR_EL1 value on reset (SPE-4.2-1)" },
	{ "spe.reset.pmsevfr_el1", AP_CFG_U64, OFF(reset_pmsevfr_el1), 0, UINT64_MAX, NULL,
	  "PMSEVFR_EL1 value on reset (SPE-4.2-1)" },
	{ "spe.reset.pmslatfr_el1", AP_CFG_U64, OFF(reset_pmslatfr_el1), 0, UINT64_MAX, NULL,
	  "PMSLATFR_EL1 value on reset (SPE-4.2-1)" },
	{ "spe.reset.pmblimitr_el1", AP_CFG_U64, OFF(reset_pmblimitr_el1), 0, UINT64_MAX, NULL,
	  "PMBLIMITR_EL1 value on reset; E always resets to 0 (SPE-T8-row1, SPE-4.2-1)" },
	{ "spe.reset.pmbptr_el1", AP_CFG_U64, OFF(reset_pmbptr_el1), 0, UINT64_MAX, NULL,
	  "PMBPTR_EL1 value on reset (SPE-4.2-1)" },
	{ "spe.reset.pmbsr_el1", AP_CFG_U64, OFF(reset_pmbsr_el1), 0, UINT64_MAX, NULL,
	  "PMBSR_EL1 value on reset; S=1 asserts PMBIRQ out of reset (SPE-4.2-1)" },
	{ "spe.sample_next_op", AP_CFG_BOOL, OFF(sample_next_op), 0, 1, NULL,
	  "sample the operation after the one on which the counter reached 0 (SPE-2.2.1-4)" },
	{ "spe.unknown_interval", AP_CFG_U32, OFF(unknown_interval), 1, UINT32_MAX, NULL,
	  "the UNKNOWN interval used when PMSIRR_EL1.INTERVAL == 0 (SPE-4.3.12-10)" },
	{ "spe.max_in_flight", AP_CFG_U32, OFF(max_in_flight), 1, 1024, NULL,
	  "sampled operations in flight at once; one more is a collision (SPE-2.2.4-1)" },
	{ "spe.fe_zero_discards", AP_CFG_BOOL, OFF(fe_zero_discards), 0, 1, NULL,
	  "FE == 1 with PMSEVFR_EL1 == 0: 1 = discard, 0 = as if FE == 0 (SPE-3.2.3-17, SPE-4.3.9-17)" },
	{ "spe.ft_none_discards", AP_CFG_BOOL, OFF(ft_none_discards), 0, 1, NULL,
	  "FT == 1 with {B,LD,ST} == 0: 1 = discard, 0 = as if FT == 0 (SPE-3.2.3-19, SPE-4.3.9-15)" },
	{ "spe.fl_zero_discards", AP_CFG_BOOL, OFF(fl_zero_discards), 0, 1, NULL,
	  "FL == 1 with MINLAT == 0: 1 = discard, 0 = as if FL == 0 (SPE-3.2.3-24, SPE-4.3.9-13)" },
	{ "spe.ext_abort", AP_CFG_ENUM, OFF(ext_abort), 0, 2, ext_abort_names,
	  "external abort on a buffer write: serror (not reported; EA RES0), sync, async (SPE-3.5-13, SPE-3.5.4-1/4)" },
	{ "spe.late_disable", AP_CFG_ENUM, OFF(late_disable), 0, 2, late_disable_names,
	  "records pending when the buffer is found disabled: write, discard, discard-event (SPE-3.6.1-2/3)" },
	{ "spe.bad_ptr", AP_CFG_ENUM, OFF(bad_ptr), 0, 2, bad_ptr_names,
	  "write-pointer rules of 3.4.1 broken: write, full, translation (SPE-3.4.1-1)" },
	{ "spe.ts_when_timer_disabled", AP_CFG_BOOL, OFF(ts_when_timer_disabled), 0, 1, NULL,
	  "system counter disabled with timestamps enabled: 1 = write an UNKNOWN TS, 0 = as TimeStamp_None (SPE-2.3-3, SPE-5.3.10-7)" },
	{ "spe.cond_fail_target", AP_CFG_BOOL, OFF(cond_fail_target), 0, 1, NULL,
	  "a failed conditional branch's record keeps its target address (SPE-2.3.3-3)" },
	{ "spe.misspeculated_written", AP_CFG_BOOL, OFF(misspeculated_written), 0, 1, NULL,
	  "records of misspeculated operations are written (SPE-2.3.5-1)" },
};

AP_CFG_KEY_TABLE(ap_spe_config_keys, spe_keys);
