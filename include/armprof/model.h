/* The armprof architectural model: one processing element (PE) with its
 * profiling extensions (SPE now; PC sampling and PMU snapshots build on the
 * same PE state and system-register table).
 *
 * A host (an emulator, a test bench, `armprof sim`) creates an ap_pe from an
 * ap_config, tells it the PE state (Exception level, Security state, the
 * MDCR/SCR/HCR controls, Debug state, ...), forwards system-register accesses
 * to ap_pe_mrs()/ap_pe_msr(), and provides callbacks for everything outside
 * the PE: memory writes (the profiling buffer), the Generic Timer counts, the
 * PMBIRQ interrupt line and the CTI trigger outputs. The model never guesses
 * the state and never reaches outside itself.
 *
 * Spec: spec/002 (ARM DDI 0586A, SPE supplement), spec/004 (PMSICR_EL1 page
 * with the full access pseudocode). Where they are silent the public Arm ARM
 * (DDI 0487) supplies the rule; each such place says so. */
#ifndef ARMPROF_MODEL_H
#define ARMPROF_MODEL_H

#include "armprof/export.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "armprof/error.h"
#include "armprof/pcsr.h"
#include "armprof/pmu.h"
#include "armprof/snapshot.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------
 * Configuration: every IMPLEMENTATION DEFINED and CONSTRAINED UNPREDICTABLE
 * choice is a named field (docs/model-config.md documents each key).
 * ---------------------------------------------------------------------- */

/* SPE-3.5-13, SPE-3.5.4-1/4: how an external abort on a buffer write reaches SPE. */
enum ap_spe_ext_abort {
	AP_SPE_EA_SERROR = 0, /* not reported to SPE: an SError interrupt (PMBSR_EL1.EA RES0) */
	AP_SPE_EA_SYNC = 1,   /* management event; PMBPTR_EL1 = the aborted address */
	AP_SPE_EA_ASYNC = 2,  /* management event; PMBPTR_EL1 not the aborted address, DL = 1 */
};

/* SPE-3.6.1-2: records about to be written when an indirect read finds
 * ProfilingBufferEnabled() FALSE. */
enum ap_spe_late_disable {
	AP_SPE_LATE_WRITE = 0,         /* written to memory */
	AP_SPE_LATE_DISCARD = 1,       /* silently discarded */
	AP_SPE_LATE_DISCARD_EVENT = 2, /* discarded with a management event (SPE-3.6.1-3) */
};

/* SPE-3.4.1-1: what the PE does when software broke the write-pointer rules. */
enum ap_spe_bad_ptr {
	AP_SPE_BADPTR_WRITE = 0,       /* write records anyway (to any writeable address) */
	AP_SPE_BADPTR_FULL = 1,        /* buffer-full management event */
	AP_SPE_BADPTR_TRANSLATION = 2, /* Translation-fault management event */
};

/* The SPE engine's configuration (sampling, filtering, collection, buffer).
 * NOTE FOR THE SPE ENGINE OWNER (lib/model/spe/): add fields here for engine
 * choices not listed yet, and their keys in lib/model/spe/config_keys.c.
 * Keep each field documented with the requirement ID it answers. */
struct ap_spe_config {
	/* PMSIDR_EL1 (4.3.11, SPE-4.3.11-33): IMPLEMENTATION DEFINED fields. */
	uint8_t count_size;   /* CountSize encoding; only 0b0010 (12-bit saturating) is defined */
	uint8_t max_size;     /* MaxSize: log2 of the largest record, 4..11 */
	uint8_t interval;     /* Interval encoding: 0,2..8 = 256,512,768,1024,1536,2048,3072,4096 */
	bool ernd;            /* ERnd (SPE-2.2.1-5, 3.1.2): random part counted after the interval */
	bool lds;             /* LDS: Data Source packets implemented */
	bool arch_inst;       /* ArchInst: architecture instructions (1) or micro-ops (0) */
	/* PMBIDR_EL1 (4.3.1): IMPLEMENTATION DEFINED fields. */
	uint8_t align;        /* Align: log2 of the write-pointer alignment, 0..11 */
	bool f;               /* F: buffer writes manage the Access flag and Dirty bit */
	/* PMSEVFR_EL1 (4.3.8, SPE-4.3.8-9): which E[n] of [63:48,31:24,15:12] are
	 * implemented and filterable; the others are RES0. */
	uint64_t evfr_impdef_mask;
	/* SPE-4.3.8-18: without speculative sampling, PMSEVFR_EL1.E[1] is RES1. */
	bool speculative_sampling;
	/* SPE-4.3.2-8: log2 of the smallest implemented translation granule
	 * (12, 14 or 16); PMBLIMITR_EL1[N-1:12] are RES0. */
	uint8_t min_granule_log2;

	/* 4.2 (SPE-4.2-1): reset values of every resettable register; fields
	 * outside the register's writable mask are ignored, PMBLIMITR_EL1.E
	 * always resets to 0 (Table 8). */
	uint64_t reset_pmscr_el1, reset_pmscr_el2, reset_pmsicr_el1, reset_pmsirr_el1;
	uint64_t reset_pmsfcr_el1, reset_pmsevfr_el1, reset_pmslatfr_el1;
	uint64_t reset_pmblimitr_el1, reset_pmbptr_el1, reset_pmbsr_el1;

	/* 2.2.1 / 3.1 sampling choices. */
	bool sample_next_op;       /* SPE-2.2.1-4: sample the operation after the one reaching 0 */
	uint32_t unknown_interval; /* SPE-4.3.12-10: interval used when PMSIRR_EL1.INTERVAL == 0 */
	uint32_t max_in_flight;    /* SPE-2.2.4-1: sampled operations in flight at once, >= 1 */

	/* 3.2.3 CollectRecord CONSTRAINED UNPREDICTABLE cases: true = discard
	 * the record, false = behave as if the filter were disabled. */
	bool fe_zero_discards;     /* SPE-3.2.3-17: FE == 1, PMSEVFR_EL1 == 0 */
	bool ft_none_discards;     /* SPE-3.2.3-19: FT == 1, {B,LD,ST} == 0 */
	bool fl_zero_discards;     /* SPE-3.2.3-24: FL == 1, MINLAT == 0 */

	/* 3.4.1, 3.5, 3.6.1 buffer choices. */
	uint8_t ext_abort;         /* enum ap_spe_ext_abort */
	uint8_t late_disable;      /* enum ap_spe_late_disable */
	uint8_t bad_ptr;           /* enum ap_spe_bad_ptr */

	/* 2.3 / 5.3 record contents choices. */
	bool ts_when_timer_disabled; /* SPE-2.3-3: TS written (UNKNOWN value) if CNTEN.EN == 0 */
	bool cond_fail_target;     /* SPE-2.3.3-3: failed conditional branch keeps its target */
	bool misspeculated_written; /* SPE-2.3.5-1: records of misspeculated operations written */

	/* SPE engine choices (lib/model/spe/engine.c, docs/model-config.md). */
	bool exclude_misspeculated; /* SPE-2.2.5-1: misspeculated operations are not in the population */
	bool exclude_not_arch;     /* SPE-2.2.5-2: micro-ops of no architecture instruction are not */
	bool exclude_nonarch_exc;  /* SPE-2.2.5-3: operations with a non-architectural exception are not */
	bool ts_at_completion;     /* SPE-2.3-2: timestamp when the operation completes (else when sampled) */
	bool exception_minimal;    /* SPE-2.3.5-5: exception records hold only Events, Context, TS/End */
	bool eret_disabled_target; /* SPE-5.3.1-7: target kept for an ERET to an EL with profiling disabled */
	bool pa_on_perm_af;        /* SPE-5.3.1-10: PA kept on a Permission or Access Flag fault */
	bool ds_on_ext_abort;      /* SPE-5.3.5-2: Data Source kept on an external abort */
	bool ds_atomic_noreturn;   /* SPE-5.3.5-3: Data Source for atomics that return nothing */
	bool bad_ptr_data_loss;    /* SPE-3.4.1-1: the bad_ptr event sets PMBSR_EL1.DL */
	uint8_t record_hold;       /* 3.6: completed records held in the PE until PSB CSYNC or more
	                              records push them out (0 = written at completion) */
	uint8_t events_size;       /* SPE-5.3.7-4: Events payload bytes 1/2/4/8, 0 = smallest that fits */
};

/* SPE after v1 (docs/requirements-later.md): the PMSVer value and the
 * optional features Linux 7.x drives. Kept apart from struct ap_spe_config
 * and at the end of struct ap_config so an older caller's smaller struct
 * still lines up (its size stops before this). The defaults are SPEv1 with
 * none of them: the model behaves exactly as before. */
enum ap_spe_version {
	AP_SPE_V1 = 1,   /* FEAT_SPE (ID_AA64DFR0_EL1.PMSVer 0b0001) */
	AP_SPE_V1P1 = 2, /* FEAT_SPEv1p1 */
	AP_SPE_V1P2 = 3, /* FEAT_SPEv1p2: PMSNEVFR_EL1, PMSFCR_EL1.FnE, discard mode */
	AP_SPE_V1P3 = 4, /* FEAT_SPEv1p3 */
	AP_SPE_V1P4 = 5, /* FEAT_SPEv1p4: more filterable events */
	AP_SPE_V1P5 = 6, /* FEAT_SPEv1p5 */
};
struct ap_spe_later_config {
	uint8_t version; /* enum ap_spe_version: ID_AA64DFR0_EL1.PMSVer (LATER-VER-1) */
	bool fne;        /* FEAT_SPE_FnE: PMSNEVFR_EL1, PMSFCR_EL1.FnE (LATER-FNE-*) */
	bool fds;        /* FEAT_SPE_FDS: PMSDSFR_EL1, PMSFCR_EL1.FDS (LATER-FDS-*) */
	bool eft;        /* FEAT_SPE_EFT: PMSFCR_EL1.{SIMD,FP} and the *m masks (LATER-EFT-*) */
	bool crr;        /* FEAT_SPE_CRR: call/return branch subclasses (LATER-CRR-*) */
	bool pbt;        /* FEAT_SPE_PBT: previous-branch-target Address packets (LATER-PBT-*) */
	bool fpf;        /* FEAT_SPE_FPF: PMSIDR_EL1.FPF (ID only in the model) */
	bool sme;        /* FEAT_SPE_SME: PMSIDR_EL1.SME, events E[24], E[25] filterable */
	/* CONSTRAINED UNPREDICTABLE (Unpredictable_BADPMSFCR in DDI 0487
	 * SPEFilterByEvents): 1 = discard the record, 0 = as if not set. */
	bool fne_zero_discards;    /* PMSFCR_EL1.FnE == 1 with PMSNEVFR_EL1 == 0 (LATER-FNE-5) */
	bool fne_overlap_discards; /* FE and FnE both select an event (LATER-FNE-6) */
};

/* The whole model configuration. Starts with its size so it can grow:
 * callers set size = sizeof(struct ap_config) (ap_config_init() does). */
struct ap_config {
	size_t size;

	/* Features and Exception levels (IMPLEMENTATION DEFINED). */
	bool have_el2;       /* EL2 implemented */
	bool have_el3;       /* EL3 implemented */
	bool have_spe;       /* FEAT_SPE: without it every SPE register is UNDEFINED */
	bool have_vhe;       /* FEAT_VHE: HCR_EL2.E2H and PMSCR_EL12 (SPE-4.3.6-6) */
	bool have_fgt;       /* FEAT_FGT: HDFGRTR_EL2/HDFGWTR_EL2 (DDI 0487) */
	bool have_sel2;      /* FEAT_SEL2: EL2 can be enabled in Secure state */
	bool have_nv2;       /* FEAT_NV2: EL1 accesses redirected to memory (spec/004) */
	bool have_rme;       /* FEAT_RME: Realm and Root states (SCR_EL3.NSE) */
	uint8_t aarch32_els; /* bit n: ELn can use AArch32 (Neoverse N1: EL0 only) */

	/* PMSICR-19: boolean IMPLEMENTATION_DEFINED "EL3 trap priority when
	 * SDD == '1'": the Halted()/EDSCR.SDD UNDEFINED checks come first. */
	bool el3_trap_priority_sdd;

	/* Seed of the model's PRNG (SPE-2.2.2-1): same config+seed+inputs give
	 * byte-identical output. */
	uint64_t seed;

	struct ap_spe_config spe;

	/* PMU, PC Sample-based Profiling, PMU snapshots (pmu.*, pcsr.*,
	 * snapshot.* keys; include/armprof/{pmu,pcsr,snapshot}.h). */
	struct ap_pmu_config pmu;
	struct ap_pcsr_config pcsr;
	struct ap_snapshot_config snapshot;

	/* spe.version, spe.fds, ...: SPE after v1 (kept last, see above). */
	struct ap_spe_later_config spe_later;
};

/* Fill *cfg with a Neoverse-N1-like implementation (docs/model-config.md). */
AP_API void ap_config_init(struct ap_config *cfg);
/* Set the SPE version and features of a named CPU (docs/model-config.md
 * "SPE presets"): "neoverse-n1" (the default, SPEv1), "neoverse-v1",
 * "neoverse-n2", "neoverse-v2", "max" (SPEv1p5 with every feature).
 * -AP_ERR_INVALID and a message listing the names for another name. */
AP_API int ap_config_spe_preset(struct ap_config *cfg, const char *name, struct ap_error_ctx *err);
/* ID_AA64DFR0_EL1.PMSVer [35:32] of the configuration: 0 without SPE,
 * else the version (LATER-VER-1). The model has no ID_AA64DFR0_EL1 of its
 * own: a host puts this value in its register. */
AP_API unsigned ap_config_pmsver(const struct ap_config *cfg);

/* Set one configuration field by its key ("have_el2", "spe.max_size", ...)
 * from text ("1", "true", a number as ap_parse_u64() reads it
 * (include/armprof/number.h), an enum name). On failure returns a
 * negative ap_error and writes a message naming the key and the accepted
 * values to err (which may be NULL). */
AP_API int ap_config_set(struct ap_config *cfg, const char *key, const char *value,
                         struct ap_error_ctx *err);
/* Read one field back as text ("1", "0x40", an enum name). */
AP_API int ap_config_get(const struct ap_config *cfg, const char *key, char *buf, size_t len);
/* Enumerate the keys (for documentation and --help): NULL past the end. */
AP_API const char *ap_config_key_name(size_t index);
AP_API const char *ap_config_key_doc(size_t index);
/* Check the whole configuration for consistency (e.g. max_size range). */
AP_API int ap_config_validate(const struct ap_config *cfg, struct ap_error_ctx *err);

/* ------------------------------------------------------------------------
 * PE state: what the extensions read. Set by the host.
 * ---------------------------------------------------------------------- */

enum ap_el { AP_EL0 = 0, AP_EL1 = 1, AP_EL2 = 2, AP_EL3 = 3 };

enum ap_security {
	AP_SS_SECURE = 0,
	AP_SS_NONSECURE = 1,
	AP_SS_ROOT = 2,  /* FEAT_RME: EL3 */
	AP_SS_REALM = 3, /* FEAT_RME: SCR_EL3.{NSE,NS} == {1,1} */
};

/* Controls are held as whole registers (the Arm ARM layouts below), so a host
 * can copy its own register values in; ap_pe_state_set_field() sets one field
 * by its spec name ("mdcr_el2.e2pb"). Without EL3, scr_el3.NS holds the PE's
 * fixed Security state (the value the pseudocode's SCR_EL3.NS reads). */
struct ap_pe_state {
	size_t size;

	uint8_t el;          /* PSTATE.EL, enum ap_el */
	uint8_t aarch32;     /* bit n: ELn is using AArch32 (ELUsingAArch32) */
	bool halted;         /* Debug state: Halted() */

	uint64_t hcr_el2;    /* TGE [27], E2H [34], NV [42], NV1 [43], NV2 [45] */
	uint64_t mdcr_el2;   /* HPMN [4:0], TPM [6], HPME [7], E2PB [13:12], TPMS [14], HPMD [17], PMSSE [31:30] */
	uint64_t mdcr_el3;   /* NSPB [13:12], SDD [16], SPME [17], SCCD [23], MCCD [34], MPMX [35], EnPMS3 [42] */
	uint64_t scr_el3;    /* NS [0], EEL2 [18], FGTEn [27], NSE [62] */
	uint64_t hdfgrtr_el2; /* fine-grained read traps (FEAT_FGT), DDI 0487 layout */
	uint64_t hdfgwtr_el2; /* fine-grained write traps (FEAT_FGT), DDI 0487 layout */
	uint64_t edscr;      /* SDD [16] (external debug view, read with Halted()) */
	uint64_t vncr_el2;   /* FEAT_NV2 base of the redirected registers */

	/* Context the records and samples carry. */
	uint64_t contextidr_el1;
	uint64_t contextidr_el2;
	uint16_t vmid;       /* VTTBR_EL2.VMID */

	/* Debug and power inputs (PC sampling, snapshots). */
	bool os_lock;        /* OSLSR_EL1.OSLK: OS Lock locked */
	bool os_double_lock; /* OSDLR_EL1.DLK */
	bool core_powered;   /* Core power domain on */
	bool timer_enabled;  /* CNTCR.EN of the system counter (SPE-2.3-3) */
	/* Authentication interface (IMPLEMENTATION DEFINED signals). */
	bool ext_noninvasive;        /* ExternalNoninvasiveDebugEnabled() */
	bool ext_secure_noninvasive; /* ExternalSecureNoninvasiveDebugEnabled() */
	bool ext_realm_noninvasive;  /* ExternalRealmNoninvasiveDebugEnabled() */
	bool ext_root_noninvasive;   /* ExternalRootNoninvasiveDebugEnabled() */
	uint64_t sder32_el3; /* SUNIDEN [1] (SDER.SUNIDEN, PC sampling H7.1.1) */
	bool tstate;         /* FEAT_TME Transactional state (PMPCSR.T) */
	bool brbe_freeze;    /* BRBE would freeze on a PMU snapshot (BRBCR_ELx.FZPSS, ...) */
};

/* Field positions used above (Arm ARM, DDI 0487). */
#define AP_HCR_EL2_TGE 27
#define AP_HCR_EL2_E2H 34
#define AP_HCR_EL2_NV 42
#define AP_HCR_EL2_NV1 43
#define AP_HCR_EL2_NV2 45
#define AP_MDCR_EL2_E2PB 12 /* 2 bits */
#define AP_MDCR_EL2_TPMS 14
#define AP_MDCR_EL3_NSPB 12 /* 2 bits */
#define AP_MDCR_EL3_ENPMS3 42 /* FEAT_SPE_FDS: 0 traps PMSDSFR_EL1 to EL3 */
#define AP_HDFGxTR_EL2_NPMSNEVFR 62 /* FEAT_SPEv1p2 + FEAT_FGT: 0 traps PMSNEVFR_EL1 */
#define AP_SCR_EL3_NS 0
#define AP_SCR_EL3_EEL2 18
#define AP_SCR_EL3_FGTEN 27
#define AP_SCR_EL3_NSE 62
#define AP_EDSCR_SDD 16

/* A state at reset: EL1 Non-secure AArch64, every control 0 except
 * MDCR_EL3.NSPB = 0b11 and MDCR_EL2.E2PB = 0b11 (buffer owned by NS EL1),
 * core powered, timer enabled, authentication signals TRUE. */
AP_API void ap_pe_state_init(struct ap_pe_state *st);
/* Set a field by spec name: "el", "ns", "tge", "e2h", "debug", "aarch32"
 * (shorthands), "mdcr_el2.e2pb", "scr_el3.fgten", "hdfgrtr_el2.pmsicr_el1",
 * whole registers "mdcr_el2", ... Returns a negative ap_error on an unknown
 * name or a value that does not fit the field. */
AP_API int ap_pe_state_set_field(struct ap_pe_state *st, const char *name, uint64_t value);
AP_API int ap_pe_state_get_field(const struct ap_pe_state *st, const char *name, uint64_t *value);

/* ------------------------------------------------------------------------
 * Host callbacks.
 * ---------------------------------------------------------------------- */

/* What went wrong with a buffer write (Table 6, 3.5.3, 3.5.4, PMBSR_EL1.MSS.FSC). */
enum ap_mem_fault_kind {
	AP_MEMF_NONE = 0,
	AP_MEMF_ADDRESS_SIZE,
	AP_MEMF_TRANSLATION,
	AP_MEMF_ACCESS_FLAG,
	AP_MEMF_PERMISSION,
	AP_MEMF_ALIGNMENT,
	AP_MEMF_TLB_CONFLICT,
	AP_MEMF_UNSUPPORTED_ACCESS,
	AP_MEMF_EXT_ABORT,      /* external abort on the write itself */
	AP_MEMF_EXT_ABORT_WALK, /* external abort on a table walk or table update */
};
struct ap_mem_fault {
	uint8_t kind;   /* enum ap_mem_fault_kind */
	uint8_t stage;  /* 1 or 2 */
	uint8_t level;  /* translation level, 0..3, where the FSC has one */
	uint64_t va;    /* first byte not written */
};

struct ap_host {
	void *ctx;
	/* Write len bytes of profile data at virtual address va in the owning
	 * translation regime. Returns 0 when every byte was written; otherwise
	 * fills *fault (va = first byte not written) and returns non-zero. */
	int (*buffer_write)(void *ctx, uint64_t va, const uint8_t *bytes, size_t len,
	                    struct ap_mem_fault *fault);
	uint64_t (*cntpct)(void *ctx); /* CNTPCT_EL0 */
	uint64_t (*cntvct)(void *ctx); /* CNTVCT_EL0 as the current EL would read it */
	void (*pmbirq)(void *ctx, int level);     /* PMBIRQ level changed (3.5) */
	void (*cti_trigger)(void *ctx, unsigned trigger); /* CTI trigger pulse (2.7: trigger 2) */
	/* FEAT_NV2: EL1 accesses redirected to memory at VNCR_EL2 + offset. */
	int (*nvmem_read)(void *ctx, uint64_t addr, uint64_t *value);
	int (*nvmem_write)(void *ctx, uint64_t addr, uint64_t value);
};

/* ------------------------------------------------------------------------
 * The PE.
 * ---------------------------------------------------------------------- */

struct ap_pe;

/* Create a PE from cfg (copied; cfg->size may be smaller for an older
 * caller) and host (copied; NULL callbacks are treated as absent: writes
 * fault, time reads 0). The PE starts reset, in the ap_pe_state_init state. */
AP_API int ap_pe_create(const struct ap_config *cfg, const struct ap_host *host,
                        struct ap_pe **out, struct ap_error_ctx *err);
AP_API void ap_pe_destroy(struct ap_pe *pe);
/* Warm reset: every register to its configured reset value (4.2). */
AP_API void ap_pe_reset(struct ap_pe *pe);
AP_API const struct ap_config *ap_pe_config(const struct ap_pe *pe);

/* Replace the PE state; returns -AP_ERR_INVALID (state unchanged) if it is
 * impossible for this configuration: an EL that is not implemented, AArch32
 * where not supported or below an AArch64 EL, HCR_EL2.E2H without FEAT_VHE,
 * Secure EL2 without FEAT_SEL2 and SCR_EL3.EEL2, Non-secure EL1 with
 * HCR_EL2.TGE == 1 (not enterable; Table 3 "n/a"), SCR_EL3.{NSE,NS} = {1,0}
 * below EL3. Each extension is told of the change (its state hook).
 * ap_pe_get_state copies st->size bytes (0 = sizeof(struct ap_pe_state)). */
AP_API int ap_pe_set_state(struct ap_pe *pe, const struct ap_pe_state *st);
AP_API void ap_pe_get_state(const struct ap_pe *pe, struct ap_pe_state *st);
/* The Security state the PE is in (IsSecure(), Realm/Root with FEAT_RME). */
AP_API enum ap_security ap_pe_security(const struct ap_pe *pe);

/* ------------------------------------------------------------------------
 * System registers.
 *
 * A register is named by its encoding (op0, op1, CRn, CRm, op2) packed by
 * AP_SYSREG(). A direct access returns the outcome of the register's access
 * pseudocode; the value side effects happen only when it is AP_ACCESS_OK.
 * Registers of every extension live in one table (lib/model/sysreg.h
 * describes how an extension adds its own).
 * ---------------------------------------------------------------------- */

#define AP_SYSREG(op0, op1, crn, crm, op2) \
	((uint32_t)(((op0) & 3u) << 14 | ((op1) & 7u) << 11 | ((crn) & 15u) << 7 | ((crm) & 15u) << 3 | ((op2) & 7u)))
#define AP_SYSREG_OP0(e) (((e) >> 14) & 3u)
#define AP_SYSREG_OP1(e) (((e) >> 11) & 7u)
#define AP_SYSREG_CRN(e) (((e) >> 7) & 15u)
#define AP_SYSREG_CRM(e) (((e) >> 3) & 15u)
#define AP_SYSREG_OP2(e) ((e) & 7u)

/* The SPE registers (Table 7). */
#define AP_PMSCR_EL1 AP_SYSREG(3, 0, 9, 9, 0)
#define AP_PMSICR_EL1 AP_SYSREG(3, 0, 9, 9, 2)
#define AP_PMSIRR_EL1 AP_SYSREG(3, 0, 9, 9, 3)
#define AP_PMSFCR_EL1 AP_SYSREG(3, 0, 9, 9, 4)
#define AP_PMSEVFR_EL1 AP_SYSREG(3, 0, 9, 9, 5)
#define AP_PMSLATFR_EL1 AP_SYSREG(3, 0, 9, 9, 6)
#define AP_PMSIDR_EL1 AP_SYSREG(3, 0, 9, 9, 7)
#define AP_PMBLIMITR_EL1 AP_SYSREG(3, 0, 9, 10, 0)
#define AP_PMBPTR_EL1 AP_SYSREG(3, 0, 9, 10, 1)
#define AP_PMBSR_EL1 AP_SYSREG(3, 0, 9, 10, 3)
#define AP_PMBIDR_EL1 AP_SYSREG(3, 0, 9, 10, 7)
#define AP_PMSCR_EL2 AP_SYSREG(3, 4, 9, 9, 0)
#define AP_PMSCR_EL12 AP_SYSREG(3, 5, 9, 9, 0)
/* After SPEv1 (docs/requirements-later.md, Linux arch/arm64/tools/sysreg). */
#define AP_PMSNEVFR_EL1 AP_SYSREG(3, 0, 9, 9, 1) /* FEAT_SPEv1p2 */
#define AP_PMSDSFR_EL1 AP_SYSREG(3, 0, 9, 10, 4) /* FEAT_SPE_FDS */

/* The outcome of a direct access (SysRegAccess in 3.2.3 / 3.4.6). */
enum ap_access {
	AP_ACCESS_OK = 0,
	AP_ACCESS_UNDEFINED = 1,
	AP_ACCESS_TRAP_EL1 = 2,
	AP_ACCESS_TRAP_EL2 = 3, /* AArch64.SystemAccessTrap(EL2, 0x18) */
	AP_ACCESS_TRAP_EL3 = 4, /* AArch64.SystemAccessTrap(EL3, 0x18) */
};
/* Exception class of a trapped MSR/MRS (ESR_ELx.EC). */
#define AP_EC_SYSREG_TRAP 0x18u
/* ISS of ESR_ELx for a trapped MSR/MRS of reg with general-purpose register
 * Rt (DDI 0487, EC 0x18: Op0 [21:20], Op2 [19:17], Op1 [16:14], CRn [13:10],
 * Rt [9:5], CRm [4:1], Direction [0] = 1 for MRS). PMSICR-50. */
AP_API uint32_t ap_sysreg_trap_iss(uint32_t reg, unsigned rt, bool read);
/* "OK", "UNDEFINED", "TRAP EL1", "TRAP EL2", "TRAP EL3". */
AP_API const char *ap_access_name(enum ap_access a);

/* MRS/MSR from the current PE state. Return a non-negative enum ap_access,
 * or -AP_ERR_INVALID when no register of the model has this encoding (an
 * emulator then applies its own rule; in this encoding space DDI 0487 makes
 * it UNDEFINED, SPE-4.1-2). *value is written only when the result is
 * AP_ACCESS_OK. An MSR to a read-only register is UNDEFINED. */
AP_API int ap_pe_mrs(struct ap_pe *pe, uint32_t reg, uint64_t *value);
AP_API int ap_pe_msr(struct ap_pe *pe, uint32_t reg, uint64_t value);
/* The outcome an MRS (write = false) or MSR (write = true) would have now,
 * without performing it. Same return convention as ap_pe_mrs(). */
AP_API int ap_pe_check_access(const struct ap_pe *pe, uint32_t reg, bool write);

/* Name <-> encoding. ap_sysreg_lookup() accepts a register name of any
 * extension (case-insensitive) or the generic form "S3_0_C9_C9_0". */
AP_API int ap_sysreg_lookup(const char *name, uint32_t *reg);
/* The register's name, or NULL if no register has this encoding. */
AP_API const char *ap_sysreg_name(uint32_t reg);
/* The index-th register of the model (every extension, table order):
 * 0 and *reg set, or -AP_ERR_INVALID past the last one. */
AP_API int ap_sysreg_enum(size_t index, uint32_t *reg);

/* Raw register value without an access check or side effect (for hosts,
 * save/restore and tests): -AP_ERR_INVALID for an unknown register. */
AP_API int ap_pe_peek(const struct ap_pe *pe, uint32_t reg, uint64_t *value);
AP_API int ap_pe_poke(struct ap_pe *pe, uint32_t reg, uint64_t value);

/* ------------------------------------------------------------------------
 * SPE enabling and ownership (3.2.1 Table 3, 3.4.2 Table 5, 3.2.3, 3.4.6).
 * ---------------------------------------------------------------------- */

struct ap_spe_owner {
	bool secure;   /* owning Security state */
	uint8_t el;    /* owning Exception level: AP_EL1 or AP_EL2 */
};
/* ProfilingBufferOwner() */
AP_API struct ap_spe_owner ap_spe_buffer_owner(const struct ap_pe *pe);
/* ProfilingBufferEnabled() */
AP_API bool ap_spe_buffer_enabled(const struct ap_pe *pe);
/* StatisticalProfilingEnabled(), including "disabled in Debug state" (3.2.1). */
AP_API bool ap_spe_profiling_enabled(const struct ap_pe *pe);

#ifdef __cplusplus
}
#endif
#endif
