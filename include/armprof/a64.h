/* A64 instruction classification the way SPE describes operations
 * (spec/002 5.3.8 Operation Type packet; encodings from DDI 0487 C4.1,
 * "A64 instruction set encoding", top-level op0 field bits [28:25]).
 *
 * Pure functions on the 32-bit instruction word: no state, no allocation.
 * For emulators that feed the model: the user-mode QEMU plugin at
 * translation time, and the full-system QEMU CPU when it describes a
 * sampled operation (system/qemu). */
#ifndef ARMPROF_A64_H
#define ARMPROF_A64_H

#include <stdint.h>

#include "armprof/export.h"

#ifdef __cplusplus
extern "C" {
#ifdef __cplusplus
}
#endif
#endif

/* What kind of operation an instruction is, for sampling and timing. */
enum ap_a64_kind {
	AP_A64_OTHER = 0,   /* data processing, system, SIMD arithmetic, ... */
	AP_A64_COND_OTHER,  /* conditional select / conditional compare (CSEL, CCMP, FCSEL, FCCMP) */
	AP_A64_LDST,        /* load, store or atomic: see flags */
	AP_A64_BRANCH,      /* branch or exception return: see flags */
};

enum ap_a64_flags {
	AP_A64_F_LOAD = 1u << 0,      /* reads memory (atomics that return data too) */
	AP_A64_F_STORE = 1u << 1,     /* writes memory */
	AP_A64_F_SIMD = 1u << 2,      /* SIMD&FP register transfer */
	AP_A64_F_ATOMIC = 1u << 3,    /* LSE atomic (CAS, SWP, LD<op>, ST<op>) */
	AP_A64_F_EXCL = 1u << 4,      /* load/store exclusive */
	AP_A64_F_ACQREL = 1u << 5,    /* acquire or release semantics */
	AP_A64_F_COND = 1u << 6,      /* conditional (branch or select/compare) */
	AP_A64_F_INDIRECT = 1u << 7,  /* branch to a register */
	AP_A64_F_CALL = 1u << 8,      /* BL / BLR: writes the link register */
	AP_A64_F_RETURN = 1u << 9,    /* RET family */
	AP_A64_F_DIRECT_TARGET = 1u << 10, /* .offset holds the PC-relative target */
	AP_A64_F_PREFETCH = 1u << 11, /* PRFM: no data returned to a register */
	/* A plain load or store of one register of at most 8 bytes (LDR/STR
	 * of every addressing form, LDUR, LDTR, LDRS*, LDR literal, B/H/S/D
	 * SIMD&FP registers): QEMU 7.2 performs it as exactly one guest memory
	 * access, so its memory callback fires exactly once per execution. The
	 * plugin relies on that to learn from it that a TB started. Not set for
	 * pairs, structures, Q registers (two 64-bit accesses in QEMU 7.2),
	 * exclusives (a failed store-exclusive makes no access), atomics,
	 * acquire/release forms, prefetches (no access) or unallocated forms. */
	AP_A64_F_ONE_ACCESS = 1u << 12,
	AP_A64_F_ERET = 1u << 13,  /* exception return: ERET, ERETAA, ERETAB */
	/* FEAT_SPE_EFT's operation attributes (LATER-EFT-3), from the A64
	 * top-level decode (DDI 0487 C4.1): scalar floating-point data
	 * processing (bits [30:24] = 0b001111x) is FP; the rest of "Scalar
	 * Floating-Point and Advanced SIMD" data processing, SVE (and FP too
	 * in its floating-point groups, bits [31:24] = 0x64, 0x65), SME and
	 * the Advanced SIMD structure loads/stores are SIMD. A vector
	 * operation on floating-point elements outside SVE's FP groups is
	 * SIMD only, a scalar SIMD&FP register load/store neither (QEMU's
	 * patch 0010 types full-system operations by the same rules). */
	AP_A64_F_FP = 1u << 14,
	AP_A64_F_SIMD_OP = 1u << 15,
};

#define AP_A64_NO_REG 0xFF

struct ap_a64_class {
	uint8_t kind;        /* enum ap_a64_kind */
	uint8_t spe_class;   /* enum ap_op_class (codec.h) */
	uint8_t spe_subclass;/* Operation Type payload byte (codec.h AP_OP_*) */
	uint8_t mem_size;    /* bytes per register transferred, 0 if unknown */
	/* Load/store registers (Rt bits [4:0], Rn bits [9:5]): the address base
	 * and the (first) data register. AP_A64_NO_REG where there is none (PC-
	 * relative literal loads have no base; SIMD&FP data registers are not
	 * general-purpose registers). */
	uint8_t rt, rn;
	uint16_t flags;      /* enum ap_a64_flags */
	int64_t offset;      /* direct branch: target - pc */
};

/* Classify the instruction word insn (little-endian value as fetched). */
AP_API void ap_a64_classify(uint32_t insn, struct ap_a64_class *out);

/* "LD", "ST", "ATOMIC", "B", "B.COND", "BR", "CSEL", "OTHER": a short name
 * for summaries and tests. */
AP_API const char *ap_a64_kind_name(const struct ap_a64_class *c);

#ifdef __cplusplus
}
#endif
#endif
