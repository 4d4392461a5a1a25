/* PC Sample-based Profiling state embedded in struct ap_pe.
 * OWNED BY THE PC-SAMPLING HELPER (P): add fields freely. */
#ifndef ARMPROF_MODEL_PCSR_UNIT_H
#define ARMPROF_MODEL_PCSR_UNIT_H

struct ap_pcsr_unit {
	char reserved; /* C forbids empty structs; replace with real state */
};

#endif
