/* The csv format of `armprof decode`: one row per record, fixed columns
 * (docs/jsonl-schema.md: the jsonl fields; columns are only ever added at
 * the end). */
#include "record_format.h"
#include "record_line.h"

const char record_csv_header[] =
	"offset,pc,el,ns,op,cond,indirect,simd,atomic,excl,ar,target,target_el,target_ns,"
	"vaddr,paddr,pa_ns,events,lat_total,lat_issue,lat_xlat,ts,ctx_el1,ctx_el2,"
	"data_source,end,errors,tag,data_source_name,prev_br_tgt,prev_br_tgt_el,prev_br_tgt_ns,br_gcs,br_cr\n";

static void csv_hex(struct line *l, int present, uint64_t v)
{
	put_char(l, ',');
	if (present)
		put_hex(l, v);
}

static void csv_u64(struct line *l, int present, uint64_t v)
{
	put_char(l, ',');
	if (present)
		put_u64(l, v);
}

void record_csv_write(struct line *l, const struct ap_record *r, enum ap_ds_encoding enc)
{
	uint32_t h = r->has;
	struct op_flags f = op_flags_of(r);
	int op = !!(h & AP_HAS_OP);
	put_u64(l, r->offset);
	csv_hex(l, h & AP_HAS_PC, r->pc);
	csv_u64(l, h & AP_HAS_PC, r->el);
	csv_u64(l, h & AP_HAS_PC, r->ns);
	put_char(l, ',');
	if (op)
		put_str(l, ap_record_op_name(r));
	csv_u64(l, op && (f.has_branch || f.has_other), (uint64_t)f.cond);
	csv_u64(l, op && f.has_branch, (uint64_t)f.indirect);
	csv_u64(l, op && f.has_ldst, (uint64_t)f.simd);
	csv_u64(l, op && f.has_ldst, (uint64_t)f.atomic);
	csv_u64(l, op && f.has_ldst, (uint64_t)f.excl);
	csv_u64(l, op && f.has_ldst, (uint64_t)f.ar);
	csv_hex(l, h & AP_HAS_TARGET, r->target);
	csv_u64(l, h & AP_HAS_TARGET, r->target_el);
	csv_u64(l, h & AP_HAS_TARGET, r->target_ns);
	csv_hex(l, h & AP_HAS_VADDR, ap_record_vaddr(r));
	csv_hex(l, h & AP_HAS_PADDR, r->paddr);
	csv_u64(l, h & AP_HAS_PADDR, r->pa_ns);
	csv_u64(l, h & AP_HAS_EVENTS, r->events);
	csv_u64(l, h & AP_HAS_LAT_TOTAL, r->lat_total);
	csv_u64(l, h & AP_HAS_LAT_ISSUE, r->lat_issue);
	csv_u64(l, h & AP_HAS_LAT_XLAT, r->lat_xlat);
	csv_u64(l, h & AP_HAS_TS, r->ts);
	csv_u64(l, h & AP_HAS_CTX_EL1, r->ctx_el1);
	csv_u64(l, h & AP_HAS_CTX_EL2, r->ctx_el2);
	csv_u64(l, h & AP_HAS_DATA_SOURCE, r->data_source);
	put_char(l, ',');
	put_str(l, end_name(r));
	csv_u64(l, 1, r->n_errors_total);
	csv_hex(l, h & AP_HAS_VADDR, ap_record_vaddr_tag(r));
	put_char(l, ',');
	if (h & AP_HAS_DATA_SOURCE && ap_ds_name(enc, r->data_source))
		put_str(l, ap_ds_name(enc, r->data_source));
	/* SPE after v1 (decode --spe-later; LATER-OUT-1): the previous branch
	 * target (FEAT_SPE_PBT), and a branch's GCS and call/return subclass
	 * (FEAT_SPE_CRR), as the jsonl names them; empty for v1 records. */
	csv_hex(l, h & AP_HAS_PREV_TARGET, r->prev_target);
	csv_u64(l, h & AP_HAS_PREV_TARGET, r->prev_target_el);
	csv_u64(l, h & AP_HAS_PREV_TARGET, r->prev_target_ns);
	csv_u64(l, op && f.gcs, 1);
	put_char(l, ',');
	if (op && f.has_branch && br_cr_name(f.cr))
		put_str(l, br_cr_name(f.cr));
	put_char(l, '\n');
}
