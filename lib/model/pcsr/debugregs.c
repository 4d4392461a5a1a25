/* The external debug frame's identification, power and reset registers: what
 * a debugger (or Linux's coresight-cpu-debug driver) reads before the PC
 * sample registers. Sources: Arm's external register descriptions (DDI 0601,
 * "External system registers"): EDPIDR0-4, EDCIDR0-3, EDDEVARCH, EDDEVTYPE,
 * EDDEVID, EDDEVID1, EDPRCR, EDPRSR; the model has no FEAT_DoPD, so they are
 * in the Debug power domain and answer with the core powered down. */
#include "model/pcsr/pcsr.h"

#define EDPRCR_CORENPDRQ 0x1u
#define EDPRCR_COREPURQ 0x8u
#define MDCR_EL3_EDAD 20  /* AllowExternalDebugAccess() FALSE for Non-secure */
#define MDCR_EL3_EPMAD 21 /* AllowExternalPMUAccess() FALSE for Non-secure */

void ap_debug_reset(struct ap_pe *pe, bool cold)
{
	struct ap_pcsr *p = &pe->pcsr;
	p->edprsr_sr = true; /* EDPRSR.SR: set by a Warm reset (and a Cold one) */
	p->edprsr_sdr = false;
	p->was_halted = pe->st.halted;
	if (cold) {
		/* EDPRCR.CORENPDRQ and COREPURQ reset to 0; EDPRSR.SPD reads 1
		 * after power-on, the core having been off before it (the
		 * Cortex-A53's EDPRSR resets to 0x2, AMD UG1087). */
		p->edprcr = 0;
		p->edprsr_spd = true;
	}
}

void ap_debug_state_changed(struct ap_pe *pe)
{
	struct ap_pcsr *p = &pe->pcsr;
	if (p->was_halted && !pe->st.halted)
		p->edprsr_sdr = true; /* EDPRSR.SDR: the PE left Debug state */
	p->was_halted = pe->st.halted;
}

/* EDDEVARCH.ARCHVER, ID_AA64DFR0_EL1.DebugVer of the architecture version:
 * 0b0110 Armv8.0 (0b0111 with FEAT_VHE), 0b1000 Armv8.2, 0b1001 Armv8.4 and
 * later (the values EDDEVARCH lists). */
static uint32_t archver(const struct ap_pe *pe)
{
	unsigned major = pe->cfg.pcsr.arch_major, minor = pe->cfg.pcsr.arch_minor;
	if (major > 8 || minor >= 4)
		return 0x9;
	if (minor >= 2)
		return 0x8;
	return pe->cfg.have_vhe ? 0x7 : 0x6;
}

uint32_t ap_debug_id_reg(const struct ap_pe *pe, uint32_t offset)
{
	const struct ap_pcsr_config *c = &pe->cfg.pcsr;
	static const uint8_t cidr[4] = { 0x0D, 0x90, 0x05, 0xB1 }; /* CLASS 0x9: CoreSight */
	switch (offset) {
	case 0xFBC: /* EDDEVARCH: ARCHITECT Arm (0x23B), PRESENT, REVISION 0, ARCHVER, ARCHPART 0xA15 */
		return 0x23Bu << 21 | 1u << 20 | archver(pe) << 12 | 0xA15;
	case 0xFC4: /* EDDEVID1.PCSROffset: 0b0010 no offset (FEAT_PCSRv8), else 0 */
		return c->feat_pcsrv8 ? 0x2 : 0x0;
	case 0xFC8: /* EDDEVID.PCSample: 0b0011 EDPCSR, EDCIDSR and EDVIDSR (FEAT_PCSRv8) */
		return c->feat_pcsrv8 ? 0x3 : 0x0;
	case 0xFCC: /* EDDEVTYPE: SUB 0x1 (processor), MAJOR 0x5 (debug logic) */
		return 0x15;
	case 0xFD0: return (uint32_t)(c->debug_pidr >> 32) & 0xff; /* EDPIDR4 */
	case 0xFE0: case 0xFE4: case 0xFE8: case 0xFEC:
		return (uint32_t)(c->debug_pidr >> (8 * ((offset - 0xFE0) / 4))) & 0xff;
	case 0xFF0: case 0xFF4: case 0xFF8: case 0xFFC:
		return cidr[(offset - 0xFF0) / 4];
	default: return 0;
	}
}

uint32_t ap_debug_edprsr(const struct ap_pe *pe)
{
	const struct ap_pcsr *p = &pe->pcsr;
	const struct ap_pe_state *st = &pe->st;
	bool el3 = pe->cfg.have_el3;
	/* Without the core's power only PU, SPD and DLK are known; the model
	 * reads the others as 0. */
	if (!st->core_powered)
		return 1u << 1; /* SPD */
	uint32_t v = 1u                                   /* PU */
	           | (uint32_t)p->edprsr_spd << 1         /* SPD */
	           | (uint32_t)p->edprsr_sr << 3          /* SR; R [2] 0: not held in reset */
	           | (uint32_t)st->halted << 4            /* HALTED */
	           | (uint32_t)st->os_lock << 5           /* OSLK */
	           | (uint32_t)st->os_double_lock << 6;   /* DLK */
	if (el3) {
		v |= (uint32_t)ap_field(st->mdcr_el3, MDCR_EL3_EDAD, 1) << 7;  /* EDAD */
		v |= (uint32_t)ap_field(st->mdcr_el3, MDCR_EL3_EPMAD, 1) << 9; /* EPMAD */
	}
	return v | (uint32_t)p->edprsr_sdr << 11; /* SDR; SDAD, SPMAD 0: no such error here */
}

uint32_t ap_debug_read_edprsr(struct ap_pe *pe, bool memory_mapped)
{
	struct ap_pcsr *p = &pe->pcsr;
	if (!pe->st.core_powered) {
		p->edprsr_spd = true; /* the core went down: sticky until a powered read */
		return ap_debug_edprsr(pe);
	}
	uint32_t v = ap_debug_edprsr(pe);
	/* A read clears SPD, SR, SDR (RC) unless the OS Double Lock is locked
	 * (CONSTRAINED UNPREDICTABLE there: the model leaves them) or the
	 * Software Lock makes the memory-mapped access RO. */
	bool locked = memory_mapped && pe->cfg.pcsr.software_lock && p->slk;
	if (!pe->st.os_double_lock && !locked)
		p->edprsr_spd = p->edprsr_sr = p->edprsr_sdr = false;
	return v;
}

uint32_t ap_debug_edprcr(const struct ap_pe *pe)
{
	return pe->pcsr.edprcr; /* CWRR [2] is write-only: reads 0 */
}

void ap_debug_write_edprcr(struct ap_pe *pe, uint32_t value)
{
	/* CORENPDRQ and COREPURQ are requests to the power controller, which
	 * the model's core (always powered unless the host says otherwise)
	 * only holds; CWRR, a Warm reset request, is not honoured: the model
	 * takes resets from its host (ap_pe_reset). */
	pe->pcsr.edprcr = value & (EDPRCR_CORENPDRQ | EDPRCR_COREPURQ);
}
