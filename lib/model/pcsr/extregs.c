/* A PE's external register frames: offset -> register, access size rules,
 * error responses (see include/armprof/extregs.h for the sources of each
 * map). The registers are the PE's: its PMU, PC sample logic and snapshot
 * registers, under its configuration and state. */
#include <stddef.h>

#include "armprof/error.h"
#include "armprof/extregs.h"
#include "model/pcsr/pcsr.h"
#include "model/pmu/pmu_access.h"
#include "model/snapshot/snapshot.h"

enum reg_id {
	R_NONE,
	R_EVCNTR, R_CCNTR, R_ICNTR, R_EVTYPER,
	R_PMPCSR, R_PMCID1SR, R_PMVIDSR, R_PMCID2SR, R_PMVCIDSR, R_PMCCIDSR,
	R_EVCNTSVR, R_CCNTSVR, R_ICNTSVR,
	R_CNTENSET, R_CNTENCLR, R_OVSCLR, R_OVSSET, R_PMCR, R_PMSSCR, R_PMPCSCTL, R_CEID,
	R_LAR, R_LSR, R_DEVARCH, R_DEVID, R_DEVTYPE, R_CIDR,
	R_EDPCSR, R_EDCIDSR, R_EDVIDSR, R_EDDEVID1,
	R_EDID, R_EDPRCR, R_EDPRSR, /* the debug frame's ID, power and reset registers */
};

/* Which error-response rule a register follows. */
enum domain {
	D_CORE,     /* Core power domain; OS Lock and Double Lock give an error */
	D_SNAPSHOT, /* Core power domain; AllowExternalPMSSAccess(); no OS Lock (SS-IKGJMV) */
	D_MGMT,     /* CoreSight management/ID registers: always accessible (no FEAT_DoPD) */
};

struct loc {
	enum reg_id id;
	unsigned index;  /* counter number, CIDR number */
	unsigned part;   /* 0: the register or its [31:0]; 1: its [63:32] */
	bool is64;
	bool alias;
	enum domain domain;
};

static struct loc mk(enum reg_id id, unsigned index, unsigned part, bool is64, enum domain d)
{
	struct loc l = { id, index, part, is64, false, d };
	return l;
}

static bool ext64(const struct ap_pe *pe)
{
	return pe->cfg.pcsr.pmu_ext == AP_PCSR_EXT64;
}

/* The frame has PMU (and so snapshot) registers unless pmu_ext is none. */
static bool has_pmu(const struct ap_pe *pe)
{
	return pe->cfg.pcsr.pmu_ext != AP_PCSR_EXT_NONE;
}

/* The PC sample registers at 0x200-0x22C: Table H7-1 (and EXT32, spec/003),
 * or Table I5-1 with EXT64 (PMVCIDSR 0x208, PMCCIDSR 0x228). */
static struct loc decode_pcsample(const struct ap_pe *pe, uint32_t off)
{
	struct loc l = mk(R_NONE, 0, 0, false, D_CORE);
	if (!pe->cfg.pcsr.feat_pcsrv8p2)
		return l;
	bool alias = off >= 0x220;
	uint32_t o = off & ~0x20u;
	if (ext64(pe)) {
		if (o == 0x200 || o == 0x204)
			l = mk(R_PMPCSR, 0, (o - 0x200) / 4, true, D_CORE);
		else if (off == 0x208 || off == 0x20C)
			l = mk(R_PMVCIDSR, 0, (off - 0x208) / 4, true, D_CORE);
		else if (off == 0x228 || off == 0x22C)
			l = mk(R_PMCCIDSR, 0, (off - 0x228) / 4, true, D_CORE);
		else
			return l;
		l.alias = alias && l.id == R_PMPCSR;
		return l;
	}
	switch (off) {
	case 0x200: case 0x220: l = mk(R_PMPCSR, 0, 0, true, D_CORE); break;   /* rows 1, 5 */
	case 0x204: case 0x224: l = mk(R_PMPCSR, 0, 1, true, D_CORE); break;   /* rows 2, 6 */
	case 0x208: case 0x228: l = mk(R_PMCID1SR, 0, 0, false, D_CORE); break; /* rows 3, 7 */
	case 0x20C:
		/* PMVIDSR is present only when EL2 is implemented (DDI 0487 I5.3.56). */
		if (pe->cfg.have_el2)
			l = mk(R_PMVIDSR, 0, 0, false, D_CORE);                         /* row 4 */
		break;
	case 0x22C: l = mk(R_PMCID2SR, 0, 0, false, D_CORE); break;            /* row 8 */
	default: break;
	}
	l.alias = alias;
	return l;
}

/* Management registers common to every PMU frame (CoreSight, Table K5-4). */
static struct loc decode_mgmt(const struct ap_pe *pe, uint32_t off)
{
	switch (off) {
	case 0xFB0: return mk(R_LAR, 0, 0, false, D_MGMT);
	case 0xFB4: return mk(R_LSR, 0, 0, false, D_MGMT);
	case 0xFBC: return mk(R_DEVARCH, 0, 0, false, D_MGMT);
	case 0xFC8: return mk(R_DEVID, 0, 0, false, D_MGMT);
	case 0xFCC: return mk(R_DEVTYPE, 0, 0, false, D_MGMT);
	case 0xFF0: case 0xFF4: case 0xFF8: case 0xFFC:
		return mk(R_CIDR, (off - 0xFF0) / 4, 0, false, D_MGMT);
	default:
		(void)pe;
		return mk(R_NONE, 0, 0, false, D_MGMT);
	}
}

static struct loc decode_pmu(const struct ap_pe *pe, uint32_t off)
{
	struct loc l = mk(R_NONE, 0, 0, false, D_CORE);
	const struct ap_pcsr_config *pc = &pe->cfg.pcsr;
	if (off >= 0x200 && off < 0x230)
		return decode_pcsample(pe, off);
	if (off >= 0xF00)
		return decode_mgmt(pe, off);
	/* Table H7-1 rows 9/10 (0x600-0x6FC, 0xE80-0xEFC IMPLEMENTATION DEFINED):
	 * the model implements nothing there, so they read as RES0. */
	if (!has_pmu(pe))
		return l;
	const struct ap_pmu *pmu = &pe->snapshot.pmu;
	unsigned n = pmu->cfg.num_counters;
	bool ss = pe->cfg.snapshot.feat_pmuv3_ss;
	bool e64 = ext64(pe);
	unsigned part = (off & 4) ? 1 : 0;
	if (off < 0x0F8 && off / 8 < n)
		return mk(R_EVCNTR, off / 8, part, true, D_CORE);
	if (off == 0x0F8 || off == 0x0FC)
		return mk(R_CCNTR, 0, part, true, D_CORE);
	if ((off == 0x100 || off == 0x104) && pmu->cfg.icntr)
		return mk(R_ICNTR, 0, part, true, D_CORE);
	if (off >= 0x400 && off < 0x4F8) { /* PMEVTYPER<n>: EXT64 0x400+8n, EXT32 0x400+4n [31:0] */
		unsigned idx = e64 ? (off - 0x400) / 8 : (off - 0x400) / 4;
		if (idx < n && (!e64 || !part))
			return mk(R_EVTYPER, idx, 0, false, D_CORE);
		return l;
	}
	if (ss && off >= 0x600 && off < 0x6F8 && (off - 0x600) / 8 < n)
		return mk(R_EVCNTSVR, (off - 0x600) / 8, part, true, D_SNAPSHOT);
	if (ss && (off == 0x6F8 || off == 0x6FC))
		return mk(R_CCNTSVR, 0, part, true, D_SNAPSHOT);
	if (ss && (off == 0x700 || off == 0x704) && pmu->cfg.icntr)
		return mk(R_ICNTSVR, 0, part, true, D_SNAPSHOT);
	switch (off & ~4u) {
	case 0xC00: return mk(R_CNTENSET, 0, part, true, D_CORE);
	case 0xC20: return mk(R_CNTENCLR, 0, part, true, D_CORE);
	case 0xC80: return mk(R_OVSCLR, 0, part, true, D_CORE);
	case 0xCC0: return mk(R_OVSSET, 0, part, true, D_CORE);
	case 0xE30:
		if (ss)
			return mk(R_PMSSCR, 0, part, true, D_SNAPSHOT);
		return l;
	case 0xE50:
		if (pc->feat_pcsrv8p9)
			return mk(R_PMPCSCTL, 0, part, true, D_CORE);
		return l;
	default: break;
	}
	/* EXT32 only (Table I5-2): PMCEID0..3 = PMCEID0_EL0[31:0],
	 * PMCEID1_EL0[31:0], PMCEID0_EL0[63:32], PMCEID1_EL0[63:32]. */
	if (!e64 && off >= 0xE20 && off <= 0xE2C)
		return mk(R_CEID, (off - 0xE20) / 4, 0, false, D_CORE);
	if ((e64 && (off == 0xE10 || off == 0xE14)) || (!e64 && off == 0xE04))
		return mk(R_PMCR, 0, e64 ? part : 0, e64, D_CORE);
	return l;
}

/* The external debug frame: the PC sample registers with FEAT_PCSRv8 (DDI
 * 0487 H9.2: EDPCSR 0x0A0/0x0AC, EDCIDSR 0x0A4, EDVIDSR 0x0A8), and in every
 * PE's frame the power and reset registers (EDPRCR 0x310, EDPRSR 0x314), the
 * Software Lock (EDLAR 0xFB0, EDLSR 0xFB4) and the identification registers
 * (EDDEVARCH 0xFBC, EDDEVID1 0xFC4, EDDEVID 0xFC8, EDDEVTYPE 0xFCC, EDPIDR4
 * 0xFD0, EDPIDR0-3 0xFE0-0xFEC, EDCIDR0-3 0xFF0-0xFFC; debugregs.c). */
static struct loc decode_debug(const struct ap_pe *pe, uint32_t off)
{
	struct loc l = mk(R_NONE, 0, 0, false, D_CORE);
	switch (off) {
	case 0x310: return mk(R_EDPRCR, 0, 0, false, D_MGMT);
	case 0x314: return mk(R_EDPRSR, 0, 0, false, D_MGMT);
	case 0xFB0: return mk(R_LAR, 0, 0, false, D_MGMT);
	case 0xFB4: return mk(R_LSR, 0, 0, false, D_MGMT);
	case 0xFC4: return mk(R_EDDEVID1, 0, 0, false, D_MGMT);
	case 0xFBC: case 0xFC8: case 0xFCC: case 0xFD0:
	case 0xFE0: case 0xFE4: case 0xFE8: case 0xFEC:
	case 0xFF0: case 0xFF4: case 0xFF8: case 0xFFC:
		return mk(R_EDID, off, 0, false, D_MGMT);
	default: break;
	}
	if (!pe->cfg.pcsr.feat_pcsrv8)
		return l;
	switch (off) {
	case 0x0A0: return mk(R_EDPCSR, 0, 0, true, D_CORE);
	case 0x0AC: return mk(R_EDPCSR, 0, 1, true, D_CORE);
	case 0x0A4: return mk(R_EDCIDSR, 0, 0, false, D_CORE);
	case 0x0A8: return mk(R_EDVIDSR, 0, 0, false, D_CORE);
	default: return l;
	}
}

static struct loc decode(const struct ap_pe *pe, enum ap_ext_space space, uint32_t off)
{
	return space == AP_EXT_DEBUG ? decode_debug(pe, off) : decode_pmu(pe, off);
}

/* Is this access size allowed on this register? EXT64 frames take 64-bit
 * accesses to 64-bit registers and 32-bit accesses to either half; other
 * frames are 32-bit, except the IMPLEMENTATION DEFINED 64-bit atomic read of
 * PMPCSR (PMPCSR-6/7). The debug frame is 32-bit only. */
static bool size_ok(const struct ap_pe *pe, enum ap_ext_space space, const struct loc *l,
                    unsigned size)
{
	if (size == 4)
		return true;
	if (!l->is64 || l->part != 0 || space == AP_EXT_DEBUG)
		return false;
	if (ext64(pe))
		return true;
	return l->id == R_PMPCSR && pe->cfg.pcsr.atomic64;
}

static int error_response(const struct ap_pe *pe, const struct loc *l)
{
	const struct ap_pe_state *st = &pe->st;
	if (l->domain == D_MGMT)
		return 0;
	if (st->os_double_lock || !st->core_powered)
		return 1;
	if (l->domain == D_SNAPSHOT) {
		/* AllowExternalPMSSAccess() for a Non-secure access (DDI 0487
		 * J1.3.1.12); SS-IKGJMV: the OS Lock does not apply. */
		bool allowed = !pe->cfg.have_el3 || ap_field(st->mdcr_el3, AP_MDCR_EL3_EPMSSAD, 2) == 3;
		return !allowed;
	}
	return st->os_lock;
}

static uint64_t devid(const struct ap_pe *pe)
{
	const struct ap_pcsr_config *pc = &pe->cfg.pcsr;
	uint64_t pcsample = pc->feat_pcsrv8p9 ? 2 : pc->feat_pcsrv8p2 ? 1 : 0;
	uint64_t pmss = has_pmu(pe) && pe->cfg.snapshot.feat_pmuv3_ss ? 1 : 0;
	return pcsample | pmss << 4; /* PMDEVID.PCSample [3:0], PMSS [7:4] */
}

/* The value of a register (part 0: all 64 bits), without side-effects. */
static uint64_t peek(const struct ap_pe *pe, const struct loc *l)
{
	const struct ap_pcsr *p = &pe->pcsr;
	const struct ap_pcsr_config *pc = &pe->cfg.pcsr;
	const struct ap_pmu *pmu = &pe->snapshot.pmu;
	static const uint8_t cidr[4] = { 0x0D, 0x90, 0x05, 0xB1 }; /* CoreSight debug component */
	switch (l->id) {
	case R_EVCNTR: return ap_pmu_read_evcntr(pmu, l->index);
	case R_CCNTR: return ap_pmu_read_ccntr(pmu);
	case R_ICNTR: return ap_pmu_read_icntr(pmu);
	case R_EVTYPER: return ap_pmu_read_evtyper(pmu, l->index);
	case R_PMPCSR: return ap_pcsr_pmpcsr(pe);
	case R_PMCID1SR: return p->pmcid1sr;
	case R_PMCID2SR: return p->pmcid2sr;
	case R_PMVIDSR: return p->pmvidsr;
	case R_PMVCIDSR: return ap_pcsr_pmvcidsr(pe);
	case R_PMCCIDSR: return ap_pcsr_pmccidsr(pe);
	case R_EVCNTSVR: return ap_snapshot_read_evcntsvr(pe, l->index);
	case R_CCNTSVR: return ap_snapshot_read_ccntsvr(pe);
	case R_ICNTSVR: return ap_snapshot_read_icntsvr(pe);
	case R_CNTENSET: case R_CNTENCLR: return ap_pmu_read_cnten(pmu);
	case R_OVSSET: case R_OVSCLR: return ap_pmu_read_ovs(pmu);
	case R_PMCR: return ap_pmu_read_pmcr(pmu);
	case R_PMSSCR: return ap_snapshot_read_pmsscr(pe);
	case R_PMPCSCTL: return ap_pcsr_read_pmpcsctl(pe);
	case R_CEID: return (ap_pmu_read_ceid(pmu, l->index & 1) >> (l->index >= 2 ? 32 : 0)) & 0xffffffffull;
	case R_DEVARCH:
		/* ARCHITECT 0x23B (Arm) [31:21], PRESENT [20]; ARCHID [15:0]: the
		 * PMU architecture 0x2A16 with a PMU, else PCS-H7.1.2-13. */
		return 0x23Bull << 21 | 1ull << 20 |
		       (pc->pmu_ext == AP_PCSR_EXT_NONE ? pc->pmdevarch_archid : 0x2A16);
	case R_DEVID: return devid(pe);
	case R_DEVTYPE:
		/* MAJOR [3:0]: 0x6 a performance monitor; 0x0 without a PMU (PCS-H7.1.2-12). */
		return pc->pmu_ext == AP_PCSR_EXT_NONE ? 0x0 : 0x6 | 0x1 << 4;
	case R_CIDR: return cidr[l->index & 3];
	case R_EDPCSR: return (uint64_t)p->edpcsr_hi << 32; /* [31:0] only by a sampling read */
	case R_EDCIDSR: return p->edcidsr;
	case R_EDVIDSR: return p->edvidsr;
	case R_EDDEVID1: return ap_debug_id_reg(pe, 0xFC4); /* PCSROffset 0b0010 (PCS-H7.1-12) */
	case R_EDID: return ap_debug_id_reg(pe, l->index);
	case R_EDPRCR: return ap_debug_edprcr(pe);
	case R_EDPRSR: return ap_debug_edprsr(pe);
	default: return 0;
	}
}

int ap_pe_ext_read(struct ap_pe *pe, const struct ap_ext_access *a, uint64_t *value)
{
	*value = 0;
	if (!pe || (a->size != 4 && a->size != 8) || a->offset >= 0x1000 || a->offset % a->size)
		return -AP_ERR_INVALID;
	struct loc l = decode(pe, a->space, a->offset);
	if (l.id == R_NONE)
		return AP_EXT_RES0;
	if (!size_ok(pe, a->space, &l, a->size) || error_response(pe, &l))
		return AP_EXT_ERROR;
	ap_pmu_unit_sync_spe(pe); /* an observation point of the PMU (spe_events.c) */
	uint64_t v;
	switch (l.id) {
	case R_PMPCSR:
		if (l.part == 1) {
			v = ap_pcsr_pmpcsr(pe) >> 32; /* PMPCSR-39: never samples */
			break;
		}
		v = a->size == 8 ? ap_pcsr_read_pmpcsr64(pe, a->memory_mapped)
		                 : ap_pcsr_read_pmpcsr_lo(pe, a->memory_mapped);
		*value = v;
		return AP_EXT_OK;
	case R_EDPCSR:
		v = l.part ? pe->pcsr.edpcsr_hi : ap_pcsr_read_edpcsr_lo(pe, a->memory_mapped);
		*value = v;
		return AP_EXT_OK;
	case R_LAR:
		return AP_EXT_OK; /* write-only: reads as 0 */
	case R_LSR:
		*value = ap_pcsr_read_lsr(pe, a->memory_mapped);
		return AP_EXT_OK;
	case R_EDPRSR:
		*value = ap_debug_read_edprsr(pe, a->memory_mapped);
		return AP_EXT_OK;
	default:
		v = peek(pe, &l);
		if (l.is64 && a->size == 4)
			v = l.part ? v >> 32 : v & 0xffffffffull;
		break;
	}
	*value = v;
	return AP_EXT_OK;
}

/* A write of `value` to `part` of a 64-bit register: the other half keeps
 * its current value. */
static uint64_t merge(uint64_t old, unsigned size, unsigned part, uint64_t value)
{
	if (size == 8)
		return value;
	uint64_t v32 = value & 0xffffffffull;
	return part ? (old & 0xffffffffull) | v32 << 32 : (old & ~0xffffffffull) | v32;
}

int ap_pe_ext_write(struct ap_pe *pe, const struct ap_ext_access *a, uint64_t value)
{
	if (!pe || (a->size != 4 && a->size != 8) || a->offset >= 0x1000 || a->offset % a->size)
		return -AP_ERR_INVALID;
	struct loc l = decode(pe, a->space, a->offset);
	if (l.id == R_NONE)
		return AP_EXT_RES0;
	if (!size_ok(pe, a->space, &l, a->size) || error_response(pe, &l))
		return AP_EXT_ERROR;
	if (l.id == R_LAR) {
		ap_pcsr_write_lar(pe, (uint32_t)value);
		return AP_EXT_OK;
	}
	/* The Software Lock: memory-mapped writes other than to the LAR are
	 * ignored while it is locked (PMLSR.SLK, DDI 0487 I5.3.41). */
	if (a->memory_mapped && pe->cfg.pcsr.software_lock && pe->pcsr.slk)
		return AP_EXT_OK;
	ap_pmu_unit_sync_spe(pe); /* counts under the enables before the write */
	uint64_t v = merge(peek(pe, &l), a->size, l.part, value);
	uint64_t bits32 = a->size == 8 ? value : (value & 0xffffffffull) << (32 * l.part);
	struct ap_pmu *pmu = &pe->snapshot.pmu;
	switch (l.id) {
	case R_EVCNTR: ap_pmu_write_evcntr(pmu, l.index, v); break;
	case R_CCNTR: ap_pmu_write_ccntr(pmu, v); break;
	case R_ICNTR: ap_pmu_write_icntr(pmu, v); break;
	case R_EVTYPER: ap_pmu_write_evtyper(pmu, l.index, value); break;
	case R_CNTENSET: ap_pmu_cnten_set(pmu, bits32); break;
	case R_CNTENCLR: ap_pmu_cnten_clr(pmu, bits32); break;
	case R_OVSSET: ap_pmu_ovs_set(pmu, bits32); break;
	case R_OVSCLR: ap_pmu_ovs_clr(pmu, bits32); break;
	case R_PMCR: ap_pmu_write_pmcr(pmu, v); break;
	case R_PMPCSCTL: ap_pcsr_write_pmpcsctl(pe, v); break;
	case R_EDPRCR: ap_debug_write_edprcr(pe, (uint32_t)v); break;
	default: break; /* read-only registers ignore writes (PMPCSR-46, DDI 0487) */
	}
	return AP_EXT_OK;
}

/* Register names as constants (no buffer: safe from any thread). Each
 * register has its whole name and the names of its halves, each also as an
 * alias (the PC sample registers' second copy, Table H7-1 rows 5-8). */
enum { V_WHOLE, V_LO, V_HI };
#define V3(b) { b, b "[31:0]", b "[63:32]" }
#define NAMES(b) { V3(b), { b " (alias)", b "[31:0] (alias)", b "[63:32] (alias)" } }
#define N31(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13) X(14) \
	X(15) X(16) X(17) X(18) X(19) X(20) X(21) X(22) X(23) X(24) X(25) X(26) X(27) X(28) X(29) X(30)
#define EVCNTR(n) V3("PMEVCNTR" #n "_EL0"),
#define EVTYPER(n) "PMEVTYPER" #n "_EL0",
#define EVCNTSVR(n) V3("PMEVCNTSVR" #n "_EL1"),

static const char *const evcntr_names[AP_PMU_MAX_COUNTERS][3] = { N31(EVCNTR) };
static const char *const evtyper_names[AP_PMU_MAX_COUNTERS] = { N31(EVTYPER) };
static const char *const evcntsvr_names[AP_PMU_MAX_COUNTERS][3] = { N31(EVCNTSVR) };
static const char *const ceid_names[4] = { "PMCEID0", "PMCEID1", "PMCEID2", "PMCEID3" };
static const char *const cidr_names[4] = { "PMCIDR0", "PMCIDR1", "PMCIDR2", "PMCIDR3" };

static const char *const reg_names[][2][3] = {
	[R_CCNTR] = NAMES("PMCCNTR_EL0"), [R_ICNTR] = NAMES("PMICNTR_EL0"), [R_PMPCSR] = NAMES("PMPCSR"),
	[R_PMCID1SR] = NAMES("PMCID1SR"), [R_PMVIDSR] = NAMES("PMVIDSR"), [R_PMCID2SR] = NAMES("PMCID2SR"),
	[R_PMVCIDSR] = NAMES("PMVCIDSR"), [R_PMCCIDSR] = NAMES("PMCCIDSR"),
	[R_CCNTSVR] = NAMES("PMCCNTSVR_EL1"), [R_ICNTSVR] = NAMES("PMICNTSVR_EL1"),
	[R_CNTENSET] = NAMES("PMCNTENSET_EL0"), [R_CNTENCLR] = NAMES("PMCNTENCLR_EL0"),
	[R_OVSCLR] = NAMES("PMOVSCLR_EL0"), [R_OVSSET] = NAMES("PMOVSSET_EL0"), [R_PMCR] = NAMES("PMCR_EL0"),
	[R_PMSSCR] = NAMES("PMSSCR_EL1"), [R_PMPCSCTL] = NAMES("PMPCSCTL"), [R_LAR] = NAMES("PMLAR"),
	[R_LSR] = NAMES("PMLSR"), [R_DEVARCH] = NAMES("PMDEVARCH"), [R_DEVID] = NAMES("PMDEVID"),
	[R_DEVTYPE] = NAMES("PMDEVTYPE"), [R_EDPCSR] = NAMES("EDPCSR"), [R_EDCIDSR] = NAMES("EDCIDSR"),
	[R_EDVIDSR] = NAMES("EDVIDSR"), [R_EDDEVID1] = NAMES("EDDEVID1"),
	[R_EDPRCR] = NAMES("EDPRCR"), [R_EDPRSR] = NAMES("EDPRSR"),
};
static const char *const edid_names[] = {
	"EDDEVARCH", "EDDEVID", "EDDEVTYPE", "EDPIDR4", "EDPIDR0", "EDPIDR1", "EDPIDR2", "EDPIDR3",
	"EDCIDR0", "EDCIDR1", "EDCIDR2", "EDCIDR3",
};

static const char *edid_name(uint32_t off)
{
	switch (off) {
	case 0xFBC: return edid_names[0];
	case 0xFC8: return edid_names[1];
	case 0xFCC: return edid_names[2];
	case 0xFD0: return edid_names[3];
	default: return off >= 0xFE0 ? edid_names[4 + (off - 0xFE0) / 4] : NULL;
	}
}

unsigned ap_pe_ext_natural_size(const struct ap_pe *pe, enum ap_ext_space space, uint32_t offset)
{
	if (!pe || offset >= 0x1000 || offset % 4)
		return 0;
	struct loc l = decode(pe, space, offset);
	if (l.id == R_NONE)
		return 0;
	return l.is64 && l.part == 0 && size_ok(pe, space, &l, 8) && ext64(pe) ? 8 : 4;
}

const char *ap_pe_ext_name(const struct ap_pe *pe, enum ap_ext_space space, uint32_t offset)
{
	if (!pe || offset >= 0x1000)
		return NULL;
	struct loc l = decode(pe, space, offset & ~3u);
	if (l.id == R_NONE)
		return NULL;
	bool split = l.is64 && (l.part == 1 || !(ext64(pe) && space == AP_EXT_PMU));
	unsigned v = !split ? V_WHOLE : l.part ? V_HI : V_LO;
	unsigned i = l.index;
	switch (l.id) {
	case R_EVCNTR: return i < AP_PMU_MAX_COUNTERS ? evcntr_names[i][v] : NULL;
	case R_EVTYPER: return i < AP_PMU_MAX_COUNTERS ? evtyper_names[i] : NULL;
	case R_EVCNTSVR: return i < AP_PMU_MAX_COUNTERS ? evcntsvr_names[i][v] : NULL;
	case R_CEID: return ceid_names[i & 3];
	case R_CIDR: return cidr_names[i & 3];
	case R_EDID: return edid_name(i);
	case R_LAR: if (space == AP_EXT_DEBUG) return "EDLAR"; break;
	case R_LSR: if (space == AP_EXT_DEBUG) return "EDLSR"; break;
	default: break;
	}
	if ((size_t)l.id >= sizeof(reg_names) / sizeof(reg_names[0]))
		return NULL;
	return reg_names[l.id][l.alias][v];
}

enum ap_ext_space ap_pe_ext_default_space(const struct ap_pe *pe)
{
	return pe->cfg.pcsr.feat_pcsrv8 ? AP_EXT_DEBUG : AP_EXT_PMU;
}
