/* A64 instruction classification for SPE (see include/armprof/a64.h).
 *
 * Encoding groups follow DDI 0487 C4.1 "A64 instruction set encoding": the
 * masks below test op0 (bits [28:25]) and then each group's fixed bits.
 * SVE and SME encodings are classified as Other: Debian's gcc does not emit
 * them for the default -march, and their memory forms are not modelled. */
#include "armprof/a64.h"

#include "armprof/codec.h"

static inline uint32_t bits(uint32_t v, unsigned hi, unsigned lo)
{
	return (v >> lo) & ((1u << (hi - lo + 1)) - 1u);
}

static inline int64_t sext(uint64_t v, unsigned width)
{
	uint64_t m = 1ull << (width - 1);
	return (int64_t)((v ^ m) - m);
}

/* Loads, stores and atomics: op0 == x1x0 (bit 27 set, bit 25 clear). */
static void classify_ldst(uint32_t insn, struct ap_a64_class *c)
{
	unsigned v = bits(insn, 26, 26);
	unsigned size = bits(insn, 31, 30);
	uint16_t f = 0;

	if ((insn & 0xBE000000u) == 0x0C000000u) {
		/* Advanced SIMD load/store multiple or single structure(s). */
		f = AP_A64_F_SIMD | (bits(insn, 22, 22) ? AP_A64_F_LOAD : AP_A64_F_STORE);
		c->mem_size = (uint8_t)(1u << bits(insn, 11, 10));
	} else if ((insn & 0x3F000000u) == 0x08000000u) {
		/* Load/store exclusive, load-acquire/store-release, CAS, CASP. */
		unsigned o2 = bits(insn, 23, 23), l = bits(insn, 22, 22);
		unsigned o1 = bits(insn, 21, 21), o0 = bits(insn, 15, 15);
		c->mem_size = (uint8_t)(1u << size);
		if (!o2 && !o1) {
			f = AP_A64_F_EXCL | (l ? AP_A64_F_LOAD : AP_A64_F_STORE);
			if (o0)
				f |= AP_A64_F_ACQREL;
		} else if (!o2 && o1 && (size & 2)) {
			f = AP_A64_F_EXCL | (l ? AP_A64_F_LOAD : AP_A64_F_STORE); /* LDXP/STXP */
			if (o0)
				f |= AP_A64_F_ACQREL;
		} else if (!o2 && o1) {
			f = AP_A64_F_ATOMIC | AP_A64_F_LOAD | AP_A64_F_STORE; /* CASP */
			c->mem_size = (uint8_t)(4u << (size & 1));
			if (l || o0)
				f |= AP_A64_F_ACQREL;
		} else if (o2 && !o1) {
			f = AP_A64_F_ACQREL | (l ? AP_A64_F_LOAD : AP_A64_F_STORE); /* LDAR/STLR/LDLAR/STLLR */
		} else {
			f = AP_A64_F_ATOMIC | AP_A64_F_LOAD | AP_A64_F_STORE; /* CAS */
			if (l || o0)
				f |= AP_A64_F_ACQREL;
		}
	} else if ((insn & 0x3B000000u) == 0x18000000u) {
		/* Load register (literal); opc == 11 with V == 0 is PRFM. */
		f = AP_A64_F_LOAD | (v ? AP_A64_F_SIMD : 0);
		if (!v && size == 3)
			f |= AP_A64_F_PREFETCH;
		c->mem_size = v ? (uint8_t)(4u << size) : (size == 0 ? 4 : 8);
		/* LDR (literal) of W, X, S, D and LDRSW; not PRFM, not Q, not
		 * the unallocated V opc == 11. */
		if (!(f & AP_A64_F_PREFETCH) && (!v || size < 2))
			f |= AP_A64_F_ONE_ACCESS;
	} else if ((insn & 0x38000000u) == 0x28000000u) {
		/* Load/store pair (all addressing forms, STGP included). */
		f = (bits(insn, 22, 22) ? AP_A64_F_LOAD : AP_A64_F_STORE) | (v ? AP_A64_F_SIMD : 0);
		c->mem_size = v ? (uint8_t)(4u << size) : ((size & 2) ? 8 : 4);
	} else if ((insn & 0xFF200000u) == 0xD9200000u) {
		/* Memory tagging: LDG and LDGM read, the STG family writes. */
		unsigned opc = bits(insn, 23, 22), op2 = bits(insn, 11, 10);
		f = ((opc == 1 || opc == 3) && op2 == 0) ? AP_A64_F_LOAD : AP_A64_F_STORE;
		c->mem_size = 16;
	} else if ((insn & 0x3F200C00u) == 0x19000000u) {
		/* LDAPUR/STLUR: RCpc unscaled immediate. */
		f = AP_A64_F_ACQREL | (bits(insn, 23, 22) ? AP_A64_F_LOAD : AP_A64_F_STORE);
		c->mem_size = (uint8_t)(1u << size);
	} else if ((insn & 0x38000000u) == 0x38000000u) {
		/* Load/store register: unscaled, pre/post-index, unprivileged,
		 * unsigned offset, register offset, atomic memory, PAC. */
		unsigned opc = bits(insn, 23, 22);
		int reg_form = !bits(insn, 24, 24) && bits(insn, 21, 21);
		/* Immediate forms, or register offset (bits [11:10] == 10). */
		int plain_form = !reg_form || bits(insn, 11, 10) == 2;
		c->mem_size = (uint8_t)(1u << size);
		if (reg_form && !v && bits(insn, 11, 10) == 0) {
			unsigned o3 = bits(insn, 15, 15), op = bits(insn, 14, 12);
			if (o3 && op == 4) {
				f = AP_A64_F_LOAD | AP_A64_F_ACQREL; /* LDAPR */
			} else {
				int swp = o3 && op == 0;
				f = AP_A64_F_ATOMIC | AP_A64_F_STORE;
				/* ST<op> is LD<op> with Rt == ZR: no data returned. */
				if (swp || bits(insn, 4, 0) != 31)
					f |= AP_A64_F_LOAD;
				if (bits(insn, 23, 22))
					f |= AP_A64_F_ACQREL;
			}
		} else if (reg_form && !v && size == 3 && bits(insn, 10, 10)) {
			f = AP_A64_F_LOAD; /* LDRAA/LDRAB */
		} else if (v) {
			f = AP_A64_F_SIMD | ((opc & 1) ? AP_A64_F_LOAD : AP_A64_F_STORE);
			if (size == 0 && (opc & 2))
				c->mem_size = 16;
			/* B, H, S, D: one access; Q (size 00, opc 1x) is two in
			 * QEMU 7.2; other opc 1x sizes are unallocated. */
			if (!(opc & 2) && plain_form)
				f |= AP_A64_F_ONE_ACCESS;
		} else if (opc == 0) {
			f = AP_A64_F_STORE;
			if (plain_form)
				f |= AP_A64_F_ONE_ACCESS;
		} else if (opc == 2 && size == 3) {
			f = AP_A64_F_LOAD | AP_A64_F_PREFETCH; /* PRFM / PRFUM */
		} else {
			f = AP_A64_F_LOAD;
			/* LDR, LDRS{B,H,W}; size 1x with opc 11 is unallocated. */
			if (plain_form && !(opc == 3 && size >= 2))
				f |= AP_A64_F_ONE_ACCESS;
		}
	} else {
		return; /* unallocated or not modelled: stays Other */
	}

	c->kind = AP_A64_LDST;
	c->flags = f;
	c->rn = (insn & 0x3B000000u) == 0x18000000u ? AP_A64_NO_REG : (uint8_t)bits(insn, 9, 5);
	c->rt = (f & AP_A64_F_SIMD) ? AP_A64_NO_REG : (uint8_t)bits(insn, 4, 0);
	c->spe_class = AP_OP_CLASS_LDST;
	uint8_t st = (f & AP_A64_F_STORE) && !(f & AP_A64_F_LOAD) ? AP_OP_ST : 0;
	if (f & (AP_A64_F_ATOMIC | AP_A64_F_EXCL | AP_A64_F_ACQREL)) {
		c->spe_subclass = AP_OP_LDST_EXT | st;
		if (f & AP_A64_F_ATOMIC)
			c->spe_subclass |= AP_OP_LDST_AT;
		if (f & AP_A64_F_EXCL)
			c->spe_subclass |= AP_OP_LDST_EXCL;
		if (f & AP_A64_F_ACQREL)
			c->spe_subclass |= AP_OP_LDST_AR;
	} else {
		c->spe_subclass = (uint8_t)((f & AP_A64_F_SIMD ? AP_OP_LDST_SIMD : AP_OP_LDST_GP) | st);
	}
}

/* Branches, exception generation and system: op0 == 101x. */
static void classify_branch_sys(uint32_t insn, struct ap_a64_class *c)
{
	uint16_t f;

	if ((insn & 0x7C000000u) == 0x14000000u) {
		f = AP_A64_F_DIRECT_TARGET | (bits(insn, 31, 31) ? AP_A64_F_CALL : 0); /* B, BL */
		c->offset = sext(bits(insn, 25, 0), 26) * 4;
	} else if ((insn & 0xFE000000u) == 0x54000000u) {
		f = AP_A64_F_DIRECT_TARGET | AP_A64_F_COND; /* B.cond, BC.cond */
		c->offset = sext(bits(insn, 23, 5), 19) * 4;
	} else if ((insn & 0x7E000000u) == 0x34000000u) {
		f = AP_A64_F_DIRECT_TARGET | AP_A64_F_COND; /* CBZ, CBNZ */
		c->offset = sext(bits(insn, 23, 5), 19) * 4;
	} else if ((insn & 0x7E000000u) == 0x36000000u) {
		f = AP_A64_F_DIRECT_TARGET | AP_A64_F_COND; /* TBZ, TBNZ */
		c->offset = sext(bits(insn, 18, 5), 14) * 4;
	} else if ((insn & 0xFE000000u) == 0xD6000000u) {
		/* Unconditional branch (register): BR, BLR, RET, ERET, DRPS and
		 * their pointer-authenticated forms. ERET counts as an
		 * unconditional branch (spec/002 2.3.1). */
		unsigned opc = bits(insn, 24, 21);
		f = AP_A64_F_INDIRECT;
		if ((opc & 7) == 1)
			f |= AP_A64_F_CALL;
		else if (opc == 2)
			f |= AP_A64_F_RETURN;
		else if (opc == 4)
			f |= AP_A64_F_ERET; /* ERET, ERETAA, ERETAB */
	} else {
		return; /* exception generation, system, hints, barriers: Other */
	}
	c->kind = AP_A64_BRANCH;
	c->flags = f;
	c->spe_class = AP_OP_CLASS_BRANCH;
	c->spe_subclass = (uint8_t)((f & AP_A64_F_COND ? AP_OP_BR_COND : 0) |
	                            (f & AP_A64_F_INDIRECT ? AP_OP_BR_INDIRECT : 0));
}

static int is_cond_select_compare(uint32_t insn)
{
	/* CSEL/CSINC/CSINV/CSNEG (bits [28:21] = 11010100) and CCMN/CCMP
	 * (bits [28:21] = 11010010), register and immediate forms. */
	uint32_t top = insn & 0x1FE00000u;
	if (top == 0x1A800000u || top == 0x1A400000u)
		return 1;
	/* FCSEL and FCCMP/FCCMPE (scalar floating point). */
	uint32_t fp = insn & 0x5F200C00u;
	return fp == 0x1E200C00u || fp == 0x1E200400u;
}

/* FEAT_SPE_EFT's FP and SIMD attributes (a64.h AP_A64_F_FP, LATER-EFT-3):
 * op1 is bits [28:25] of the top-level decode. */
static uint16_t eft_flags(uint32_t insn, uint8_t kind)
{
	uint32_t op1 = (insn >> 25) & 0xFu, top = insn >> 24;
	if (kind == AP_A64_LDST) /* Advanced SIMD load/store structures (or SVE's) */
		return ((insn >> 31) == 0 && ((insn >> 25) & 0x1Fu) == 0x6u) || op1 == 0x2u ? AP_A64_F_SIMD_OP : 0;
	if (op1 == 0x2u) /* SVE */
		return AP_A64_F_SIMD_OP | (top == 0x64u || top == 0x65u ? AP_A64_F_FP : 0);
	if (op1 == 0x0u && (insn >> 31)) /* SME */
		return AP_A64_F_SIMD_OP;
	if ((op1 & 0x7u) == 0x7u) /* scalar FP and Advanced SIMD data processing */
		return ((insn >> 25) & 0x3Fu) == 0xFu ? AP_A64_F_FP : AP_A64_F_SIMD_OP;
	return 0;
}

void ap_a64_classify(uint32_t insn, struct ap_a64_class *out)
{
	struct ap_a64_class c = { .kind = AP_A64_OTHER, .spe_class = AP_OP_CLASS_OTHER, .rt = AP_A64_NO_REG,
		               .rn = AP_A64_NO_REG };

	if ((insn & 0x0A000000u) == 0x08000000u)
		classify_ldst(insn, &c);
	else if ((insn & 0x1C000000u) == 0x14000000u)
		classify_branch_sys(insn, &c);
	else if (is_cond_select_compare(insn)) {
		c.kind = AP_A64_COND_OTHER;
		c.flags = AP_A64_F_COND;
		c.spe_subclass = AP_OP_OTHER_COND;
	}
	c.flags |= eft_flags(insn, c.kind);
	*out = c;
}

const char *ap_a64_kind_name(const struct ap_a64_class *c)
{
	switch (c->kind) {
	case AP_A64_LDST:
		if (c->flags & AP_A64_F_ATOMIC)
			return "ATOMIC";
		return (c->flags & AP_A64_F_LOAD) ? "LD" : "ST";
	case AP_A64_BRANCH:
		if (c->flags & AP_A64_F_INDIRECT)
			return "BR";
		return (c->flags & AP_A64_F_COND) ? "B.COND" : "B";
	case AP_A64_COND_OTHER:
		return "CSEL";
	default:
		return "OTHER";
	}
}
