/* `armprof system --pc-sample` and `--snapshot-every`: the raw files QEMU's
 * agents (system/qemu, hw/arm/armprof-pcs-agent.c and armprof-ss-agent.c)
 * append to, read without I/O or allocation (the fuzz target fuzz_pcs_raw
 * drives both readers).
 *
 * The PC-sampling agent's file: *
 * The file (little-endian):
 *   header, 32 bytes: "APPCSRAW", u32 version (1), u32 number of vCPUs,
 *                     u64 period in ns of guest time, u32 layout (0
 *                     FEAT_PMUv3_EXT64, 1 a 32-bit PMU frame, 2 FEAT_PCSRv8's
 *                     debug frame), u32 0
 *   record, 40 bytes: u64 guest time in ns, u32 vCPU, u32 status (bit 0: a
 *                     read got an error response), u64 PC sample
 *                     (PMPCSR[63:0]), u64 CONTEXTIDR_EL1 [31:0] and
 *                     CONTEXTIDR_EL2 [63:32] samples (PMCCIDSR), u64 VMID
 *                     sample (PMVCIDSR: VMID at [47:32]) */
#ifndef ARMPROF_TOOL_SYSTEM_PCS_RAW_H
#define ARMPROF_TOOL_SYSTEM_PCS_RAW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PCS_RAW_HEADER 32
#define PCS_RAW_RECORD 40

struct pcs_raw {
	const uint8_t *buf;
	size_t len, pos;
	uint32_t ncpus, layout;
	uint64_t period_ns;
};

/* What one read of one vCPU's frame gave. */
enum pcs_kind {
	PCS_SAMPLE = 0,    /* a PC sample */
	PCS_NO_SAMPLE = 1, /* PMPCSR[31:0] = 0xFFFFFFFF: prohibited, Debug state, the
	                      activating read, or no sample yet (H7.1.3) */
	PCS_ERROR = 2,     /* an error response (OS Lock, powered down, ...) */
};

struct pcs_record {
	uint64_t time_ns;
	uint32_t cpu;
	enum pcs_kind kind;
	uint64_t pmpcsr;
	uint64_t pc;       /* PCSample[55:0] sign-extended from bit 55 */
	unsigned el;       /* PMPCSR.EL [62:61] */
	bool ns;           /* PMPCSR.NS [63] */
	uint32_t contextidr_el1, contextidr_el2;
	uint16_t vmid;
};

/* Checks the header. Returns 0, or -1 with the reason (and its offset) in err. */
int pcs_raw_open(struct pcs_raw *r, const uint8_t *buf, size_t len, char *err, size_t errlen);
/* The next record: 1 and *out, 0 at the end, -1 with the reason in err
 * (a truncated record, a vCPU beyond the header's count). */
int pcs_raw_next(struct pcs_raw *r, struct pcs_record *out, char *err, size_t errlen);

/* The snapshot agent's file:
 *   header, 32 bytes: "APSSRAW1", u32 version (1), u32 number of vCPUs,
 *                     u64 period in ns, u32 event counters N (at most 31), u32 0
 *   record, 32 + 8N bytes: u64 guest time in ns, u32 vCPU, u32 status (bit 0:
 *                     a read got an error response, bit 1: the request
 *                     started no Capture event), u64 PMSSCR, u64 PMCCNTSVR,
 *                     u64 PMEVCNTSVR<n> for n < N */
#define SS_RAW_MAX_COUNTERS 31

struct ss_raw {
	const uint8_t *buf;
	size_t len, pos;
	uint32_t ncpus, counters;
	uint64_t period_ns;
};

struct ss_record {
	uint64_t time_ns;
	uint32_t cpu;
	bool error;     /* a read got an error response */
	bool captured;  /* the request started a Capture event */
	uint64_t pmsscr, ccntsvr;
	uint64_t evcntsvr[SS_RAW_MAX_COUNTERS];
};

int ss_raw_open(struct ss_raw *r, const uint8_t *buf, size_t len, char *err, size_t errlen);
int ss_raw_next(struct ss_raw *r, struct ss_record *out, char *err, size_t errlen);

#endif
