/* The timing model (see include/armprof/uarch.h): per-core L1D, L2, TLBs
 * and branch predictor; a shared LLC; and a coherence directory that lets a
 * core see lines another core has written (false sharing shows as loads
 * served by a peer core).
 *
 * Coherence is approximated with a hashed directory of 64-bit entries
 * {line tag, last writer, dirty, version}: a private line is stale when the
 * directory holds a newer version written by another core. Hash collisions
 * lose information (no peer is found), never invent a peer for a line that
 * was not written by one. */
#include <stdlib.h>
#include <string.h>

#include "armprof/codec.h"
#include "armprof/error.h"
#include "armprof/uarch.h"
#include "core.h"
#include "directory.h"
#include "shortcut.h"

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

static uint16_t sat16(uint32_t v)
{
	return v > 0xFFFF ? 0xFFFF : (uint16_t)v;
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
	out->lat_total = sat16((uint32_t)cfg->issue_latency + cfg->l1tlb_latency +
	                       (kind == AP_UARCH_STORE ? cfg->store_latency : cfg->l1d.latency));
}

/* What a branch returns (see ap_uarch_core.branch_result). */
static void branch_result(const struct ap_uarch_config *cfg, int mispredicted, int not_taken,
                          struct ap_uarch_result *out)
{
	out->lat_issue = cfg->issue_latency;
	out->lat_xlat = 0;
	out->lat_total = sat16((uint32_t)cfg->issue_latency + cfg->exec_latency +
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
	c->prev_line = UINT64_MAX;
	c->prev_l1d_way = -1;
	c->shortcuts = 1;
	c->same_line_exact = c->l1d.sets > cfg->prefetch_degree;
	for (unsigned i = 0; i < MAX_STREAMS; i++)
		c->stream[i].last_line = UINT64_MAX - 1;
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

/* ---- coherence directory (directory.h) ------------------------------------ */

static inline _Atomic uint64_t *dir_slot(struct ap_uarch_system *s, uint64_t line)
{
	return dir_slot_of(s->dir, s->dir_mask, s->cfg.directory_bits, line);
}

/* Look line up in a private cache; a copy that another core has written
 * since this core filled it is invalidated and counts as a miss. */
__attribute__((always_inline)) static inline int private_lookup(struct ap_uarch_core *core,
                                                               struct uarch_cache *c, uint64_t line,
                                                               const struct dir_view *d)
{
	int way = uarch_cache_lookup(c, line);
	if (way >= 0 && d->valid && d->writer != core->id + 1 && c->version[way] != d->version) {
		uarch_cache_invalidate(c, way);
		core->met_others++;
		return -1;
	}
	return way;
}

__attribute__((always_inline)) static inline int private_fill(struct uarch_cache *c, uint64_t line,
                                                             uint32_t version)
{
	int way = uarch_cache_fill(c, line);
	if (way >= 0)
		c->version[way] = version;
	return way;
}

/* A fill of line into the core's L2 (its last private level), with the
 * write-back of the line it evicts: a line this core holds dirty and no
 * longer has in L1D or L2 went to memory, so the directory stops naming
 * this core as the one to snoop (without it, a thread that moved to
 * another core, or the kernel zeroing pages on one CPU for a program on
 * another, would find every line it wrote long ago "in a peer core").
 * Only with the directory (shared); a victim still in L1D stays dirty. */
static int l2_fill(struct ap_uarch_core *core, uint64_t line, uint32_t version, int shared)
{
	uint64_t victim = shared ? uarch_cache_victim(&core->l2, line) : UINT64_MAX;
	int way = private_fill(&core->l2, line, version);
	if (victim != UINT64_MAX && !uarch_cache_holds(&core->l1d, victim)) {
		_Atomic uint64_t *slot = dir_slot(core->sys, victim);
		struct dir_view d = dir_read(slot, victim);
		if (d.valid && d.dirty && d.writer == core->id + 1)
			dir_write(slot, victim, d.writer, 0, d.version);
	}
	return way;
}

/* ---- operations ------------------------------------------------------------ */

static uint16_t translate(struct ap_uarch_core *core, uint64_t vaddr, uint64_t *events)
{
	const struct ap_uarch_config *cfg = &core->sys->cfg;
	uint64_t page = uarch_cache_line(&core->l1tlb, vaddr);
	*events |= AP_EV_TLB_ACCESS;
	if (uarch_cache_lookup(&core->l1tlb, page) >= 0)
		return cfg->l1tlb_latency;
	core->stats.tlb_l1_misses++;
	uarch_cache_fill(&core->l1tlb, page);
	if (uarch_cache_lookup(&core->l2tlb, page) >= 0)
		return cfg->l2tlb_latency;
	uarch_cache_fill(&core->l2tlb, page);
	core->stats.tlb_walks++;
	*events |= AP_EV_TLB_WALK;
	return cfg->walk_latency;
}

/* Bring line into the private caches without an access. */
static void prefetch_line(struct ap_uarch_core *core, uint64_t line)
{
	if (uarch_cache_lookup(&core->l1d, line) >= 0)
		return;
	private_fill(&core->l1d, line, 0);
	/* The core's prefetcher fills its private levels; the LLC (a
	 * non-inclusive system cache) does not allocate prefetched lines. */
	if (uarch_cache_lookup(&core->l2, line) < 0)
		l2_fill(core, line, 0, atomic_load_explicit(&core->sys->ncores, memory_order_relaxed) > 1);
}

/* Stream detection on each new line: a line following a tracked stream's
 * last line advances it (and prefetches); anything else starts a stream. */
static void train_prefetcher(struct ap_uarch_core *core, uint64_t line)
{
	const struct ap_uarch_config *cfg = &core->sys->cfg;
	unsigned n = cfg->prefetch_streams;
	for (unsigned i = 0; i < n; i++) {
		struct prefetch_stream *s = &core->stream[i];
		/* One comparison for the two cases: the stream's last line
		 * (nothing to do), or the line after it (the stream advances). */
		uint64_t ahead = line - s->last_line;
		if (ahead > 1)
			continue;
		if (ahead == 0)
			return;
		s->last_line = line;
		if (!s->confirmed) {
			s->confirmed = 1;
			for (unsigned k = 1; k <= cfg->prefetch_degree; k++)
				prefetch_line(core, line + k);
		} else {
			prefetch_line(core, line + cfg->prefetch_degree);
		}
		return;
	}
	struct prefetch_stream *s = &core->stream[core->stream_next];
	core->stream_next = core->stream_next + 1 < n ? core->stream_next + 1 : 0;
	s->last_line = line;
	s->confirmed = 0;
}

static void access_slow(struct ap_uarch_core *core, uint64_t line, uint64_t vaddr, int shared,
                        enum ap_uarch_access_kind kind, struct ap_uarch_result *out);

/* A store's new version of line, which this core holds in L1D entry way
 * (same_line_shared): out of line, so that the common same-line access
 * saves no registers for its L2 lookup. */
__attribute__((noinline)) static void take_ownership(struct ap_uarch_core *core, _Atomic uint64_t *slot,
                                                     uint64_t line, int way, uint32_t version)
{
	version &= (uint32_t)DIR_VERSION_MASK;
	dir_write(slot, line, core->id + 1, 1, version);
	core->l1d.version[way] = version;
	int w2 = uarch_cache_lookup(&core->l2, line);
	if (w2 >= 0)
		core->l2.version[w2] = version;
}

/* A load or store to the line of the previous access while other cores
 * exist: what access_slow would do when the directory shows no newer write
 * by another core (an L1D hit; the L1 DTLB and L1D order do not change; a
 * store takes ownership), without its lookups. When the slow path is
 * needed (the copy is stale, or gone), it goes there having changed
 * nothing. Every call here is a tail call, so that neither this nor the
 * entry point saves registers for the common case. */
__attribute__((noinline)) static void same_line_shared(struct ap_uarch_core *core, uint64_t line,
                                                       uint64_t vaddr, enum ap_uarch_access_kind kind,
                                                       struct ap_uarch_result *out)
{
	struct uarch_cache *l1 = &core->l1d;
	int way = core->last_l1d_way;
	if (way < 0 || atomic_load_explicit(&l1->tag[way], memory_order_relaxed) != line + 1) {
		access_slow(core, line, vaddr, 1, kind, out);
		return;
	}
	_Atomic uint64_t *slot = dir_slot(core->sys, line);
	struct dir_view d = dir_read(slot, line);
	if (d.valid && d.writer != core->id + 1 && l1->version[way] != d.version) {
		access_slow(core, line, vaddr, 1, kind, out); /* another core wrote it: invalidated there */
		return;
	}
	/* A store takes ownership with a new version, which makes every other
	 * core's copy stale. Unless this core owns the line dirty already at
	 * the version its copy holds: then no other core has filled that
	 * version since (a fill from here clears dirty, see access_slow), so
	 * every other copy is stale already and a new version would change no
	 * outcome. The common case of a thread writing its own data. */
	if (kind == AP_UARCH_STORE &&
	    !(d.valid && d.dirty && d.writer == core->id + 1 && l1->version[way] == d.version))
		take_ownership(core, slot, line, way, d.valid ? d.version + 1 : 1);
	same_line_hit(core, kind, out);
}

/* A single core's access to the line before the previous one: the
 * shortcut (shortcut.h) or, when it does not apply, the slow path. Out of
 * line for the same reason as same_line_shared. */
__attribute__((noinline)) static void prev_line_access(struct ap_uarch_core *core, uint64_t line,
                                                       uint64_t vaddr, enum ap_uarch_access_kind kind,
                                                       struct ap_uarch_result *out)
{
	if (!prev_line_hit(core, line, vaddr, kind, out))
		access_slow(core, line, vaddr, 0, kind, out);
}

/* An access of the cache line line (by the cache's address) at virtual
 * address vaddr (by the TLBs'). */
__attribute__((always_inline)) static inline void access_line(struct ap_uarch_core *core, uint64_t line,
                                                             uint64_t vaddr, enum ap_uarch_access_kind kind,
                                                             struct ap_uarch_result *out)
{
	/* With one core there is nobody to share with: skip the directory. */
	int shared = atomic_load_explicit(&core->sys->ncores, memory_order_relaxed) > 1;

	if (line == core->last_line) {
		/* The line (and its page) of the previous access: with one core
		 * an L1D and L1 DTLB hit that is already the most recent entry
		 * of its set, so nothing in the model changes. Exact, and the
		 * common case of sequential code. */
		if (!shared)
			same_line_hit(core, kind, out);
		else if (kind != AP_UARCH_ATOMIC && core->same_line_exact)
			same_line_shared(core, line, vaddr, kind, out);
		else
			access_slow(core, line, vaddr, 1, kind, out);
		return;
	}
	/* (prev_line differs from last_line: see access_slow.) */
	if (line == core->prev_line && !shared)
		prev_line_access(core, line, vaddr, kind, out);
	else
		access_slow(core, line, vaddr, shared, kind, out);
}

void ap_uarch_access(struct ap_uarch_core *core, uint64_t vaddr, unsigned size,
                     enum ap_uarch_access_kind kind, struct ap_uarch_result *out)
{
	(void)size;
	access_line(core, uarch_cache_line(&core->l1d, vaddr), vaddr, kind, out);
}

void ap_uarch_access_pa(struct ap_uarch_core *core, uint64_t vaddr, uint64_t paddr,
                        enum ap_uarch_access_kind kind, struct ap_uarch_result *out)
{
	access_line(core, uarch_cache_line(&core->l1d, paddr), vaddr, kind, out);
}

int ap_uarch_access_repeat(struct ap_uarch_core *core, uint64_t vaddr, enum ap_uarch_access_kind kind,
                           uint64_t count, struct ap_uarch_result *out)
{
	/* ap_uarch_access's fast path, count times: nothing but the
	 * statistics changes, so the accesses need not be made one by one. */
	if (uarch_cache_line(&core->l1d, vaddr) != core->last_line ||
	    atomic_load_explicit(&core->sys->ncores, memory_order_relaxed) > 1)
		return 0;
	if (kind == AP_UARCH_STORE)
		core->stats.stores += count;
	else
		core->stats.loads += count;
	*out = core->same_line[kind == AP_UARCH_STORE];
	return 1;
}

void ap_uarch_warm(struct ap_uarch_core *core, uint64_t vaddr, enum ap_uarch_access_kind kind)
{
	uint64_t line = uarch_cache_line(&core->l1d, vaddr);
	if (line == core->last_line &&
	    atomic_load_explicit(&core->sys->ncores, memory_order_relaxed) <= 1)
		return; /* ap_uarch_access's fast path: only statistics change */
	/* Rare enough (a line change) to afford keeping the statistics
	 * aside rather than threading a flag through every path. */
	struct ap_uarch_stats kept = core->stats;
	struct ap_uarch_result ignored;
	ap_uarch_access(core, vaddr, 0, kind, &ignored);
	core->stats = kept;
}

/* Everything but the same-line fast path; out of line so that the fast
 * path stays small enough to inline into a caller (the QEMU plugin). */
__attribute__((noinline)) static void access_slow(struct ap_uarch_core *core, uint64_t line,
                                                  uint64_t vaddr, int shared,
                                                  enum ap_uarch_access_kind kind,
                                                  struct ap_uarch_result *out)
{
	struct ap_uarch_system *sys = core->sys;
	const struct ap_uarch_config *cfg = &sys->cfg;
	uint64_t events = AP_EV_L1D_ACCESS;
	_Atomic uint64_t *slot = shared ? dir_slot(sys, line) : NULL;
	/* The directory is large and read at random: start fetching the
	 * line's entry into the host cache while the TLBs are looked up. */
	if (shared)
		__builtin_prefetch((const void *)slot);
	uint16_t xlat = translate(core, vaddr, &events);
	struct dir_view d = { 0, 0, 0, 0 };
	if (shared)
		d = dir_read(slot, line);
	uint32_t lat;
	uint16_t source;

	count_access(core, kind);
	uint64_t met_before = core->met_others;

	int l1_way = private_lookup(core, &core->l1d, line, &d);
	if (l1_way >= 0) {
		lat = cfg->l1d.latency;
		source = AP_DS_L1D;
	} else {
		events |= AP_EV_L1D_REFILL;
		core->stats.l1d_misses++;
		if (private_lookup(core, &core->l2, line, &d) >= 0) {
			lat = cfg->l2.latency;
			source = AP_DS_L2;
		} else {
			core->stats.l2_misses++;
			events |= AP_EV_LLC_ACCESS;
			if (d.valid && d.dirty && d.writer && d.writer != core->id + 1) {
				/* Dirty in another core's private cache: snooped. */
				unsigned other = d.writer - 1;
				int same_cluster = other / cfg->cores_per_cluster == core->id / cfg->cores_per_cluster;
				lat = same_cluster ? cfg->peer_core_latency : cfg->peer_cluster_latency;
				source = same_cluster ? AP_DS_PEER_CORE : AP_DS_PEER_CLUSTER;
				core->stats.peer_hits++;
				core->met_others++;
				if (kind == AP_UARCH_LOAD && shared)
					dir_write(slot, line, d.writer, 0, d.version); /* now shared */
				if (uarch_cache_lookup(&sys->llc, line) < 0)
					uarch_cache_fill(&sys->llc, line);
			} else if (uarch_cache_lookup(&sys->llc, line) >= 0) {
				lat = cfg->llc.latency;
				source = AP_DS_SYS_CACHE;
			} else {
				events |= AP_EV_LLC_MISS;
				core->stats.llc_misses++;
				uarch_cache_fill(&sys->llc, line);
				lat = cfg->dram_latency;
				source = AP_DS_DRAM;
			}
			l2_fill(core, line, d.version, shared);
		}
		l1_way = private_fill(&core->l1d, line, d.version);
	}
	if (line != core->last_line) {
		core->prev_line = core->last_line;
		core->prev_l1d_way = core->last_l1d_way;
	}
	core->last_l1d_way = l1_way;
	/* Stale in L1D and L2, then from the peer: one meeting. */
	if (core->met_others != met_before)
		core->met_others = met_before + 1;

	if (kind != AP_UARCH_LOAD && shared) {
		/* Take ownership: the line's new version is this core's write. */
		uint32_t version = (d.valid ? d.version + 1 : 1) & (uint32_t)DIR_VERSION_MASK;
		dir_write(slot, line, core->id + 1, 1, version);
		int way = uarch_cache_lookup(&core->l1d, line);
		if (way >= 0)
			core->l1d.version[way] = version;
		way = uarch_cache_lookup(&core->l2, line);
		if (way >= 0)
			core->l2.version[way] = version;
	}

	if (cfg->prefetch_degree && line != core->last_line)
		train_prefetcher(core, line);
	core->last_line = line;

	out->lat_issue = cfg->issue_latency;
	out->lat_xlat = xlat;
	out->events = events;
	out->mispredicted = 0;
	if (kind == AP_UARCH_STORE) {
		/* A store completes once it is in the store buffer (spec/002
		 * 5.3.4: a store need not reach its end point to be complete). */
		out->lat_total = sat16((uint32_t)cfg->issue_latency + xlat + cfg->store_latency);
		out->has_data_source = 0;
		out->data_source = 0;
	} else {
		out->lat_total = sat16((uint32_t)cfg->issue_latency + xlat + lat);
		out->has_data_source = 1;
		out->data_source = source;
	}
}

/* ap_uarch_branch_train of a branch that is not only conditional (a call,
 * a return, an indirect or direct unconditional branch): out of line, so
 * that the common conditional branch saves no registers for it. */
__attribute__((noinline)) static int branch_train_other(struct ap_uarch_core *core, uint64_t pc,
                                                        uint64_t target, unsigned flags, int taken)
{
	core->stats.branches++;
	int miss = uarch_bpred_update(&core->bp, pc, target, flags, taken);
	core->stats.mispredicts += (uint64_t)miss;
	return miss;
}

int ap_uarch_branch_train(struct ap_uarch_core *core, uint64_t pc, uint64_t target, unsigned flags,
                          int taken)
{
	if (flags != AP_UARCH_BR_COND)
		return branch_train_other(core, pc, target, flags, taken);
	/* The two counters are updated apart (the predictor's work in
	 * between): side by side, GCC merged them into one vector addition
	 * that takes more instructions than the two. */
	core->stats.branches++;
	int miss = uarch_bpred_direction(&core->bp, pc, taken);
	core->stats.mispredicts += (uint64_t)miss;
	return miss;
}

int ap_uarch_branch_repeat(struct ap_uarch_core *core, uint64_t pc, uint64_t target, unsigned flags,
                           int taken, uint64_t count)
{
	if (!uarch_bpred_update_is_noop(&core->bp, pc, target, flags, taken))
		return 0;
	core->stats.branches += count;
	return 1;
}

void ap_uarch_branch_result(const struct ap_uarch_core *core, unsigned flags, int taken,
                            int mispredicted, struct ap_uarch_result *out)
{
	*out = core->branch_result[mispredicted != 0][(flags & AP_UARCH_BR_COND) && !taken];
}

/* ap_uarch_branch of a branch that is not only conditional (see
 * branch_train_other). */
__attribute__((noinline)) static void branch_other(struct ap_uarch_core *core, uint64_t pc,
                                                   uint64_t target, unsigned flags, int taken,
                                                   struct ap_uarch_result *out)
{
	int miss = branch_train_other(core, pc, target, flags, taken);
	ap_uarch_branch_result(core, flags, taken, miss, out);
}

void ap_uarch_branch(struct ap_uarch_core *core, uint64_t pc, uint64_t target, unsigned flags,
                     int taken, struct ap_uarch_result *out)
{
	if (flags != AP_UARCH_BR_COND) {
		branch_other(core, pc, target, flags, taken, out);
		return;
	}
	core->stats.branches++;
	int miss = uarch_bpred_direction(&core->bp, pc, taken);
	core->stats.mispredicts += (uint64_t)miss;
	*out = core->branch_result[miss][!taken];
}

void ap_uarch_other(struct ap_uarch_core *core, struct ap_uarch_result *out)
{
	const struct ap_uarch_config *cfg = &core->sys->cfg;
	memset(out, 0, sizeof(*out));
	out->lat_issue = cfg->issue_latency;
	out->lat_total = sat16((uint32_t)cfg->issue_latency + cfg->exec_latency);
}
