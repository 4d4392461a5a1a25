/* The timing model's lifecycle (include/armprof/uarch.h): the default
 * configuration (a Neoverse N1 with a CMN-600 system cache), the system
 * shared by the cores and each core's private state, with the results a
 * common access or branch returns made once here from the configuration
 * (core.h). */
#include <stdlib.h>
#include <string.h>

#include "armprof/codec.h"
#include "armprof/error.h"
#include "armprof/uarch.h"
#include "core.h"

void ap_uarch_config_init(struct ap_uarch_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->size = sizeof(*cfg);
	/* Neoverse N1 (Arm TRM 100616): 64 KiB 4-way L1D, 1 MiB 8-way private
	 * L2, 64-byte lines; a CMN-600 system level cache, here 8 MiB 16-way. */
	cfg->l1d = (struct ap_cache_config){ 64 * 1024, 4, 64, 4 };
	cfg->l2 = (struct ap_cache_config){ 1024 * 1024, 8, 64, 11 };
	cfg->llc = (struct ap_cache_config){ 8 * 1024 * 1024, 16, 64, 35 };
	/* 48-entry fully associative L1 DTLB, 1280-entry 5-way L2 TLB. */
	cfg->page_bytes = 4096;
	cfg->l1tlb_entries = 48;
	cfg->l1tlb_ways = 48;
	cfg->l2tlb_entries = 1280;
	cfg->l2tlb_ways = 5;
	cfg->l1tlb_latency = 1;
	cfg->l2tlb_latency = 5;
	cfg->walk_latency = 30;
	cfg->peer_core_latency = 50;
	cfg->peer_cluster_latency = 90;
	cfg->dram_latency = 180;
	cfg->cores_per_cluster = 4;
	cfg->issue_latency = 2;
	cfg->exec_latency = 1;
	cfg->store_latency = 1;
	cfg->mispredict_penalty = 11;
	cfg->bp_history_bits = 14;
	cfg->btb_entries = 4096;
	cfg->ras_entries = 16;
	cfg->directory_bits = 20;
	cfg->prefetch_degree = 4;
	cfg->prefetch_streams = 4;
}

static int entries_of(const struct ap_cache_config *c)
{
	return c->size_bytes && c->line_bytes ? (int)(c->size_bytes / c->line_bytes) : 0;
}

int ap_uarch_system_create(struct ap_uarch_system **out, const struct ap_uarch_config *cfg)
{
	*out = NULL;
	if (!cfg || cfg->size < sizeof(*cfg) || cfg->directory_bits < 4 || cfg->directory_bits > 28 ||
	    !cfg->cores_per_cluster || !cfg->page_bytes || (cfg->page_bytes & (cfg->page_bytes - 1)) ||
	    !cfg->prefetch_streams || cfg->prefetch_streams > MAX_STREAMS)
		return -AP_ERR_INVALID;
	/* The private levels and the LLC must use one line size: a line moves
	 * between them whole. */
	if (cfg->l1d.line_bytes != cfg->l2.line_bytes || cfg->l2.line_bytes != cfg->llc.line_bytes ||
	    !cfg->l1d.size_bytes)
		return -AP_ERR_INVALID;
	struct ap_uarch_system *s = calloc(1, sizeof(*s));
	if (!s)
		return -AP_ERR_NOMEM;
	s->cfg = *cfg;
	int err = uarch_cache_init(&s->llc, (uint32_t)entries_of(&cfg->llc), cfg->llc.ways,
	                           cfg->llc.line_bytes, 1);
	s->dir_mask = ((uint64_t)1 << cfg->directory_bits) - 1;
	if (!err) {
		s->dir = calloc(s->dir_mask + 1, sizeof(*s->dir));
		if (!s->dir)
			err = -AP_ERR_NOMEM;
	}
	if (err) {
		ap_uarch_system_destroy(s);
		return err;
	}
	*out = s;
	return 0;
}

void ap_uarch_system_destroy(struct ap_uarch_system *sys)
{
	if (!sys)
		return;
	uarch_cache_fini(&sys->llc);
	free((void *)sys->dir);
	free(sys);
}
/* What an L1D hit on the line of the previous access returns (see
 * ap_uarch_core.same_line). */
static void same_line_result(const struct ap_uarch_config *cfg, enum ap_uarch_access_kind kind,
                             struct ap_uarch_result *out)
{
	out->lat_issue = cfg->issue_latency;
	out->lat_xlat = cfg->l1tlb_latency;
	out->events = AP_EV_L1D_ACCESS | AP_EV_TLB_ACCESS;
	out->mispredicted = 0;
	out->has_data_source = kind != AP_UARCH_STORE;
	out->data_source = AP_DS_L1D;
	out->lat_total = uarch_sat16((uint32_t)cfg->issue_latency + cfg->l1tlb_latency +
	                       (kind == AP_UARCH_STORE ? cfg->store_latency : cfg->l1d.latency));
}

/* What any other access returns (see ap_uarch_core.result): L1D access and
 * TLB access always; a walk, a refill past L1D, an LLC access past L2, an
 * LLC miss for DRAM; a load's latency is its data's level's, a store's the
 * store buffer's (spec/002 5.3.4: a store need not reach its end point to
 * be complete), and only a load has a data source. */
static void access_result(const struct ap_uarch_config *cfg, int store, enum uarch_xlat xl,
                          enum uarch_level lv, struct ap_uarch_result *out)
{
	static const uint16_t source[LV_COUNT] = { AP_DS_L1D,          AP_DS_L2,        AP_DS_PEER_CORE,
		                                   AP_DS_PEER_CLUSTER, AP_DS_SYS_CACHE, AP_DS_DRAM };
	const uint16_t xlat[XL_COUNT] = { cfg->l1tlb_latency, cfg->l2tlb_latency, cfg->walk_latency };
	const uint16_t lat[LV_COUNT] = { cfg->l1d.latency,          cfg->l2.latency,  cfg->peer_core_latency,
		                         cfg->peer_cluster_latency, cfg->llc.latency, cfg->dram_latency };
	memset(out, 0, sizeof(*out));
	out->lat_issue = cfg->issue_latency;
	out->lat_xlat = xlat[xl];
	out->events = AP_EV_L1D_ACCESS | AP_EV_TLB_ACCESS | (xl == XL_WALK ? AP_EV_TLB_WALK : 0) |
	              (lv != LV_L1D ? AP_EV_L1D_REFILL : 0) | (lv >= LV_PEER_CORE ? AP_EV_LLC_ACCESS : 0) |
	              (lv == LV_DRAM ? AP_EV_LLC_MISS : 0);
	out->mispredicted = 0;
	out->lat_total = uarch_sat16((uint32_t)cfg->issue_latency + xlat[xl] + (store ? cfg->store_latency : lat[lv]));
	out->has_data_source = !store;
	out->data_source = store ? 0 : source[lv];
}

/* What a branch returns (see ap_uarch_core.branch_result). */
static void branch_result(const struct ap_uarch_config *cfg, int mispredicted, int not_taken,
                          struct ap_uarch_result *out)
{
	out->lat_issue = cfg->issue_latency;
	out->lat_xlat = 0;
	out->lat_total = uarch_sat16((uint32_t)cfg->issue_latency + cfg->exec_latency +
	                       (mispredicted ? cfg->mispredict_penalty : 0));
	out->events = (mispredicted ? AP_EV_MISPREDICTED : 0) | (not_taken ? AP_EV_NOT_TAKEN : 0);
	out->has_data_source = 0;
	out->data_source = 0;
	out->mispredicted = (uint8_t)(mispredicted != 0);
}

int ap_uarch_core_create(struct ap_uarch_core **out, struct ap_uarch_system *sys, unsigned core_id)
{
	*out = NULL;
	if (!sys || core_id > 255)
		return -AP_ERR_INVALID;
	const struct ap_uarch_config *cfg = &sys->cfg;
	struct ap_uarch_core *c = calloc(1, sizeof(*c));
	if (!c)
		return -AP_ERR_NOMEM;
	c->sys = sys;
	c->id = core_id;
	int err = uarch_cache_init(&c->l1d, (uint32_t)entries_of(&cfg->l1d), cfg->l1d.ways,
	                           cfg->l1d.line_bytes, 0);
	if (!err)
		err = uarch_cache_init(&c->l2, (uint32_t)entries_of(&cfg->l2), cfg->l2.ways,
		                       cfg->l2.line_bytes, 0);
	if (!err)
		err = uarch_cache_init(&c->l1tlb, cfg->l1tlb_entries, cfg->l1tlb_ways, cfg->page_bytes, 0);
	if (!err)
		err = uarch_cache_init(&c->l2tlb, cfg->l2tlb_entries, cfg->l2tlb_ways, cfg->page_bytes, 0);
	if (!err)
		err = uarch_bpred_init(&c->bp, cfg->bp_history_bits, cfg->btb_entries, cfg->ras_entries);
	if (err) {
		ap_uarch_core_destroy(c);
		return err;
	}
	c->last_line = UINT64_MAX;
	same_line_result(cfg, AP_UARCH_LOAD, &c->same_line[0]);
	same_line_result(cfg, AP_UARCH_STORE, &c->same_line[1]);
	for (int m = 0; m < 2; m++)
		for (int n = 0; n < 2; n++)
			branch_result(cfg, m, n, &c->branch_result[m][n]);
	c->last_l1d_way = -1;
	c->l1_hit[0] = c->l1_hit[AP_UARCH_LOAD] = c->l1_hit[AP_UARCH_ATOMIC] = &c->same_line[0];
	c->l1_hit[AP_UARCH_STORE] = &c->same_line[1];
	c->prefetch_streams = cfg->prefetch_degree ? cfg->prefetch_streams : 0;
	c->shortcuts = c->l1d.small; /* the shortcut scans an L1D set by its order word */
	c->same_line_exact = c->l1d.sets > cfg->prefetch_degree;
	for (unsigned i = 0; i < MAX_STREAMS; i++)
		c->stream_line[i] = UINT64_MAX - 1;
	for (int st = 0; st < 2; st++)
		for (int xl = 0; xl < XL_COUNT; xl++)
			for (int lv = 0; lv < LV_COUNT; lv++)
				access_result(cfg, st, (enum uarch_xlat)xl, (enum uarch_level)lv, &c->result[st][xl][lv]);
	atomic_fetch_add_explicit(&sys->ncores, 1, memory_order_relaxed);
	c->counted = 1;
	*out = c;
	return 0;
}

void ap_uarch_core_destroy(struct ap_uarch_core *core)
{
	if (!core)
		return;
	if (core->counted)
		atomic_fetch_sub_explicit(&core->sys->ncores, 1, memory_order_relaxed);
	uarch_cache_fini(&core->l1d);
	uarch_cache_fini(&core->l2);
	uarch_cache_fini(&core->l1tlb);
	uarch_cache_fini(&core->l2tlb);
	uarch_bpred_fini(&core->bp);
	free(core);
}

const struct ap_uarch_stats *ap_uarch_core_stats(const struct ap_uarch_core *core)
{
	return &core->stats;
}

const uint64_t *ap_uarch_core_met_others(const struct ap_uarch_core *core)
{
	return &core->met_others;
}
