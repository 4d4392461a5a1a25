/* spe-parser's three files: see decode_spe_parser.h. Each value below
 * cites the spe-parser source that makes it (telemetry-solution,
 * tools/spe_parser/spe_parser/: schema.py, payload.py, spe_decoder.py). */
#include "decode_spe_parser.h"

#include <string.h>

#include "armprof/codec.h"
#include "armprof/error.h"

/* Every column any of the three files has; a file lists a subset in its
 * order. Types: schema.py's __spe_parser_schema "type" (int -> INT64, bool
 * -> BOOLEAN, str -> string), as pandas hands them to pyarrow. */
enum spe_col {
	S_CPU, S_OP, S_PC, S_EL, S_ATOMIC, S_EXCL, S_AR, S_SUBCLASS, S_SVE_EVL, S_SVE_PRED, S_SVE_SG,
	S_SVE_FP, S_CONDITION, S_INDIRECT, S_EVENT, S_ISSUE_LAT, S_TOTAL_LAT, S_VADDR, S_XLAT_LAT,
	S_PADDR, S_DATA_SOURCE, S_BR_TGT, S_BR_TGT_LVL, S_PBT, S_PBT_LVL, S_CONTEXT, S_TS, S_COUNT
};

/* Enumerations (set by index): the spellings payload.py writes. */
static const char *const op_values[] = { "LD", "ST", "B", "OTHER" };
enum { OP_LD, OP_ST, OP_B, OP_OTHER };
static const char *const subclass_values[] = { "", "GP-REG", "SIMD-FP", "UNSPEC-REG",
	"NV-SYSREG", "MTE-TAG", "MEMCPY", "MEMSET", "SVE", "OTHER" };
enum { SUB_NONE, SUB_GP_REG, SUB_SIMD_FP, SUB_UNSPEC_REG, SUB_NV_SYSREG, SUB_MTE_TAG, SUB_MEMCPY,
	SUB_MEMSET, SUB_SVE, SUB_OTHER };
#define N_OF(a) (uint32_t)(sizeof(a) / sizeof((a)[0]))

#define I64(name) { name, AP_PARQUET_INT64, 1, NULL, 0 }
#define BOOL(name) { name, AP_PARQUET_BOOLEAN, 1, NULL, 0 }
#define STR(name) { name, AP_PARQUET_STRING, 1, NULL, 0 }
#define ENUM(name, v) { name, AP_PARQUET_STRING, 1, v, N_OF(v) }

/* schema.py's LDST_COLS, BRANCH_COLS, OTHER_COLS, in their order. Every
 * column is OPTIONAL as pyarrow writes it, though never null. */
static const uint8_t ldst_ids[] = { S_CPU, S_OP, S_PC, S_EL, S_ATOMIC, S_EXCL, S_AR, S_SUBCLASS,
	S_SVE_EVL, S_SVE_PRED, S_SVE_SG, S_EVENT, S_ISSUE_LAT, S_TOTAL_LAT, S_VADDR, S_XLAT_LAT,
	S_PADDR, S_DATA_SOURCE, S_CONTEXT, S_TS };
static const uint8_t br_ids[] = { S_CPU, S_OP, S_PC, S_EL, S_CONDITION, S_INDIRECT, S_EVENT,
	S_ISSUE_LAT, S_TOTAL_LAT, S_BR_TGT, S_BR_TGT_LVL, S_PBT, S_PBT_LVL, S_CONTEXT, S_TS };
static const uint8_t other_ids[] = { S_CPU, S_OP, S_PC, S_EL, S_SUBCLASS, S_SVE_EVL, S_SVE_PRED,
	S_SVE_FP, S_CONDITION, S_EVENT, S_ISSUE_LAT, S_TOTAL_LAT, S_CONTEXT, S_TS };

static const struct ap_parquet_column all_columns[S_COUNT] = {
	[S_CPU] = I64("cpu"), [S_OP] = ENUM("op", op_values), [S_PC] = STR("pc"), [S_EL] = I64("el"),
	[S_ATOMIC] = BOOL("atomic"), [S_EXCL] = BOOL("excl"), [S_AR] = BOOL("ar"),
	[S_SUBCLASS] = ENUM("subclass", subclass_values), [S_SVE_EVL] = I64("sve_evl"),
	[S_SVE_PRED] = BOOL("sve_pred"), [S_SVE_SG] = BOOL("sve_sg"), [S_SVE_FP] = BOOL("sve_fp"),
	[S_CONDITION] = BOOL("condition"), [S_INDIRECT] = BOOL("indirect"), [S_EVENT] = STR("event"),
	[S_ISSUE_LAT] = I64("issue_lat"), [S_TOTAL_LAT] = I64("total_lat"), [S_VADDR] = STR("vaddr"),
	[S_XLAT_LAT] = I64("xlat_lat"), [S_PADDR] = STR("paddr"), [S_DATA_SOURCE] = STR("data_source"),
	[S_BR_TGT] = STR("br_tgt"), [S_BR_TGT_LVL] = I64("br_tgt_lvl"), [S_PBT] = STR("pbt"),
	[S_PBT_LVL] = I64("pbt_lvl"), [S_CONTEXT] = STR("context"), [S_TS] = I64("ts"),
};

static const struct {
	const uint8_t *ids;
	size_t n;
	struct ap_parquet_column cols[S_COUNT];
} *files(void)
{
	static struct {
		const uint8_t *ids;
		size_t n;
		struct ap_parquet_column cols[S_COUNT];
	} f[CLASS_COUNT];
	static int done;
	if (!done) { /* filled once, on the main thread (record_parquet_new) */
		const uint8_t *ids[CLASS_COUNT] = { ldst_ids, br_ids, other_ids };
		size_t n[CLASS_COUNT] = { sizeof(ldst_ids), sizeof(br_ids), sizeof(other_ids) };
		for (int c = 0; c < CLASS_COUNT; c++) {
			f[c].ids = ids[c];
			f[c].n = n[c];
			for (size_t i = 0; i < n[c]; i++)
				f[c].cols[i] = all_columns[ids[c][i]];
		}
		done = 1;
	}
	return (const void *)f;
}

const struct ap_parquet_column *spe_parser_columns(enum record_class c, size_t *n)
{
	*n = files()[c].n;
	return files()[c].cols;
}

int spe_parser_keeps(const struct ap_record *r)
{
	/* parser.py parse_single_region: a record is made at a TS or END
	 * packet (a stream's unfinished tail is dropped); create_record makes
	 * an unknown Record, not written, without LD/ST, B, OTHER or SVE-OTHER
	 * (spe_decoder.py spe_get_op_type names nothing for class 3). */
	return (r->has & AP_HAS_OP) && r->op_class <= AP_OP_CLASS_BRANCH && r->end != AP_END_NONE;
}

/* Python's hex(v): "0x" and lower-case digits without leading zeros; with
 * ff (payload.py's EL2 fix-up, "the PC and Vaddr are missing the 0xff from
 * the highest bits") between them when ff is set. Returns the length. */
static size_t py_hex(char *out, uint64_t v, int ff)
{
	static const char digits[] = "0123456789abcdef";
	char tmp[16];
	size_t k = 0, n = 0;
	do {
		tmp[k++] = digits[v & 15];
		v >>= 4;
	} while (v);
	out[n++] = '0';
	out[n++] = 'x';
	if (ff) {
		out[n++] = 'f';
		out[n++] = 'f';
	}
	while (k)
		out[n++] = tmp[--k];
	return n;
}

/* spe_decoder.py PKT_EVENTS_TYPE: the events it names, by bit. */
static const char *const event_names[19] = {
	[0] = "EXCEPTION-GEN", [1] = "RETIRED", [2] = "L1D-ACCESS", [3] = "L1D-REFILL",
	[4] = "TLB-ACCESS", [5] = "TLB-REFILL", [6] = "NOT-TAKEN", [7] = "MISPRED",
	[8] = "LLC-ACCESS", [9] = "LLC-REFILL", [10] = "REMOTE-ACCESS", [11] = "ALIGNMENT",
	[17] = "SVE-PARTIAL-PRED", [18] = "SVE-EMPTY-PRED",
};
/* Bits of OtherRecord's events, in the order of sorted() (payload.py drops
 * the memory events from an other record, SDEN885747 #1912195, and sorts
 * the rest by name): ALIGNMENT, EXCEPTION-GEN, MISPRED, NOT-TAKEN, RETIRED,
 * SVE-EMPTY-PRED, SVE-PARTIAL-PRED. */
static const uint8_t other_event_order[] = { 11, 0, 7, 6, 1, 18, 17 };

/* The event column: the named bits joined by ':' (bit order; an other
 * record's sorted); bits spe-parser has no name for are left out, as it
 * leaves them out. */
static size_t event_string(char *out, uint64_t ev, enum record_class c)
{
	size_t n = 0;
	int k_max = c == CLASS_OTHER ? (int)sizeof(other_event_order) : N_OF(event_names);
	for (int k = 0; k < k_max; k++) {
		unsigned b = c == CLASS_OTHER ? other_event_order[k] : (unsigned)k;
		if (!(ev >> b & 1) || !event_names[b])
			continue;
		size_t len = strlen(event_names[b]);
		if (n)
			out[n++] = ':';
		memcpy(out + n, event_names[b], len);
		n += len;
	}
	return n;
}

/* payload.py DATASOURCE_MAP (Neoverse N1's values, for every CPU). A value
 * it does not map (translate_data_source raises InvalidDataSource and the
 * run stops) is written as its decimal number, as spe_decoder.py's
 * "DATA-SOURCE <n>" text carries it. */
static size_t data_source_string(char *out, unsigned v)
{
	static const char *const names[16] = { [0] = "L1D", [8] = "L2D", [9] = "PEER-CPU",
		[10] = "LOCAL-CLUSTER", [11] = "LL-CACHE", [12] = "PEER-CLUSTER", [13] = "REMOTE",
		[14] = "DRAM" };
	const char *s = v < 16 ? names[v] : NULL;
	if (s) {
		size_t n = strlen(s);
		memcpy(out, s, n);
		return n;
	}
	char tmp[8];
	size_t k = 0, n = 0;
	do {
		tmp[k++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (k)
		out[n++] = tmp[--k];
	return n;
}

/* A row's values (the defaults of schema.py __gen_default_record: 0, false, ""). */
struct spe_row {
	int64_t i[S_COUNT];
	uint8_t b[S_COUNT];
	uint32_t e[S_COUNT];          /* enumeration index */
	const char *s[S_COUNT];
	size_t len[S_COUNT];
};

/* LoadRecord.to_dict's subclass, atomic, excl, ar, sve_* from the payload
 * byte p (spe_decoder.py spe_get_op_type, class 1). */
static void ldst_fields(struct spe_row *row, unsigned p)
{
	row->e[S_OP] = (p & 1) ? OP_ST : OP_LD;
	int atomic_form = (p & 0xE2u) == 0x02; /* is_pkt_operation_ldst_atomic */
	row->b[S_ATOMIC] = atomic_form && (p & 0x04);
	row->b[S_EXCL] = atomic_form && (p & 0x08);
	row->b[S_AR] = atomic_form && (p & 0x10);
	int sve = (p & 0x0Au) == 0x08; /* is_pkt_operation_ldst_sve */
	if (sve) {
		row->i[S_SVE_EVL] = 32 << ((p >> 4) & 7);
		row->b[S_SVE_PRED] = !!(p & 0x04);
		row->b[S_SVE_SG] = !!(p & 0x80);
	}
	uint32_t sub;
	switch (p & 0xFEu) { /* get_pkt_operation_ldst_subclass */
	case 0x00: sub = SUB_GP_REG; break;
	case 0x04: sub = SUB_SIMD_FP; break;
	case 0x10: sub = SUB_UNSPEC_REG; break;
	case 0x30: sub = SUB_NV_SYSREG; break;
	case 0x14: sub = SUB_MTE_TAG; break;
	case 0x20: sub = SUB_MEMCPY; break;
	/* 0x25 (a Memory Set store) never equals its masked value in
	 * spe-parser, which then stops (IndexError); named here as schema.py
	 * lists it. Other unnamed forms, where spe-parser stops too: "". */
	default: sub = p == 0x25 ? SUB_MEMSET : SUB_NONE; break;
	}
	if (row->b[S_ATOMIC] || row->b[S_EXCL] || row->b[S_AR])
		sub = SUB_NONE;
	else if (sve)
		sub = SUB_SVE;
	row->e[S_SUBCLASS] = sub;
}

int spe_parser_put(struct ap_parquet_writer *w, enum record_class c, const struct ap_record *r,
                   int64_t cpu)
{
	struct spe_row row;
	char pc[24], vaddr[24], paddr[24], tgt[24], ctx[16], ds[24], ev[256]; /* ds: "LOCAL-CLUSTER" */
	memset(row.i, 0, sizeof(row.i));
	memset(row.b, 0, sizeof(row.b));
	memset(row.e, 0, sizeof(row.e));
	for (int k = 0; k < S_COUNT; k++) {
		row.s[k] = "";
		row.len[k] = 0;
	}
	unsigned p = r->op_subclass;
	row.i[S_CPU] = cpu;
	if (r->has & AP_HAS_PC) { /* "PC 0x.. elN": ADDR bits [55:0], EL from the packet */
		row.i[S_EL] = r->el;
		row.s[S_PC] = pc;
		row.len[S_PC] = py_hex(pc, r->pc & AP_ADDR_MASK, r->el == 2);
	}
	switch (c) {
	case CLASS_LDST:
		ldst_fields(&row, p);
		/* "VA": the whole payload, tag byte included; "ff" before it at
		 * EL2, even when there is no VA (then "ff"), as payload.py does */
		row.s[S_VADDR] = vaddr;
		if (r->has & AP_HAS_VADDR)
			row.len[S_VADDR] = py_hex(vaddr, r->vaddr, r->el == 2);
		else if (r->el == 2 && (r->has & AP_HAS_PC))
			row.len[S_VADDR] = (size_t)(memcpy(vaddr, "ff", 2), 2);
		if (r->has & AP_HAS_PADDR) {
			row.s[S_PADDR] = paddr;
			row.len[S_PADDR] = py_hex(paddr, r->paddr & AP_ADDR_MASK, 0);
		}
		if (r->has & AP_HAS_LAT_XLAT)
			row.i[S_XLAT_LAT] = r->lat_xlat;
		if (r->has & AP_HAS_DATA_SOURCE) {
			row.s[S_DATA_SOURCE] = ds;
			row.len[S_DATA_SOURCE] = data_source_string(ds, r->data_source);
		}
		break;
	case CLASS_BRANCH:
		row.e[S_OP] = OP_B;
		row.b[S_CONDITION] = !!(p & 0x01);
		/* the architecture's indirect bit (spe-parser's (p & 0xfe) == 2
		 * agrees for every SPEv1/v1p1 payload) */
		row.b[S_INDIRECT] = !!(p & 0x02);
		if (r->has & AP_HAS_TARGET) {
			row.i[S_BR_TGT_LVL] = r->target_el;
			row.s[S_BR_TGT] = tgt;
			row.len[S_BR_TGT] = py_hex(tgt, r->target & AP_ADDR_MASK, r->target_el == 2);
		}
		/* pbt, pbt_lvl (Address INDEX 4, SPEv1p2): the decoder does not
		 * keep it yet; spe-parser's defaults "" and 0 */
		break;
	default:
		row.e[S_OP] = OP_OTHER;
		if ((p & 0x89u) == 0x08) { /* pkt_operation_class_sve_other */
			row.e[S_SUBCLASS] = SUB_SVE;
			row.i[S_SVE_EVL] = 32 << ((p >> 4) & 7);
			row.b[S_SVE_FP] = !!(p & 0x02);
			row.b[S_SVE_PRED] = !!(p & 0x04);
		} else {
			row.e[S_SUBCLASS] = SUB_OTHER;
			row.b[S_CONDITION] = !!(p & 0x01); /* COND-SELECT */
		}
		break;
	}
	if (r->has & AP_HAS_EVENTS) {
		row.s[S_EVENT] = ev;
		row.len[S_EVENT] = event_string(ev, r->events, c);
	}
	if (r->has & AP_HAS_LAT_ISSUE)
		row.i[S_ISSUE_LAT] = r->lat_issue;
	if (r->has & AP_HAS_LAT_TOTAL)
		row.i[S_TOTAL_LAT] = r->lat_total;
	if (r->has & AP_HAS_TS)
		row.i[S_TS] = (int64_t)r->ts;
	/* "CONTEXT": spe-parser keeps one, the later packet; with both, the
	 * EL2 one is written */
	if (r->has & (AP_HAS_CTX_EL1 | AP_HAS_CTX_EL2)) {
		row.s[S_CONTEXT] = ctx;
		row.len[S_CONTEXT] = py_hex(ctx, (r->has & AP_HAS_CTX_EL2) ? r->ctx_el2 : r->ctx_el1, 0);
	}

	static const uint8_t *const ids_of[CLASS_COUNT] = { ldst_ids, br_ids, other_ids };
	static const size_t n_of[CLASS_COUNT] = { sizeof(ldst_ids), sizeof(br_ids), sizeof(other_ids) };
	const uint8_t *ids = ids_of[c];
	size_t n = n_of[c];
	int rc = 0;
	for (size_t k = 0; k < n && !rc; k++) {
		enum spe_col id = ids[k];
		switch (all_columns[id].type) {
		case AP_PARQUET_INT64: rc = ap_parquet_set_int64(w, k, row.i[id]); break;
		case AP_PARQUET_BOOLEAN: rc = ap_parquet_set_bool(w, k, row.b[id]); break;
		default:
			rc = all_columns[id].values ? ap_parquet_set_enum(w, k, row.e[id])
			                            : ap_parquet_set_string(w, k, row.s[id], row.len[id]);
			break;
		}
	}
	return rc ? rc : ap_parquet_end_row(w);
}
