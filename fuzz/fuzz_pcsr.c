/* Fuzz target: PC sampling, PMU snapshots and the PMU through the PE API.
 * The first bytes choose a configuration (some are forbidden and must be
 * rejected cleanly); the rest is a sequence of operations: retire
 * instructions, change the PE state, external reads and writes of any
 * offset and size (valid or not), MSR/MRS of the PMU and snapshot
 * registers, snapshot requests, events and cycles. Checked: no crash, no
 * sanitizer report, outcomes within their enums, RES0/ERROR reads return 0,
 * and PMPCSR[31:0] reads either a retired address or 0xFFFFFFFF. */
#include <stdbool.h>
#include <string.h>

#include "armprof/extregs.h"
#include "armprof/model.h"
#include "fuzz.h"

struct in {
	const uint8_t *p;
	size_t n;
};

static unsigned byte(struct in *in)
{
	if (!in->n)
		return 0;
	in->n--;
	return *in->p++;
}

static uint64_t u64(struct in *in, unsigned bytes)
{
	uint64_t v = 0;
	for (unsigned i = 0; i < bytes; i++)
		v = v << 8 | byte(in);
	return v;
}

static const char *const regs[] = {
	"PMCR_EL0", "PMCNTENSET_EL0", "PMCNTENCLR_EL0", "PMOVSSET_EL0", "PMOVSCLR_EL0", "PMUSERENR_EL0",
	"PMCCNTR_EL0", "PMICNTR_EL0", "PMEVCNTR0_EL0", "PMEVCNTR5_EL0", "PMEVCNTR30_EL0", "PMEVTYPER0_EL0",
	"PMEVTYPER2_EL0", "PMSSCR_EL1", "PMECR_EL1", "PMCCNTSVR_EL1", "PMICNTSVR_EL1", "PMEVCNTSVR0_EL1",
	"PMEVCNTSVR7_EL1",
};

static const char *const fields[] = {
	"el", "ns", "debug", "oslk", "dlk", "powered", "auth.niden", "auth.spniden", "mdcr_el3.pmsse",
	"mdcr_el2.pmsse", "mdcr_el3.enpmss", "mdcr_el3.epmssad", "mdcr_el3.enpm2", "mdcr_el2.hpmn",
	"mdcr_el2.tpm", "mdcr_el3.tpm", "edscr.sc2", "sder.suniden", "tstate", "brbe_freeze",
	"contextidr_el1", "vmid", "aarch32", "tge", "e2h",
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct in in = { data, size };
	struct ap_config cfg;
	ap_config_init(&cfg);
	unsigned c = byte(&in), d = byte(&in);
	cfg.pcsr.feat_pcsrv8 = c & 1;
	cfg.pcsr.feat_pcsrv8p2 = (c >> 1) & 1;
	cfg.pcsr.feat_pcsrv8p9 = (c >> 2) & 1;
	cfg.pcsr.pmu_ext = (uint8_t)((c >> 3) % 3);
	cfg.snapshot.feat_pmuv3_ss = (c >> 5) & 1;
	cfg.pcsr.pmpcsctl_imp = (c >> 6) & 1;
	cfg.pcsr.atomic64 = (c >> 7) & 1;
	cfg.pcsr.sample_any = d & 1;
	cfg.pcsr.unknown = (d >> 1) & 1;
	cfg.pcsr.reset_suspended = (d >> 2) & 1;
	cfg.pcsr.arch_minor = (uint8_t)((d >> 3) & 7);
	cfg.pmu.num_counters = (uint8_t)(byte(&in) % 32);
	cfg.pmu.icntr = (d >> 6) & 1;
	cfg.snapshot.capture_delay = (d >> 7) ? 2 : 0;
	cfg.have_rme = byte(&in) & 1;
	struct ap_pe *pe = NULL;
	struct ap_error_ctx err;
	if (ap_pe_create(&cfg, NULL, &pe, &err) < 0)
		return 0; /* a forbidden configuration, rejected */
	uint64_t last_target = 0;
	bool any_target = false;
	while (in.n) {
		unsigned op = byte(&in) % 8;
		switch (op) {
		case 0: { /* retire */
			uint64_t pc = u64(&in, 3) << 2;
			bool t = byte(&in) & 1;
			ap_pe_retire(pe, pc, t);
			if (t || cfg.pcsr.sample_any) {
				last_target = pc;
				any_target = true;
			}
			break;
		}
		case 1: { /* state */
			struct ap_pe_state st;
			st.size = sizeof(st);
			ap_pe_get_state(pe, &st);
			const char *f = fields[byte(&in) % (sizeof(fields) / sizeof(fields[0]))];
			if (ap_pe_state_set_field(&st, f, u64(&in, 1)) == 0)
				ap_pe_set_state(pe, &st); /* impossible states are refused */
			break;
		}
		case 2:
		case 3: { /* external access */
			struct ap_ext_access a;
			a.space = (byte(&in) & 1) ? AP_EXT_DEBUG : AP_EXT_PMU;
			a.offset = (uint32_t)u64(&in, 2) & 0x1fff;
			a.size = byte(&in) % 9;
			a.memory_mapped = byte(&in) & 1;
			uint64_t v = 0x1234;
			int rc = op == 2 ? ap_pe_ext_read(pe, &a, &v) : ap_pe_ext_write(pe, &a, u64(&in, 8));
			if (rc != -AP_ERR_INVALID && (rc < 0 || rc > AP_EXT_ERROR))
				__builtin_trap();
			if (op == 2 && (rc == AP_EXT_RES0 || rc == AP_EXT_ERROR) && v != 0)
				__builtin_trap();
			if (op == 2 && rc == AP_EXT_OK && a.space == AP_EXT_PMU && (a.offset & ~0x20u) == 0x200 &&
			    cfg.pcsr.feat_pcsrv8p2 && !cfg.snapshot.feat_pmuv3_ss && cfg.pcsr.unknown == 0) {
				uint32_t lo = (uint32_t)v;
				if (lo != 0xffffffffu && (!any_target || lo != (uint32_t)last_target))
					__builtin_trap(); /* only the last sampleable address, or all-ones */
			}
			break;
		}
		case 4:
		case 5: { /* MSR / MRS */
			uint32_t r;
			if (ap_sysreg_lookup(regs[byte(&in) % (sizeof(regs) / sizeof(regs[0]))], &r) == 0) {
				uint64_t v = u64(&in, 8);
				int rc = op == 4 ? ap_pe_msr(pe, r, v) : ap_pe_mrs(pe, r, &v);
				if (rc < 0 || rc > AP_ACCESS_TRAP_EL3)
					__builtin_trap();
			}
			break;
		}
		case 6:
			ap_pe_snapshot_request(pe);
			break;
		default:
			ap_pe_pmu_event(pe, (uint16_t)u64(&in, 2), byte(&in));
			ap_pe_cycles(pe, byte(&in));
			break;
		}
	}
	ap_pe_destroy(pe);
	return 0;
}
