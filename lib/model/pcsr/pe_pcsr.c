/* PC Sample-based Profiling inside a PE: the PCSR unit is created from
 * ap_config.pcsr on the first reset, sees the PE state through a view
 * rebuilt on every state change, samples the instructions the host retires,
 * and serves the external register frames (include/armprof/extregs.h). */
#include <stddef.h>

#include "armprof/extregs.h"
#include "armprof/pcsr.h"
#include "model/pe.h"
#include "model/pmu/pmu_access.h"
#include "model/sysreg.h"

/* The configuration the unit runs with: ap_config.pcsr, with the features
 * the core configuration already names taken from there. */
static struct ap_pcsr_config effective_config(const struct ap_pe *pe)
{
	struct ap_pcsr_config c = pe->cfg.pcsr;
	c.size = sizeof(c);
	c.have_el2 = pe->cfg.have_el2;
	c.have_el3 = pe->cfg.have_el3;
	c.feat_rme = pe->cfg.have_rme;
	c.feat_vhe = pe->cfg.have_vhe;
	c.feat_pmuv3_ss = pe->cfg.snapshot.feat_pmuv3_ss;
	return c;
}

static struct ap_pcsr_pe view_of(const struct ap_pe *pe)
{
	const struct ap_pe_state *st = &pe->st;
	struct ap_pcsr_pe v;
	ap_pcsr_pe_init(&v);
	v.el = st->el;
	v.security = (enum ap_pcsr_security)ap_pe_security(pe); /* same numbering */
	v.aarch32 = ap_using_aarch32(pe);
	v.el1_aarch32 = ap_el_using_aarch32(pe, 1);
	v.el2_aarch32 = pe->cfg.have_el2 && ap_el_using_aarch32(pe, 2);
	v.el3_aarch32 = pe->cfg.have_el3 && ap_el_using_aarch32(pe, 3);
	v.el2_enabled = ap_el2_enabled(pe);
	v.in_host = ap_e2h(pe) && ap_tge(pe);
	v.halted = st->halted;
	v.powered = st->core_powered;
	v.oslk = st->os_lock;
	v.double_lock = st->os_double_lock;
	v.tstate = st->tstate;
	v.edscr_sc2 = ap_bit(st->edscr, AP_EDSCR_SC2);
	v.contextidr_el1 = (uint32_t)st->contextidr_el1;
	v.contextidr_el2 = (uint32_t)st->contextidr_el2;
	v.vmid = st->vmid;
	v.niden = st->ext_noninvasive;
	v.spniden = st->ext_secure_noninvasive;
	v.rlpniden = st->ext_realm_noninvasive;
	v.rtpniden = st->ext_root_noninvasive;
	v.sder_suniden = ap_bit(st->sder32_el3, AP_SDER_SUNIDEN);
	return v;
}

void ap_pcsr_unit_sync(struct ap_pe *pe)
{
	struct ap_pcsr_pe v = view_of(pe);
	ap_pcsr_set_pe(&pe->pcsr.pcsr, &v);
}

static void pcsr_reset(struct ap_pe *pe)
{
	struct ap_pcsr_unit *u = &pe->pcsr;
	if (u->initialized) {
		ap_pcsr_reset(&u->pcsr, false); /* Warm reset: Cold-reset-only values stay */
		ap_pcsr_unit_sync(pe);
		return;
	}
	struct ap_pcsr_config c = effective_config(pe);
	struct ap_pcsr_pe v = view_of(pe);
	if (ap_pcsr_init(&u->pcsr, &c, &v) < 0) {
		/* ap_config_validate() rejects such configurations before a PE
		 * exists; a host that bypasses it gets no PC sampling. */
		c.feat_pcsrv8 = c.feat_pcsrv8p2 = c.feat_pcsrv8p9 = false;
		ap_pcsr_init(&u->pcsr, &c, &v);
	}
	u->initialized = true;
}

static void pcsr_state_changed(struct ap_pe *pe, const struct ap_pe_state *old)
{
	(void)old;
	ap_pcsr_unit_sync(pe);
}

/* No System registers: the PC sample registers are external only. */
const struct ap_sysreg_table ap_pcsr_sysreg_table = {
	"pcsr", NULL, 0, pcsr_reset, pcsr_state_changed,
};

void ap_pe_retire(struct ap_pe *pe, uint64_t pc, bool branch_target)
{
	ap_pcsr_retire(&pe->pcsr.pcsr, pc, branch_target);
	struct ap_pmu *pmu = &pe->snapshot.pmu;
	ap_pmu_inst_retired(pmu, 1);
	if (pe->snapshot.ss.pending) {
		if (pe->snapshot.ss.pending <= 1)
			ap_pmu_unit_sync_spe(pe); /* the Capture completes now */
		struct ap_snapshot_targets t = { pmu, &pe->pcsr.pcsr };
		ap_snapshot_tick(&pe->snapshot.ss, &pe->snapshot.view, &t, 1);
	}
}

void ap_pe_retire_block(struct ap_pe *pe, uint64_t pc, uint64_t n)
{
	if (n == 0)
		return;
	struct ap_pcsr *p = &pe->pcsr.pcsr;
	ap_pcsr_retire(p, pc, true);
	if (n > 1 && p->cfg.sample_any)
		ap_pcsr_retire(p, pc + 4 * (n - 1), false);
	struct ap_pmu *pmu = &pe->snapshot.pmu;
	ap_pmu_inst_retired(pmu, n);
	if (pe->snapshot.ss.pending) {
		if (pe->snapshot.ss.pending <= n)
			ap_pmu_unit_sync_spe(pe);
		struct ap_snapshot_targets t = { pmu, p };
		ap_snapshot_tick(&pe->snapshot.ss, &pe->snapshot.view, &t, n);
	}
}

const struct ap_pcsr *ap_pe_pcsr(const struct ap_pe *pe)
{
	return &pe->pcsr.pcsr;
}

static void frame_of(const struct ap_pe *pe, struct ap_ext_frame *f)
{
	struct ap_pe *mut = (struct ap_pe *)pe; /* the frame API takes mutable objects */
	bool has_pmu = pe->pcsr.pcsr.cfg.pmu_ext != AP_PCSR_EXT_NONE;
	f->pmu = has_pmu ? &mut->snapshot.pmu : NULL;
	f->pcsr = &mut->pcsr.pcsr;
	f->ss = has_pmu ? &mut->snapshot.ss : NULL;
	f->ss_pe = &pe->snapshot.view;
	/* AllowExternalPMSSAccess() for a Non-secure access (DDI 0487 J1.3.1.12). */
	f->pmss_access = !pe->cfg.have_el3 || ap_field(pe->st.mdcr_el3, AP_MDCR_EL3_EPMSSAD, 2) == 3;
}

int ap_pe_ext_read(struct ap_pe *pe, const struct ap_ext_access *a, uint64_t *value)
{
	ap_pmu_unit_sync_spe(pe);
	struct ap_ext_frame f;
	frame_of(pe, &f);
	return ap_ext_read(&f, a, value);
}

int ap_pe_ext_write(struct ap_pe *pe, const struct ap_ext_access *a, uint64_t value)
{
	ap_pmu_unit_sync_spe(pe);
	struct ap_ext_frame f;
	frame_of(pe, &f);
	return ap_ext_write(&f, a, value);
}

const char *ap_pe_ext_name(const struct ap_pe *pe, enum ap_ext_space space, uint32_t offset)
{
	struct ap_ext_frame f;
	frame_of(pe, &f);
	return ap_ext_name(&f, space, offset);
}

unsigned ap_pe_ext_natural_size(const struct ap_pe *pe, enum ap_ext_space space, uint32_t offset)
{
	struct ap_ext_frame f;
	frame_of(pe, &f);
	return ap_ext_natural_size(&f, space, offset);
}

enum ap_ext_space ap_pe_ext_default_space(const struct ap_pe *pe)
{
	return pe->pcsr.pcsr.cfg.feat_pcsrv8 ? AP_EXT_DEBUG : AP_EXT_PMU;
}
