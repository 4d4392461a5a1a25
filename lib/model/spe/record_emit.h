/* The engine's record writer: the bytes of ap_record_encode() (the codec's
 * reference encoder, include/armprof/record.h) for the records the engine
 * builds, written straight into the output with the codec's header
 * constants (codec.h). It exists for speed: the per-record budget of the
 * model (docs/PERFORMANCE.md) does not fit the general encoder's
 * per-packet checks. tests/model_spe/test_spe_record_emit.c checks it is
 * byte-identical to ap_record_encode() on random records. */
#ifndef ARMPROF_MODEL_SPE_RECORD_EMIT_H
#define ARMPROF_MODEL_SPE_RECORD_EMIT_H

#include <stdint.h>

#include "armprof/record.h"

/* Encode rec (short headers, no IMPLEMENTATION DEFINED values) into buf,
 * which has room for AP_RECORD_MAX_BYTES. events_size: 0 = smallest, or
 * 1/2/4/8 (if smaller than the events need, the smallest is used).
 * Returns the length. */
unsigned ap_spe_record_emit(uint8_t *buf, const struct ap_record *rec, unsigned events_size);

#endif
