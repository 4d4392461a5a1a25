/* Packet -> record field mapping (spec/002 5.3.x). */
#include "decode/record_fields.h"

void ap_record_add_error(struct ap_record *rec, enum ap_decode_error_kind kind,
                         uint64_t offset, const struct ap_packet *pkt)
{
	/* the error that ends a record is always kept: it takes the last slot */
	int terminal = kind == AP_DERR_TRUNCATED || kind == AP_DERR_TOO_LONG;
	if (rec->n_errors < AP_RECORD_MAX_ERRORS || terminal) {
		if (rec->n_errors == AP_RECORD_MAX_ERRORS)
			rec->n_errors--;
		struct ap_decode_error *e = &rec->errors[rec->n_errors++];
		e->offset = offset;
		e->kind = (uint8_t)kind;
		e->hdr0 = pkt ? pkt->hdr0 : 0;
		e->hdr1 = pkt ? pkt->hdr1 : 0;
	}
	rec->n_errors_total++;
}

