/* Instantiates the extension lists of registry.h. */
#include "model/registry.h"
#include "model/config_keys.h"
#include "model/state_fields.h"
#include "model/sysreg.h"

#define AP_DECLARE_SYSREG_TABLE(t) extern const struct ap_sysreg_table t;
AP_SYSREG_TABLES(AP_DECLARE_SYSREG_TABLE)
#define AP_REF(t) &t,
const struct ap_sysreg_table *const ap_sysreg_tables[] = { AP_SYSREG_TABLES(AP_REF) };
const size_t ap_sysreg_table_count = sizeof(ap_sysreg_tables) / sizeof(ap_sysreg_tables[0]);

#define AP_DECLARE_CONFIG_TABLE(t) extern const struct ap_config_key_table t;
AP_CONFIG_KEY_TABLES(AP_DECLARE_CONFIG_TABLE)
const struct ap_config_key_table *const ap_config_key_tables[] = { AP_CONFIG_KEY_TABLES(AP_REF) };
const size_t ap_config_key_table_count =
	sizeof(ap_config_key_tables) / sizeof(ap_config_key_tables[0]);

#define AP_DECLARE_STATE_TABLE(t) extern const struct ap_state_field_table t;
AP_STATE_FIELD_TABLES(AP_DECLARE_STATE_TABLE)
const struct ap_state_field_table *const ap_state_field_tables[] = { AP_STATE_FIELD_TABLES(AP_REF) };
const size_t ap_state_field_table_count =
	sizeof(ap_state_field_tables) / sizeof(ap_state_field_tables[0]);
