/* The timing model's access path (see include/armprof/uarch.h): per-core
 * L1D, L2 and TLBs, a prefetcher, a shared LLC, and a coherence directory
 * that lets a core see lines another core has written (false sharing shows
 * as loads served by a peer core). The rest of the model: lifecycle.c
 * (configuration, system and cores), branch.c (the predictor's entry
 * points).
 *
 * Coherence is approximated with a hashed directory of 64-bit entries
 * {line tag, last writer, dirty, version}: a private line is stale when the
 * directory holds a newer version written by another core. Hash collisions
 * lose information (no peer is found), never invent a peer for a line that
 * was not written by one. */
#include "armprof/codec.h"
#include "armprof/error.h"
#include "armprof/uarch.h"
#include "core.h"
#include "directory.h"
#include "shortcut.h"

/* ---- coherence directory (directory.h) ------------------------------------ */

static inline _Atomic uint64_t *dir_slot(struct ap_uarch_system *s, uint64_t line)
{
	return dir_slot_of(s->dir, s->dir_mask, s->cfg.directory_bits, line);
}

/* Look line up in a private cache; a copy that another core has written
 * since this core filled it is invalidated and counts as a miss. */
__attribute__((always_inline)) static inline int private_lookup(struct ap_uarch_core *core,
                                                               struct uarch_cache *c, uint64_t line,
                                                               const struct dir_view *d, int scan_first)
{
	int way = scan_first && c->small ? uarch_cache_lookup_set(c, line) : uarch_cache_lookup(c, line);
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

static enum uarch_xlat translate(struct ap_uarch_core *core, uint64_t vaddr)
{
	uint64_t page = uarch_cache_line(&core->l1tlb, vaddr);
	if (uarch_cache_lookup(&core->l1tlb, page) >= 0)
		return XL_L1TLB;
	core->stats.tlb_l1_misses++;
	uarch_cache_fill(&core->l1tlb, page);
	if (uarch_cache_lookup(&core->l2tlb, page) >= 0)
		return XL_L2TLB;
	uarch_cache_fill(&core->l2tlb, page);
	core->stats.tlb_walks++;
	return XL_WALK;
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

/* shortcut.h (a tail call of line_change_hit, and train_prefetcher's). */
__attribute__((noinline)) const struct ap_uarch_result *
uarch_advance_stream(struct ap_uarch_core *core, uint64_t line, int i, const struct ap_uarch_result *res)
{
	const struct ap_uarch_config *cfg = &core->sys->cfg;
	core->stream_line[i] = line;
	if (!core->stream_confirmed[i]) {
		core->stream_confirmed[i] = 1;
		for (unsigned k = 1; k <= cfg->prefetch_degree; k++)
			prefetch_line(core, line + k);
	} else {
		prefetch_line(core, line + cfg->prefetch_degree);
	}
	return res;
}

/* Stream detection on each new line: a line following a tracked stream's
 * last line advances it (and prefetches); anything else starts a stream. */
static void train_prefetcher(struct ap_uarch_core *core, uint64_t line)
{
	unsigned n = core->sys->cfg.prefetch_streams;
	int i = stream_of_any(core, line, n);
	if (i >= 0) {
		if (core->stream_line[i] != line) /* else the stream's last line again: nothing to do */
			uarch_advance_stream(core, line, i, NULL);
		return;
	}
	unsigned next = core->stream_next;
	core->stream_next = next + 1 < n ? next + 1 : 0;
	core->stream_line[next] = line;
	core->stream_confirmed[next] = 0;
}

static const struct ap_uarch_result *access_slow(struct ap_uarch_core *core, uint64_t line, uint64_t vaddr,
                                                int shared, enum ap_uarch_access_kind kind);

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
__attribute__((noinline)) static const struct ap_uarch_result *
same_line_shared(struct ap_uarch_core *core, uint64_t line, uint64_t vaddr, enum ap_uarch_access_kind kind)
{
	struct uarch_cache *l1 = &core->l1d;
	int way = core->last_l1d_way;
	if (way < 0 || atomic_load_explicit(&l1->tag[way], memory_order_relaxed) != line + 1)
		return access_slow(core, line, vaddr, 1, kind);
	_Atomic uint64_t *slot = dir_slot(core->sys, line);
	struct dir_view d = dir_read(slot, line);
	if (d.valid && d.writer != core->id + 1 && l1->version[way] != d.version)
		return access_slow(core, line, vaddr, 1, kind); /* another core wrote it: invalidated there */
	/* A store takes ownership with a new version, which makes every other
	 * core's copy stale. Unless this core owns the line dirty already at
	 * the version its copy holds: then no other core has filled that
	 * version since (a fill from here clears dirty, see access_slow), so
	 * every other copy is stale already and a new version would change no
	 * outcome. The common case of a thread writing its own data. */
	if (kind == AP_UARCH_STORE &&
	    !(d.valid && d.dirty && d.writer == core->id + 1 && l1->version[way] == d.version))
		take_ownership(core, slot, line, way, d.valid ? d.version + 1 : 1);
	return same_line_hit(core, kind);
}

/* A single core's line change: the shortcut (shortcut.h) or, when it does
 * not apply, the slow path. Inline in the caller (the plugin's replay): out
 * of line, the call and its register saves cost gzip 10 instructions per
 * event (171 to 161 when it went inline). */
__attribute__((always_inline)) static inline const struct ap_uarch_result *
line_change_private(struct ap_uarch_core *core, uint64_t line, uint64_t vaddr, enum ap_uarch_access_kind kind)
{
	const struct ap_uarch_result *res = line_change_hit(core, line, vaddr, kind);
	return res ? res : access_slow(core, line, vaddr, 0, kind);
}

/* An access of the cache line line (by the cache's address) at virtual
 * address vaddr (by the TLBs'): its result, one of the core's own (made
 * once, lifecycle.c). */
__attribute__((always_inline)) static inline const struct ap_uarch_result *
access_line(struct ap_uarch_core *core, uint64_t line, uint64_t vaddr, enum ap_uarch_access_kind kind)
{
	/* With one core there is nobody to share with: skip the directory. */
	int shared = atomic_load_explicit(&core->sys->ncores, memory_order_relaxed) > 1;

	if (line == core->last_line) {
		/* The line (and its page) of the previous access: with one core
		 * an L1D and L1 DTLB hit that is already the most recent entry
		 * of its set, so nothing in the model changes. Exact, and the
		 * common case of sequential code. */
		if (!shared)
			return same_line_hit(core, kind);
		if (kind != AP_UARCH_ATOMIC && core->same_line_exact)
			return same_line_shared(core, line, vaddr, kind);
		return access_slow(core, line, vaddr, 1, kind);
	}
	if (!shared)
		return line_change_private(core, line, vaddr, kind);
	return access_slow(core, line, vaddr, 1, kind);
}

const struct ap_uarch_result *ap_uarch_access(struct ap_uarch_core *core, uint64_t vaddr,
                                              enum ap_uarch_access_kind kind)
{
	return access_line(core, uarch_cache_line(&core->l1d, vaddr), vaddr, kind);
}

void ap_uarch_access_pa(struct ap_uarch_core *core, uint64_t vaddr, uint64_t paddr,
                        enum ap_uarch_access_kind kind, struct ap_uarch_result *out)
{
	*out = *access_line(core, uarch_cache_line(&core->l1d, paddr), vaddr, kind);
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
	access_line(core, line, vaddr, kind);
	core->stats = kept;
}

/* Everything but the same-line fast path; out of line so that the fast
 * path stays small enough to inline into a caller (the QEMU plugin). */
__attribute__((noinline)) static const struct ap_uarch_result *
access_slow(struct ap_uarch_core *core, uint64_t line, uint64_t vaddr, int shared, enum ap_uarch_access_kind kind)
{
	struct ap_uarch_system *sys = core->sys;
	const struct ap_uarch_config *cfg = &sys->cfg;
	_Atomic uint64_t *slot = shared ? dir_slot(sys, line) : NULL;
	/* The directory is large and read at random: start fetching the
	 * line's entry into the host cache while the TLBs are looked up. */
	if (shared)
		__builtin_prefetch((const void *)slot);
	enum uarch_xlat xl = translate(core, vaddr);
	struct dir_view d = { 0, 0, 0, 0 };
	if (shared)
		d = dir_read(slot, line);
	enum uarch_level lv;

	count_access(core, kind);
	uint64_t met_before = core->met_others;

	/* A line change (mostly): seldom the L1D's MRU entry (prefetch_line's
	 * fills aside), so its set is scanned at once. */
	int l1_way = private_lookup(core, &core->l1d, line, &d, 1);
	if (l1_way >= 0) {
		lv = LV_L1D;
	} else {
		core->stats.l1d_misses++;
		if (private_lookup(core, &core->l2, line, &d, 0) >= 0) {
			lv = LV_L2;
		} else {
			core->stats.l2_misses++;
			if (d.valid && d.dirty && d.writer && d.writer != core->id + 1) {
				/* Dirty in another core's private cache: snooped. */
				unsigned other = d.writer - 1;
				int same_cluster = other / cfg->cores_per_cluster == core->id / cfg->cores_per_cluster;
				lv = same_cluster ? LV_PEER_CORE : LV_PEER_CLUSTER;
				core->stats.peer_hits++;
				core->met_others++;
				if (kind == AP_UARCH_LOAD && shared)
					dir_write(slot, line, d.writer, 0, d.version); /* now shared */
				if (uarch_cache_lookup(&sys->llc, line) < 0)
					uarch_cache_fill(&sys->llc, line);
			} else if (uarch_cache_lookup(&sys->llc, line) >= 0) {
				lv = LV_LLC;
			} else {
				core->stats.llc_misses++;
				uarch_cache_fill(&sys->llc, line);
				lv = LV_DRAM;
			}
			l2_fill(core, line, d.version, shared);
		}
		l1_way = private_fill(&core->l1d, line, d.version);
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

	/* The latencies, events and data source follow from the store, the
	 * translation and the level (lifecycle.c made them once). */
	return &core->result[kind == AP_UARCH_STORE][xl][lv];
}
