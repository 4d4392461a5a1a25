/* PMU snapshots inside a PE: the snapshot System registers (PMSSCR_EL1,
 * PMECR_EL1, PMCCNTSVR_EL1, PMICNTSVR_EL1, PMEVCNTSVR<n>_EL1), the external
 * snapshot request, the BRBE freeze output and the statistics.
 *
 * Encodings and accessibility: DDI 0487 D24.5.3/.9/.11/.16/.23. Modelled:
 * EL0 UNDEFINED, MDCR_EL3.EnPMSS (bit 44) and, for PMECR_EL1, MDCR_EL2.TPM,
 * MDCR_EL3.{EnPM2,TPM}, MDCR_EL2.HPMN for PMEVCNTSVR<n>_EL1, the
 * EL3SDDUndef cases. Not modelled: FEAT_FGT2 (HDFGRTR2_EL2.nPMSSDATA,
 * nPMSSCR_EL1, nPMECR_EL1), FEAT_PMUv3_EXTPMN. No check reads the OS Lock
 * (SS-IKGJMV). */
#include <stddef.h>

#include "armprof/snapshot.h"
#include "model/pe.h"
#include "model/pmu/pmu_access.h"
#include "model/snapshot/snapshot.h"
#include "model/sysreg.h"

#define ENC_PMSSCR_EL1    AP_SYSREG(3, 0, 9, 13, 3)
#define ENC_PMECR_EL1     AP_SYSREG(3, 0, 9, 14, 5)
#define ENC_PMCCNTSVR_EL1 AP_SYSREG(2, 0, 14, 11, 7)
#define ENC_PMICNTSVR_EL1 AP_SYSREG(2, 0, 14, 12, 0)

static void snapshot_reset(struct ap_pe *pe)
{
	ap_snapshot_reset(pe);
}

/* PMEVCNTSVR<n>_EL1: n = CRm[1:0]:op2 (31 is PMCCNTSVR_EL1). */
static unsigned svr_index(const struct ap_sysreg *r)
{
	return (AP_SYSREG_CRM(r->enc) & 3u) << 3 | AP_SYSREG_OP2(r->enc);
}

/* PMSSCR_EL1, PMCCNTSVR_EL1, PMICNTSVR_EL1, PMEVCNTSVR<n>_EL1 accessibility. */
static int ss_check(const struct ap_pe *pe, const struct ap_sysreg *r, bool write)
{
	(void)write;
	if (!pe->cfg.snapshot.feat_pmuv3_ss)
		return AP_ACCESS_UNDEFINED;
	bool evcnt = AP_SYSREG_OP0(r->enc) == 2 && AP_SYSREG_CRM(r->enc) < 12 && r->enc != ENC_PMCCNTSVR_EL1;
	unsigned n = svr_index(r);
	if (evcnt && n >= pe->snapshot.pmu.cfg.num_counters)
		return AP_ACCESS_UNDEFINED;
	if (r->enc == ENC_PMICNTSVR_EL1 && !pe->snapshot.pmu.cfg.icntr)
		return AP_ACCESS_UNDEFINED;
	bool enpmss_off = pe->cfg.have_el3 && !ap_bit(pe->st.mdcr_el3, AP_MDCR_EL3_ENPMSS);
	switch (pe->st.el) {
	case AP_EL0:
		return AP_ACCESS_UNDEFINED;
	case AP_EL1:
		if (enpmss_off && ap_pmu_el3_sdd_first(pe))
			return AP_ACCESS_UNDEFINED;
		if (evcnt && ap_el2_enabled(pe) && n >= ap_pmu_hpmn(pe))
			return AP_ACCESS_TRAP_EL2;
		return enpmss_off ? ap_pmu_el3_trap(pe) : AP_ACCESS_OK;
	case AP_EL2:
		if (enpmss_off && ap_pmu_el3_sdd_first(pe))
			return AP_ACCESS_UNDEFINED;
		return enpmss_off ? ap_pmu_el3_trap(pe) : AP_ACCESS_OK;
	default:
		return AP_ACCESS_OK;
	}
}

/* PMECR_EL1 (FEAT_PMUv3_SS; FEAT_EBEP is not modelled). */
static int pmecr_check(const struct ap_pe *pe, const struct ap_sysreg *r, bool write)
{
	(void)r;
	(void)write;
	if (!pe->cfg.snapshot.feat_pmuv3_ss)
		return AP_ACCESS_UNDEFINED;
	bool el3 = pe->cfg.have_el3;
	bool enpm2_off = el3 && !ap_bit(pe->st.mdcr_el3, AP_MDCR_EL3_ENPM2);
	bool tpm3 = el3 && ap_bit(pe->st.mdcr_el3, AP_MDCR_TPM);
	switch (pe->st.el) {
	case AP_EL0:
		return AP_ACCESS_UNDEFINED;
	case AP_EL1:
	case AP_EL2:
		if ((enpm2_off || tpm3) && ap_pmu_el3_sdd_first(pe))
			return AP_ACCESS_UNDEFINED;
		if (pe->st.el == AP_EL1 && ap_el2_enabled(pe) && ap_bit(pe->st.mdcr_el2, AP_MDCR_TPM))
			return AP_ACCESS_TRAP_EL2;
		return enpm2_off || tpm3 ? ap_pmu_el3_trap(pe) : AP_ACCESS_OK;
	default:
		return AP_ACCESS_OK;
	}
}

static uint64_t ss_read(const struct ap_pe *pe, const struct ap_sysreg *r)
{
	switch (r->enc) {
	case ENC_PMSSCR_EL1: return ap_snapshot_read_pmsscr(pe);
	case ENC_PMECR_EL1: return ap_snapshot_read_pmecr(pe);
	case ENC_PMCCNTSVR_EL1: return ap_snapshot_read_ccntsvr(pe);
	case ENC_PMICNTSVR_EL1: return ap_snapshot_read_icntsvr(pe);
	default: return ap_snapshot_read_evcntsvr(pe, svr_index(r));
	}
}

static void ss_write(struct ap_pe *pe, const struct ap_sysreg *r, uint64_t v)
{
	if (r->enc == ENC_PMECR_EL1)
		ap_snapshot_write_pmecr(pe, v);
	else if (r->enc == ENC_PMSSCR_EL1)
		ap_snapshot_write_pmsscr(pe, v);
}

#define SS_REG(name, enc, flags, check) \
	{ name, enc, flags, -1, 0, 0, 0, 0, NULL, check, NULL, 0, ss_read, ss_write, NULL }
#define SVR(n) SS_REG("PMEVCNTSVR" #n "_EL1", AP_SYSREG(2, 0, 14, 8 | ((n) >> 3), (n) & 7), AP_SR_R, ss_check)

static const struct ap_sysreg ss_regs[] = {
	SS_REG("PMSSCR_EL1", ENC_PMSSCR_EL1, AP_SR_R | AP_SR_W, ss_check),
	SS_REG("PMECR_EL1", ENC_PMECR_EL1, AP_SR_R | AP_SR_W, pmecr_check),
	SS_REG("PMCCNTSVR_EL1", ENC_PMCCNTSVR_EL1, AP_SR_R, ss_check),
	SS_REG("PMICNTSVR_EL1", ENC_PMICNTSVR_EL1, AP_SR_R, ss_check),
	SVR(0), SVR(1), SVR(2), SVR(3), SVR(4), SVR(5), SVR(6), SVR(7), SVR(8), SVR(9),
	SVR(10), SVR(11), SVR(12), SVR(13), SVR(14), SVR(15), SVR(16), SVR(17), SVR(18), SVR(19),
	SVR(20), SVR(21), SVR(22), SVR(23), SVR(24), SVR(25), SVR(26), SVR(27), SVR(28), SVR(29),
	SVR(30),
};

const struct ap_sysreg_table ap_snapshot_sysreg_table = {
	"snapshot", ss_regs, sizeof(ss_regs) / sizeof(ss_regs[0]), snapshot_reset, NULL,
};

int ap_pe_snapshot_request(struct ap_pe *pe)
{
	return ap_snapshot_request(pe);
}

void ap_pe_set_brbe_hook(struct ap_pe *pe, ap_brbe_freeze_fn fn, void *ctx)
{
	pe->snapshot.brbe_fn = fn;
	pe->snapshot.brbe_ctx = ctx;
}

enum ap_ss_capture ap_pe_snapshot_class(const struct ap_pe *pe)
{
	return ap_snapshot_class(pe);
}

void ap_pe_snapshot_stats(const struct ap_pe *pe, struct ap_snapshot_stats *out)
{
	*out = pe->snapshot.ss.stats;
}
