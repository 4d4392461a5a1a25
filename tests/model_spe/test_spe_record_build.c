/* Record construction (spec/002 2.3.x, 5.3): which packets each operation
 * kind gets, built by lib/model/spe/record_build.c, encoded by the codec and
 * decoded back by the lead's streaming decoder. */
#include "harness.h"
#include "armprof/decode.h"
#include "model/spe/filter.h"
#include "model/spe/record_build.h"

static const struct ap_spe_record_policy default_pol = { 0 };

static int keep_record(void *ctx, const struct ap_record *rec)
{
	*(struct ap_record *)ctx = *rec;
	return 0;
}

/* Build, encode, decode: the decoded record. */
static struct ap_record roundtrip(const struct ap_spe_op *op, const struct ap_spe_record_ctl *ctl,
                                  const struct ap_spe_record_policy *pol)
{
	struct ap_record built, got;
	memset(&got, 0, sizeof(got));
	ap_spe_build_record(&built, op, ctl, pol);
	uint8_t buf[AP_RECORD_MAX_BYTES];
	int n = ap_record_encode(buf, sizeof(buf), &built, NULL);
	CHECK(n > 0);
	struct ap_decoder_config dc;
	ap_decoder_config_init(&dc);
	dc.on_record = keep_record;
	dc.ctx = &got;
	struct ap_decoder dec;
	ap_decoder_init(&dec, &dc);
	ap_decoder_feed(&dec, buf, n > 0 ? (size_t)n : 0);
	ap_decoder_finish(&dec);
	CHECK_EQ_U64(got.n_errors, 0);
	CHECK_EQ_U64(got.size, (uint64_t)n);
	return got;
}

static struct ap_spe_record_ctl ctl_el0_ns(void)
{
	struct ap_spe_record_ctl c = { .el = 0, .ns = 1 };
	return c;
}

/* SPE-2.3-8, SPE-2.3-9, SPE-2.3-11, SPE-2.3-12, SPE-5.3.1-5, SPE-5.3.4-4, SPE-5.3.4-5 (total,
 * issue), SPE-5.3.8-1,
 * SPE-2.3.5-4, SPE-5.3.6-1: an "other" operation. */
TEST(other_operation)
{
	struct ap_spe_op op = { .kind = AP_SPE_OP_OTHER, .pc = 0x400100, .lat_total = 12, .lat_issue = 3 };
	struct ap_spe_record_ctl ctl = ctl_el0_ns();
	struct ap_record r = roundtrip(&op, &ctl, &default_pol);
	CHECK_EQ_U64(r.has, AP_HAS_PC | AP_HAS_OP | AP_HAS_EVENTS | AP_HAS_LAT_TOTAL | AP_HAS_LAT_ISSUE);
	CHECK_EQ_U64(r.pc, 0x400100);
	CHECK_EQ_U64(r.el, 0);
	CHECK_EQ_U64(r.ns, 1);
	CHECK_EQ_U64(r.op_class, AP_OP_CLASS_OTHER);
	CHECK_EQ_U64(r.op_subclass, 0);
	CHECK_EQ_U64(r.events, AP_EV_RETIRED); /* SPE-5.3.7-20 */
	CHECK_EQ_U64(r.lat_total, 12);
	CHECK_EQ_U64(r.lat_issue, 3);
	CHECK_EQ_U64(r.end, AP_END_END);
}

/* SPE-2.3.3-1, SPE-2.3.3-2, SPE-5.3.8-8, SPE-5.3.7-15, SPE-5.3.7-21: a conditional select that
 * failed: subclass 0x01, E[6] set, still retired. */
TEST(conditional_select_failed)
{
	struct ap_spe_op op = { .kind = AP_SPE_OP_OTHER, .pc = 0x10,
	                        .flags = AP_SPE_OPF_COND | AP_SPE_OPF_FAILED };
	struct ap_spe_record_ctl ctl = ctl_el0_ns();
	struct ap_record r = roundtrip(&op, &ctl, &default_pol);
	CHECK_EQ_U64(r.op_subclass, AP_OP_OTHER_COND);
	CHECK_EQ_U64(r.events, AP_EV_RETIRED | AP_EV_NOT_TAKEN);
}

/* SPE-2.3.1-1, SPE-2.3.1-3, SPE-2.3.1-5, SPE-2.3.1-6, SPE-2.3.1-7, SPE-5.3.1-6, SPE-5.3.1-18,
 * SPE-5.3.1-19, SPE-5.3.8-10, SPE-5.3.8-11, SPE-5.3.8-13: branches. */
TEST(branches)
{
	struct ap_spe_record_ctl ctl = { .el = 1, .ns = 1 };
	struct ap_spe_op op = { .kind = AP_SPE_OP_BRANCH, .pc = 0xffff800010000000ull,
	                        .target = 0xffff800010000040ull, .target_el = 1, .target_ns = 1,
	                        .flags = AP_SPE_OPF_INDIRECT, .events = AP_EV_MISPREDICTED };
	struct ap_record r = roundtrip(&op, &ctl, &default_pol);
	CHECK(r.has & AP_HAS_TARGET);
	CHECK_EQ_U64(r.target, 0xffff800010000040ull); /* sign-extended from bit 55 */
	CHECK_EQ_U64(r.target_el, 1);
	CHECK_EQ_U64(r.op_class, AP_OP_CLASS_BRANCH);
	CHECK_EQ_U64(r.op_subclass, AP_OP_BR_INDIRECT);
	CHECK_EQ_U64(r.events, AP_EV_RETIRED | AP_EV_MISPREDICTED);
	CHECK(!(r.has & AP_HAS_VADDR));

	/* Conditional direct branch, not taken: E[6]; target kept or not by
	 * the IMPLEMENTATION DEFINED choice (SPE-2.3.3-3, SPE-2.3.3-4). */
	op.flags = AP_SPE_OPF_COND | AP_SPE_OPF_FAILED;
	op.events = 0;
	r = roundtrip(&op, &ctl, &default_pol);
	CHECK_EQ_U64(r.op_subclass, AP_OP_BR_COND);
	CHECK_EQ_U64(r.events, AP_EV_RETIRED | AP_EV_NOT_TAKEN);
	CHECK(!(r.has & AP_HAS_TARGET));
	struct ap_spe_record_policy keep = default_pol;
	keep.cond_fail_target = true;
	r = roundtrip(&op, &ctl, &keep);
	CHECK(r.has & AP_HAS_TARGET);
	/* Taken conditional branch: target, no E[6]. */
	op.flags = AP_SPE_OPF_COND;
	r = roundtrip(&op, &ctl, &default_pol);
	CHECK(r.has & AP_HAS_TARGET);
	CHECK_EQ_U64(r.events, AP_EV_RETIRED);
}

/* SPE-2.3.1-2, SPE-5.3.1-7, SPE-5.3.1-20: an exception return is an unconditional
 * branch whose target carries the target EL and Security state. */
TEST(exception_return)
{
	struct ap_spe_record_ctl ctl = { .el = 1, .ns = 1 };
	struct ap_spe_op op = { .kind = AP_SPE_OP_BRANCH, .pc = 0xffff000000001000ull, .target = 0x400000,
	                        .target_el = 0, .target_ns = 1,
	                        .flags = AP_SPE_OPF_ERET | AP_SPE_OPF_INDIRECT | AP_SPE_OPF_COND };
	struct ap_record r = roundtrip(&op, &ctl, &default_pol);
	CHECK_EQ_U64(r.op_subclass & AP_OP_BR_COND, 0);
	CHECK(r.has & AP_HAS_TARGET);
	CHECK_EQ_U64(r.target_el, 0);
	CHECK_EQ_U64(r.el, 1);
	ctl.eret_to_disabled = true;
	r = roundtrip(&op, &ctl, &default_pol);
	CHECK(!(r.has & AP_HAS_TARGET));
	struct ap_spe_record_policy keep = default_pol;
	keep.eret_disabled_target = true;
	r = roundtrip(&op, &ctl, &keep);
	CHECK(r.has & AP_HAS_TARGET);
}

/* SPE-2.3.2-1, SPE-2.3.2-2, SPE-2.3.2-4, SPE-2.3.2-5, SPE-2.3.2-7, SPE-2.3.2-8, SPE-5.3.1-8,
 * SPE-5.3.1-9, SPE-5.3.1-22, SPE-5.3.4-6 (xlat), SPE-5.3.5-4:
 * loads and stores. */
TEST(loads_and_stores)
{
	struct ap_spe_record_ctl ctl = { .el = 0, .ns = 1, .pa = true, .lds = true };
	struct ap_spe_op op = { .kind = AP_SPE_OP_LOAD, .pc = 0x400200, .va = 0x7fff0000,
	                        .pa = 0x80001000, .flags = AP_SPE_OPF_PA_NS, .lat_total = 40,
	                        .lat_issue = 2, .lat_xlat = 9, .data_source = 0x3,
	                        .events = AP_EV_L1D_ACCESS | AP_EV_L1D_REFILL | AP_EV_TLB_ACCESS };
	struct ap_record r = roundtrip(&op, &ctl, &default_pol);
	CHECK_EQ_U64(r.has & (AP_HAS_VADDR | AP_HAS_PADDR | AP_HAS_LAT_XLAT | AP_HAS_DATA_SOURCE),
	             AP_HAS_VADDR | AP_HAS_PADDR | AP_HAS_LAT_XLAT | AP_HAS_DATA_SOURCE);
	CHECK_EQ_U64(r.vaddr, 0x7fff0000);
	CHECK_EQ_U64(r.paddr, 0x80001000);
	CHECK_EQ_U64(r.pa_ns, 1);
	CHECK_EQ_U64(r.lat_xlat, 9);
	CHECK_EQ_U64(r.data_source, 3);
	CHECK_EQ_U64(r.op_class, AP_OP_CLASS_LDST);
	CHECK_EQ_U64(r.op_subclass, AP_OP_LDST_GP);
	CHECK_EQ_U64(r.events, AP_EV_RETIRED | AP_EV_L1D_ACCESS | AP_EV_L1D_REFILL | AP_EV_TLB_ACCESS);

	op.kind = AP_SPE_OP_STORE;
	op.flags = AP_SPE_OPF_SIMD;
	r = roundtrip(&op, &ctl, &default_pol);
	CHECK_EQ_U64(r.op_subclass, AP_OP_LDST_SIMD | AP_OP_ST);
	CHECK_EQ_U64(r.pa_ns, 0);
	CHECK(!(r.has & AP_HAS_DATA_SOURCE)); /* stores have no data source */

	/* SPE-2.3.2-6: exclusive and acquire/release use the extended form. */
	op.flags = AP_SPE_OPF_EXCL | AP_SPE_OPF_ACQREL;
	r = roundtrip(&op, &ctl, &default_pol);
	CHECK_EQ_U64(r.op_subclass, AP_OP_LDST_EXT | AP_OP_LDST_EXCL | AP_OP_LDST_AR | AP_OP_ST);

	/* CollectPhysicalAddress() FALSE: no PA (SPE-5.3.1-11). */
	ctl.pa = false;
	r = roundtrip(&op, &ctl, &default_pol);
	CHECK(!(r.has & AP_HAS_PADDR));
	/* PMSIDR_EL1.LDS == 0: no Data Source (SPE-5.3.5-1; the indicator is OPTIONAL,
	 * SPE-2.3.2-13). */
	op.kind = AP_SPE_OP_LOAD;
	ctl.lds = false;
	r = roundtrip(&op, &ctl, &default_pol);
	CHECK(!(r.has & AP_HAS_DATA_SOURCE));
}

/* SPE-2.3.2-5, SPE-3.2.2-2, SPE-3.2.2-3 and the model's encoding: atomics. */
TEST(atomics)
{
	struct ap_spe_record_ctl ctl = { .el = 0, .ns = 1, .pa = true, .lds = true };
	struct ap_spe_op op = { .kind = AP_SPE_OP_ATOMIC, .pc = 0x10, .va = 0x20, .pa = 0x30,
	                        .flags = AP_SPE_OPF_ATOMIC_LD, .data_source = 0x1234 };
	struct ap_record r = roundtrip(&op, &ctl, &default_pol);
	CHECK_EQ_U64(r.op_subclass, AP_OP_LDST_EXT | AP_OP_LDST_AT);
	CHECK(r.has & AP_HAS_DATA_SOURCE);
	CHECK_EQ_U64(r.data_source, 0x1234);
	CHECK_EQ_U64(r.data_source_size, 2);
	CHECK_EQ_U64(ap_spe_op_type_bits(&op), AP_SPE_TYPE_LOAD | AP_SPE_TYPE_STORE);
	op.flags = 0;
	r = roundtrip(&op, &ctl, &default_pol);
	CHECK_EQ_U64(r.op_subclass, AP_OP_LDST_EXT | AP_OP_LDST_AT | AP_OP_ST);
	CHECK(!(r.has & AP_HAS_DATA_SOURCE)); /* SPE-5.3.5-3 default: not included */
	CHECK_EQ_U64(ap_spe_op_type_bits(&op), AP_SPE_TYPE_STORE);
	struct ap_spe_record_policy pol = default_pol;
	pol.ds_atomic_noreturn = true;
	r = roundtrip(&op, &ctl, &pol);
	CHECK(r.has & AP_HAS_DATA_SOURCE);
}

/* SPE-2.3.2-3, SPE-5.3.1-17: the TAG byte only when TBI applies. */
TEST(data_va_tag)
{
	struct ap_spe_record_ctl ctl = ctl_el0_ns();
	struct ap_spe_op op = { .kind = AP_SPE_OP_LOAD, .va = 0x5a00ffff12345678ull };
	struct ap_record r = roundtrip(&op, &ctl, &default_pol);
	CHECK_EQ_U64(r.vaddr, 0x0000ffff12345678ull);
	op.flags = AP_SPE_OPF_TBI;
	r = roundtrip(&op, &ctl, &default_pol);
	CHECK_EQ_U64(r.vaddr, 0x5a00ffff12345678ull);
}

/* SPE-2.3-6, SPE-2.3.1-8, SPE-2.3.5-5, SPE-2.3.5-6, SPE-5.3.1-10, SPE-5.3.1-11, SPE-5.3.5-2,
 * SPE-5.3.7-22: operations that generate an exception. */
TEST(exceptions)
{
	struct ap_spe_record_ctl ctl = { .el = 0, .ns = 1, .pa = true, .lds = true };
	/* A branch that faults is not a branch: no target, type OTHER. */
	struct ap_spe_op br = { .kind = AP_SPE_OP_BRANCH, .pc = 0x40, .target = 0x41,
	                        .flags = AP_SPE_OPF_EXCEPTION };
	struct ap_record r = roundtrip(&br, &ctl, &default_pol);
	CHECK(!(r.has & AP_HAS_TARGET));
	CHECK_EQ_U64(r.op_class, AP_OP_CLASS_OTHER);
	CHECK_EQ_U64(r.events, AP_EV_RETIRED | AP_EV_EXCEPTION_GEN);
	CHECK_EQ_U64(ap_spe_op_type_bits(&br), AP_SPE_TYPE_OTHER);

	/* A load with a Translation fault: VA, no PA, no data source. */
	struct ap_spe_op ld = { .kind = AP_SPE_OP_LOAD, .pc = 0x40, .va = 0x1000, .pa = 0x2000,
	                        .flags = AP_SPE_OPF_EXCEPTION, .data_abort = AP_SPE_DABORT_FAULT };
	r = roundtrip(&ld, &ctl, &default_pol);
	CHECK(r.has & AP_HAS_VADDR);
	CHECK(!(r.has & (AP_HAS_PADDR | AP_HAS_DATA_SOURCE)));
	/* Permission/Access Flag fault: PA by choice (SPE-5.3.1-10). */
	ld.data_abort = AP_SPE_DABORT_PERM_AF;
	r = roundtrip(&ld, &ctl, &default_pol);
	CHECK(!(r.has & AP_HAS_PADDR));
	struct ap_spe_record_policy pol = default_pol;
	pol.pa_on_perm_af = true;
	r = roundtrip(&ld, &ctl, &pol);
	CHECK(r.has & AP_HAS_PADDR);
	/* External abort: no PA; Data Source by choice (SPE-5.3.5-2). */
	ld.data_abort = AP_SPE_DABORT_EXTERNAL;
	r = roundtrip(&ld, &ctl, &pol);
	CHECK(!(r.has & (AP_HAS_PADDR | AP_HAS_DATA_SOURCE)));
	pol.ds_on_ext_abort = true;
	r = roundtrip(&ld, &ctl, &pol);
	CHECK(r.has & AP_HAS_DATA_SOURCE);

	/* SPE-2.3.5-5 minimal choice: Events and the framing only. */
	pol.exception_minimal = true;
	ctl.ctx1 = true;
	ctl.contextidr_el1 = 42;
	r = roundtrip(&ld, &ctl, &pol);
	CHECK_EQ_U64(r.has, AP_HAS_EVENTS | AP_HAS_CTX_EL1);
}

/* SPE-2.3.5-2: misspeculated operations and non-architectural exceptions
 * have neither E[0] nor E[1]. SPE-5.3.7-23: with E[1] == 0 the meaning of
 * E[0] is IMPLEMENTATION DEFINED; the model's fixed choice is that E[0] is
 * then always 0, even for an operation that took an exception and whatever
 * the host put in its events. */
TEST(misspeculated_events)
{
	struct ap_spe_record_ctl ctl = ctl_el0_ns();
	struct ap_spe_op op = { .kind = AP_SPE_OP_LOAD, .flags = AP_SPE_OPF_MISSPEC,
	                        .events = AP_EV_RETIRED | AP_EV_EXCEPTION_GEN | AP_EV_L1D_ACCESS };
	struct ap_record r = roundtrip(&op, &ctl, &default_pol);
	CHECK_EQ_U64(r.events, AP_EV_L1D_ACCESS);
	op.flags = AP_SPE_OPF_NONARCH_EXC | AP_SPE_OPF_EXCEPTION;
	r = roundtrip(&op, &ctl, &default_pol);
	CHECK_EQ_U64(r.events, AP_EV_L1D_ACCESS);
	op.flags = AP_SPE_OPF_MISSPEC | AP_SPE_OPF_EXCEPTION;
	r = roundtrip(&op, &ctl, &default_pol);
	CHECK_EQ_U64(r.events & (AP_EV_RETIRED | AP_EV_EXCEPTION_GEN), 0);
	CHECK_EQ_U64(ap_spe_op_events(&op) & AP_EV_EXCEPTION_GEN, 0);
}

/* SPE-2.3-5, SPE-5.3.3-3, SPE-5.3.3-4, SPE-5.3.3-6, SPE-5.3.10-1, SPE-5.3.10-2, SPE-5.3.4-18,
 * SPE-5.3.7-8:
 * context packets, the timestamp ends the record, saturated counters,
 * host event bits that read as zero are dropped. */
TEST(context_timestamp_saturation)
{
	struct ap_spe_record_ctl ctl = { .el = 1, .ns = 1, .ctx1 = true, .ctx2 = true,
	                                 .contextidr_el1 = 0x11, .contextidr_el2 = 0x22,
	                                 .ts = true, .ts_value = 0x123456789ull };
	struct ap_spe_op op = { .kind = AP_SPE_OP_OTHER, .lat_total = 70000, .lat_issue = 0xFFF,
	                        .events = (1ull << 11) | (1ull << 20) | (1ull << 40) | (1ull << 50) };
	struct ap_record r = roundtrip(&op, &ctl, &default_pol);
	CHECK_EQ_U64(r.ctx_el1, 0x11);
	CHECK_EQ_U64(r.ctx_el2, 0x22);
	CHECK_EQ_U64(r.end, AP_END_TIMESTAMP);
	CHECK_EQ_U64(r.ts, 0x123456789ull);
	CHECK_EQ_U64(r.lat_total, 0xFFF);
	CHECK_EQ_U64(r.lat_issue, 0xFFF);
	CHECK_EQ_U64(r.events, AP_EV_RETIRED | (1ull << 50));
}

TEST_MAIN(CASE(other_operation), CASE(conditional_select_failed), CASE(branches), CASE(exception_return),
          CASE(loads_and_stores), CASE(atomics), CASE(data_va_tag), CASE(exceptions),
          CASE(misspeculated_events), CASE(context_timestamp_saturation))
