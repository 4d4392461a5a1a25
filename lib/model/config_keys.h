/* Configuration keys: the text names of struct ap_config fields, for
 * ap_config_set()/ap_config_get(), `armprof sim`'s `config` command and
 * docs/model-config.md (a test checks that every key is documented).
 *
 * An extension with its own fields adds a table in its own file and one
 * line to AP_CONFIG_KEY_TABLES in lib/model/registry.h. */
#ifndef ARMPROF_MODEL_CONFIG_KEYS_H
#define ARMPROF_MODEL_CONFIG_KEYS_H

#include <stddef.h>
#include <stdint.h>

#include "armprof/model.h"

enum ap_config_type {
	AP_CFG_BOOL,  /* bool: 0/1/true/false/yes/no/on/off */
	AP_CFG_U8,    /* uint8_t in [min, max] */
	AP_CFG_U32,   /* uint32_t in [min, max] */
	AP_CFG_U64,   /* uint64_t in [min, max] */
	AP_CFG_ENUM,  /* uint8_t holding an index of names[] (or its number) */
};

struct ap_config_key {
	const char *name;       /* "spe.max_size" */
	uint8_t type;           /* enum ap_config_type */
	size_t offset;          /* offsetof(struct ap_config, field) */
	uint64_t min, max;      /* inclusive, for the integer types */
	const char *const *names; /* AP_CFG_ENUM: NULL-terminated */
	const char *doc;        /* one line, with the requirement ID */
};

struct ap_config_key_table {
	const struct ap_config_key *keys;
	size_t count;
};

#define AP_CFG_KEY_TABLE(name, arr) \
	const struct ap_config_key_table name = { arr, sizeof(arr) / sizeof(arr[0]) }

extern const struct ap_config_key_table *const ap_config_key_tables[];
extern const size_t ap_config_key_table_count;

const struct ap_config_key *ap_config_key_find(const char *name);

#endif
