/* Helpers for the model unit tests: a PE built from "key=value ..." config
 * text, and PE state changed from "field=value ..." text, so each table row
 * reads like the spec condition it encodes. */
#ifndef ARMPROF_TEST_MODEL_FIXTURE_H
#define ARMPROF_TEST_MODEL_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "armprof/number.h"
#include "armprof/model.h"

/* Apply "k=v k=v" words with fn; exits the test binary on a bad word (a bug
 * in the test table, not a model result). */
static void fixture_apply(const char *text, int (*fn)(void *, const char *, const char *), void *obj)
{
	char buf[512];
	snprintf(buf, sizeof(buf), "%s", text ? text : "");
	for (char *save = NULL, *w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(w, '=');
		if (!eq) {
			fprintf(stderr, "fixture: bad word '%s'\n", w);
			exit(2);
		}
		*eq = '\0';
		if (fn(obj, w, eq + 1) < 0) {
			fprintf(stderr, "fixture: cannot set %s=%s\n", w, eq + 1);
			exit(2);
		}
	}
}

static int fixture_cfg_set(void *cfg, const char *k, const char *v)
{
	return ap_config_set(cfg, k, v, NULL);
}

static int fixture_state_set(void *st, const char *k, const char *v)
{
	uint64_t x;
	if (ap_parse_u64(v, &x) < 0)
		return -1;
	return ap_pe_state_set_field(st, k, x);
}

/* What the PE reported through the host callbacks. */
struct fixture_host {
	int irq_level;
	int irq_changes;
	uint64_t nvmem[0x200];
	uint64_t nvmem_last_addr;
};

static void fixture_pmbirq(void *ctx, int level)
{
	struct fixture_host *h = ctx;
	h->irq_level = level;
	h->irq_changes++;
}

static int fixture_nvmem_read(void *ctx, uint64_t addr, uint64_t *value)
{
	struct fixture_host *h = ctx;
	h->nvmem_last_addr = addr;
	*value = h->nvmem[(addr / 8) % 0x200];
	return 0;
}

static int fixture_nvmem_write(void *ctx, uint64_t addr, uint64_t value)
{
	struct fixture_host *h = ctx;
	h->nvmem_last_addr = addr;
	h->nvmem[(addr / 8) % 0x200] = value;
	return 0;
}

static struct fixture_host fixture_host_state;

/* A PE with the default (Neoverse-N1-like) config changed by cfg_text. */
static struct ap_pe *fixture_pe(const char *cfg_text)
{
	struct ap_config cfg;
	ap_config_init(&cfg);
	fixture_apply(cfg_text, fixture_cfg_set, &cfg);
	struct ap_host host;
	memset(&host, 0, sizeof(host));
	memset(&fixture_host_state, 0, sizeof(fixture_host_state));
	host.ctx = &fixture_host_state;
	host.pmbirq = fixture_pmbirq;
	host.nvmem_read = fixture_nvmem_read;
	host.nvmem_write = fixture_nvmem_write;
	struct ap_pe *pe = NULL;
	struct ap_error_ctx err = { 0 };
	if (ap_pe_create(&cfg, &host, &pe, &err) < 0) {
		fprintf(stderr, "fixture: ap_pe_create: %s\n", err.message);
		exit(2);
	}
	return pe;
}

/* Change the PE state by "field=value" words; returns ap_pe_set_state(). */
static int fixture_state(struct ap_pe *pe, const char *state_text)
{
	struct ap_pe_state st;
	st.size = sizeof(st);
	ap_pe_get_state(pe, &st);
	fixture_apply(state_text, fixture_state_set, &st);
	return ap_pe_set_state(pe, &st);
}

#endif
