/* The system-register table: how every extension declares its registers.
 *
 * One struct ap_sysreg per register: its name, encoding, field masks, reset
 * (through its table's reset hook), and its access check. ap_pe_mrs() and
 * ap_pe_msr() (sysreg.c) look the encoding up in every registered table,
 * run the check, and only when it is AP_ACCESS_OK read or write the value.
 *
 * ADDING REGISTERS (another extension, e.g. PMU/PCSR/snapshot registers):
 *   1. In your own file define
 *        static const struct ap_sysreg my_regs[] = { {...}, ... };
 *        const struct ap_sysreg_table ap_my_sysreg_table = {
 *            "my-ext", my_regs, sizeof my_regs / sizeof my_regs[0],
 *            my_reset, my_state_changed };
 *   2. Add one line `X(ap_my_sysreg_table)` to AP_SYSREG_TABLES in
 *      lib/model/registry.h.
 * That is all: name lookup, encoding lookup, MRS/MSR, peek/poke, reset and
 * the `armprof sim` commands msr/mrs/expect/expect-access then know them.
 *
 * Value semantics (shared by every register unless its read/write hook says
 * otherwise): the stored value has RES0 bits clear and RES1 bits set (RES0
 * implemented as read-as-zero/writes-ignored, which a RES0 field permits);
 * an MSR changes only the bits outside res0|res1|ro. */
#ifndef ARMPROF_MODEL_SYSREG_H
#define ARMPROF_MODEL_SYSREG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "armprof/model.h"

struct ap_pe;
struct ap_sysreg;

/* Internal access outcomes on top of enum ap_access: the FEAT_NV2
 * redirection of an EL1 access to memory at VNCR_EL2 + nv_offset. */
#define AP_ACCESS_NVMEM 100
/* The register does not exist in this configuration (a feature after SPEv1
 * that is not configured): reported as for an encoding no table has, so a
 * configuration without the feature behaves exactly as before it. */
#define AP_ACCESS_ABSENT 101

enum ap_sysreg_flags {
	AP_SR_R = 1u << 0, /* MRS defined */
	AP_SR_W = 1u << 1, /* MSR defined (else MSR is UNDEFINED) */
};

/* write: true for MSR. Returns an enum ap_access or AP_ACCESS_NVMEM. */
typedef int (*ap_sysreg_check_fn)(const struct ap_pe *pe, const struct ap_sysreg *r, bool write);

struct ap_sysreg {
	const char *name;   /* spec name, upper case */
	uint32_t enc;       /* AP_SYSREG(op0, op1, CRn, CRm, op2) */
	uint8_t flags;      /* enum ap_sysreg_flags */
	int8_t fgt_bit;     /* HDFGRTR_EL2/HDFGWTR_EL2 bit, -1 for none (DDI 0487) */
	uint16_t nv_offset; /* FEAT_NV2 offset from VNCR_EL2, 0 for none (DDI 0487) */
	uint64_t res0;      /* bits RES0 in every configuration */
	uint64_t res1;      /* bits RES1 in every configuration */
	uint64_t ro;        /* bits an MSR does not change (besides res0|res1) */
	/* Configuration- or state-dependent RES0/RES1 bits, added to the above;
	 * NULL if none. */
	void (*dyn_masks)(const struct ap_pe *pe, uint64_t *res0, uint64_t *res1);
	ap_sysreg_check_fn check;
	/* Which register an access under this name reaches (e.g. PMSCR_EL1 at
	 * EL2 with HCR_EL2.E2H == 1 reaches PMSCR_EL2, 4.3.5); NULL = itself.
	 * The check of the returned register applies. */
	const struct ap_sysreg *(*redirect)(const struct ap_pe *pe, const struct ap_sysreg *r);
	/* Storage: byte offset of a uint64_t in struct ap_pe, used when read or
	 * write is NULL. */
	size_t storage;
	uint64_t (*read)(const struct ap_pe *pe, const struct ap_sysreg *r);
	void (*write)(struct ap_pe *pe, const struct ap_sysreg *r, uint64_t value);
	/* Called after a successful MSR has stored the value (side effects). */
	void (*written)(struct ap_pe *pe, const struct ap_sysreg *r);
};

struct ap_sysreg_table {
	const char *name;
	const struct ap_sysreg *regs;
	size_t count;
	void (*reset)(struct ap_pe *pe);   /* warm reset of these registers, or NULL */
	/* The host changed the PE state (old = previous state), or NULL. */
	void (*state_changed)(struct ap_pe *pe, const struct ap_pe_state *old);
};

/* Every registered table (lib/model/registry.c). */
extern const struct ap_sysreg_table *const ap_sysreg_tables[];
extern const size_t ap_sysreg_table_count;

/* The register with this encoding, or NULL. */
const struct ap_sysreg *ap_sysreg_find(uint32_t enc);
/* The register with this name (case-insensitive), or NULL. */
const struct ap_sysreg *ap_sysreg_find_name(const char *name);
/* All RES0 / RES1 bits of r in pe's configuration and state. */
void ap_sysreg_masks(const struct ap_pe *pe, const struct ap_sysreg *r, uint64_t *res0, uint64_t *res1);
/* The value r holds after software writes v over old. */
uint64_t ap_sysreg_merge(const struct ap_pe *pe, const struct ap_sysreg *r, uint64_t old, uint64_t v);
/* Stored value / store without checks (used by hooks and peek/poke). */
uint64_t ap_sysreg_get(const struct ap_pe *pe, const struct ap_sysreg *r);
void ap_sysreg_set(struct ap_pe *pe, const struct ap_sysreg *r, uint64_t v);

#endif
