/* PMU snapshot state embedded in struct ap_pe.
 * OWNED BY THE PC-SAMPLING/SNAPSHOT HELPER (P): add fields freely. */
#ifndef ARMPROF_MODEL_SNAPSHOT_UNIT_H
#define ARMPROF_MODEL_SNAPSHOT_UNIT_H

struct ap_snapshot_unit {
	char reserved; /* C forbids empty structs; replace with real state */
};

#endif
