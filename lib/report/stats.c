/* Counting one record into report statistics, and the derived rates. */
#include <stddef.h>
#include <string.h>

#include "armprof/codec.h"
#include "report_internal.h"

static unsigned hist_bin(unsigned v)
{
	if (v < AP_REPORT_HIST_EXACT)
		return v;
	if (v > 4095)
		v = 4095;
	unsigned octave = 31u - (unsigned)__builtin_clz(v); /* 5..11 */
	unsigned sub = (v >> (octave - 4)) & 15u;
	return AP_REPORT_HIST_EXACT + (octave - 5) * 16 + sub;
}

/* Middle of the values a bin holds. */
static double bin_value(unsigned b)
{
	if (b < AP_REPORT_HIST_EXACT)
		return b;
	unsigned octave = 5 + (b - AP_REPORT_HIST_EXACT) / 16;
	unsigned sub = (b - AP_REPORT_HIST_EXACT) % 16;
	double width = (double)(1u << (octave - 4));
	double lo = (double)(1u << octave) + sub * width;
	return lo + (width - 1) / 2.0;
}

void report_record_weights(const struct ap_record *rec, uint64_t w[AP_REPORT_N_KEYS])
{
	/* As report_stats_add counts them, so that a stack's weights add up to
	 * the function table's numbers. */
	uint64_t e = rec->has & AP_HAS_EVENTS ? rec->events : 0;
	int branch = (rec->has & AP_HAS_OP) && rec->op_class == AP_OP_CLASS_BRANCH;
	w[AP_REPORT_BY_SAMPLES] = 1;
	w[AP_REPORT_BY_LATENCY] = rec->has & AP_HAS_LAT_TOTAL ? rec->lat_total : 0;
	w[AP_REPORT_BY_L1D_MISSES] = (e & AP_EV_L1D_REFILL) != 0;
	w[AP_REPORT_BY_LLC_MISSES] = (e & AP_EV_LLC_MISS) != 0;
	w[AP_REPORT_BY_TLB_WALKS] = (e & AP_EV_TLB_WALK) != 0;
	w[AP_REPORT_BY_MISPREDICTS] = branch && (e & AP_EV_MISPREDICTED);
}

/* A record's part in the statistics, in 12 bytes (report_internal.h): what
 * report_stats_add counts, decided once here, so that a PC's few records
 * can be kept as digests and counted later exactly as then. */
void report_digest_make(struct report_digest *d, const struct ap_record *rec, enum ap_ds_encoding enc)
{
	memset(d, 0, sizeof(*d));
	unsigned cls = REPORT_CLS_NONE;
	int branch = 0;
	if (rec->has & AP_HAS_OP) {
		switch (rec->op_class) {
		case AP_OP_CLASS_LDST:
			if ((rec->op_subclass & AP_OP_LDST_EXT) && (rec->op_subclass & AP_OP_LDST_AT) &&
			    !(rec->op_subclass & 0xE0))
				cls = REPORT_CLS_ATOMIC;
			else if (rec->op_subclass & AP_OP_ST)
				cls = REPORT_CLS_STORE;
			else
				cls = REPORT_CLS_LOAD;
			break;
		case AP_OP_CLASS_BRANCH:
			cls = REPORT_CLS_BRANCH;
			branch = 1;
			if (rec->op_subclass & AP_OP_BR_COND)
				d->flags |= REPORT_D_COND;
			break;
		default:
			cls = REPORT_CLS_OTHER;
			break;
		}
	}
	d->flags |= (uint16_t)(cls << REPORT_D_CLS_SHIFT);
	if (rec->has & AP_HAS_EVENTS) {
		uint64_t e = rec->events;
		d->events = (uint16_t)(((e & AP_EV_L1D_ACCESS) ? REPORT_E_L1D_ACCESS : 0) |
		                       ((e & AP_EV_L1D_REFILL) ? REPORT_E_L1D_REFILL : 0) |
		                       ((e & AP_EV_LLC_ACCESS) ? REPORT_E_LLC_ACCESS : 0) |
		                       ((e & AP_EV_LLC_MISS) ? REPORT_E_LLC_MISS : 0) |
		                       ((e & AP_EV_TLB_ACCESS) ? REPORT_E_TLB_ACCESS : 0) |
		                       ((e & AP_EV_TLB_WALK) ? REPORT_E_TLB_WALK : 0) |
		                       ((e & AP_EV_REMOTE_ACCESS) ? REPORT_E_REMOTE : 0));
		/* Branches are counted from the Operation Type packet. */
		if (branch)
			d->events |= (uint16_t)(((e & AP_EV_MISPREDICTED) ? REPORT_E_MISPREDICTED : 0) |
			                        ((e & AP_EV_NOT_TAKEN) ? REPORT_E_NOT_TAKEN : 0));
	}
	if (rec->has & AP_HAS_LAT_TOTAL) {
		d->flags |= REPORT_D_LAT_TOTAL;
		d->lat[0] = rec->lat_total;
	}
	if (rec->has & AP_HAS_LAT_ISSUE) {
		d->flags |= REPORT_D_LAT_ISSUE;
		d->lat[1] = rec->lat_issue;
	}
	if (rec->has & AP_HAS_LAT_XLAT) {
		d->flags |= REPORT_D_LAT_XLAT;
		d->lat[2] = rec->lat_xlat;
	}
	if (rec->has & AP_HAS_DATA_SOURCE) {
		int ds = report_ds_value(enc, rec);
		d->ds = ds >= 0 && ds < AP_REPORT_DS_VALUES ? (uint8_t)(1 + ds) : REPORT_DS_OTHER;
	}
}

/* What a digest adds, to full statistics (struct ap_report_stats) or to a
 * small summary (struct report_small): the same fields, of other widths. */
#define ADD_DIGEST(s, d)                                                                            \
	do {                                                                                        \
		(s)->samples++;                                                                     \
		switch (((d)->flags & REPORT_D_CLS_MASK) >> REPORT_D_CLS_SHIFT) {                  \
		case REPORT_CLS_LOAD: (s)->loads++; break;                                          \
		case REPORT_CLS_STORE: (s)->stores++; break;                                        \
		case REPORT_CLS_ATOMIC: (s)->atomics++; break;                                      \
		case REPORT_CLS_BRANCH:                                                             \
			(s)->branches++;                                                            \
			(s)->cond_branches += ((d)->flags & REPORT_D_COND) != 0;                    \
			break;                                                                      \
		case REPORT_CLS_OTHER: (s)->others++; break;                                        \
		default: break;                                                                     \
		}                                                                                   \
		unsigned e_ = (d)->events;                                                          \
		if (e_) {                                                                           \
			int l1d_ = (e_ & REPORT_E_L1D_ACCESS) != 0, tlb_ = (e_ & REPORT_E_TLB_ACCESS) != 0; \
			(s)->l1d_access += l1d_;                                                    \
			(s)->l1d_refill += (e_ & REPORT_E_L1D_REFILL) != 0;                         \
			(s)->llc_access += (e_ & REPORT_E_LLC_ACCESS) != 0;                         \
			(s)->llc_miss += (e_ & REPORT_E_LLC_MISS) != 0;                             \
			(s)->tlb_access += tlb_;                                                    \
			(s)->tlb_walk += (e_ & REPORT_E_TLB_WALK) != 0;                             \
			(s)->remote += (e_ & REPORT_E_REMOTE) != 0;                                 \
			(s)->l1d_refill_in_access += l1d_ && (e_ & REPORT_E_L1D_REFILL);            \
			(s)->llc_miss_in_access += l1d_ && (e_ & REPORT_E_LLC_MISS);                \
			(s)->tlb_walk_in_access += tlb_ && (e_ & REPORT_E_TLB_WALK);                \
			(s)->mispredicted += (e_ & REPORT_E_MISPREDICTED) != 0;                     \
			(s)->not_taken += (e_ & REPORT_E_NOT_TAKEN) != 0;                           \
		}                                                                                   \
		if ((d)->flags & REPORT_D_LAT_TOTAL) {                                              \
			(s)->n_lat_total++;                                                         \
			(s)->lat_total_sum += (d)->lat[0];                                          \
			(s)->hist[hist_bin((d)->lat[0])]++;                                         \
		}                                                                                   \
		if ((d)->flags & REPORT_D_LAT_ISSUE) {                                              \
			(s)->n_lat_issue++;                                                         \
			(s)->lat_issue_sum += (d)->lat[1];                                          \
		}                                                                                   \
		if ((d)->flags & REPORT_D_LAT_XLAT) {                                               \
			(s)->n_lat_xlat++;                                                          \
			(s)->lat_xlat_sum += (d)->lat[2];                                           \
		}                                                                                   \
		if ((d)->ds) {                                                                      \
			(s)->n_data_source++;                                                       \
			if ((d)->ds <= AP_REPORT_DS_VALUES)                                         \
				(s)->data_source[(d)->ds - 1]++;                                    \
			else                                                                        \
				(s)->data_source_other++;                                           \
		}                                                                                   \
	} while (0)

void report_stats_add_digest(struct ap_report_stats *s, const struct report_digest *d)
{
	ADD_DIGEST(s, d);
}

void report_small_add_digest(struct report_small *s, const struct report_digest *d)
{
	ADD_DIGEST(s, d); /* no counter passes s->samples: REPORT_SMALL_MAX keeps it in a byte */
}

/* Every counter of ap_report_stats but the latency sums, data_source[] and
 * hist[] (report_small has each under the same name). */
#define SMALL_COUNTERS(X)                                                                                      \
	X(samples) X(loads) X(stores) X(atomics) X(branches) X(others) X(l1d_access) X(l1d_refill) X(llc_access) \
	X(llc_miss) X(tlb_access) X(tlb_walk) X(remote) X(l1d_refill_in_access) X(llc_miss_in_access)          \
	X(tlb_walk_in_access) X(cond_branches) X(not_taken) X(mispredicted) X(n_lat_total) X(n_lat_issue)      \
	X(n_lat_xlat) X(data_source_other) X(n_data_source)
#define ONE(f) +1
/* A counter added to ap_report_stats must be added to report_small and here. */
_Static_assert(offsetof(struct ap_report_stats, hist) ==
                       (0 SMALL_COUNTERS(ONE) + 3 + AP_REPORT_DS_VALUES) * sizeof(uint64_t),
               "report_small lacks a counter of ap_report_stats");

void report_small_merge(struct ap_report_stats *into, const struct report_small *s)
{
#define ADD(f) into->f += s->f;
	SMALL_COUNTERS(ADD)
#undef ADD
	into->lat_total_sum += s->lat_total_sum;
	into->lat_issue_sum += s->lat_issue_sum;
	into->lat_xlat_sum += s->lat_xlat_sum;
	for (size_t i = 0; i < AP_REPORT_DS_VALUES; i++)
		into->data_source[i] += s->data_source[i];
	for (size_t i = 0; i < AP_REPORT_HIST_BINS; i++)
		into->hist[i] += s->hist[i];
}

void report_small_weights(const struct report_small *s, uint64_t w[AP_REPORT_N_KEYS])
{
	/* as ap_report_key_count counts full statistics */
	w[AP_REPORT_BY_SAMPLES] = s->samples;
	w[AP_REPORT_BY_LATENCY] = s->lat_total_sum;
	w[AP_REPORT_BY_L1D_MISSES] = s->l1d_refill;
	w[AP_REPORT_BY_LLC_MISSES] = s->llc_miss;
	w[AP_REPORT_BY_TLB_WALKS] = s->tlb_walk;
	w[AP_REPORT_BY_MISPREDICTS] = s->mispredicted;
}

void report_digest_weights(const struct report_digest *d, uint64_t w[AP_REPORT_N_KEYS])
{
	w[AP_REPORT_BY_SAMPLES] += 1;
	w[AP_REPORT_BY_LATENCY] += d->flags & REPORT_D_LAT_TOTAL ? d->lat[0] : 0;
	w[AP_REPORT_BY_L1D_MISSES] += (d->events & REPORT_E_L1D_REFILL) != 0;
	w[AP_REPORT_BY_LLC_MISSES] += (d->events & REPORT_E_LLC_MISS) != 0;
	w[AP_REPORT_BY_TLB_WALKS] += (d->events & REPORT_E_TLB_WALK) != 0;
	w[AP_REPORT_BY_MISPREDICTS] += (d->events & REPORT_E_MISPREDICTED) != 0;
}

void report_stats_add(struct ap_report_stats *s, const struct ap_record *rec, enum ap_ds_encoding enc)
{
	struct report_digest d;
	report_digest_make(&d, rec, enc);
	report_stats_add_digest(s, &d);
}

void report_stats_merge(struct ap_report_stats *into, const struct ap_report_stats *from)
{
	/* Every field is a uint64_t counter or a uint32_t histogram bin. */
	uint64_t *a = &into->samples;
	const uint64_t *b = &from->samples;
	size_t n64 = (size_t)((const uint8_t *)from->hist - (const uint8_t *)&from->samples) / sizeof(uint64_t);
	for (size_t i = 0; i < n64; i++)
		a[i] += b[i];
	for (size_t i = 0; i < AP_REPORT_HIST_BINS; i++)
		into->hist[i] += from->hist[i];
}

double ap_report_percentile(const struct ap_report_stats *s, double q)
{
	if (!s->n_lat_total)
		return 0;
	if (q < 0)
		q = 0;
	if (q > 1)
		q = 1;
	/* The smallest bin whose cumulative count reaches ceil(q * n). */
	uint64_t rank = (uint64_t)(q * (double)s->n_lat_total + 0.999999);
	if (rank == 0)
		rank = 1;
	uint64_t c = 0;
	for (unsigned b = 0; b < AP_REPORT_HIST_BINS; b++) {
		c += s->hist[b];
		if (c >= rank)
			return bin_value(b);
	}
	return bin_value(AP_REPORT_HIST_BINS - 1);
}

static double ratio(uint64_t a, uint64_t b)
{
	return b ? (double)a / (double)b : 0.0;
}

void ap_report_rates(const struct ap_report_stats *s, struct ap_report_rates *out)
{
	out->lat_mean = ratio(s->lat_total_sum, s->n_lat_total);
	out->lat_p50 = ap_report_percentile(s, 0.50);
	out->lat_p90 = ap_report_percentile(s, 0.90);
	out->lat_p99 = ap_report_percentile(s, 0.99);
	out->l1d_miss = ratio(s->l1d_refill_in_access, s->l1d_access);
	out->llc_miss = ratio(s->llc_miss_in_access, s->l1d_access);
	out->tlb_walk = ratio(s->tlb_walk_in_access, s->tlb_access);
	out->mispredict = ratio(s->mispredicted, s->branches);
}

const char *ap_report_data_source_name(unsigned value)
{
	switch (value) {
	case 0x0: return "L1D";
	case 0x8: return "L2";
	case 0x9: return "PEER-CORE";
	case 0xa: return "LOCAL-CLUSTER";
	case 0xb: return "SYS-CACHE";
	case 0xc: return "PEER-CLUSTER";
	case 0xd: return "REMOTE";
	case 0xe: return "DRAM";
	default: return NULL;
	}
}

const char *ap_report_source_label(const struct ap_report *r, unsigned value)
{
	return r->lines.ds_enc == AP_DS_ENC_RAW ? NULL : ap_report_data_source_name(value);
}
