/* Writing one sample record to the Profiling Buffer, and the Profiling
 * Buffer management events that can come of it (spec/002 3.4, 3.4.1, 3.5,
 * 3.5.1-3.5.4, 4.3.1 PMBIDR_EL1.Align, 4.3.3 PMBPTR_EL1, 4.3.4 PMBSR_EL1).
 *
 * Works on the three register values and the host's buffer_write callback;
 * the caller (engine.c) has already checked ProfilingBufferEnabled() and
 * reacts to a management event (PMBIRQ, discarding held records). */
#ifndef ARMPROF_MODEL_SPE_BUFFER_H
#define ARMPROF_MODEL_SPE_BUFFER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "armprof/model.h"

/* PMBSR_EL1 fields (4.3.4). */
#define AP_PMBSR_EC_SHIFT 26
#define AP_PMBSR_EC_MASK  (0x3Full << AP_PMBSR_EC_SHIFT)
#define AP_PMBSR_DL       (1ull << 19)
#define AP_PMBSR_EA       (1ull << 18)
#define AP_PMBSR_S        (1ull << 17)
#define AP_PMBSR_COLL     (1ull << 16)
#define AP_PMBSR_MSS_MASK 0xFFFFull
#define AP_PMBSR_EC_OTHER    0x00u /* 0b000000 other buffer management event */
#define AP_PMBSR_EC_STAGE1   0x24u /* 0b100100 stage 1 Data Abort on write */
#define AP_PMBSR_EC_STAGE2   0x25u /* 0b100101 stage 2 Data Abort on write */
#define AP_PMBSR_BSC_FULL    0x01u /* MSS.BSC 0b000001 buffer filled */
/* MSS.FSC values (4.3.4); the xx forms take the level in [1:0]. */
#define AP_FSC_ADDRESS_SIZE  0x00u /* 0b0000xx */
#define AP_FSC_TRANSLATION   0x04u /* 0b0001xx */
#define AP_FSC_ACCESS_FLAG   0x08u /* 0b0010xx */
#define AP_FSC_PERMISSION    0x0Cu /* 0b0011xx */
#define AP_FSC_EXT_SYNC      0x10u /* 0b010000 synchronous external abort on write */
#define AP_FSC_EXT_ASYNC     0x11u /* 0b010001 asynchronous external abort on write */
#define AP_FSC_EXT_WALK      0x14u /* 0b0101xx synchronous external abort on a walk */
#define AP_FSC_ALIGNMENT     0x21u /* 0b100001 */
#define AP_FSC_TLB_CONFLICT  0x30u /* 0b110000 */
#define AP_FSC_UNSUPPORTED   0x35u /* 0b110101 */
/* PMBLIMITR_EL1 (4.3.2): LIMIT [63:12], E [0]. */
#define AP_PMBLIMITR_LIMIT_MASK 0xFFFFFFFFFFFFF000ull
#define AP_PMBLIMITR_E 1ull

struct ap_spe_buffer_regs {
	uint64_t pmbptr, pmblimitr, pmbsr;
};

struct ap_spe_buffer_params {
	uint8_t max_size;   /* PMSIDR_EL1.MaxSize: log2 of the largest record */
	uint8_t align;      /* PMBIDR_EL1.Align: log2 of the record alignment */
	uint8_t ext_abort;  /* enum ap_spe_ext_abort */
	uint8_t bad_ptr;    /* enum ap_spe_bad_ptr */
	bool bad_ptr_data_loss; /* SPE-3.4.1-1 "with or without data loss" */
};

/* What happened (bits). */
enum ap_spe_write_outcome {
	AP_SPE_WR_WRITTEN = 1u << 0, /* the record (and its padding) is in memory */
	AP_SPE_WR_EVENT = 1u << 1,   /* a management event set PMBSR_EL1.S */
	AP_SPE_WR_SERROR = 1u << 2,  /* an external abort became an SError */
};

/* Bytes of Padding (5.3.9) that follow a record of len bytes written at ptr
 * so that the next record starts 2^align aligned (SPE-4.3.1-16). */
static inline uint32_t ap_spe_pad_bytes(uint64_t ptr, uint32_t len, unsigned align)
{
	uint64_t a = 1ull << align;
	return (uint32_t)((a - ((ptr + len) & (a - 1))) & (a - 1));
}

/* Write rec[0..len) plus its padding at PMBPTR_EL1 through host->buffer_write
 * and update the registers. Returns enum ap_spe_write_outcome bits.
 * Requires PMBSR_EL1.S == 0 and len <= AP_RECORD_MAX_BYTES. */
unsigned ap_spe_buffer_write(struct ap_spe_buffer_regs *r, const struct ap_spe_buffer_params *p,
                             const struct ap_host *host, const uint8_t *rec, uint32_t len);

/* A management event: S = 1, EC, MSS; DL set if dl, else unchanged; the
 * other fields unchanged (3.5). */
void ap_spe_mgmt_event(uint64_t *pmbsr, unsigned ec, unsigned mss, bool dl);

#endif
