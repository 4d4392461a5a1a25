/* The model's extension lists: each extension adds ONE line per list.
 * (An explicit list, not link-time magic: the static library only links
 * objects something references.) */
#ifndef ARMPROF_MODEL_REGISTRY_H
#define ARMPROF_MODEL_REGISTRY_H

/* System-register tables (lib/model/sysreg.h). */
#define AP_SYSREG_TABLES(X) \
	X(ap_spe_sysreg_table) \
	X(ap_pmu_sysreg_table) \
	X(ap_pcsr_sysreg_table) \
	X(ap_snapshot_sysreg_table)

/* Configuration key tables (lib/model/config_keys.h). */
#define AP_CONFIG_KEY_TABLES(X) \
	X(ap_core_config_keys) \
	X(ap_spe_config_keys) \
	X(ap_spe_later_config_keys) \
	X(ap_prof_config_keys)

/* PE-state field tables (lib/model/state_fields.h). */
#define AP_STATE_FIELD_TABLES(X) \
	X(ap_core_state_fields) \
	X(ap_prof_state_fields)

#endif
