/* perfdata_compare: check Linux perf's view of a perf.data against armprof's,
 * field by field (issue 5, "What must be shown").
 *
 *   perfdata_compare dump   FILE.data DUMP.txt
 *     DUMP.txt is `perf report -D` output. For every PERF_RECORD_AUXTRACE perf
 *     lists, the record's size/offset/idx/tid/cpu must be those armprof reads,
 *     and every packet line (offset, raw bytes, description) must be the
 *     packet armprof's decoder finds at that offset, with the same fields:
 *     type, address/EL/NS (5.3.1), counter value and index (5.3.4), context
 *     value and EL (5.3.3), events bits (5.3.7), operation class and flags
 *     (5.3.8), data source (5.3.5), timestamp (5.3.6). perf prints up to 16
 *     consecutive Padding bytes on one line; armprof's PAD packets are
 *     grouped the same way before comparing.
 *   perfdata_compare synth FILE.data SCRIPT.txt SYMS.txt
 *     SCRIPT.txt is `perf script -F event,addr,ip,sym` with perf's default
 *     synthesis: per record, one sample per kind its events and operation
 *     give, in perf's order: l1d-miss (E[3]), l1d-access (E[2]), llc-miss
 *     (E[9]), llc-access (E[8]), tlb-miss (E[5]), tlb-access (E[4]),
 *     branch-miss (E[7], addr = branch target), remote-access (E[10]),
 *     memory (load/store/atomic class). Each line must be the next expected
 *     sample, with the record's PC, address and symbol.
 *   perfdata_compare stats FILE.data DUMP.txt
 *     For a file written by perf itself: the "Aggregated stats" perf prints at
 *     the end of `perf report -D` (records per type, COMPRESSED ones and the
 *     events inside them both counted) must be the counts armprof's reader
 *     finds, type by type, and in total.
 *   perfdata_compare script FILE.data SCRIPT.txt SYMS.txt
 *     SCRIPT.txt is `perf script --itrace=i1i -F addr,ip,sym`: one
 *     instructions sample per SPE record. Each line must be the next record
 *     armprof decodes: ip = its PC, addr = its data VA as perf cleans the tag
 *     (bits [55:0], top byte 0xff when bits [55:48] are), sym = the symbol of
 *     SYMS.txt ("ADDR SIZE NAME" lines) that holds the PC, or [unknown].
 * Exit 0 when everything matches, 1 on a mismatch (each one printed), 2 on
 * usage or I/O errors.
 *
 * perf's packet decoder is an independent reading of the profile format, so
 * agreement field by field shows these encodings (spec/002 section 5) as
 * armprof writes and reads them: packets and payload sizes SPE-5.1.1-1,
 * SPE-5.1.1-2; record framing SPE-5.1.2-1, SPE-5.1.3-1, SPE-5.1.4-1,
 * SPE-5.1.4-2, SPE-5.3.9-1; Address SPE-5.3.1-1, SPE-5.3.1-3, SPE-5.3.1-5,
 * SPE-5.3.1-6, SPE-5.3.1-8, SPE-5.3.1-9, SPE-5.3.1-18, SPE-5.3.1-19,
 * SPE-5.3.1-22, SPE-5.3.1-23; Context SPE-5.3.3-1, SPE-5.3.3-2, SPE-5.3.3-3,
 * SPE-5.3.3-4, SPE-5.3.3-6; Counter SPE-5.3.4-1, SPE-5.3.4-2, SPE-5.3.4-4,
 * SPE-5.3.4-5, SPE-5.3.4-6; Data Source SPE-5.3.5-5; End SPE-5.3.6-1,
 * SPE-5.3.6-2; Events SPE-5.3.7-1, SPE-5.3.7-2, SPE-5.3.7-10, SPE-5.3.7-11,
 * SPE-5.3.7-12, SPE-5.3.7-14, SPE-5.3.7-15, SPE-5.3.7-16, SPE-5.3.7-17,
 * SPE-5.3.7-18, SPE-5.3.7-19, SPE-5.3.7-20, SPE-5.3.7-22; Operation Type
 * SPE-5.3.8-1, SPE-5.3.8-2, SPE-5.3.8-3, SPE-5.3.8-4, SPE-5.3.8-5,
 * SPE-5.3.8-7, SPE-5.3.8-8, SPE-5.3.8-10, SPE-5.3.8-11, SPE-5.3.8-13;
 * Timestamp SPE-5.3.10-1, SPE-5.3.10-2, SPE-5.3.10-3. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "armprof/decode.h"
#include "armprof/perfdata.h"

static int mismatches;

#define MISMATCH(...)                                    \
	do {                                                 \
		if (mismatches++ < 40)                           \
			fprintf(stderr, "mismatch: " __VA_ARGS__);   \
	} while (0)

/* ---- armprof's packets of one buffer, PAD runs grouped like perf ------- */
struct pkt_line {
	uint64_t offset;
	uint32_t len;
	struct ap_packet pkt;
};
struct pkt_list {
	struct pkt_line *v;
	size_t n, cap;
	const uint8_t *base;
};

static int on_packet(void *ctx, uint64_t offset, const uint8_t *bytes, const struct ap_packet *pkt,
                     int in_record)
{
	(void)bytes;
	(void)in_record;
	struct pkt_list *l = ctx;
	if (pkt->type == AP_PKT_PAD && l->n) {
		struct pkt_line *last = &l->v[l->n - 1];
		if (last->pkt.type == AP_PKT_PAD && last->offset + last->len == offset && last->len < 16) {
			last->len++;
			return 0;
		}
	}
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 4096;
		l->v = realloc(l->v, l->cap * sizeof(*l->v));
		if (!l->v)
			exit(2);
	}
	l->v[l->n].offset = offset;
	l->v[l->n].len = pkt->size;
	l->v[l->n].pkt = *pkt;
	l->n++;
	return 0;
}

static void decode_packets(const uint8_t *p, size_t len, struct pkt_list *l)
{
	struct ap_decoder_config cfg;
	ap_decoder_config_init(&cfg);
	cfg.on_packet = on_packet;
	cfg.ctx = l;
	struct ap_decoder dec;
	l->n = 0;
	l->base = p;
	ap_decoder_init(&dec, &cfg);
	ap_decoder_feed(&dec, p, len);
	ap_decoder_finish(&dec);
}

/* ---- perf's description -> fields, compared with the packet ------------ */
struct ev_name {
	const char *name;
	unsigned bit;
};
/* perf's names for Events packet bits (5.3.7 Table 9 order) */
static const struct ev_name ev_names[] = {
	{ "EXCEPTION-GEN", 0 }, { "RETIRED", 1 },     { "L1D-ACCESS", 2 },    { "L1D-REFILL", 3 },
	{ "TLB-ACCESS", 4 },    { "TLB-REFILL", 5 },  { "NOT-TAKEN", 6 },     { "MISPRED", 7 },
	{ "LLC-ACCESS", 8 },    { "LLC-REFILL", 9 },  { "REMOTE-ACCESS", 10 }, { "ALIGNMENT", 11 },
	{ "SVE-PARTIAL-PRED", 17 }, { "SVE-EMPTY-PRED", 18 },
};

static int has_word(const char *desc, const char *w)
{
	size_t n = strlen(w);
	for (const char *p = desc; (p = strstr(p, w)); p += n)
		if ((p == desc || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
			return 1;
	return 0;
}

#define FIELD(cond, what, ...)                                                          \
	do {                                                                                \
		if (!(cond)) {                                                                  \
			MISMATCH("%s packet at 0x%" PRIx64 ": %s: perf '%s'\n", where, off, what, desc); \
			return;                                                                     \
		}                                                                               \
	} while (0)

static void compare_desc(const char *where, uint64_t off, const char *desc, const struct ap_packet *k)
{
	const uint64_t addr = k->payload & 0x00FFFFFFFFFFFFFFull;
	const unsigned el = (unsigned)(k->payload >> 61) & 3u, ns = (unsigned)(k->payload >> 63);
	unsigned long long v = 0;
	unsigned a = 0, b = 0;
	char word[32] = "";
	sscanf(desc, "%31s", word);
	if (!strcmp(word, "PAD")) {
		FIELD(k->type == AP_PKT_PAD, "type");
	} else if (!strcmp(word, "END")) {
		FIELD(k->type == AP_PKT_END, "type");
	} else if (!strcmp(word, "TS")) {
		FIELD(k->type == AP_PKT_TIMESTAMP, "type");
		FIELD(sscanf(desc, "TS %llu", &v) == 1 && v == k->payload, "timestamp");
	} else if (!strcmp(word, "DATA-SOURCE")) {
		FIELD(k->type == AP_PKT_DATA_SOURCE, "type");
		FIELD(sscanf(desc, "DATA-SOURCE %llu", &v) == 1 && v == k->payload, "data source");
	} else if (!strcmp(word, "EV")) {
		FIELD(k->type == AP_PKT_EVENTS, "type");
		uint64_t bits = 0, known = 0;
		for (size_t i = 0; i < sizeof(ev_names) / sizeof(ev_names[0]); i++) {
			known |= 1ull << ev_names[i].bit;
			if (has_word(desc, ev_names[i].name))
				bits |= 1ull << ev_names[i].bit;
		}
		FIELD(bits == (k->payload & known), "events bits");
	} else if (!strcmp(word, "PC") || !strcmp(word, "TGT")) {
		FIELD(k->type == AP_PKT_ADDRESS && k->index == (word[0] == 'P' ? AP_ADDR_PC : AP_ADDR_TARGET),
		      "address index");
		FIELD(sscanf(desc + strlen(word), " 0x%llx el%u ns=%u", &v, &a, &b) == 3, "format");
		FIELD(v == addr, "address");
		FIELD(a == el, "exception level");
		FIELD(b == ns, "ns");
	} else if (!strcmp(word, "VA")) {
		FIELD(k->type == AP_PKT_ADDRESS && k->index == AP_ADDR_DATA_VA, "address index");
		FIELD(sscanf(desc, "VA 0x%llx", &v) == 1 && v == k->payload, "virtual address");
	} else if (!strcmp(word, "PA")) {
		FIELD(k->type == AP_PKT_ADDRESS && k->index == AP_ADDR_DATA_PA, "address index");
		FIELD(sscanf(desc, "PA 0x%llx ns=%u", &v, &b) == 2, "format");
		FIELD(v == addr, "physical address");
		FIELD(b == ns, "ns");
	} else if (!strcmp(word, "CONTEXT")) {
		FIELD(k->type == AP_PKT_CONTEXT, "type");
		FIELD(sscanf(desc, "CONTEXT 0x%llx el%u", &v, &a) == 2, "format");
		FIELD(v == k->payload, "context value");
		FIELD(a == k->index + 1u, "context EL");
	} else if (!strcmp(word, "LAT")) {
		char which[16] = "";
		FIELD(k->type == AP_PKT_COUNTER, "type");
		FIELD(sscanf(desc, "LAT %llu %15s", &v, which) == 2, "format");
		FIELD(v == (k->payload & 0xFFFF), "counter value");
		unsigned idx = !strcmp(which, "TOT") ? 0 : !strcmp(which, "ISSUE") ? 1 : !strcmp(which, "XLAT") ? 2 : 99;
		FIELD(idx == k->index, "counter index");
	} else if (!strcmp(word, "LD") || !strcmp(word, "ST")) {
		FIELD(k->type == AP_PKT_OP_TYPE && k->index == AP_OP_CLASS_LDST, "operation class");
		FIELD((word[0] == 'S') == ((k->payload & AP_OP_ST) != 0), "store bit");
		int ext = (k->payload & 0xE2) == AP_OP_LDST_EXT;
		FIELD(has_word(desc, "AT") == (ext && (k->payload & AP_OP_LDST_AT)), "atomic");
		FIELD(has_word(desc, "EXCL") == (ext && (k->payload & AP_OP_LDST_EXCL)), "exclusive");
		FIELD(has_word(desc, "AR") == (ext && (k->payload & AP_OP_LDST_AR)), "acquire/release");
		FIELD(has_word(desc, "GP-REG") == ((k->payload & 0xFE) == AP_OP_LDST_GP), "GP subclass");
		FIELD(has_word(desc, "SIMD-FP") == ((k->payload & 0xFE) == AP_OP_LDST_SIMD), "SIMD&FP subclass");
	} else if (!strcmp(word, "B")) {
		FIELD(k->type == AP_PKT_OP_TYPE && k->index == AP_OP_CLASS_BRANCH, "operation class");
		FIELD(has_word(desc, "COND") == ((k->payload & AP_OP_BR_COND) != 0), "conditional");
		FIELD(has_word(desc, "IND") == ((k->payload & 0xFE) == AP_OP_BR_INDIRECT), "indirect");
	} else if (!strcmp(word, "OTHER")) {
		FIELD(k->type == AP_PKT_OP_TYPE && k->index == AP_OP_CLASS_OTHER, "operation class");
		FIELD(has_word(desc, "COND-SELECT") == ((k->payload & AP_OP_OTHER_COND) != 0), "conditional");
	} else {
		MISMATCH("%s packet at 0x%" PRIx64 ": perf description '%s' not understood\n", where, off, desc);
	}
}

/* ---- perf report -D ---------------------------------------------------- */
static int hexval(int c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

static int compare_dump(const struct ap_perf_reader *r, FILE *dump)
{
	const struct ap_perf_info *in = ap_perf_info(r);
	struct pkt_list l = { 0 };
	size_t buf_i = 0, pkt_i = 0, packets = 0;
	const struct ap_perf_aux_buffer *b = NULL;
	char line[1024], where[64];
	while (fgets(line, sizeof(line), dump)) {
		line[strcspn(line, "\n")] = '\0';
		const char *aux = strstr(line, "PERF_RECORD_AUXTRACE size: ");
		if (aux) {
			if (b && pkt_i != l.n)
				MISMATCH("%s: perf listed %zu packets, armprof decodes %zu\n", where, pkt_i, l.n);
			unsigned long long size, offset, ref;
			unsigned idx;
			int tid, cpu;
			if (sscanf(aux, "PERF_RECORD_AUXTRACE size: %llx offset: %llx ref: %llx idx: %u tid: %d cpu: %d",
			           &size, &offset, &ref, &idx, &tid, &cpu) != 6) {
				MISMATCH("cannot parse '%s'\n", aux);
				continue;
			}
			if (buf_i >= in->n_aux_buffers) {
				MISMATCH("perf lists more AUXTRACE records than armprof reads (%zu)\n", in->n_aux_buffers);
				b = NULL;
				continue;
			}
			b = &in->aux_buffers[buf_i++];
			snprintf(where, sizeof(where), "aux buffer %u", b->seq);
			if (size != b->size || offset != b->aux_offset || ref != b->reference || idx != b->idx ||
			    tid != b->tid || cpu != b->cpu)
				MISMATCH("%s: perf '%s' vs armprof size 0x%" PRIx64 " offset 0x%" PRIx64
				         " ref 0x%" PRIx64 " idx %u tid %d cpu %d\n",
				         where, aux, b->size, b->aux_offset, b->reference, b->idx, b->tid, b->cpu);
			decode_packets(b->data, (size_t)b->size, &l);
			pkt_i = 0;
			continue;
		}
		if (!b || strncmp(line, ".  ", 3) != 0 || strlen(line) < 13 || line[11] != ':')
			continue;
		/* ".  OOOOOOOO:  hh hh ... (16 columns of 3) desc" */
		uint64_t off = strtoull(line + 3, NULL, 16);
		uint8_t bytes[16];
		unsigned nb = 0;
		const char *p = line + 13;
		while (nb < 16 && p[0] == ' ' && hexval(p[1]) >= 0 && hexval(p[2]) >= 0 &&
		       (p[3] == ' ' || p[3] == '\0')) {
			bytes[nb++] = (uint8_t)(hexval(p[1]) << 4 | hexval(p[2]));
			p += 3;
		}
		while (*p == ' ')
			p++;
		packets++;
		if (pkt_i >= l.n) {
			MISMATCH("%s: perf lists a packet at 0x%" PRIx64 " past armprof's last\n", where, off);
			continue;
		}
		const struct pkt_line *k = &l.v[pkt_i++];
		if (k->offset != off) {
			MISMATCH("%s: perf packet at 0x%" PRIx64 ", armprof's at 0x%" PRIx64 "\n", where, off, k->offset);
			continue;
		}
		if (k->len != nb || memcmp(bytes, b->data + off, nb) != 0) {
			MISMATCH("%s packet at 0x%" PRIx64 ": perf shows %u bytes, armprof's packet has %u\n", where,
			         off, nb, k->len);
			continue;
		}
		compare_desc(where, off, p, &k->pkt);
	}
	if (b && pkt_i != l.n)
		MISMATCH("%s: perf listed %zu packets, armprof decodes %zu\n", where, pkt_i, l.n);
	if (buf_i != in->n_aux_buffers)
		MISMATCH("perf lists %zu AUXTRACE records, armprof reads %zu\n", buf_i, in->n_aux_buffers);
	free(l.v);
	printf("dump: %zu AUX buffers, %zu packet lines compared, %d mismatches\n", buf_i, packets,
	       mismatches);
	return mismatches ? 1 : 0;
}

/* ---- perf script --itrace=i1i -F addr,ip,sym ---------------------------- */
struct sym {
	uint64_t addr, size;
	char name[64];
};
struct rec_list {
	struct ap_record *v;
	size_t n, cap;
};
static int on_record(void *ctx, const struct ap_record *rec)
{
	struct rec_list *l = ctx;
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 1024;
		l->v = realloc(l->v, l->cap * sizeof(*l->v));
		if (!l->v)
			exit(2);
	}
	l->v[l->n++] = *rec;
	return 0;
}

static const char *sym_of(const struct sym *s, size_t n, uint64_t pc)
{
	for (size_t i = 0; i < n; i++)
		if (pc >= s[i].addr && pc < s[i].addr + s[i].size)
			return s[i].name;
	return "[unknown]";
}

/* The symbol list the test script writes: "ADDR SIZE NAME" per line. */
static size_t read_syms(FILE *f, struct sym *syms, size_t max)
{
	char line[1024];
	size_t n = 0;
	while (n < max && fgets(line, sizeof(line), f)) {
		unsigned long long a, sz;
		if (sscanf(line, "%llx %llu %63s", &a, &sz, syms[n].name) == 3) {
			syms[n].addr = a;
			syms[n].size = sz;
			n++;
		}
	}
	return n;
}

/* Every record of the file, decoding each queue's buffers as one stream, as
 * perf does. */
static void decode_queues(const struct ap_perf_reader *r, struct rec_list *recs)
{
	struct ap_decoder_config cfg;
	ap_decoder_config_init(&cfg);
	cfg.on_record = on_record;
	cfg.ctx = recs;
	struct ap_perf_aux_iter it;
	ap_perf_aux_iter_init(&it);
	it.order = AP_PERF_ORDER_QUEUE;
	const struct ap_perf_aux_buffer *b;
	while (ap_perf_next_aux_buffer(r, &it, &b)) {
		struct ap_decoder dec;
		ap_decoder_init(&dec, &cfg);
		ap_decoder_feed(&dec, b->data, (size_t)b->size);
		ap_decoder_finish(&dec);
	}
}

static int compare_script(const struct ap_perf_reader *r, FILE *script, FILE *syms_f)
{
	struct sym syms[256];
	size_t n_syms = read_syms(syms_f, syms, 256);
	char line[1024];
	struct rec_list recs = { 0 };
	decode_queues(r, &recs);
	size_t i = 0, lines = 0, named = 0;
	while (fgets(line, sizeof(line), script)) {
		unsigned long long addr, ip;
		char sym[128];
		if (sscanf(line, "%llx %llx %127s", &addr, &ip, sym) != 3)
			continue;
		lines++;
		if (i >= recs.n) {
			MISMATCH("perf script sample %zu has no armprof record\n", lines);
			continue;
		}
		const struct ap_record *rec = &recs.v[i++];
		/* perf's conventions for 64-bit values of 56-bit addresses: a data VA
		 * whose bits [55:52] are all ones gets top byte 0xff (the tag byte
		 * dropped); a PC gets it in EL1/EL2 Non-secure */
		uint64_t want_addr = 0;
		if (rec->has & AP_HAS_VADDR) {
			want_addr = rec->vaddr & 0x00FFFFFFFFFFFFFFull;
			if ((want_addr >> 52 & 0xF) == 0xF)
				want_addr |= 0xFFull << 56;
		}
		uint64_t want_ip = rec->pc & 0x00FFFFFFFFFFFFFFull;
		if (rec->ns && (rec->el == 1 || rec->el == 2))
			want_ip |= 0xFFull << 56;
		const char *want_sym = sym_of(syms, n_syms, rec->pc);
		named += strcmp(want_sym, "[unknown]") != 0;
		if (ip != want_ip || addr != want_addr || strcmp(sym, want_sym) != 0)
			MISMATCH("record %zu at 0x%" PRIx64 ": perf ip 0x%llx addr 0x%llx sym %s; armprof pc 0x%" PRIx64
			         " addr 0x%" PRIx64 " sym %s\n",
			         i - 1, rec->offset, ip, addr, sym, want_ip, want_addr, want_sym);
	}
	if (i != recs.n)
		MISMATCH("perf script gave %zu samples, armprof decodes %zu records\n", i, recs.n);
	printf("script: %zu samples compared (%zu in named symbols), %d mismatches\n", lines, named, mismatches);
	free(recs.v);
	return mismatches ? 1 : 0;
}

/* ---- perf script with perf's default synthesis --------------------------- */
static uint64_t perf_ip(uint64_t raw56, unsigned el, unsigned ns)
{
	uint64_t v = raw56 & 0x00FFFFFFFFFFFFFFull;
	return (ns && (el == 1 || el == 2)) ? v | 0xFFull << 56 : v;
}

static uint64_t perf_va(const struct ap_record *rec)
{
	if (!(rec->has & AP_HAS_VADDR))
		return 0;
	uint64_t v = rec->vaddr & 0x00FFFFFFFFFFFFFFull;
	return (v >> 52 & 0xF) == 0xF ? v | 0xFFull << 56 : v;
}

static int compare_synth(const struct ap_perf_reader *r, FILE *script, FILE *syms_f)
{
	struct sym syms[256];
	size_t n_syms = read_syms(syms_f, syms, 256);
	char line[1024];
	struct rec_list recs = { 0 };
	decode_queues(r, &recs);
	static const struct {
		const char *name;
		int bit; /* event bit, -1: the load/store class */
	} kinds[] = { { "l1d-miss", 3 }, { "l1d-access", 2 }, { "llc-miss", 9 }, { "llc-access", 8 },
		          { "tlb-miss", 5 }, { "tlb-access", 4 }, { "branch-miss", 7 }, { "remote-access", 10 },
		          { "memory", -1 } };
	size_t ri = 0, ki = 0, lines = 0;
	uint64_t per_kind[9] = { 0 };
	while (fgets(line, sizeof(line), script)) {
		char ev[64], sym[128];
		unsigned long long addr, ip;
		if (sscanf(line, " %63[^:]: %llx %llx %127s", ev, &addr, &ip, sym) != 4)
			continue;
		lines++;
		/* the next expected sample */
		const struct ap_record *rec = NULL;
		size_t k = 0;
		while (ri < recs.n) {
			rec = &recs.v[ri];
			for (; ki < 9; ki++) {
				int bit = kinds[ki].bit;
				if (bit >= 0 ? (rec->events >> bit & 1) != 0 : rec->op_class == AP_OP_CLASS_LDST)
					break;
			}
			if (ki < 9)
				break;
			ri++;
			ki = 0;
		}
		if (ri >= recs.n) {
			MISMATCH("perf script sample %zu (%s) has no armprof record left\n", lines, ev);
			continue;
		}
		k = ki++;
		per_kind[k]++;
		uint64_t want_ip = perf_ip(rec->pc, rec->el, rec->ns);
		uint64_t want_addr = k == 6 ? ((rec->has & AP_HAS_TARGET) ? perf_ip(rec->target, rec->target_el, rec->target_ns) : 0)
		                            : perf_va(rec);
		const char *want_sym = sym_of(syms, n_syms, rec->pc);
		if (strcmp(ev, kinds[k].name) || ip != want_ip || addr != want_addr || strcmp(sym, want_sym))
			MISMATCH("record %zu at 0x%" PRIx64 ": perf '%s' addr 0x%llx ip 0x%llx %s; armprof expects '%s' addr 0x%" PRIx64
			         " ip 0x%" PRIx64 " %s\n",
			         ri, rec->offset, ev, addr, ip, sym, kinds[k].name, want_addr, want_ip, want_sym);
	}
	/* no expected sample may be left over */
	while (ri < recs.n) {
		const struct ap_record *rec = &recs.v[ri];
		for (; ki < 9; ki++) {
			int bit = kinds[ki].bit;
			if (bit >= 0 ? (rec->events >> bit & 1) != 0 : rec->op_class == AP_OP_CLASS_LDST) {
				MISMATCH("record %zu at 0x%" PRIx64 ": no perf '%s' sample\n", ri, rec->offset, kinds[ki].name);
				break;
			}
		}
		ri++;
		ki = 0;
	}
	printf("synth: %zu samples compared (", lines);
	for (size_t k = 0; k < 9; k++)
		printf("%s%s %llu", k ? ", " : "", kinds[k].name, (unsigned long long)per_kind[k]);
	printf("), %d mismatches\n", mismatches);
	free(recs.v);
	return mismatches || !lines ? 1 : 0;
}

/* ---- perf report -D "Aggregated stats" ---------------------------------- */
static int compare_stats(const struct ap_perf_reader *r, FILE *dump)
{
	const struct ap_perf_info *in = ap_perf_info(r);
	char line[512];
	int in_stats = 0;
	uint64_t seen[AP_PERF_RECORD_TYPE_LIMIT] = { 0 }, total = 0, perf_total = 0, types = 0;
	while (fgets(line, sizeof(line), dump)) {
		if (strstr(line, "Aggregated stats:")) {
			in_stats = 1;
			continue;
		}
		char name[64];
		unsigned long long n;
		if (!in_stats || sscanf(line, " %63s events: %llu", name, &n) != 2) {
			if (in_stats && strstr(line, "stats:"))
				break; /* per-event stats follow */
			continue;
		}
		if (!strcmp(name, "TOTAL")) {
			perf_total = n;
			continue;
		}
		uint32_t t;
		char nbuf[32];
		for (t = 1; t < AP_PERF_RECORD_TYPE_LIMIT; t++) {
			const char *rn = ap_perf_record_name(t, nbuf, sizeof(nbuf));
			if (!strncmp(rn, "PERF_RECORD_", 12) &&
			    (!strcmp(rn + 12, name) || (!strncmp(rn + 12, "HEADER_", 7) && !strcmp(rn + 19, name))))
				break;
		}
		types++;
		if (t == AP_PERF_RECORD_TYPE_LIMIT) {
			MISMATCH("perf counts %llu %s records, a type armprof does not name\n", n, name);
			continue;
		}
		seen[t] = 1;
		if (in->n_records[t] != n)
			MISMATCH("%s: perf counts %llu, armprof %llu\n", name, n, (unsigned long long)in->n_records[t]);
	}
	for (uint32_t t = 0; t < AP_PERF_RECORD_TYPE_LIMIT; t++) {
		total += in->n_records[t];
		if (in->n_records[t] && !seen[t])
			MISMATCH("armprof counts %llu records of type %u, perf none\n",
			         (unsigned long long)in->n_records[t], t);
	}
	if (total != perf_total)
		MISMATCH("perf counts %llu records in total, armprof %llu\n", (unsigned long long)perf_total,
		         (unsigned long long)total);
	printf("stats: %llu record types, %llu records, %d mismatches\n", (unsigned long long)types,
	       (unsigned long long)perf_total, mismatches);
	return mismatches || !types ? 1 : 0;
}

int main(int argc, char **argv)
{
	int script = argc == 5 && !strcmp(argv[1], "script");
	int stats = argc == 4 && !strcmp(argv[1], "stats");
	int synth = argc == 5 && !strcmp(argv[1], "synth");
	if (!script && !stats && !synth && !(argc == 4 && !strcmp(argv[1], "dump"))) {
		fprintf(stderr, "usage: perfdata_compare dump FILE.data DUMP.txt\n"
		                "       perfdata_compare stats FILE.data DUMP.txt\n"
		                "       perfdata_compare synth FILE.data SCRIPT.txt SYMS.txt\n"
		                "       perfdata_compare script FILE.data SCRIPT.txt SYMS.txt\n");
		return 2;
	}
	struct ap_perf_reader *r;
	struct ap_error_ctx err;
	if (ap_perf_reader_create_file(&r, argv[2], NULL, &err) != 0) {
		fprintf(stderr, "%s:0x%" PRIx64 ": %s: %s\n", argv[2], err.offset, err.where, err.message);
		return 2;
	}
	FILE *f = fopen(argv[3], "r");
	FILE *s = (script || synth) ? fopen(argv[4], "r") : NULL;
	if (!f || ((script || synth) && !s)) {
		fprintf(stderr, "perfdata_compare: cannot open %s\n", argv[3]);
		return 2;
	}
	int rc = script  ? compare_script(r, f, s)
	         : synth ? compare_synth(r, f, s)
	         : stats ? compare_stats(r, f)
	                 : compare_dump(r, f);
	fclose(f);
	if (s)
		fclose(s);
	ap_perf_reader_destroy(r);
	return rc;
}
