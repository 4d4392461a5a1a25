/* Writing a record to the Profiling Buffer (spec/002 3.4.1, 3.5, 3.5.1-3.5.4). */
#include "model/spe/buffer.h"

#include <string.h>

#include "armprof/record.h"

void ap_spe_mgmt_event(uint64_t *pmbsr, unsigned ec, unsigned mss, bool dl)
{
	uint64_t v = *pmbsr;
	v |= AP_PMBSR_S;                                                         /* SPE-3.5-2 */
	v = (v & ~AP_PMBSR_EC_MASK) | ((uint64_t)(ec & 0x3Fu) << AP_PMBSR_EC_SHIFT);
	v = (v & ~AP_PMBSR_MSS_MASK) | (mss & AP_PMBSR_MSS_MASK);               /* SPE-3.5-8 */
	if (dl)
		v |= AP_PMBSR_DL;
	*pmbsr = v;
}

/* FSC of an MMU fault (4.3.4 MSS for EC == 0b10010x). */
static unsigned mmu_fsc(const struct ap_mem_fault *f)
{
	unsigned level = f->level & 3u;
	switch (f->kind) {
	case AP_MEMF_ADDRESS_SIZE: return AP_FSC_ADDRESS_SIZE | level;
	case AP_MEMF_ACCESS_FLAG: return AP_FSC_ACCESS_FLAG | level;
	case AP_MEMF_PERMISSION: return AP_FSC_PERMISSION | level;
	case AP_MEMF_ALIGNMENT: return AP_FSC_ALIGNMENT;
	case AP_MEMF_TLB_CONFLICT: return AP_FSC_TLB_CONFLICT;
	case AP_MEMF_UNSUPPORTED_ACCESS: return AP_FSC_UNSUPPORTED;
	case AP_MEMF_TRANSLATION:
	default: return AP_FSC_TRANSLATION | level;
	}
}

static unsigned stage_ec(const struct ap_mem_fault *f)
{
	return f->stage == 2 ? AP_PMBSR_EC_STAGE2 : AP_PMBSR_EC_STAGE1; /* SPE-3.5.3-3 */
}

/* SPE-3.4.1-1: software broke the write-pointer rules (the record cannot be
 * written below the limit, or PTR[63:56] != LIMIT[63:56]). */
static unsigned bad_pointer(struct ap_spe_buffer_regs *r, const struct ap_spe_buffer_params *p)
{
	if (p->bad_ptr == AP_SPE_BADPTR_TRANSLATION) {
		/* Translation fault at PMBPTR_EL1, level 0, stage 1. */
		ap_spe_mgmt_event(&r->pmbsr, AP_PMBSR_EC_STAGE1, AP_FSC_TRANSLATION, p->bad_ptr_data_loss);
	} else {
		/* Buffer full; also the WRITE choice when writing would cross the
		 * limit, which SPE never does (SPE-3.5-17). */
		ap_spe_mgmt_event(&r->pmbsr, AP_PMBSR_EC_OTHER, AP_PMBSR_BSC_FULL, p->bad_ptr_data_loss);
	}
	return AP_SPE_WR_EVENT;
}

static unsigned external_abort(struct ap_spe_buffer_regs *r, const struct ap_spe_buffer_params *p,
                               const struct ap_mem_fault *f, uint64_t start)
{
	if (p->ext_abort == AP_SPE_EA_SERROR)
		return AP_SPE_WR_SERROR; /* SPE-3.5.4-9: PMBSR_EL1 unchanged */
	r->pmbsr |= AP_PMBSR_EA;     /* SPE-3.5.4-2, whatever S is */
	if (r->pmbsr & AP_PMBSR_S)
		return 0;
	if (p->ext_abort == AP_SPE_EA_ASYNC) {
		/* SPE-3.5.4-4/6: PMBPTR_EL1 is not the aborted address; DL = 1. */
		ap_spe_mgmt_event(&r->pmbsr, stage_ec(f), AP_FSC_EXT_ASYNC, true);
		return AP_SPE_WR_EVENT;
	}
	unsigned fsc = f->kind == AP_MEMF_EXT_ABORT_WALK ? AP_FSC_EXT_WALK | (f->level & 3u) : AP_FSC_EXT_SYNC;
	r->pmbptr = f->va; /* SPE-3.5-19: PMBPTR_EL1 is the fault address */
	ap_spe_mgmt_event(&r->pmbsr, stage_ec(f), fsc, f->va != start);
	return AP_SPE_WR_EVENT;
}

unsigned ap_spe_buffer_write(struct ap_spe_buffer_regs *r, const struct ap_spe_buffer_params *p,
                             const struct ap_host *host, const uint8_t *rec, uint32_t len)
{
	uint64_t ptr = r->pmbptr;
	uint64_t limit = r->pmblimitr & AP_PMBLIMITR_LIMIT_MASK;
	uint32_t pad = ap_spe_pad_bytes(ptr, len, p->align);
	uint32_t total = len + pad;

	bool fits = ptr <= limit && limit - ptr >= total;
	bool top_ok = (ptr >> 56) == (limit >> 56); /* SPE-3.4.1-3 */
	if (!fits || (!top_ok && p->bad_ptr != AP_SPE_BADPTR_WRITE))
		return bad_pointer(r, p);

	uint8_t staged[AP_RECORD_MAX_BYTES + 2048];
	const uint8_t *bytes = rec;
	if (pad) { /* SPE-4.3.1-16: pad every record to a multiple of 2^Align */
		memcpy(staged, rec, len);
		memset(staged + len, 0x00, pad); /* Padding packets (5.3.9) */
		bytes = staged;
	}

	struct ap_mem_fault f = { .kind = AP_MEMF_TRANSLATION, .stage = 1, .level = 0, .va = ptr };
	int failed = host->buffer_write ? host->buffer_write(host->ctx, ptr, bytes, total, &f) : 1;
	if (!failed) {
		ptr += total;
		r->pmbptr = ptr;
		unsigned out = AP_SPE_WR_WRITTEN;
		/* 3.5.2: fewer than 2^MaxSize bytes left after the record. */
		if (limit - ptr < (1ull << p->max_size)) {
			ap_spe_mgmt_event(&r->pmbsr, AP_PMBSR_EC_OTHER, AP_PMBSR_BSC_FULL, false);
			out |= AP_SPE_WR_EVENT;
		}
		return out;
	}

	/* A fault address outside the bytes being written is the host's
	 * mistake; the model reports the record's first byte instead. */
	if (f.va < ptr || f.va - ptr >= total)
		f.va = ptr;
	if (f.kind == AP_MEMF_EXT_ABORT || f.kind == AP_MEMF_EXT_ABORT_WALK)
		return external_abort(r, p, &f, ptr);

	/* 3.5.3: an MMU fault; the highest-priority synchronous event (3.5.1). */
	r->pmbptr = f.va;
	ap_spe_mgmt_event(&r->pmbsr, stage_ec(&f), mmu_fsc(&f), f.va != ptr);
	return AP_SPE_WR_EVENT;
}
