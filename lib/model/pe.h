/* The layout of struct ap_pe (private to lib/model).
 *
 * One PE = its configuration, the host callbacks, the PE state the host set,
 * the register storage of each extension, and each extension's engine state.
 * The configuration and the PE state are stated here once: every extension
 * reads them from the PE (pe->cfg, pe->st) and keeps only its own state, in
 * the struct it embeds here, declared in its own header:
 *   spe/engine.h      struct ap_spe_engine      (SPE sampling engine)
 *   pcsr/unit.h       struct ap_pcsr            (PC Sample-based Profiling)
 *   snapshot/unit.h   struct ap_snapshot_unit   (PMU and PMU snapshots)
 * so an extension adds state without touching this file. */
#ifndef ARMPROF_MODEL_PE_H
#define ARMPROF_MODEL_PE_H

#include <stdbool.h>
#include <stdint.h>

#include "armprof/model.h"
#include "model/spe/engine.h"
#include "model/pcsr/unit.h"
#include "model/snapshot/unit.h"
#include "model/state.h"

/* The writable SPE System registers (section 4). PMSIDR_EL1 and PMBIDR_EL1
 * are computed from the configuration and state when read. Values are
 * stored with RES0 bits clear and RES1 bits set (lib/model/sysreg.h). */
struct ap_spe_regs {
	uint64_t pmscr_el1;
	uint64_t pmscr_el2;
	uint64_t pmsicr_el1;
	uint64_t pmsirr_el1;
	uint64_t pmsfcr_el1;
	uint64_t pmsevfr_el1;
	uint64_t pmslatfr_el1;
	uint64_t pmblimitr_el1;
	uint64_t pmbptr_el1;
	uint64_t pmbsr_el1;
	uint64_t pmsnevfr_el1; /* FEAT_SPE_FnE */
	uint64_t pmsdsfr_el1;  /* FEAT_SPE_FDS */
};

struct ap_pe {
	struct ap_config cfg;
	struct ap_host host;
	struct ap_pe_state st;

	struct ap_spe_regs spe_regs;
	int pmbirq_level; /* last level given to host.pmbirq (-1: never) */

	struct ap_spe_engine spe;
	struct ap_pcsr pcsr;
	struct ap_snapshot_unit snapshot;
};

/* State predicates of the pseudocode, for every extension. */
static inline bool ap_have_el(const struct ap_pe *pe, unsigned el)
{
	return el <= 1 || (el == 2 && pe->cfg.have_el2) || (el == 3 && pe->cfg.have_el3);
}
static inline bool ap_bit(uint64_t reg, unsigned bit) { return (reg >> bit) & 1u; }
static inline unsigned ap_field(uint64_t reg, unsigned lsb, unsigned width)
{
	return (unsigned)((reg >> lsb) & ((1ull << width) - 1));
}
/* SCR_EL3.NS as the pseudocode reads it (without EL3: the fixed state). */
static inline bool ap_scr_ns(const struct ap_pe *pe) { return ap_bit(pe->st.scr_el3, AP_SCR_EL3_NS); }
/* IsSecure() */
bool ap_is_secure(const struct ap_pe *pe);
/* EL2Enabled(): EL2 implemented and enabled in the current Security state. */
bool ap_el2_enabled(const struct ap_pe *pe);
/* ELUsingAArch32(el) / UsingAArch32() */
static inline bool ap_el_using_aarch32(const struct ap_pe *pe, unsigned el)
{
	return ap_bit(pe->st.aarch32, el);
}
static inline bool ap_using_aarch32(const struct ap_pe *pe) { return ap_el_using_aarch32(pe, pe->st.el); }
/* HCR_EL2.{TGE,E2H} as they take effect (RES0 without EL2 / FEAT_VHE). */
static inline bool ap_tge(const struct ap_pe *pe) { return pe->cfg.have_el2 && ap_bit(pe->st.hcr_el2, AP_HCR_EL2_TGE); }
static inline bool ap_e2h(const struct ap_pe *pe)
{
	return pe->cfg.have_el2 && pe->cfg.have_vhe && ap_bit(pe->st.hcr_el2, AP_HCR_EL2_E2H);
}
static inline unsigned ap_mdcr_el2_e2pb(const struct ap_pe *pe) { return ap_field(pe->st.mdcr_el2, AP_MDCR_EL2_E2PB, 2); }
static inline unsigned ap_mdcr_el3_nspb(const struct ap_pe *pe) { return ap_field(pe->st.mdcr_el3, AP_MDCR_EL3_NSPB, 2); }

/* Drive PMBIRQ from PMBSR_EL1.S (3.5): calls host.pmbirq when the level
 * changes. Call after any change of PMBSR_EL1. */
void ap_pe_update_pmbirq(struct ap_pe *pe);

#endif
