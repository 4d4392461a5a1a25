/* Writing records to the Profiling Buffer and its management events
 * (spec/002 3.4.1, 3.5, 3.5.1-3.5.4, 4.3.1 Align, 4.3.4 PMBSR_EL1):
 * lib/model/spe/buffer.c against a fake host memory. */
#include "harness.h"
#include "model/spe/buffer.h"

#define BASE 0x10000ull
#define SIZE 0x2000ull

struct fake_mem {
	uint8_t bytes[SIZE];
	uint64_t fault_at; /* first faulting address, 0 = none */
	struct ap_mem_fault fault;
	int calls;
};

static int fake_write(void *ctx, uint64_t va, const uint8_t *b, size_t len, struct ap_mem_fault *f)
{
	struct fake_mem *m = ctx;
	m->calls++;
	for (size_t i = 0; i < len; i++) {
		uint64_t a = va + i;
		if ((m->fault_at && a >= m->fault_at) || a < BASE || a >= BASE + SIZE) {
			*f = m->fault;
			f->va = a;
			return 1;
		}
		m->bytes[a - BASE] = b[i];
	}
	return 0;
}

static struct ap_host host_for(struct fake_mem *m)
{
	struct ap_host h = { 0 };
	h.ctx = m;
	h.buffer_write = fake_write;
	return h;
}

static struct ap_spe_buffer_params params(unsigned max_size, unsigned align)
{
	struct ap_spe_buffer_params p = { .max_size = (uint8_t)max_size, .align = (uint8_t)align,
	                                   .ext_abort = AP_SPE_EA_SYNC, .bad_ptr = AP_SPE_BADPTR_WRITE };
	return p;
}

static unsigned ec(uint64_t pmbsr) { return (unsigned)((pmbsr & AP_PMBSR_EC_MASK) >> AP_PMBSR_EC_SHIFT); }

static const uint8_t rec20[20] = { 0xb0, 1, 2, 3, 4, 5, 6, 7, 0x80, 0x42, 0x02, 0x49, 0, 0x99, 5, 0,
                                   0x98, 9, 0, 0x01 };

/* SPE-3.5.2-1, SPE-3.5.2-2, SPE-3.5.2-3, SPE-3.5.2-4, SPE-3.5.2-5, SPE-3.5-17, SPE-2.5-3: the
 * buffer-full event comes after
 * the write that leaves fewer than 2^MaxSize bytes, at the exact byte. */
TEST(buffer_full_at_exact_byte)
{
	struct fake_mem m = { 0 };
	struct ap_host h = host_for(&m);
	struct ap_spe_buffer_params p = params(6, 0); /* 64-byte records */
	uint64_t limit = BASE + 0x1000;
	/* Room for records while PTR <= LIMIT - 64 after the write. */
	struct ap_spe_buffer_regs r = { .pmbptr = limit - 64 - 20, .pmblimitr = limit | 1, .pmbsr = 0 };
	CHECK_EQ_U64(ap_spe_buffer_write(&r, &p, &h, rec20, 20), AP_SPE_WR_WRITTEN);
	CHECK_EQ_U64(r.pmbptr, limit - 64); /* exactly 64 left: not full */
	CHECK_EQ_U64(r.pmbsr, 0);
	CHECK_EQ_U64(ap_spe_buffer_write(&r, &p, &h, rec20, 1), AP_SPE_WR_WRITTEN | AP_SPE_WR_EVENT);
	CHECK_EQ_U64(r.pmbptr, limit - 63); /* first byte after the last record */
	CHECK(r.pmbsr & AP_PMBSR_S);
	CHECK_EQ_U64(ec(r.pmbsr), AP_PMBSR_EC_OTHER);
	CHECK_EQ_U64(r.pmbsr & AP_PMBSR_MSS_MASK, AP_PMBSR_BSC_FULL);
	CHECK(!(r.pmbsr & AP_PMBSR_DL));
	CHECK_EQ_U64(memcmp(&m.bytes[limit - 64 - 20 - BASE], rec20, 20), 0);
	/* Other fields unchanged (SPE-3.5.2-5): COLL and DL survive. */
	struct ap_spe_buffer_regs r2 = { .pmbptr = limit - 70, .pmblimitr = limit | 1,
	                                  .pmbsr = AP_PMBSR_COLL | AP_PMBSR_DL };
	ap_spe_buffer_write(&r2, &p, &h, rec20, 20);
	CHECK_EQ_U64(r2.pmbsr, AP_PMBSR_S | AP_PMBSR_COLL | AP_PMBSR_DL | AP_PMBSR_BSC_FULL);
}

/* SPE-4.3.1-16, SPE-5.3.9-1, SPE-5.1.4-2, SPE-5.1.4-3: with PMBIDR_EL1.Align every
 * record is padded with Padding bytes to a multiple of 2^Align. */
TEST(align_padding)
{
	struct fake_mem m;
	memset(&m, 0xEE, sizeof(m));
	m.fault_at = 0;
	m.calls = 0;
	struct ap_host h = host_for(&m);
	struct ap_spe_buffer_params p = params(6, 4); /* 16-byte alignment */
	struct ap_spe_buffer_regs r = { .pmbptr = BASE, .pmblimitr = (BASE + 0x1000) | 1 };
	CHECK_EQ_U64(ap_spe_buffer_write(&r, &p, &h, rec20, 20), AP_SPE_WR_WRITTEN);
	CHECK_EQ_U64(r.pmbptr, BASE + 32);
	for (int i = 20; i < 32; i++)
		CHECK_EQ_U64(m.bytes[i], 0x00);
	CHECK_EQ_U64(m.bytes[32], 0xEE);
	CHECK_EQ_U64(m.calls, 1); /* one host call per record */
	/* A record that ends aligned gets no padding. */
	CHECK_EQ_U64(ap_spe_pad_bytes(BASE, 32, 4), 0);
	/* A restored, unaligned pointer (SPE-3.4.1-12) is realigned by padding. */
	r.pmbptr = BASE + 0x101;
	ap_spe_buffer_write(&r, &p, &h, rec20, 20);
	CHECK_EQ_U64(r.pmbptr, BASE + 0x120);
}

/* Table 6, SPE-3.5.3-2, SPE-3.5.3-3, SPE-3.5.3-4, SPE-3.5.3-5, SPE-3.5.3-6, SPE-3.5.3-7,
 * SPE-4.3.4-8, SPE-4.3.4-9, SPE-4.3.4-26, SPE-4.3.4-27, SPE-4.3.4-28, SPE-4.3.4-29,
 * SPE-4.3.4-33, SPE-4.3.4-34, SPE-4.3.4-35, SPE-3.5-19: every
 * MMU fault class, stage 1 and 2, fault address and DL. */
TEST(mmu_fault_classes)
{
	static const struct {
		uint8_t kind;
		uint8_t level;
		unsigned fsc;
	} cases[] = {
		{ AP_MEMF_ADDRESS_SIZE, 1, 0x01 }, { AP_MEMF_TRANSLATION, 3, 0x07 },
		{ AP_MEMF_ACCESS_FLAG, 2, 0x0A },  { AP_MEMF_PERMISSION, 3, 0x0F },
		{ AP_MEMF_ALIGNMENT, 0, 0x21 },    { AP_MEMF_TLB_CONFLICT, 0, 0x30 },
		{ AP_MEMF_UNSUPPORTED_ACCESS, 0, 0x35 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		for (uint8_t stage = 1; stage <= 2; stage++) {
			struct fake_mem m = { 0 };
			m.fault.kind = cases[i].kind;
			m.fault.stage = stage;
			m.fault.level = cases[i].level;
			struct ap_host h = host_for(&m);
			struct ap_spe_buffer_params p = params(6, 0);
			/* Fault at the record's first byte: DL unchanged. */
			m.fault_at = BASE + 0x100;
			struct ap_spe_buffer_regs r = { .pmbptr = BASE + 0x100, .pmblimitr = (BASE + 0x1000) | 1,
			                                .pmbsr = AP_PMBSR_COLL };
			CHECK_EQ_U64(ap_spe_buffer_write(&r, &p, &h, rec20, 20), AP_SPE_WR_EVENT);
			CHECK_EQ_U64(r.pmbptr, BASE + 0x100);
			CHECK_EQ_U64(ec(r.pmbsr), stage == 2 ? AP_PMBSR_EC_STAGE2 : AP_PMBSR_EC_STAGE1);
			CHECK_EQ_U64(r.pmbsr & AP_PMBSR_MSS_MASK, cases[i].fsc);
			CHECK_EQ_U64(r.pmbsr & (AP_PMBSR_S | AP_PMBSR_DL | AP_PMBSR_COLL | AP_PMBSR_EA),
			             AP_PMBSR_S | AP_PMBSR_COLL);
			/* Fault in the middle of the record: PMBPTR_EL1 = that byte, DL = 1. */
			m.fault_at = BASE + 0x108;
			r.pmbsr = 0;
			r.pmbptr = BASE + 0x100;
			ap_spe_buffer_write(&r, &p, &h, rec20, 20);
			CHECK_EQ_U64(r.pmbptr, BASE + 0x108);
			CHECK(r.pmbsr & AP_PMBSR_DL);
		}
}

/* SPE-3.5.4-2, SPE-3.5.4-4, SPE-3.5.4-5, SPE-3.5.4-6, SPE-4.3.4-14, SPE-4.3.4-15, SPE-4.3.4-30,
 * SPE-4.3.4-31, SPE-4.3.4-32, SPE-3.5.4-9: external aborts
 * in the three configurations. */
TEST(external_aborts)
{
	struct fake_mem m = { 0 };
	m.fault.kind = AP_MEMF_EXT_ABORT;
	m.fault.stage = 1;
	m.fault_at = BASE + 0x104;
	struct ap_host h = host_for(&m);
	struct ap_spe_buffer_params p = params(6, 0);
	struct ap_spe_buffer_regs r = { .pmbptr = BASE + 0x100, .pmblimitr = (BASE + 0x1000) | 1 };
	CHECK_EQ_U64(ap_spe_buffer_write(&r, &p, &h, rec20, 20), AP_SPE_WR_EVENT);
	CHECK_EQ_U64(r.pmbptr, BASE + 0x104); /* synchronous: the aborted address */
	CHECK_EQ_U64(r.pmbsr & AP_PMBSR_MSS_MASK, AP_FSC_EXT_SYNC);
	CHECK_EQ_U64(r.pmbsr & (AP_PMBSR_S | AP_PMBSR_EA | AP_PMBSR_DL), AP_PMBSR_S | AP_PMBSR_EA | AP_PMBSR_DL);
	/* At the record's first byte: DL unchanged. */
	m.fault_at = BASE + 0x100;
	r.pmbptr = BASE + 0x100;
	r.pmbsr = 0;
	ap_spe_buffer_write(&r, &p, &h, rec20, 20);
	CHECK(!(r.pmbsr & AP_PMBSR_DL));
	/* On a table walk, stage 2, level 2: FSC 0b0101xx, EC stage 2. */
	m.fault.kind = AP_MEMF_EXT_ABORT_WALK;
	m.fault.stage = 2;
	m.fault.level = 2;
	r.pmbsr = 0;
	ap_spe_buffer_write(&r, &p, &h, rec20, 20);
	CHECK_EQ_U64(r.pmbsr & AP_PMBSR_MSS_MASK, AP_FSC_EXT_WALK | 2);
	CHECK_EQ_U64(ec(r.pmbsr), AP_PMBSR_EC_STAGE2);
	/* Asynchronous: FSC 0b010001, DL = 1, PMBPTR_EL1 not the aborted address. */
	p.ext_abort = AP_SPE_EA_ASYNC;
	m.fault.kind = AP_MEMF_EXT_ABORT;
	m.fault.stage = 1;
	m.fault_at = BASE + 0x104;
	r.pmbsr = 0;
	r.pmbptr = BASE + 0x100;
	ap_spe_buffer_write(&r, &p, &h, rec20, 20);
	CHECK_EQ_U64(r.pmbsr & AP_PMBSR_MSS_MASK, AP_FSC_EXT_ASYNC);
	CHECK_EQ_U64(r.pmbsr & (AP_PMBSR_S | AP_PMBSR_EA | AP_PMBSR_DL), AP_PMBSR_S | AP_PMBSR_EA | AP_PMBSR_DL);
	CHECK_EQ_U64(r.pmbptr, BASE + 0x100);
	/* Taken as SError: PMBSR_EL1 unchanged. */
	p.ext_abort = AP_SPE_EA_SERROR;
	r.pmbsr = AP_PMBSR_COLL;
	CHECK_EQ_U64(ap_spe_buffer_write(&r, &p, &h, rec20, 20), AP_SPE_WR_SERROR);
	CHECK_EQ_U64(r.pmbsr, AP_PMBSR_COLL);
}

/* SPE-3.4.1-1, SPE-3.4.1-2, SPE-3.4.1-3, SPE-3.5-17: the write-pointer rules broken. */
TEST(bad_pointer_choices)
{
	struct fake_mem m = { 0 };
	struct ap_host h = host_for(&m);
	struct ap_spe_buffer_params p = params(6, 0);
	uint64_t limit = BASE + 0x1000;
	/* The record does not fit below the limit: never written past it. */
	struct ap_spe_buffer_regs r = { .pmbptr = limit - 10, .pmblimitr = limit | 1 };
	CHECK_EQ_U64(ap_spe_buffer_write(&r, &p, &h, rec20, 20), AP_SPE_WR_EVENT);
	CHECK_EQ_U64(r.pmbsr & AP_PMBSR_MSS_MASK, AP_PMBSR_BSC_FULL);
	CHECK_EQ_U64(m.calls, 0);
	p.bad_ptr_data_loss = true;
	r.pmbsr = 0;
	ap_spe_buffer_write(&r, &p, &h, rec20, 20);
	CHECK(r.pmbsr & AP_PMBSR_DL);
	/* Translation-fault choice. */
	p.bad_ptr = AP_SPE_BADPTR_TRANSLATION;
	p.bad_ptr_data_loss = false;
	r.pmbsr = 0;
	ap_spe_buffer_write(&r, &p, &h, rec20, 20);
	CHECK_EQ_U64(ec(r.pmbsr), AP_PMBSR_EC_STAGE1);
	CHECK_EQ_U64(r.pmbsr & AP_PMBSR_MSS_MASK, AP_FSC_TRANSLATION);
	CHECK_EQ_U64(r.pmbptr, limit - 10);
	/* PTR[63:56] != LIMIT[63:56]: WRITE writes at PTR, the others raise the event. */
	p.bad_ptr = AP_SPE_BADPTR_WRITE;
	r.pmbsr = 0;
	r.pmbptr = BASE | (0x5Aull << 56);
	r.pmblimitr = limit | 1;
	CHECK_EQ_U64(ap_spe_buffer_write(&r, &p, &h, rec20, 4) & AP_SPE_WR_WRITTEN, 0); /* unmapped: faults */
	p.bad_ptr = AP_SPE_BADPTR_FULL;
	r.pmbsr = 0;
	CHECK_EQ_U64(ap_spe_buffer_write(&r, &p, &h, rec20, 4), AP_SPE_WR_EVENT);
	CHECK_EQ_U64(r.pmbsr & AP_PMBSR_MSS_MASK, AP_PMBSR_BSC_FULL);
}

/* A host without a buffer_write callback: every write faults (model.h). */
TEST(no_memory_callback_faults)
{
	struct ap_host h = { 0 };
	struct ap_spe_buffer_params p = params(6, 0);
	struct ap_spe_buffer_regs r = { .pmbptr = BASE, .pmblimitr = (BASE + 0x1000) | 1 };
	CHECK_EQ_U64(ap_spe_buffer_write(&r, &p, &h, rec20, 20), AP_SPE_WR_EVENT);
	CHECK_EQ_U64(r.pmbsr & AP_PMBSR_MSS_MASK, AP_FSC_TRANSLATION);
}

/* The syndrome is one of the encodings 4.3.4 defines, whatever the host
 * reports (every fault kind, including values outside the enum, any stage
 * and level, each external-abort and bad-pointer choice, the fault at the
 * record's first byte or inside it): EC is 0b000000 or 0b10010x; MSS[15:6]
 * is 0 (SPE-4.3.4-20, SPE-4.3.4-25); with EC == 0b000000, BSC is 0b000000 or
 * 0b000001, never a reserved value (SPE-4.3.4-23); with EC == 0b10010x, FSC is
 * a defined value, never a reserved one (SPE-4.3.4-36); MSS is read by EC
 * (SPE-4.3.4-19). */
static bool defined_fsc(unsigned fsc)
{
	if (fsc <= 0x0F) /* 0b0000xx .. 0b0011xx: Address Size, Translation, Access Flag, Permission */
		return true;
	if ((fsc & ~3u) == 0x14) /* 0b0101xx: external abort on a walk */
		return true;
	return fsc == 0x10 || fsc == 0x11 || fsc == 0x21 || fsc == 0x30 || fsc == 0x35;
}

static void check_defined_syndrome(uint64_t pmbsr)
{
	unsigned code = ec(pmbsr), mss = (unsigned)(pmbsr & AP_PMBSR_MSS_MASK);
	CHECK(pmbsr & AP_PMBSR_S);
	CHECK(code == AP_PMBSR_EC_OTHER || code == AP_PMBSR_EC_STAGE1 || code == AP_PMBSR_EC_STAGE2);
	CHECK_EQ_U64(mss >> 6, 0);
	if (code == AP_PMBSR_EC_OTHER)
		CHECK(mss == 0 || mss == AP_PMBSR_BSC_FULL);
	else
		CHECK(defined_fsc(mss & 0x3F));
}

TEST(syndromes_are_defined_encodings)
{
	/* The classifier itself, against the 4.3.4 list. */
	unsigned defined = 0;
	for (unsigned f = 0; f < 64; f++)
		defined += defined_fsc(f);
	CHECK_EQ_U64(defined, 16 + 2 + 4 + 3); /* 4 x 0bxxxxyy, 0x10, 0x11, 0b0101xx, 0x21, 0x30, 0x35 */
	CHECK(!defined_fsc(0x12) && !defined_fsc(0x20) && !defined_fsc(0x3F));

	int events = 0;
	for (unsigned kind = 0; kind <= 12; kind++)
		for (uint8_t stage = 0; stage <= 3; stage++)
			for (uint8_t level = 0; level <= 7; level++)
				for (uint8_t ea = AP_SPE_EA_SYNC; ea <= AP_SPE_EA_ASYNC; ea++)
					for (int inside = 0; inside < 2; inside++) {
						struct fake_mem m = { 0 };
						m.fault.kind = (uint8_t)kind;
						m.fault.stage = stage;
						m.fault.level = level;
						m.fault_at = BASE + 0x100 + (inside ? 7 : 0);
						struct ap_host h = host_for(&m);
						struct ap_spe_buffer_params p = params(6, 0);
						p.ext_abort = ea;
						struct ap_spe_buffer_regs r = { .pmbptr = BASE + 0x100,
						                                .pmblimitr = (BASE + 0x1000) | 1 };
						CHECK_EQ_U64(ap_spe_buffer_write(&r, &p, &h, rec20, 20), AP_SPE_WR_EVENT);
						check_defined_syndrome(r.pmbsr);
						events++;
					}
	/* Buffer full, and each bad-pointer choice. */
	for (uint8_t bad = AP_SPE_BADPTR_WRITE; bad <= AP_SPE_BADPTR_TRANSLATION; bad++)
		for (int loss = 0; loss < 2; loss++) {
			struct fake_mem m = { 0 };
			struct ap_host h = host_for(&m);
			struct ap_spe_buffer_params p = params(6, 0);
			p.bad_ptr = bad;
			p.bad_ptr_data_loss = loss;
			struct ap_spe_buffer_regs r = { .pmbptr = BASE + 0x1000 - 10, .pmblimitr = (BASE + 0x1000) | 1 };
			CHECK(ap_spe_buffer_write(&r, &p, &h, rec20, 20) & AP_SPE_WR_EVENT);
			check_defined_syndrome(r.pmbsr);
			r = (struct ap_spe_buffer_regs){ .pmbptr = BASE + 0x1000 - 80, .pmblimitr = (BASE + 0x1000) | 1 };
			CHECK(ap_spe_buffer_write(&r, &p, &h, rec20, 20) & AP_SPE_WR_EVENT); /* fills it */
			check_defined_syndrome(r.pmbsr);
			events += 2;
		}
	CHECK(events > 1000);
}

TEST_MAIN(CASE(buffer_full_at_exact_byte), CASE(align_padding), CASE(mmu_fault_classes),
          CASE(external_aborts), CASE(bad_pointer_choices), CASE(no_memory_callback_faults),
          CASE(syndromes_are_defined_encodings))
