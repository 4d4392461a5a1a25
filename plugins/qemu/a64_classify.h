/* A64 instruction classification the way SPE describes operations
 * (spec/002 5.3.8 Operation Type packet; encodings from DDI 0487 C4.1,
 * "A64 instruction set encoding", top-level op0 field bits [28:25]).
 *
 * Pure functions on the 32-bit instruction word: no state, no allocation.
 * Used by the QEMU plugin at translation time, once per instruction. */
#ifndef ARMPROF_A64_CLASSIFY_H
#define ARMPROF_A64_CLASSIFY_H

#include <stdint.h>

/* What kind of operation an instruction is, for sampling and timing. */
enum a64_kind {
	A64_OTHER = 0,   /* data processing, system, SIMD arithmetic, ... */
	A64_COND_OTHER,  /* conditional select / conditional compare (CSEL, CCMP, FCSEL, FCCMP) */
	A64_LDST,        /* load, store or atomic: see flags */
	A64_BRANCH,      /* branch or exception return: see flags */
};

enum a64_flags {
	A64_F_LOAD = 1u << 0,      /* reads memory (atomics that return data too) */
	A64_F_STORE = 1u << 1,     /* writes memory */
	A64_F_SIMD = 1u << 2,      /* SIMD&FP register transfer */
	A64_F_ATOMIC = 1u << 3,    /* LSE atomic (CAS, SWP, LD<op>, ST<op>) */
	A64_F_EXCL = 1u << 4,      /* load/store exclusive */
	A64_F_ACQREL = 1u << 5,    /* acquire or release semantics */
	A64_F_COND = 1u << 6,      /* conditional (branch or select/compare) */
	A64_F_INDIRECT = 1u << 7,  /* branch to a register */
	A64_F_CALL = 1u << 8,      /* BL / BLR: writes the link register */
	A64_F_RETURN = 1u << 9,    /* RET family */
	A64_F_DIRECT_TARGET = 1u << 10, /* .offset holds the PC-relative target */
	A64_F_PREFETCH = 1u << 11, /* PRFM: no data returned to a register */
	/* A plain load or store of one register of at most 8 bytes (LDR/STR
	 * of every addressing form, LDUR, LDTR, LDRS*, LDR literal, B/H/S/D
	 * SIMD&FP registers): QEMU 7.2 performs it as exactly one guest memory
	 * access, so its memory callback fires exactly once per execution. The
	 * plugin relies on that to learn from it that a TB started. Not set for
	 * pairs, structures, Q registers (two 64-bit accesses in QEMU 7.2),
	 * exclusives (a failed store-exclusive makes no access), atomics,
	 * acquire/release forms, prefetches (no access) or unallocated forms. */
	A64_F_ONE_ACCESS = 1u << 12,
};

#define A64_NO_REG 0xFF

struct a64_class {
	uint8_t kind;        /* enum a64_kind */
	uint8_t spe_class;   /* enum ap_op_class (codec.h) */
	uint8_t spe_subclass;/* Operation Type payload byte (codec.h AP_OP_*) */
	uint8_t mem_size;    /* bytes per register transferred, 0 if unknown */
	/* Load/store registers (Rt bits [4:0], Rn bits [9:5]): the address base
	 * and the (first) data register. A64_NO_REG where there is none (PC-
	 * relative literal loads have no base; SIMD&FP data registers are not
	 * general-purpose registers). */
	uint8_t rt, rn;
	uint16_t flags;      /* enum a64_flags */
	int64_t offset;      /* direct branch: target - pc */
};

/* Classify the instruction word insn (little-endian value as fetched). */
void a64_classify(uint32_t insn, struct a64_class *out);

/* Whether memory instruction c, when it is the first memory instruction of
 * its translation block, can announce that the block started: its
 * callback then fires exactly once per execution of the block, and nothing
 * before it can leave the block (a branch ends it). The plugin registers
 * no execution callback for a block that has one (and
 * bench/qemu_callback_floor.c registers what the plugin does). */
static inline int a64_announces_tb(const struct a64_class *c, int first_ldst_of_tb)
{
	return first_ldst_of_tb && c->kind == A64_LDST && (c->flags & A64_F_ONE_ACCESS);
}

/* "LD", "ST", "ATOMIC", "B", "B.COND", "BR", "CSEL", "OTHER": a short name
 * for summaries and tests. */
const char *a64_kind_name(const struct a64_class *c);

#endif
