/* The plugin's SPE "driver" (see spe_sink.h).
 *
 * Register values follow spec/002 section 4 (and DDI 0487 for bit
 * positions): PMSCR_EL1.{E0SPE [0], CX [3], PA [4], TS [5], PCT [7:6]},
 * PMSIRR_EL1.{RND [0], INTERVAL [31:8]}, PMBLIMITR_EL1.{E [0], LIMIT
 * [63:12]}, PMBSR_EL1.S [17]. The guest runs at EL0 Non-secure with the
 * buffer owned by EL1 (the reset ownership of ap_pe_state_init), as Linux
 * user-space profiling does. */
#include "spe_sink.h"

#include <stdlib.h>
#include <string.h>

#include "armprof/model.h"
#include "plugin_state.h"

#define SINK_BUFFER_VA 0x0000ff0000000000ull /* any page-aligned VA */

struct spe_sink {
	struct ap_pe *pe;
	uint8_t *mem;        /* the profiling buffer */
	uint64_t mem_size;
	uint64_t now;        /* virtual CNTPCT */
	int irq;             /* PMBIRQ level seen */
	uint8_t *out;        /* drained bytes */
	size_t out_len, out_cap;
	uint64_t drains, lost_bytes;
	int64_t tid;
};

static int buffer_write(void *ctx, uint64_t va, const uint8_t *bytes, size_t len,
                        struct ap_mem_fault *fault)
{
	struct spe_sink *s = ctx;
	if (va < SINK_BUFFER_VA || va - SINK_BUFFER_VA > s->mem_size ||
	    len > s->mem_size - (va - SINK_BUFFER_VA)) {
		fault->kind = AP_MEMF_TRANSLATION;
		fault->stage = 1;
		fault->level = 3;
		fault->va = va;
		return 1;
	}
	memcpy(s->mem + (va - SINK_BUFFER_VA), bytes, len);
	return 0;
}

static uint64_t read_time(void *ctx)
{
	return ((struct spe_sink *)ctx)->now;
}

static void pmbirq(void *ctx, int level)
{
	((struct spe_sink *)ctx)->irq = level;
}

/* An MSR as software at Exception level el would do it, then back. */
static int at_el(struct spe_sink *s, uint8_t target_el, uint32_t reg, uint64_t value)
{
	struct ap_pe_state st;
	ap_pe_get_state(s->pe, &st);
	uint8_t el = st.el;
	st.el = target_el;
	ap_pe_set_state(s->pe, &st);
	int r = ap_pe_msr(s->pe, reg, value);
	st.el = el;
	ap_pe_set_state(s->pe, &st);
	return r;
}

/* The EL1 driver's register writes. */
static int at_el1(struct spe_sink *s, uint32_t reg, uint64_t value)
{
	return at_el(s, AP_EL1, reg, value);
}

static int append(struct spe_sink *s, const uint8_t *p, size_t n)
{
	if (s->out_len + n > s->out_cap) {
		size_t cap = s->out_cap ? s->out_cap : 1u << 20;
		while (cap < s->out_len + n)
			cap *= 2;
		uint8_t *q = realloc(s->out, cap);
		if (!q) {
			s->lost_bytes += n;
			return -1;
		}
		s->out = q;
		s->out_cap = cap;
	}
	memcpy(s->out + s->out_len, p, n);
	s->out_len += n;
	return 0;
}

/* Copy out what the buffer holds and restart it at its base (the kernel
 * driver's buffer-full handling), clearing the management event. */
static void drain(struct spe_sink *s)
{
	uint64_t ptr = 0;
	ap_pe_peek(s->pe, AP_PMBPTR_EL1, &ptr);
	if (ptr > SINK_BUFFER_VA && ptr - SINK_BUFFER_VA <= s->mem_size)
		append(s, s->mem, (size_t)(ptr - SINK_BUFFER_VA));
	s->drains++;
	at_el1(s, AP_PMBPTR_EL1, SINK_BUFFER_VA);
	at_el1(s, AP_PMBSR_EL1, 0);
	s->irq = 0;
}

int spe_sink_new(struct spe_sink **out, const struct plugin_options *o, unsigned vcpu, int64_t tid,
                 char *err, size_t errlen)
{
	struct ap_config cfg;
	struct ap_error_ctx cerr = { 0 };
	*out = NULL;
	ap_config_init(&cfg);
	cfg.seed = o->seed + vcpu; /* each PE its own stream, reproducibly */
	/* model_keys: "key=value\n" lines from --model-config / --set */
	char keys[sizeof(o->model_keys)];
	memcpy(keys, o->model_keys, sizeof(keys));
	for (char *save = NULL, *line = strtok_r(keys, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *eq = strchr(line, '=');
		if (!eq) {
			snprintf(err, errlen, "model key without '=': %s", line);
			return -AP_ERR_INVALID;
		}
		*eq = 0;
		int r = ap_config_set(&cfg, line, eq + 1, &cerr);
		if (r < 0) {
			snprintf(err, errlen, "%s", cerr.message);
			return r;
		}
	}
	struct spe_sink *s = calloc(1, sizeof(*s));
	if (!s) {
		snprintf(err, errlen, "out of memory");
		return -AP_ERR_NOMEM;
	}
	s->tid = tid;
	s->mem_size = o->buffer_bytes;
	s->mem = malloc(s->mem_size);
	struct ap_host host = { 0 };
	host.ctx = s;
	host.buffer_write = buffer_write;
	host.cntpct = read_time;
	host.cntvct = read_time;
	host.pmbirq = pmbirq;
	int r = s->mem ? ap_pe_create(&cfg, &host, &s->pe, &cerr) : -AP_ERR_NOMEM;
	if (r < 0) {
		snprintf(err, errlen, "SPE model: %s", s->mem ? cerr.message : "out of memory");
		spe_sink_free(s);
		return r;
	}
	struct ap_pe_state st;
	ap_pe_state_init(&st);
	st.el = AP_EL0;
	st.mdcr_el3 |= 1ull << AP_MDCR_EL3_ENPMS3; /* firmware gives PMSDSFR_EL1 to EL1 (LATER-FDS-3) */
	st.contextidr_el1 = (uint64_t)tid; /* Linux: PID in CONTEXTIDR_EL1 */
	ap_pe_set_state(s->pe, &st);

	uint64_t pmscr = 1u /* E0SPE */ | (uint64_t)(o->ctx ? 1 : 0) << 3 | (uint64_t)(o->pa ? 1 : 0) << 4 |
	                 (uint64_t)(o->ts ? 1 : 0) << 5 | 1ull << 6 /* PCT: physical time */;
	struct {
		uint32_t reg;
		uint64_t value;
	} prog[] = {
		{ AP_PMSIRR_EL1, (o->interval & 0xFFFFFF00ull) | (o->jitter ? 1 : 0) },
		{ AP_PMSFCR_EL1, o->pmsfcr },
		{ AP_PMSEVFR_EL1, o->pmsevfr },
		{ AP_PMSLATFR_EL1, o->pmslatfr },
		{ AP_PMSICR_EL1, 0 },
		{ AP_PMBPTR_EL1, SINK_BUFFER_VA },
		{ AP_PMBLIMITR_EL1, (SINK_BUFFER_VA + s->mem_size) | 1u /* E */ |
		                        (o->discard ? 2u << 1 : 0) /* FM: discard (LATER-DIS-1) */ },
		{ AP_PMSCR_EL1, pmscr },
	};
	/* With EL2 implemented, PMSCR_EL2 must also allow physical addresses
	 * and physical time for EL1's settings to take effect
	 * (CollectPhysicalAddress(), CollectTimeStamp(), spec/002 3.3): the
	 * hypervisor's part, written at EL2. E0HSPE/E2SPE stay 0. */
	if (ap_pe_config(s->pe)->have_el2) {
		uint64_t pmscr2 = (uint64_t)(o->pa ? 1 : 0) << 4 | 1ull << 6;
		r = at_el(s, AP_EL2, AP_PMSCR_EL2, pmscr2);
		if (r != AP_ACCESS_OK) {
			snprintf(err, errlen, "programming PMSCR_EL2 = 0x%llx: %s", (unsigned long long)pmscr2,
			         r < 0 ? ap_errstr(r) : ap_access_name((enum ap_access)r));
			spe_sink_free(s);
			return -AP_ERR_INVALID;
		}
	}
	/* The registers of SPE after v1, only when asked for: without the
	 * feature they are not the model's (the error names the register). */
	const struct { uint32_t reg; uint64_t value; } later[] = {
		{ AP_PMSNEVFR_EL1, o->pmsnevfr }, { AP_PMSDSFR_EL1, o->pmsdsfr },
	};
	for (size_t i = 0; i < sizeof(later) / sizeof(later[0]); i++) {
		if (!later[i].value)
			continue;
		r = at_el1(s, later[i].reg, later[i].value);
		if (r != AP_ACCESS_OK) {
			snprintf(err, errlen, "programming %s = 0x%llx: %s", ap_sysreg_name(later[i].reg),
			         (unsigned long long)later[i].value,
			         r < 0 ? ap_errstr(r) : ap_access_name((enum ap_access)r));
			spe_sink_free(s);
			return -AP_ERR_INVALID;
		}
	}
	for (size_t i = 0; i < sizeof(prog) / sizeof(prog[0]); i++) {
		r = at_el1(s, prog[i].reg, prog[i].value);
		if (r != AP_ACCESS_OK) {
			snprintf(err, errlen, "programming %s = 0x%llx: %s", ap_sysreg_name(prog[i].reg),
			         (unsigned long long)prog[i].value,
			         r < 0 ? ap_errstr(r) : ap_access_name((enum ap_access)r));
			spe_sink_free(s);
			return -AP_ERR_INVALID;
		}
	}
	*out = s;
	return 0;
}

void spe_sink_free(struct spe_sink *s)
{
	if (!s)
		return;
	ap_pe_destroy(s->pe);
	free(s->mem);
	free(s->out);
	free(s);
}

void spe_sink_set_tid(struct spe_sink *s, int64_t tid)
{
	struct ap_pe_state st;
	ap_pe_get_state(s->pe, &st);
	st.contextidr_el1 = (uint64_t)tid;
	ap_pe_set_state(s->pe, &st);
	s->tid = tid;
}

uint64_t spe_sink_skip(struct spe_sink *s, uint64_t n, uint64_t now)
{
	s->now = now;
	return ap_spe_skip(s->pe, n);
}

uint64_t spe_sink_until_sample(struct spe_sink *s)
{
	return ap_spe_until_sample(s->pe);
}

int spe_sink_pbt(const struct spe_sink *s)
{
	return ap_pe_config(s->pe)->spe_later.pbt;
}

void spe_sink_op(struct spe_sink *s, const struct ap_spe_op *op, uint64_t now)
{
	s->now = now;
	ap_spe_op(s->pe, op);
	if (s->irq)
		drain(s);
}

void spe_sink_finish(struct spe_sink *s)
{
	ap_spe_psb_csync(s->pe);
	drain(s);
}

const uint8_t *spe_sink_bytes(const struct spe_sink *s, size_t *len)
{
	*len = s->out_len;
	return s->out;
}

const uint8_t *spe_sink_buffered(const struct spe_sink *s, size_t *len)
{
	uint64_t ptr = 0;
	ap_pe_peek(s->pe, AP_PMBPTR_EL1, &ptr);
	*len = ptr > SINK_BUFFER_VA && ptr - SINK_BUFFER_VA <= s->mem_size ? (size_t)(ptr - SINK_BUFFER_VA) : 0;
	return s->mem;
}

void spe_sink_counts(struct spe_sink *s, struct ap_spe_counts *c, uint64_t *drains,
                     uint64_t *lost_bytes)
{
	ap_spe_get_counts(s->pe, c);
	*drains = s->drains;
	*lost_bytes = s->lost_bytes;
}
