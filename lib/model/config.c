/* struct ap_config: defaults (a Neoverse-N1-like implementation), the
 * key=value setter and the consistency check. */
#include "model/config_keys.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "armprof/model.h"
#include "armprof/number.h"
#include "model/pcsr/prof_config.h"
#include "model/spe/later.h"

void ap_config_init(struct ap_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->size = sizeof(*cfg);
	/* Neoverse N1: Armv8.2-A, EL0-EL3, AArch32 at EL0 only, SPE, VHE; no
	 * FGT, SEL2, NV2 or RME (those came later). */
	cfg->have_el2 = true;
	cfg->have_el3 = true;
	cfg->have_spe = true;
	cfg->have_vhe = true;
	cfg->aarch32_els = 1u << 0;
	cfg->el3_trap_priority_sdd = false;
	cfg->seed = 1;

	/* SPEv1, no later feature: docs/requirements-later.md. */
	cfg->spe_later.version = AP_SPE_V1;

	struct ap_spe_config *s = &cfg->spe;
	s->count_size = 2;     /* 12-bit saturating counters, the only defined value */
	s->max_size = 6;       /* 64-byte records */
	s->interval = 4;       /* minimum recommended interval 1024 */
	s->ernd = false;
	s->lds = true;
	s->arch_inst = false;  /* micro-op sampling */
	s->align = 0;          /* byte-aligned write pointer */
	s->f = true;           /* hardware Access flag / Dirty bit management */
	s->evfr_impdef_mask = 0;
	s->speculative_sampling = true;
	s->min_granule_log2 = 12;
	/* Reset values (4.2): IMPLEMENTATION DEFINED; the model picks 0 except
	 * the RES1 bits, so a reset PE is quiescent. */
	s->sample_next_op = true; /* the INTERVAL*256+1 of the 3.1.2 Note (SPE-3.1.2-3) */
	s->unknown_interval = 0x100;
	s->max_in_flight = 1;
	s->fe_zero_discards = false;
	s->ft_none_discards = false;
	s->fl_zero_discards = false;
	s->ext_abort = AP_SPE_EA_SYNC;
	s->late_disable = AP_SPE_LATE_WRITE;
	s->bad_ptr = AP_SPE_BADPTR_WRITE;
	s->ts_when_timer_disabled = false;
	s->cond_fail_target = false;
	s->misspeculated_written = false;
	ap_prof_config_defaults(cfg); /* pmu.*, pcsr.*, snapshot.* */
}

const struct ap_config_key *ap_config_key_find(const char *name)
{
	for (size_t t = 0; t < ap_config_key_table_count; t++)
		for (size_t i = 0; i < ap_config_key_tables[t]->count; i++)
			if (!strcasecmp(ap_config_key_tables[t]->keys[i].name, name))
				return &ap_config_key_tables[t]->keys[i];
	return NULL;
}

static const struct ap_config_key *key_at(size_t index)
{
	for (size_t t = 0; t < ap_config_key_table_count; t++) {
		if (index < ap_config_key_tables[t]->count)
			return &ap_config_key_tables[t]->keys[index];
		index -= ap_config_key_tables[t]->count;
	}
	return NULL;
}

const char *ap_config_key_name(size_t index)
{
	const struct ap_config_key *k = key_at(index);
	return k ? k->name : NULL;
}

const char *ap_config_key_doc(size_t index)
{
	const struct ap_config_key *k = key_at(index);
	return k ? k->doc : NULL;
}

static int fail(struct ap_error_ctx *err, const char *fmt, ...)
{
	if (err) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(err->message, sizeof(err->message), fmt, ap);
		va_end(ap);
	}
	return -AP_ERR_INVALID;
}

static int parse_bool(const char *v, bool *out)
{
	static const char *const yes[] = { "1", "true", "yes", "on" };
	static const char *const no[] = { "0", "false", "no", "off" };
	for (size_t i = 0; i < 4; i++) {
		if (!strcasecmp(v, yes[i])) {
			*out = true;
			return 0;
		}
		if (!strcasecmp(v, no[i])) {
			*out = false;
			return 0;
		}
	}
	return -AP_ERR_INVALID;
}

int ap_config_set(struct ap_config *cfg, const char *key, const char *value,
                  struct ap_error_ctx *err)
{
	const struct ap_config_key *k = ap_config_key_find(key);
	if (!k)
		return fail(err, "unknown config key '%s'", key);
	if (k->offset >= cfg->size)
		return fail(err, "config key '%s' is beyond this caller's struct ap_config", key);
	unsigned char *field = (unsigned char *)cfg + k->offset;
	uint64_t v;
	switch (k->type) {
	case AP_CFG_BOOL: {
		bool b;
		if (parse_bool(value, &b))
			return fail(err, "%s: '%s' is not a boolean (0/1, true/false)", key, value);
		memcpy(field, &b, sizeof(b));
		return 0;
	}
	case AP_CFG_ENUM:
		for (size_t i = 0; k->names[i]; i++) {
			if (!strcasecmp(k->names[i], value)) {
				*field = (uint8_t)i;
				return 0;
			}
		}
		if (ap_parse_u64(value, &v) == 0 && v <= k->max) {
			*field = (uint8_t)v;
			return 0;
		} else {
			char names[96] = "";
			for (size_t i = 0; k->names[i]; i++) {
				if (i)
					strncat(names, "|", sizeof(names) - strlen(names) - 1);
				strncat(names, k->names[i], sizeof(names) - strlen(names) - 1);
			}
			return fail(err, "%s: '%s' is not one of %s", key, value, names);
		}
	default:
		break;
	}
	if (ap_parse_u64(value, &v))
		return fail(err, "%s: '%s' is not a number", key, value);
	if (v < k->min || v > k->max)
		return fail(err, "%s: %s is out of range [%llu, %llu]", key, value,
		            (unsigned long long)k->min, (unsigned long long)k->max);
	switch (k->type) {
	case AP_CFG_U8: {
		uint8_t x = (uint8_t)v;
		memcpy(field, &x, sizeof(x));
		break;
	}
	case AP_CFG_U32: {
		uint32_t x = (uint32_t)v;
		memcpy(field, &x, sizeof(x));
		break;
	}
	default:
		memcpy(field, &v, sizeof(v));
		break;
	}
	return 0;
}

int ap_config_get(const struct ap_config *cfg, const char *key, char *buf, size_t len)
{
	const struct ap_config_key *k = ap_config_key_find(key);
	if (!k || !buf || !len)
		return -AP_ERR_INVALID;
	const unsigned char *field = (const unsigned char *)cfg + k->offset;
	uint64_t v = 0;
	switch (k->type) {
	case AP_CFG_BOOL: {
		bool b;
		memcpy(&b, field, sizeof(b));
		snprintf(buf, len, "%d", b ? 1 : 0);
		return 0;
	}
	case AP_CFG_ENUM:
		for (size_t i = 0; k->names[i]; i++)
			if (i == *field) {
				snprintf(buf, len, "%s", k->names[i]);
				return 0;
			}
		snprintf(buf, len, "%u", *field); /* out of range: set by a program */
		return 0;
	case AP_CFG_U8:
		v = *field;
		break;
	case AP_CFG_U32: {
		uint32_t x;
		memcpy(&x, field, sizeof(x));
		v = x;
		break;
	}
	default:
		memcpy(&v, field, sizeof(v));
		break;
	}
	snprintf(buf, len, "0x%llx", (unsigned long long)v);
	return 0;
}

int ap_config_validate(const struct ap_config *cfg, struct ap_error_ctx *err)
{
	if (!cfg || cfg->size < offsetof(struct ap_config, spe))
		return fail(err, "struct ap_config: size %zu is too small", cfg ? cfg->size : 0);
	/* Range checks of single keys, for configs filled in by a program. */
	for (size_t i = 0; key_at(i); i++) {
		const struct ap_config_key *k = key_at(i);
		if (k->offset >= cfg->size)
			continue;
		const unsigned char *field = (const unsigned char *)cfg + k->offset;
		uint64_t v;
		if (k->type == AP_CFG_U8 || k->type == AP_CFG_ENUM)
			v = *field;
		else if (k->type == AP_CFG_U32) {
			uint32_t x;
			memcpy(&x, field, sizeof(x));
			v = x;
		} else if (k->type == AP_CFG_U64)
			memcpy(&v, field, sizeof(v));
		else
			continue;
		if (v < k->min || v > k->max)
			return fail(err, "%s: %llu is out of range [%llu, %llu]", k->name,
			            (unsigned long long)v, (unsigned long long)k->min,
			            (unsigned long long)k->max);
	}
	if (cfg->have_vhe && !cfg->have_el2)
		return fail(err, "have_vhe needs have_el2");
	if ((cfg->have_fgt || cfg->have_nv2) && !cfg->have_el2)
		return fail(err, "have_fgt and have_nv2 need have_el2");
	if ((cfg->have_sel2 || cfg->have_rme) && !(cfg->have_el2 && cfg->have_el3))
		return fail(err, "have_sel2 and have_rme need have_el2 and have_el3");
	if (cfg->size >= offsetof(struct ap_config, spe) + sizeof(struct ap_spe_config)) {
		const struct ap_spe_config *s = &cfg->spe;
		if (s->interval == 1)
			return fail(err, "spe.interval: 0b0001 is a reserved PMSIDR_EL1.Interval encoding (SPE-4.3.11-25)");
		if (s->min_granule_log2 != 12 && s->min_granule_log2 != 14 && s->min_granule_log2 != 16)
			return fail(err, "spe.min_granule_log2: %u is not a granule (12, 14 or 16)", s->min_granule_log2);
		if (s->align > s->max_size)
			return fail(err, "spe.align (%u) must not exceed spe.max_size (%u): records are padded to 2^align bytes",
			            s->align, s->max_size);
	}
	if (cfg->size >= offsetof(struct ap_config, snapshot) + sizeof(struct ap_snapshot_config)) {
		int rc = ap_prof_config_validate(cfg, err);
		if (rc < 0)
			return rc;
	}
	if (cfg->size >= offsetof(struct ap_config, spe_later) + sizeof(struct ap_spe_later_config))
		return ap_spe_later_validate(cfg, err);
	return 0;
}
