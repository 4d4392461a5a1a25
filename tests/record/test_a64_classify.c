/* A64 classifier (lib/a64/classify.c) against encodings assembled
 * by GNU as (aarch64-linux-gnu-as -march=armv8.5-a+lse+rcpc+pauth) and
 * against capstone's own decoding of the same words.
 *
 * Shows the operation types the plugin gives the model (spec/002 5.3.8
 * Operation Type packet): CLASS other / load-store / branch (SPE-5.3.8-3,
 * SPE-5.3.8-4, SPE-5.3.8-5), Other SUBCLASS unconditional / conditional
 * select or compare (SPE-5.3.8-7, SPE-5.3.8-8, SPE-2.3.3-1), Branch direct /
 * indirect and COND (SPE-5.3.8-10, SPE-5.3.8-11, SPE-5.3.8-13, SPE-2.3.1-1,
 * SPE-2.3.1-7), load/store/atomic, exclusive, acquire/release, GP or
 * SIMD&FP (SPE-2.3.2-5, SPE-2.3.2-6, SPE-2.3.2-7; the extended payload
 * layout of DDI 0487, SPE-5.3.8-14). */
#include <capstone/capstone.h>

#include "armprof/a64.h"
#include "harness.h"

struct asm_case {
	uint32_t insn;
	const char *text;
	const char *kind;
	uint8_t spe_class, spe_subclass;
};

/* insn words from `as`; kind, CLASS and SUBCLASS as SPE 5.3.8 defines them. */
static const struct asm_case asm_cases[] = {
	{ 0xf9400020, "ldr x0, [x1]", "LD", 1, 0x00 },
	{ 0xb9400420, "ldr w0, [x1, #4]", "LD", 1, 0x00 },
	{ 0x38401420, "ldrb w0, [x1], #1", "LD", 1, 0x00 },
	{ 0xb8a27820, "ldrsw x0, [x1, x2, lsl #2]", "LD", 1, 0x00 },
	{ 0xf85f8020, "ldur x0, [x1, #-8]", "LD", 1, 0x00 },
	{ 0xf8400820, "ldtr x0, [x1]", "LD", 1, 0x00 },
	{ 0xf9000020, "str x0, [x1]", "ST", 1, 0x01 },
	{ 0x38001c20, "strb w0, [x1, #1]!", "ST", 1, 0x01 },
	{ 0xb81fc020, "stur w0, [x1, #-4]", "ST", 1, 0x01 },
	{ 0xf8226820, "str x0, [x1, x2]", "ST", 1, 0x01 },
	{ 0xa94107e0, "ldp x0, x1, [sp, #16]", "LD", 1, 0x00 },
	{ 0xa9be7bfd, "stp x29, x30, [sp, #-32]!", "ST", 1, 0x01 },
	{ 0xa8400440, "ldnp x0, x1, [x2]", "LD", 1, 0x00 },
	{ 0x69400440, "ldpsw x0, x1, [x2]", "LD", 1, 0x00 },
	{ 0x58000000, "ldr x0, .", "LD", 1, 0x00 },
	{ 0xf9800000, "prfm pldl1keep, [x0]", "LD", 1, 0x00 },
	{ 0x3dc00020, "ldr q0, [x1]", "LD", 1, 0x04 },
	{ 0xfd000420, "str d0, [x1, #8]", "ST", 1, 0x05 },
	{ 0x1c000000, "ldr s0, .", "LD", 1, 0x04 },
	{ 0xad400400, "ldp q0, q1, [x0]", "LD", 1, 0x04 },
	{ 0x6d010400, "stp d0, d1, [x0, #16]", "ST", 1, 0x05 },
	{ 0x4c407000, "ld1 {v0.16b}, [x0]", "LD", 1, 0x04 },
	{ 0x4c9fa800, "st1 {v0.4s, v1.4s}, [x0], #32", "ST", 1, 0x05 },
	{ 0x0d409000, "ld1 {v0.s}[1], [x0]", "LD", 1, 0x04 },
	{ 0x4d60e800, "ld4r {v0.4s-v3.4s}, [x0]", "LD", 1, 0x04 },
	{ 0xc85f7c20, "ldxr x0, [x1]", "LD", 1, 0x0a },
	{ 0x885ffc20, "ldaxr w0, [x1]", "LD", 1, 0x1a },
	{ 0xc8027c20, "stxr w2, x0, [x1]", "ST", 1, 0x0b },
	{ 0xc802fc20, "stlxr w2, x0, [x1]", "ST", 1, 0x1b },
	{ 0xc87f0440, "ldxp x0, x1, [x2]", "LD", 1, 0x0a },
	{ 0xc8238440, "stlxp w3, x0, x1, [x2]", "ST", 1, 0x1b },
	{ 0xc8dffc20, "ldar x0, [x1]", "LD", 1, 0x12 },
	{ 0x889ffc20, "stlr w0, [x1]", "ST", 1, 0x13 },
	{ 0xf8bfc020, "ldapr x0, [x1]", "LD", 1, 0x12 },
	{ 0x99404020, "ldapur w0, [x1, #4]", "LD", 1, 0x12 },
	{ 0xd9000020, "stlur x0, [x1]", "ST", 1, 0x13 },
	{ 0xc8a07c41, "cas x0, x1, [x2]", "ATOMIC", 1, 0x06 },
	{ 0x88e0fc41, "casal w0, w1, [x2]", "ATOMIC", 1, 0x16 },
	{ 0x48207c82, "casp x0, x1, x2, x3, [x4]", "ATOMIC", 1, 0x06 },
	{ 0xf8200041, "ldadd x0, x1, [x2]", "ATOMIC", 1, 0x06 },
	{ 0xb8e00041, "ldaddal w0, w1, [x2]", "ATOMIC", 1, 0x16 },
	{ 0xb820005f, "stadd w0, [x2]", "ATOMIC", 1, 0x07 },
	{ 0xf860305f, "stsetl x0, [x2]", "ATOMIC", 1, 0x17 },
	{ 0xf8208041, "swp x0, x1, [x2]", "ATOMIC", 1, 0x06 },
	{ 0xb8a0805f, "swpa w0, wzr, [x2]", "ATOMIC", 1, 0x16 },
	{ 0x14000002, "b .+8", "B", 2, 0x00 },
	{ 0x97fffffc, "bl .-16", "B", 2, 0x00 },
	{ 0x54000201, "b.ne .+64", "B.COND", 2, 0x01 },
	{ 0xb4ffffe0, "cbz x0, .-4", "B.COND", 2, 0x01 },
	{ 0x35000061, "cbnz w1, .+12", "B.COND", 2, 0x01 },
	{ 0x36180100, "tbz x0, #3, .+32", "B.COND", 2, 0x01 },
	{ 0x37ffff00, "tbnz w0, #31, .-32", "B.COND", 2, 0x01 },
	{ 0xd61f0200, "br x16", "BR", 2, 0x02 },
	{ 0xd63f0020, "blr x1", "BR", 2, 0x02 },
	{ 0xd65f03c0, "ret", "BR", 2, 0x02 },
	{ 0xd65f0bff, "retaa", "BR", 2, 0x02 },
	{ 0xd61f087f, "braaz x3", "BR", 2, 0x02 },
	{ 0x9a820020, "csel x0, x1, x2, eq", "CSEL", 0, 0x01 },
	{ 0x1a821420, "csinc w0, w1, w2, ne", "CSEL", 0, 0x01 },
	{ 0x9a9fa7e0, "cset x0, lt", "CSEL", 0, 0x01 },
	{ 0xda815420, "cneg x0, x1, mi", "CSEL", 0, 0x01 },
	{ 0xfa431804, "ccmp x0, #3, #4, ne", "CSEL", 0, 0x01 },
	{ 0x3a410000, "ccmn w0, w1, #0, eq", "CSEL", 0, 0x01 },
	{ 0x1e62cc20, "fcsel d0, d1, d2, gt", "CSEL", 0, 0x01 },
	{ 0x1e210400, "fccmp s0, s1, #0, eq", "CSEL", 0, 0x01 },
	{ 0x8b020020, "add x0, x1, x2", "OTHER", 0, 0x00 },
	{ 0xb1000420, "adds x0, x1, #1", "OTHER", 0, 0x00 },
	{ 0xeb01001f, "cmp x0, x1", "OTHER", 0, 0x00 },
	{ 0x9b027c20, "mul x0, x1, x2", "OTHER", 0, 0x00 },
	{ 0x1e622820, "fadd d0, d1, d2", "OTHER", 0, 0x00 },
	{ 0x4ea28420, "add v0.4s, v1.4s, v2.4s", "OTHER", 0, 0x00 },
	{ 0x90000000, "adrp x0, .", "OTHER", 0, 0x00 },
	{ 0xd4000001, "svc #0", "OTHER", 0, 0x00 },
	{ 0xd5033bbf, "dmb ish", "OTHER", 0, 0x00 },
	{ 0xd53bd040, "mrs x0, tpidr_el0", "OTHER", 0, 0x00 },
	{ 0xd503201f, "nop", "OTHER", 0, 0x00 },
	{ 0xd2809a40, "movz x0, #1234", "OTHER", 0, 0x00 },
	{ 0xd3442c20, "ubfx x0, x1, #4, #8", "OTHER", 0, 0x00 },
};

TEST(assembled_encodings)
{
	for (size_t i = 0; i < sizeof(asm_cases) / sizeof(asm_cases[0]); i++) {
		struct ap_a64_class c;
		ap_a64_classify(asm_cases[i].insn, &c);
		if (strcmp(ap_a64_kind_name(&c), asm_cases[i].kind) || c.spe_class != asm_cases[i].spe_class ||
		    c.spe_subclass != asm_cases[i].spe_subclass)
			fprintf(stderr, "  %s (0x%08x): got %s class %u sub 0x%02x\n", asm_cases[i].text,
			        asm_cases[i].insn, ap_a64_kind_name(&c), c.spe_class, c.spe_subclass);
		CHECK_EQ_STR(ap_a64_kind_name(&c), asm_cases[i].kind);
		CHECK_EQ_U64(c.spe_class, asm_cases[i].spe_class);
		CHECK_EQ_U64(c.spe_subclass, asm_cases[i].spe_subclass);
	}
}

/* Direct branch targets come from the encoding (the plugin checks taken /
 * not taken against them): the `as` listing above uses . relative targets. */
TEST(direct_branch_offsets)
{
	struct ap_a64_class c;
	ap_a64_classify(0x14000002u, &c); /* b .+8 */
	CHECK_EQ_U64(c.offset, 8);
	ap_a64_classify(0x97fffffcu, &c); /* bl .-16 */
	CHECK_EQ_U64(c.offset, (uint64_t)-16);
	CHECK(c.flags & AP_A64_F_CALL);
	ap_a64_classify(0x54000201u, &c); /* b.ne .+64 */
	CHECK_EQ_U64(c.offset, 64);
	ap_a64_classify(0xb4ffffe0u, &c); /* cbz x0, .-4 */
	CHECK_EQ_U64(c.offset, (uint64_t)-4);
	ap_a64_classify(0x37fffc00u, &c); /* tbnz w0, #31, .-128 */
	CHECK_EQ_U64(c.offset, (uint64_t)-128);
	ap_a64_classify(0xd65f03c0u, &c); /* ret */
	CHECK(c.flags & AP_A64_F_RETURN);
	CHECK(!(c.flags & AP_A64_F_DIRECT_TARGET));
	CHECK(!(c.flags & AP_A64_F_ERET));
	/* Exception returns are unconditional branches (SPE-2.3.1-2, spec/002 2.3.1). */
	static const uint32_t erets[] = { 0xd69f03e0u, 0xd69f0bffu, 0xd69f0fffu }; /* eret, eretaa, eretab */
	for (size_t i = 0; i < sizeof(erets) / sizeof(erets[0]); i++) {
		ap_a64_classify(erets[i], &c);
		CHECK_EQ_U64(c.kind, AP_A64_BRANCH);
		CHECK(c.flags & AP_A64_F_ERET);
		CHECK(!(c.flags & (AP_A64_F_COND | AP_A64_F_RETURN | AP_A64_F_CALL)));
	}
}

/* Every word capstone decodes as a branch or with a memory operand must be
 * a branch or a load/store here, and the other way round, over a stream of
 * pseudo-random words (a fixed seed: the test is reproducible). Capstone 4
 * does not know every v8.5 instruction, so only words it decodes count. */
TEST(agrees_with_capstone)
{
	csh h;
	CHECK(cs_open(CS_ARCH_ARM64, CS_MODE_ARM, &h) == CS_ERR_OK);
	cs_option(h, CS_OPT_DETAIL, CS_OPT_ON);
	uint64_t x = 0x9E3779B97F4A7C15ull;
	unsigned decoded = 0, ldst = 0, br = 0, mismatches = 0;
	for (int i = 0; i < 400000; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		uint32_t w = (uint32_t)(x >> 16);
		uint8_t bytes[4] = { (uint8_t)w, (uint8_t)(w >> 8), (uint8_t)(w >> 16), (uint8_t)(w >> 24) };
		cs_insn *insn;
		if (cs_disasm(h, bytes, 4, 0x10000, 1, &insn) != 1)
			continue;
		decoded++;
		int cs_mem = 0, cs_branch = 0;
		cs_arm64 *d = &insn->detail->arm64;
		for (int k = 0; k < d->op_count; k++)
			if (d->operands[k].type == ARM64_OP_MEM)
				cs_mem = 1;
		for (int k = 0; k < insn->detail->groups_count; k++)
			if (insn->detail->groups[k] == ARM64_GRP_JUMP)
				cs_branch = 1;
		/* Literal loads have no MEM operand in capstone: use the mnemonic. */
		if (!cs_mem && (!strncmp(insn->mnemonic, "ld", 2) || !strncmp(insn->mnemonic, "prfm", 4)))
			cs_mem = 1;
		/* System-register / cache maintenance / hint forms are Other. */
		int cs_sys = !strncmp(insn->mnemonic, "sys", 3) || !strncmp(insn->mnemonic, "dc", 2) ||
		             !strncmp(insn->mnemonic, "ic", 2) || !strncmp(insn->mnemonic, "at", 2);
		struct ap_a64_class c;
		ap_a64_classify(w, &c);
		int mine_mem = c.kind == AP_A64_LDST, mine_br = c.kind == AP_A64_BRANCH;
		ldst += (unsigned)mine_mem;
		br += (unsigned)mine_br;
		if (!cs_sys && (cs_mem != mine_mem || cs_branch != mine_br)) {
			if (mismatches < 10)
				fprintf(stderr, "  0x%08x %s %s: capstone mem=%d br=%d, mine %s\n", w,
				        insn->mnemonic, insn->op_str, cs_mem, cs_branch, ap_a64_kind_name(&c));
			mismatches++;
		}
		cs_free(insn, 1);
	}
	cs_close(&h);
	printf("  capstone decoded %u words: %u load/store, %u branches, %u mismatches\n",
	       decoded, ldst, br, mismatches);
	CHECK(decoded > 100000);
	CHECK(ldst > 1000 && br > 100);
	CHECK_EQ_U64(mismatches, 0);
}

/* Registers of loads and stores, for the plugin's load-to-address
 * dependency: ldr x0, [x1] has Rt 0, Rn 1; a literal load has no base. */
TEST(load_store_registers)
{
	struct ap_a64_class c;
	ap_a64_classify(0xf9400020u, &c); /* ldr x0, [x1] */
	CHECK_EQ_U64(c.rt, 0);
	CHECK_EQ_U64(c.rn, 1);
	ap_a64_classify(0xa9017bfdu, &c); /* stp x29, x30, [sp, #16] */
	CHECK_EQ_U64(c.rt, 29);
	CHECK_EQ_U64(c.rn, 31);
	ap_a64_classify(0x58000000u, &c); /* ldr x0, . (literal) */
	CHECK_EQ_U64(c.rn, AP_A64_NO_REG);
	ap_a64_classify(0x3dc00020u, &c); /* ldr q0, [x1] */
	CHECK_EQ_U64(c.rt, AP_A64_NO_REG);
	CHECK_EQ_U64(c.rn, 1);
	ap_a64_classify(0x8b020020u, &c); /* add x0, x1, x2 */
	CHECK_EQ_U64(c.rt, AP_A64_NO_REG);
}

/* AP_A64_F_ONE_ACCESS: the plugin learns that a translation block started from
 * the memory callback of its first such instruction, so the flag must be set
 * only where QEMU 7.2 makes exactly one guest access per execution (plain
 * one-register loads/stores up to 8 bytes), never for pairs, structures, Q
 * registers, exclusives, atomics, acquire/release forms or prefetches. */
TEST(one_access_flag)
{
	static const struct {
		uint32_t insn;
		const char *text;
		int one;
	} cases[] = {
		{ 0xf9400020, "ldr x0, [x1]", 1 },
		{ 0xb9400420, "ldr w0, [x1, #4]", 1 },
		{ 0x38401420, "ldrb w0, [x1], #1", 1 },
		{ 0xb8a27820, "ldrsw x0, [x1, x2, lsl #2]", 1 },
		{ 0xf85f8020, "ldur x0, [x1, #-8]", 1 },
		{ 0xf8400820, "ldtr x0, [x1]", 1 },
		{ 0xf9000020, "str x0, [x1]", 1 },
		{ 0x38001c20, "strb w0, [x1, #1]!", 1 },
		{ 0xf8226820, "str x0, [x1, x2]", 1 },
		{ 0x58000000, "ldr x0, .", 1 },
		{ 0x1c000000, "ldr s0, .", 1 },
		{ 0xfd000420, "str d0, [x1, #8]", 1 },
		{ 0xa94107e0, "ldp x0, x1, [sp, #16]", 0 },
		{ 0xa9be7bfd, "stp x29, x30, [sp, #-32]!", 0 },
		{ 0x3dc00020, "ldr q0, [x1]", 0 },
		{ 0x4c407000, "ld1 {v0.16b}, [x0]", 0 },
		{ 0xf9800000, "prfm pldl1keep, [x0]", 0 },
		{ 0xc85f7c20, "ldxr x0, [x1]", 0 },
		{ 0xc8027c20, "stxr w2, x0, [x1]", 0 },
		{ 0xc8dffc20, "ldar x0, [x1]", 0 },
		{ 0x889ffc20, "stlr w0, [x1]", 0 },
		{ 0x99404020, "ldapur w0, [x1, #4]", 0 },
		{ 0xc8a07c41, "cas x0, x1, [x2]", 0 },
		{ 0xd503201f, "nop", 0 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ap_a64_class c;
		ap_a64_classify(cases[i].insn, &c);
		int one = !!(c.flags & AP_A64_F_ONE_ACCESS);
		if (one != cases[i].one)
			fprintf(stderr, "  %s: AP_A64_F_ONE_ACCESS %d, want %d\n", cases[i].text, one, cases[i].one);
		CHECK_EQ_U64(one, cases[i].one);
	}
}

/* FEAT_SPE_EFT's FP and SIMD attributes (LATER-EFT-3, a64.h AP_A64_F_FP):
 * words from aarch64-linux-gnu-as -march=armv8.5-a+sve. */
TEST(eft_attributes)
{
	static const struct {
		uint32_t insn;
		const char *text;
		uint16_t want; /* AP_A64_F_FP | AP_A64_F_SIMD_OP */
	} cases[] = {
		{ 0x1e612800, "fadd d0, d0, d1", AP_A64_F_FP },
		{ 0x1e6e1001, "fmov d1, #1.0", AP_A64_F_FP },
		{ 0x9e780020, "fcvtzs x0, d1", AP_A64_F_FP },
		{ 0x4ea38442, "add v2.4s, v2.4s, v3.4s", AP_A64_F_SIMD_OP },
		{ 0x6e65dc84, "fmul v4.2d, v4.2d, v5.2d", AP_A64_F_SIMD_OP }, /* vector FP: SIMD only */
		{ 0x4c407820, "ld1 {v0.4s}, [x1]", AP_A64_F_SIMD_OP },
		{ 0x4c008820, "st2 {v0.4s, v1.4s}, [x1]", AP_A64_F_SIMD_OP },
		{ 0x65820020, "fadd z0.s, z1.s, z2.s", AP_A64_F_SIMD_OP | AP_A64_F_FP },
		{ 0x04a20020, "add z0.s, z1.s, z2.s", AP_A64_F_SIMD_OP },
		{ 0x3dc00020, "ldr q0, [x1]", 0 }, /* typed by its load/store class */
		{ 0xfd400020, "ldr d0, [x1]", 0 },
		{ 0x91000400, "add x0, x0, #1", 0 },
		{ 0xf9400020, "ldr x0, [x1]", 0 },
		{ 0xf8200020, "ldadd x0, x0, [x1]", 0 },
		{ 0x54000040, "b.eq .+8", 0 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ap_a64_class c;
		ap_a64_classify(cases[i].insn, &c);
		uint16_t got = c.flags & (AP_A64_F_FP | AP_A64_F_SIMD_OP);
		if (got != cases[i].want)
			fprintf(stderr, "  %s: EFT flags 0x%x, want 0x%x\n", cases[i].text, got, cases[i].want);
		CHECK_EQ_U64(got, cases[i].want);
	}
}

TEST_MAIN(CASE(one_access_flag), CASE(eft_attributes), CASE(assembled_encodings), CASE(load_store_registers), CASE(direct_branch_offsets), CASE(agrees_with_capstone))
