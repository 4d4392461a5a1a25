/* `armprof sim` SPE engine commands on the Profiling Buffer's memory, the
 * records in it and the engine's counts (docs/sim.md): mem, records,
 * expect-records, expect-record, expect-count. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "armprof/decode.h"
#include "armprof/spe.h"
#include "cli_output.h"
#include "sim_spe.h"

/* ---- mem ---- */

static int mem_map(struct sim *s, int argc, char **argv)
{
	uint64_t base, size;
	int rc;
	if (argc != 4)
		return sim_error(s, "usage: mem map BASE SIZE");
	if ((rc = sim_parse_u64(s, argv[2], &base, "mem map base")) ||
	    (rc = sim_parse_u64(s, argv[3], &size, "mem map size")))
		return rc;
	char err[128];
	if (sim_mem_map(sim_spe_mem(s), base, size, err, sizeof(err)) < 0)
		return sim_error(s, "%s", err);
	return 0;
}

static int mem_fault(struct sim *s, int argc, char **argv)
{
	uint64_t addr;
	int rc;
	if (argc < 4)
		return sim_error(s, "usage: mem fault ADDR KIND [level=N]");
	if ((rc = sim_parse_u64(s, argv[2], &addr, "mem fault address")))
		return rc;
	struct ap_mem_fault f = { .stage = 1, .level = 3 };
	const char *kind = argv[3];
	/* external-sync / external-async: how SPE gets the abort is the PE's
	 * IMPLEMENTATION DEFINED choice (spe.ext_abort); the name must agree. */
	if (!strcasecmp(kind, "external-sync") || !strcasecmp(kind, "external-async")) {
		uint8_t want = !strcasecmp(kind, "external-sync") ? AP_SPE_EA_SYNC : AP_SPE_EA_ASYNC;
		if (s->cfg.spe.ext_abort != want)
			return sim_error(s, "mem fault %s needs config spe.ext_abort=%s", kind,
			                 want == AP_SPE_EA_SYNC ? "sync" : "async");
		kind = "external";
	}
	if (sim_mem_parse_fault_kind(kind, &f) < 0)
		return sim_error(s, "mem fault: unknown kind '%s' (%s)", argv[3], sim_mem_fault_kind_list());
	if (argc > 4) {
		char *key, *value;
		uint64_t v;
		if ((rc = sim_split_kv(s, argv[4], &key, &value)) || (rc = sim_parse_u64(s, value, &v, key)))
			return rc;
		if (strcasecmp(key, "level") || v > 3)
			return sim_error(s, "mem fault: expected level=0..3, got %s=%s", key, value);
		f.level = (uint8_t)v;
	}
	char err[128];
	if (sim_mem_add_fault(sim_spe_mem(s), addr, &f, err, sizeof(err)) < 0)
		return sim_error(s, "%s", err);
	return 0;
}

/* [from, to) of the buffer: by default from the start of the mapped region
 * that holds PMBPTR_EL1 (or ends at it) to PMBPTR_EL1. */
static int buffer_range(struct sim *s, int argc, char **argv, int first, uint64_t *from, uint64_t *to)
{
	uint64_t ptr = 0;
	ap_pe_peek(s->pe, AP_PMBPTR_EL1, &ptr);
	*to = ptr;
	int rc;
	if (argc > first) {
		if ((rc = sim_parse_u64(s, argv[first], from, "from")))
			return rc;
		if (argc > first + 1 && (rc = sim_parse_u64(s, argv[first + 1], to, "to")))
			return rc;
	} else {
		const struct sim_mem_region *r = sim_mem_region_of(sim_spe_mem(s), ptr);
		if (!r)
			return sim_error(s, "no mapped region holds PMBPTR_EL1 = 0x%llx (mem map first)",
			                 (unsigned long long)ptr);
		*from = r->base;
	}
	if (*to < *from || *to - *from > SIM_MEM_MAX_BYTES)
		return sim_error(s, "buffer range 0x%llx..0x%llx is empty or too large",
		                 (unsigned long long)*from, (unsigned long long)*to);
	return 0;
}

/* A copy of the buffer bytes buffer_range picks (the caller frees *bytes). */
static int buffer_bytes(struct sim *s, int argc, char **argv, int first, uint64_t *from,
                        uint8_t **bytes, size_t *len)
{
	uint64_t to = 0;
	int rc = buffer_range(s, argc, argv, first, from, &to);
	if (rc)
		return rc;
	*len = (size_t)(to - *from);
	*bytes = malloc(*len ? *len : 1);
	if (!*bytes)
		return sim_error(s, "out of memory");
	sim_mem_read(sim_spe_mem(s), *from, *bytes, *len);
	return 0;
}

static int mem_save(struct sim *s, int argc, char **argv)
{
	uint64_t from = 0;
	uint8_t *bytes;
	size_t len;
	int rc = buffer_bytes(s, argc, argv, 3, &from, &bytes, &len);
	if (rc)
		return rc;
	/* cli_output.h: no partial output, links and devices kept; it says
	 * why a write failed. */
	struct cli_output out;
	int ok = cli_output_open(&out, "sim", argv[2]) == 0;
	if (ok) {
		ok = cli_output_write(&out, bytes, len) == 0;
		ok = cli_output_close(&out, "sim", ok) == 0;
	}
	free(bytes);
	if (!ok)
		return sim_error(s, "mem save %s: not written", argv[2]);
	return 0;
}

int sim_spe_cmd_mem(struct sim *s, int argc, char **argv)
{
	if (!strcasecmp(argv[1], "map"))
		return mem_map(s, argc, argv);
	if (!strcasecmp(argv[1], "fault"))
		return mem_fault(s, argc, argv);
	if (!strcasecmp(argv[1], "unfault")) {
		uint64_t addr;
		int rc = sim_parse_u64(s, argv[2], &addr, "mem unfault address");
		if (!rc)
			sim_mem_remove_fault(sim_spe_mem(s), addr);
		return rc;
	}
	if (!strcasecmp(argv[1], "save"))
		return mem_save(s, argc, argv);
	return sim_error(s, "mem: unknown subcommand '%s' (map, fault, unfault, save)", argv[1]);
}

/* ---- records in the buffer ---- */

struct rec_list {
	struct ap_record *rec;
	size_t n, cap;
	bool oom;
};

static int collect(void *ctx, const struct ap_record *r)
{
	struct rec_list *l = ctx;
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 64;
		struct ap_record *p = realloc(l->rec, cap * sizeof(*p));
		if (!p) {
			l->oom = true;
			return 1;
		}
		l->rec = p;
		l->cap = cap;
	}
	l->rec[l->n++] = *r;
	return 0;
}

/* Decode [from, to) of the buffer memory into l. */
static int decode_buffer(struct sim *s, struct rec_list *l, uint64_t *from_out)
{
	uint64_t from = 0;
	uint8_t *bytes;
	size_t len;
	int rc = buffer_bytes(s, 0, NULL, 1, &from, &bytes, &len);
	if (rc)
		return rc;
	struct ap_decoder_config dc;
	ap_decoder_config_init(&dc);
	dc.on_record = collect;
	dc.ctx = l;
	dc.base_offset = from;
	struct ap_decoder dec;
	ap_decoder_init(&dec, &dc);
	ap_decoder_feed(&dec, bytes, len);
	ap_decoder_finish(&dec);
	free(bytes);
	if (l->oom)
		return sim_error(s, "out of memory");
	if (from_out)
		*from_out = from;
	return 0;
}

static bool complete(const struct ap_record *r)
{
	return (r->end == AP_END_END || r->end == AP_END_TIMESTAMP) && r->n_errors_total == 0;
}

int sim_spe_cmd_expect_records(struct sim *s, int argc, char **argv)
{
	(void)argc;
	uint64_t want;
	int rc = sim_parse_u64(s, argv[1], &want, "expect-records");
	if (rc)
		return rc;
	struct rec_list l = { 0 };
	if ((rc = decode_buffer(s, &l, NULL)))
		return rc;
	uint64_t got = 0, bad = 0;
	for (size_t i = 0; i < l.n; i++)
		complete(&l.rec[i]) ? got++ : bad++;
	free(l.rec);
	if (got != want)
		return sim_fail(s, "%llu complete records in the buffer (%llu incomplete), expected %llu",
		                (unsigned long long)got, (unsigned long long)bad, (unsigned long long)want);
	return 0;
}

int sim_spe_cmd_records(struct sim *s, int argc, char **argv)
{
	(void)argc;
	(void)argv;
	struct rec_list l = { 0 };
	int rc = decode_buffer(s, &l, NULL);
	if (rc)
		return rc;
	for (size_t i = 0; i < l.n; i++) {
		const struct ap_record *r = &l.rec[i];
		fprintf(s->out, "record %zu @0x%llx +%u:", i, (unsigned long long)r->offset, r->size);
		if (r->has & AP_HAS_PC)
			fprintf(s->out, " pc=0x%llx el=%u ns=%u", (unsigned long long)r->pc, r->el, r->ns);
		if (r->has & AP_HAS_OP)
			fprintf(s->out, " op=%s/0x%02x", ap_record_op_name(r), r->op_subclass);
		fprintf(s->out, " events=0x%llx", (unsigned long long)r->events);
		if (r->has & AP_HAS_LAT_TOTAL)
			fprintf(s->out, " lat=%u", r->lat_total);
		if (r->has & AP_HAS_LAT_ISSUE)
			fprintf(s->out, " issue=%u", r->lat_issue);
		if (r->has & AP_HAS_TARGET)
			fprintf(s->out, " target=0x%llx target_el=%u", (unsigned long long)r->target, r->target_el);
		if (r->has & AP_HAS_VADDR)
			fprintf(s->out, " va=0x%llx", (unsigned long long)r->vaddr);
		if (r->has & AP_HAS_LAT_XLAT)
			fprintf(s->out, " xlat=%u", r->lat_xlat);
		if (r->has & AP_HAS_PADDR)
			fprintf(s->out, " pa=0x%llx pa_ns=%u", (unsigned long long)r->paddr, r->pa_ns);
		if (r->has & AP_HAS_DATA_SOURCE)
			fprintf(s->out, " ds=0x%x", r->data_source);
		if (r->has & AP_HAS_CTX_EL1)
			fprintf(s->out, " ctx=0x%x", r->ctx_el1);
		if (r->has & AP_HAS_CTX_EL2)
			fprintf(s->out, " ctx2=0x%x", r->ctx_el2);
		if (r->has & AP_HAS_TS)
			fprintf(s->out, " ts=0x%llx", (unsigned long long)r->ts);
		fprintf(s->out, "%s\n", complete(r) ? "" : " (incomplete)");
	}
	free(l.rec);
	return 0;
}

/* Fields of expect-record: name, presence bit (0: always there), value. */
static bool record_field(const struct ap_record *r, const char *name, uint32_t *has, uint64_t *v)
{
	static const struct {
		const char *name;
		uint32_t has;
	} f[] = {
		{ "pc", AP_HAS_PC },           { "el", AP_HAS_PC },           { "ns", AP_HAS_PC },
		{ "target", AP_HAS_TARGET },   { "target_el", AP_HAS_TARGET }, { "target_ns", AP_HAS_TARGET },
		{ "va", AP_HAS_VADDR },        { "pa", AP_HAS_PADDR },        { "pa_ns", AP_HAS_PADDR },
		{ "class", AP_HAS_OP },        { "subclass", AP_HAS_OP },     { "events", AP_HAS_EVENTS },
		{ "lat", AP_HAS_LAT_TOTAL },   { "issue", AP_HAS_LAT_ISSUE }, { "xlat", AP_HAS_LAT_XLAT },
		{ "ts", AP_HAS_TS },           { "ctx", AP_HAS_CTX_EL1 },     { "ctx2", AP_HAS_CTX_EL2 },
		{ "ds", AP_HAS_DATA_SOURCE },  { "size", 0 },                 { "offset", 0 },
	};
	const uint64_t vals[] = {
		r->pc,        r->el,          r->ns,          r->target,   r->target_el, r->target_ns,
		r->vaddr,     r->paddr,       r->pa_ns,       r->op_class, r->op_subclass, r->events,
		r->lat_total, r->lat_issue,   r->lat_xlat,    r->ts,       r->ctx_el1,   r->ctx_el2,
		r->data_source, r->size,      r->offset,
	};
	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		if (!strcasecmp(name, f[i].name)) {
			*has = f[i].has;
			*v = vals[i];
			return true;
		}
	return false;
}

int sim_spe_cmd_expect_record(struct sim *s, int argc, char **argv)
{
	uint64_t index;
	int rc = sim_parse_u64(s, argv[1], &index, "expect-record index");
	if (rc)
		return rc;
	struct rec_list l = { 0 };
	if ((rc = decode_buffer(s, &l, NULL)))
		return rc;
	if (index >= l.n) {
		rc = sim_fail(s, "record %llu: the buffer holds %zu records", (unsigned long long)index, l.n);
		free(l.rec);
		return rc;
	}
	const struct ap_record r = l.rec[index];
	free(l.rec);
	for (int i = 2; i < argc; i++) {
		char *key, *value;
		if ((rc = sim_split_kv(s, argv[i], &key, &value)))
			return rc;
		if (!strcasecmp(key, "op")) { /* LD, ST, B, OTHER (ap_record_op_name) */
			const char *got = ap_record_op_name(&r);
			if (!got || strcasecmp(got, value))
				sim_fail(s, "record %llu: op = %s, expected %s", (unsigned long long)index,
				         got ? got : "none", value);
			continue;
		}
		if (!strcasecmp(key, "end")) {
			const char *got = r.end == AP_END_TIMESTAMP ? "ts" : r.end == AP_END_END ? "end" : "none";
			if (strcasecmp(got, value))
				sim_fail(s, "record %llu: end = %s, expected %s", (unsigned long long)index, got, value);
			continue;
		}
		uint32_t has;
		uint64_t got, want;
		if (!record_field(&r, key, &has, &got))
			return sim_error(s, "expect-record: unknown field '%s' (pc el ns target target_el "
			                    "target_ns va pa pa_ns op class subclass events lat issue xlat ts ctx "
			                    "ctx2 ds size offset end)", key);
		bool present = !has || (r.has & has);
		if (!strcasecmp(value, "none")) {
			if (present)
				sim_fail(s, "record %llu: %s = 0x%llx, expected none", (unsigned long long)index, key,
				         (unsigned long long)got);
			continue;
		}
		if ((rc = sim_parse_u64(s, value, &want, key)))
			return rc;
		if (!present)
			sim_fail(s, "record %llu: no %s, expected 0x%llx", (unsigned long long)index, key,
			         (unsigned long long)want);
		else if (got != want)
			sim_fail(s, "record %llu: %s = 0x%llx, expected 0x%llx", (unsigned long long)index, key,
			         (unsigned long long)got, (unsigned long long)want);
	}
	return 0;
}

/* ---- counts ---- */

int sim_spe_cmd_expect_count(struct sim *s, int argc, char **argv)
{
	struct ap_spe_counts c;
	ap_spe_get_counts(s->pe, &c);
	const struct {
		const char *name;
		uint64_t value;
	} counts[] = {
		{ "pop", c.sample_pop },          { "feed", c.sample_feed },
		{ "filtrate", c.sample_filtrate }, { "collision", c.sample_collision },
		{ "written", c.records_written },  { "discarded", c.records_discarded },
		{ "bytes", c.bytes_written },      { "serrors", c.serrors },
		{ "events", c.mgmt_events },       { "cti", s->cti_triggers[2] },
		{ "irq_changes", s->pmbirq_changes }, { "writes", sim_spe_mem(s)->writes },
	};
	for (int i = 1; i < argc; i++) {
		char *key, *value;
		uint64_t want;
		int rc = sim_split_kv(s, argv[i], &key, &value);
		if (!rc)
			rc = sim_parse_u64(s, value, &want, key);
		if (rc)
			return rc;
		size_t k;
		for (k = 0; k < sizeof(counts) / sizeof(counts[0]); k++)
			if (!strcasecmp(key, counts[k].name))
				break;
		if (k == sizeof(counts) / sizeof(counts[0]))
			return sim_error(s, "expect-count: unknown count '%s' (pop feed filtrate collision "
			                    "written discarded bytes serrors events cti irq_changes writes)", key);
		if (counts[k].value != want)
			sim_fail(s, "count %s = %llu, expected %llu", key, (unsigned long long)counts[k].value,
			         (unsigned long long)want);
	}
	return 0;
}
