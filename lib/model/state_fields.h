/* PE-state fields by spec name ("mdcr_el2.e2pb"), for
 * ap_pe_state_set_field() and `armprof sim`'s `state` command.
 *
 * An extension that reads more control fields adds a table in its own file
 * and one line to AP_STATE_FIELD_TABLES in lib/model/registry.h. A field is
 * a bit range of one uint64_t/uint16_t/uint8_t/bool member of
 * struct ap_pe_state. */
#ifndef ARMPROF_MODEL_STATE_FIELDS_H
#define ARMPROF_MODEL_STATE_FIELDS_H

#include <stddef.h>
#include <stdint.h>

enum ap_state_member { AP_SM_U64, AP_SM_U16, AP_SM_U8, AP_SM_BOOL };

struct ap_state_field {
	const char *name;  /* lower case: "mdcr_el2.e2pb", "el" */
	uint8_t member;    /* enum ap_state_member */
	size_t offset;     /* offsetof(struct ap_pe_state, member) */
	uint8_t lsb, width; /* bit range in the member */
};

struct ap_state_field_table {
	const struct ap_state_field *fields;
	size_t count;
};

extern const struct ap_state_field_table *const ap_state_field_tables[];
extern const size_t ap_state_field_table_count;

#endif
