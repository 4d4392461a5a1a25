/* The SPE sampling engine: the population operations of a PE go through
 * the interval counter (3.1), selected ones become in-flight samples that
 * may collide (2.2.4, 3.1.4), complete, pass the filters (3.2) and are
 * written to the Profiling Buffer (3.4, 3.5), with the PMU events of 2.6
 * and the CTI trigger of 2.7. The per-operation entry points are in
 * ops.c; this file holds the engine's state keeping and the record path. */
#include "model/spe/engine_internal.h"

#include <string.h>

#include "model/pe.h"
#include "model/spe/buffer.h"
#include "model/spe/collect.h"
#include "model/spe/filter.h"
#include "model/spe/later.h"
#include "model/spe/record_build.h"

/* ---- accounting the members consumed on the fast path ---- */

void ap_spe_account(struct ap_pe *pe)
{
	struct ap_spe_engine *e = &pe->spe;
	uint64_t used = e->fast_start - e->fast_left;
	if (!used)
		return;
	if (e->enabled) {
		ap_spe_icr_consume(&e->icr, used); /* 3.1.2: decrement per member */
		e->counts.sample_pop += used;      /* SPE-T1-row1 */
	}
	for (unsigned i = 0; i < e->n_in_flight; i++)
		e->in_flight[i].remaining -= used; /* fast_left kept them >= 1 */
	e->fast_start = e->fast_left;
}

void ap_spe_refresh_fast(struct ap_pe *pe)
{
	struct ap_spe_engine *e = &pe->spe;
	uint64_t f = e->enabled ? ap_spe_icr_fast(&e->icr) : UINT64_MAX;
	for (unsigned i = 0; i < e->n_in_flight; i++)
		if (e->in_flight[i].remaining - 1 < f)
			f = e->in_flight[i].remaining - 1;
	e->fast_left = e->fast_start = f;
}

static struct ap_spe_collect_view collect_view(const struct ap_pe *pe)
{
	struct ap_spe_owner o = ap_spe_buffer_owner(pe);
	struct ap_spe_collect_view v = {
		.enabled = pe->spe.enabled, .el = pe->st.el, .secure = ap_is_secure(pe),
		.have_el2 = pe->cfg.have_el2, .tge = ap_tge(pe), .owner_secure = o.secure,
		.owner_el = o.el, .pmscr_el1 = pe->spe_regs.pmscr_el1, .pmscr_el2 = pe->spe_regs.pmscr_el2,
	};
	return v;
}


static unsigned in_flight_cap(const struct ap_spe_config *c)
{
	uint32_t cap = c->max_in_flight;
	return cap == 0 ? 1 : cap > AP_SPE_MAX_IN_FLIGHT ? AP_SPE_MAX_IN_FLIGHT : (unsigned)cap;
}

/* The collection controls (3.3.1), the record and filter choices: fixed
 * between two syncs, so computed here and not per record. */
static void cache_decisions(struct ap_pe *pe)
{
	struct ap_spe_engine *e = &pe->spe;
	const struct ap_spe_config *c = &pe->cfg.spe;
	struct ap_spe_collect_view v = collect_view(pe);
	enum ap_spe_ts_kind ts = ap_spe_collect_timestamp(&v);
	if (ts != AP_SPE_TS_NONE && !pe->st.timer_enabled && !c->ts_when_timer_disabled)
		ts = AP_SPE_TS_NONE; /* SPE-2.3-3: as if timestamps were disabled */
	struct ap_spe_record_ctl ctl = {
		.el = pe->st.el, .ns = !ap_is_secure(pe),
		.ctx1 = ap_spe_collect_contextidr1(&v), .ctx2 = ap_spe_collect_contextidr2(&v),
		.contextidr_el1 = (uint32_t)pe->st.contextidr_el1,
		.contextidr_el2 = (uint32_t)pe->st.contextidr_el2,
		.ts = ts != AP_SPE_TS_NONE, .pa = ap_spe_collect_physical_address(&v), .lds = c->lds,
		.pbt = pe->cfg.spe_later.pbt, .crr = pe->cfg.spe_later.crr,
	};
	e->ctl = ctl;
	e->ts_kind = (uint8_t)ts;
	e->in_flight_cap = (uint8_t)in_flight_cap(c);
	struct ap_spe_record_policy pol = {
		.exception_minimal = c->exception_minimal, .cond_fail_target = c->cond_fail_target,
		.eret_disabled_target = c->eret_disabled_target, .pa_on_perm_af = c->pa_on_perm_af,
		.ds_on_ext_abort = c->ds_on_ext_abort, .ds_atomic_noreturn = c->ds_atomic_noreturn,
	};
	e->policy = pol;
	struct ap_spe_filter_regs fr = { pe->spe_regs.pmsfcr_el1, pe->spe_regs.pmsevfr_el1,
	                                 pe->spe_regs.pmslatfr_el1 };
	e->filter = fr;
	struct ap_spe_filter_policy fp = { c->fe_zero_discards, c->ft_none_discards, c->fl_zero_discards };
	e->filter_policy = fp;
	const struct ap_spe_later_config *l = &pe->cfg.spe_later;
	struct ap_spe_filter_later fl = {
		.pmsnevfr = pe->spe_regs.pmsnevfr_el1, .pmsdsfr = pe->spe_regs.pmsdsfr_el1,
		.events = ap_spe_later_event_bits(&pe->cfg), .eft = l->eft,
		.fne_zero_discards = l->fne_zero_discards, .fne_overlap_discards = l->fne_overlap_discards,
	};
	e->filter_later = fl;
	/* LATER-DIS-1: FM == 0b10 is discard mode from FEAT_SPEv1p2; before it
	 * the value is reserved and the model keeps filling the buffer. */
	unsigned fm = (unsigned)(pe->spe_regs.pmblimitr_el1 >> AP_PMBLIMITR_FM_SHIFT) & 3u;
	e->discard_mode = ap_spe_version(&pe->cfg) >= AP_SPE_V1P2 && fm == AP_PMBLIMITR_FM_DISCARD;
}

/* Re-read everything the engine caches from the registers, configuration
 * and state. Call with the consumed members already accounted. */
static void sync(struct ap_pe *pe)
{
	struct ap_spe_engine *e = &pe->spe;
	const struct ap_spe_config *c = &pe->cfg.spe;
	ap_spe_icr_params(&e->icr, pe->spe_regs.pmsirr_el1, c->ernd, c->sample_next_op, c->unknown_interval);
	bool now = ap_spe_profiling_enabled(pe);
	if (now && !e->enabled)
		ap_spe_icr_enable(&e->icr, &e->rng); /* 3.1.1 */
	e->enabled = now; /* 3.1.3: frozen while FALSE */
	e->excluded_flags = (c->exclude_misspeculated ? AP_SPE_OPF_MISSPEC : 0) |
	                    (c->exclude_not_arch ? AP_SPE_OPF_NOT_ARCH : 0) |
	                    (c->exclude_nonarch_exc ? AP_SPE_OPF_NONARCH_EXC : 0);
	cache_decisions(pe);
	ap_spe_refresh_fast(pe);
}

void ap_spe_resync(struct ap_pe *pe)
{
	ap_spe_account(pe);
	sync(pe);
}

/* ---- hooks called by the PE core ---- */

void ap_spe_engine_reset(struct ap_pe *pe)
{
	struct ap_spe_engine *e = &pe->spe;
	memset(e, 0, sizeof(*e));
	ap_spe_rng_seed(&e->rng, pe->cfg.seed); /* SPE-2.2.2-2: usable from reset */
	ap_spe_icr_load(&e->icr, pe->spe_regs.pmsicr_el1);
	e->enabled = 0;
	sync(pe);
}

void ap_spe_engine_state_changed(struct ap_pe *pe, const struct ap_pe_state *old)
{
	(void)old; /* members so far ran in the old state: e->enabled still says how */
	ap_spe_resync(pe);
}

void ap_spe_engine_sysreg_written(struct ap_pe *pe, uint32_t reg)
{
	struct ap_spe_engine *e = &pe->spe;
	ap_spe_account(pe);
	if (reg == AP_PMSICR_EL1) {
		ap_spe_icr_load(&e->icr, pe->spe_regs.pmsicr_el1);
	} else if (reg == AP_PMBSR_EL1 && (pe->spe_regs.pmbsr_el1 & AP_PMBSR_S)) {
		/* A direct write of S = 1 (3.5): the buffer is disabled and the
		 * records the PE still holds are discarded (SPE-3.5-10). */
		e->counts.records_discarded += e->n_held;
		e->n_held = 0;
	}
	sync(pe);
}

uint64_t ap_spe_engine_read_pmsicr(const struct ap_pe *pe, const struct ap_sysreg *r)
{
	(void)r;
	const struct ap_spe_engine *e = &pe->spe;
	struct ap_spe_icr now = e->icr;
	if (e->enabled)
		ap_spe_icr_consume(&now, e->fast_start - e->fast_left);
	return ap_spe_icr_value(&now);
}

/* ---- management events and writing records ---- */

/* After PMBSR_EL1.S became 1 (3.5): PMBIRQ, drop held records, profiling
 * is now disabled. */
static void after_event(struct ap_pe *pe)
{
	struct ap_spe_engine *e = &pe->spe;
	e->counts.mgmt_events++;
	e->counts.records_discarded += e->n_held; /* SPE-3.5-10 */
	e->n_held = 0;
	ap_pe_update_pmbirq(pe); /* SPE-3.5-4 */
	sync(pe);
}

static void write_record(struct ap_pe *pe, const uint8_t *bytes, uint32_t len)
{
	struct ap_spe_engine *e = &pe->spe;
	const struct ap_spe_config *c = &pe->cfg.spe;
	struct ap_spe_regs *sr = &pe->spe_regs;
	if (sr->pmbsr_el1 & AP_PMBSR_S) { /* SPE-3.5-9/10: disabled, discarded */
		e->counts.records_discarded++;
		return;
	}
	if (e->discard_mode) {
		/* LATER-DIS-2: discard mode: the record is not written, PMBPTR_EL1
		 * does not move, no management event; the PMU events of 2.6
		 * were counted on the way here. */
		e->counts.records_discarded++;
		return;
	}
	if (!ap_spe_buffer_enabled(pe)) {
		/* SPE-3.6.1-2: the buffer was disabled under a pending record. */
		if (c->late_disable == AP_SPE_LATE_DISCARD) {
			e->counts.records_discarded++;
			return;
		}
		if (c->late_disable == AP_SPE_LATE_DISCARD_EVENT) {
			e->counts.records_discarded++;
			ap_spe_mgmt_event(&sr->pmbsr_el1, AP_PMBSR_EC_OTHER, 0, true); /* SPE-3.6.1-3 */
			after_event(pe);
			return;
		}
		/* AP_SPE_LATE_WRITE: written to memory as if enabled. */
	}
	struct ap_spe_buffer_regs br = { sr->pmbptr_el1, sr->pmblimitr_el1, sr->pmbsr_el1 };
	struct ap_spe_buffer_params bp = { c->max_size, c->align, c->ext_abort, c->bad_ptr,
	                                   c->bad_ptr_data_loss };
	uint64_t before = br.pmbptr;
	unsigned out = ap_spe_buffer_write(&br, &bp, &pe->host, bytes, len);
	sr->pmbptr_el1 = br.pmbptr;
	sr->pmbsr_el1 = br.pmbsr;
	if (out & AP_SPE_WR_WRITTEN) {
		e->counts.records_written++;
		e->counts.bytes_written += br.pmbptr - before;
		if (pe->host.cti_trigger) /* 2.7: CTI input trigger 2 per record written */
			pe->host.cti_trigger(pe->host.ctx, 2);
	} else {
		e->counts.records_discarded++;
	}
	if (out & AP_SPE_WR_SERROR)
		e->counts.serrors++;
	if (out & AP_SPE_WR_EVENT)
		after_event(pe);
}

void ap_spe_drain_held(struct ap_pe *pe, unsigned keep)
{
	struct ap_spe_engine *e = &pe->spe;
	while (e->n_held > keep) {
		struct ap_spe_held h = e->held[e->held_first];
		e->held_first = (e->held_first + 1) % AP_SPE_MAX_HELD;
		e->n_held--;
		write_record(pe, h.bytes, h.len); /* may empty the ring (after_event) */
	}
}

static unsigned hold_limit(const struct ap_pe *pe)
{
	unsigned h = pe->cfg.spe.record_hold;
	return h > AP_SPE_MAX_HELD ? AP_SPE_MAX_HELD : h;
}

/* The timestamp value of a record (3.3, 5.3.10). */
static uint64_t timestamp(const struct ap_pe *pe, unsigned kind)
{
	uint64_t (*fn)(void *) = kind == AP_SPE_TS_PHYSICAL ? pe->host.cntpct : pe->host.cntvct;
	return fn ? fn(pe->host.ctx) : 0;
}

/* 2.2.1 step 6: the sampled operation completed; its record is captured. */
void ap_spe_complete(struct ap_pe *pe, unsigned slot)
{
	struct ap_spe_engine *e = &pe->spe;
	struct ap_spe_in_flight *f = &e->in_flight[slot];
	/* SPE-2.3.5-3: a record not captured is not counted; one removed by
	 * filtering (2.4) is not written. */
	if (f->captured && f->kept) {
		e->counts.sample_filtrate++; /* SPE-T1-row3 */
		if (f->ts_kind != AP_SPE_TS_NONE) { /* the Timestamp payload ends the record */
			uint64_t ts = timestamp(pe, f->ts_kind);
			for (int i = 0; i < 8; i++)
				f->bytes[f->len - 8 + i] = (uint8_t)(ts >> (8 * i));
		}
		unsigned limit = hold_limit(pe);
		if (limit == 0) {
			write_record(pe, f->bytes, f->len); /* does not touch in_flight[] */
		} else {
			unsigned idx = (e->held_first + e->n_held) % AP_SPE_MAX_HELD;
			e->held[idx].len = f->len;
			memcpy(e->held[idx].bytes, f->bytes, f->len);
			e->n_held++;
			ap_spe_drain_held(pe, limit);
		}
	}
	if (slot != --e->n_in_flight) /* the last slot moves into this one */
		e->in_flight[slot] = e->in_flight[e->n_in_flight];
}

/* ---- taking a sample ---- */

/* SPE-5.3.1-7: is profiling disabled at the target of this exception return? */
static bool eret_to_disabled(struct ap_pe *pe, const struct ap_spe_op *op)
{
	if (!(op->flags & AP_SPE_OPF_ERET))
		return false;
	uint8_t el = pe->st.el;
	pe->st.el = op->target_el & 3u;
	bool on = ap_spe_profiling_enabled(pe);
	pe->st.el = el;
	return !on;
}

void ap_spe_take_sample(struct ap_pe *pe, const struct ap_spe_op *op, bool collides)
{
	struct ap_spe_engine *e = &pe->spe;
	const struct ap_spe_config *c = &pe->cfg.spe;
	if (collides) {
		/* 3.1.4: SAMPLE_COLLISION and PMBSR_EL1.COLL; the new sample is
		 * not taken (gap SPE-3.1.4-5) and not counted by SAMPLE_FEED. */
		e->counts.sample_collision++;
		pe->spe_regs.pmbsr_el1 |= AP_PMBSR_COLL;
		return;
	}
	e->counts.sample_feed++; /* SPE-T1-row2 */

	struct ap_spe_in_flight *f = &e->in_flight[e->n_in_flight++];
	f->remaining = op->inflight;
	f->captured = !(op->flags & (AP_SPE_OPF_MISSPEC | AP_SPE_OPF_NONARCH_EXC)) || c->misspeculated_written;
	f->kept = 0;
	f->ts_kind = AP_SPE_TS_NONE;
	f->len = 0;
	if (f->captured) {
		struct ap_spe_record_ctl ctl = e->ctl;
		if (ctl.ts)
			ctl.ts_value = timestamp(pe, e->ts_kind);
		if (op->flags & AP_SPE_OPF_ERET)
			ctl.eret_to_disabled = eret_to_disabled(pe, op);
		struct ap_record rec;
		ap_spe_build_record(&rec, op, &ctl, &e->policy);
		struct ap_record_encode_opts enc = { .events_size = (uint8_t)c->events_size };
		int n = ap_record_encode(f->bytes, sizeof(f->bytes), &rec, &enc);
		f->len = n > 0 ? (uint8_t)n : 0; /* n < 0 cannot happen: no IMP DEF values */
		f->kept = ap_spe_collect_record_later(&e->filter, &e->filter_policy, &e->filter_later,
		                                      rec.events, op->lat_total, ap_spe_op_type_bits(op)) &&
		          ap_spe_collect_data_source(&e->filter, &e->filter_later,
		                                     (ap_spe_op_type_bits(op) & AP_SPE_TYPE_LOAD) != 0,
		                                     (rec.has & AP_HAS_DATA_SOURCE) != 0, rec.data_source);
		if (c->ts_at_completion && ctl.ts)
			f->ts_kind = e->ts_kind; /* SPE-2.3-2: patched when it completes */
	}
	if (f->remaining == 0)
		ap_spe_complete(pe, e->n_in_flight - 1);
}
