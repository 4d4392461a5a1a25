/* Applying one decoded packet to the record being assembled. */
#ifndef ARMPROF_DECODE_RECORD_FIELDS_H
#define ARMPROF_DECODE_RECORD_FIELDS_H

#include "armprof/record.h"

/* Note an error in rec (kept up to AP_RECORD_MAX_ERRORS, counted beyond). */
void ap_record_add_error(struct ap_record *rec, enum ap_decode_error_kind kind,
                         uint64_t offset, const struct ap_packet *pkt);

/* Store pkt's field in rec. pkt is a defined, non-reserved, non-framing
 * packet (the caller handles PAD, ALIGN, END, UNKNOWN and reserved ones). */
void ap_record_apply(struct ap_record *rec, uint64_t offset, const struct ap_packet *pkt);

#endif
