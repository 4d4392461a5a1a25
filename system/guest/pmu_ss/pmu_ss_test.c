// SPDX-License-Identifier: GPL-2.0
/*
 * PMU snapshots from guest software (FEAT_PMUv3_SS, DDI 0487 D13.9), run at
 * EL1 by loading this module in an `armprof system` guest whose CPUs have
 * snapshot.feat_pmuv3_ss=1 (tests/system_pcs/system_ss_guest.sh reads its
 * lines from the kernel log).
 *
 * With the kernel at EL2 (VHE: armprof system --el2) it first sets
 * MDCR_EL2.PMSSE to 0b11, 0b00, 0b10 ("pmsse N" lines), then 0b01.
 *
 * On the CPU it loads on, with preemption off: counter 0 counts CPU_CYCLES
 * (0x11), counter 1 INST_RETIRED (0x08), and the cycle counter runs. Then,
 * for each PMECR_EL1.SSE (Table D13-10 without EL2 and EL3: MDCR_EL3.PMSSE
 * and MDCR_EL2.PMSSE act as 0b01, so SSE decides), a write of 1 to
 * PMSSCR_EL1.SS, a poll of SS until 0 (Example D13-8), and the saved values
 * against the live counters read around it; once with the counters stopped
 * (the saved values must equal the live ones) and once running (the live
 * ones keep counting). selftest=0 leaves this out. Every result is one "armprof-ss:" line.
 *
 * allow_external=1 then leaves every CPU ready for the host's external
 * snapshot requests (`armprof system --snapshot-every`): PMECR_EL1.SSE =
 * 0b11 (Capture events allowed), counters 0 and 1 and the cycle counter
 * counting at EL0 and EL1.
 * Register encodings are DDI 0487's (the assembler does not know them).
 */
#include <linux/module.h>
#include <linux/preempt.h>
#include <linux/smp.h>
#include <asm/sysreg.h>
#include <asm/virt.h>

#define PMSSCR_EL1 sys_reg(3, 0, 9, 13, 3)
#define PMECR_EL1 sys_reg(3, 0, 9, 14, 5)
#define PMCCNTSVR_EL1 sys_reg(2, 0, 14, 11, 7)
#define PMEVCNTSVR0_EL1 sys_reg(2, 0, 14, 8, 0)
#define PMEVCNTSVR1_EL1 sys_reg(2, 0, 14, 8, 1)

struct counters {
	u64 ev0, ev1, cc;
};

static void live(struct counters *c)
{
	isb();
	c->ev0 = read_sysreg(pmevcntr0_el0);
	c->ev1 = read_sysreg(pmevcntr1_el0);
	c->cc = read_sysreg(pmccntr_el0);
}

static void saved(struct counters *c)
{
	c->ev0 = read_sysreg_s(PMEVCNTSVR0_EL1);
	c->ev1 = read_sysreg_s(PMEVCNTSVR1_EL1);
	c->cc = read_sysreg_s(PMCCNTSVR_EL1);
}

/* A write of 1 to PMSSCR_EL1.SS, then SS polled until 0 (bounded). */
static u64 capture(unsigned *polls)
{
	u64 v;

	write_sysreg_s(1, PMSSCR_EL1);
	isb();
	for (*polls = 0; *polls < 1000000; (*polls)++) {
		v = read_sysreg_s(PMSSCR_EL1);
		if (!(v & 1))
			break;
	}
	return v;
}

static bool selftest = true;
module_param(selftest, bool, 0444);
MODULE_PARM_DESC(selftest, "run the captures on the loading CPU (default 1)");

static bool allow_external;
module_param(allow_external, bool, 0444);
MODULE_PARM_DESC(allow_external, "leave Capture events allowed and the counters running on every CPU");

/* PMEVTYPER<n>_EL0/PMCCFILTR_EL0.NSH [27]: count at EL2 too, where a VHE
 * kernel (-M virt,virtualization=on) runs. */
static u64 filter(void)
{
	return is_kernel_in_hyp_mode() ? BIT(27) : 0;
}

static void counters_on(void *unused)
{
	write_sysreg(filter() | 0x11, pmevtyper0_el0);
	write_sysreg(filter() | 0x08, pmevtyper1_el0);
	write_sysreg(filter(), pmccfiltr_el0);
	write_sysreg(BIT(31) | 3, pmcntenset_el0);
	write_sysreg(read_sysreg(pmcr_el0) | 1, pmcr_el0);
	write_sysreg_s(3 << 3, PMECR_EL1);
	isb();
}

static void busy(unsigned n)
{
	volatile unsigned i;

	for (i = 0; i < n; i++)
		;
}

/* One row of Table D13-10 with the counters stopped: PMECR_EL1.SSE = sse,
 * a capture, the saved values against the live ones and those before. */
static void row(const char *what, unsigned value, unsigned sse)
{
	struct counters before, a, s;
	unsigned polls;
	u64 v;

	saved(&before);
	write_sysreg_s((u64)sse << 3, PMECR_EL1);
	busy(1000);
	write_sysreg(BIT(31) | 3, pmcntenclr_el0);
	live(&a);
	v = capture(&polls);
	saved(&s);
	write_sysreg(BIT(31) | 3, pmcntenset_el0);
	pr_info("armprof-ss: %s %u pmsscr 0x%llx polls %u live %llu %llu %llu saved %llu %llu %llu "
		"before %llu %llu %llu\n", what, value, v, polls, a.ev0, a.ev1, a.cc, s.ev0, s.ev1, s.cc,
		before.ev0, before.ev1, before.cc);
}

static int __init pmu_ss_test_init(void)
{
	/* Allowed first, so that NC = 0 tells a disabled row (the write is
	 * ignored, SS-RMFJWS) from a prohibited one ({NC,SS} = {1,0}). */
	static const unsigned sse[] = { 3, 0, 2 };
	struct counters a, s, b;
	unsigned polls, i;

	u64 dfr0 = read_sysreg(id_aa64dfr0_el1), v;

	preempt_disable();
	pr_info("armprof-ss: cpu %d el %d id_aa64dfr0 0x%llx pmss %llu\n", smp_processor_id(),
		is_kernel_in_hyp_mode() ? 2 : 1, dfr0, (dfr0 >> 16) & 0xf);
	if (!((dfr0 >> 16) & 0xf) || !selftest) {
		preempt_enable();
		goto external;
	}
	pr_info("armprof-ss: reset pmsscr 0x%llx pmecr 0x%llx\n", read_sysreg_s(PMSSCR_EL1),
		read_sysreg_s(PMECR_EL1));
	/* PMCR_EL0.{P,C} reset the counters; counters_on sets E and the rest. */
	write_sysreg(read_sysreg(pmcr_el0) | 6, pmcr_el0);
	counters_on(NULL);
	write_sysreg_s(0, PMECR_EL1);
	isb();

	/* With the kernel at EL2 (VHE), MDCR_EL2.PMSSE [31:30] first: 0b11
	 * Allowed, 0b00 Disabled, 0b10 Prohibited whatever PMECR_EL1.SSE
	 * (SS-TD13-10-row7, row2, row6); then 0b01 hands the decision to
	 * PMECR_EL1.SSE, as without EL2. */
	if (is_kernel_in_hyp_mode()) {
		static const unsigned pmsse[] = { 3, 0, 2 };
		u64 mdcr = read_sysreg(mdcr_el2) & ~(3ull << 30);

		for (i = 0; i < ARRAY_SIZE(pmsse); i++) {
			write_sysreg(mdcr | (u64)pmsse[i] << 30, mdcr_el2);
			row("pmsse", pmsse[i], pmsse[i] == 3 ? 0 : 3);
		}
		write_sysreg(mdcr | 1ull << 30, mdcr_el2);
	}
	/* Table D13-10, one row per PMECR_EL1.SSE [4:3], counters stopped. */
	for (i = 0; i < ARRAY_SIZE(sse); i++)
		row("sse", sse[i], sse[i]);
	/* Allowed, counting: the saved values lie between the live ones read
	 * before and after, which keep counting. */
	write_sysreg_s(3 << 3, PMECR_EL1);
	busy(1000);
	live(&a);
	v = capture(&polls);
	live(&b);
	saved(&s);
	pr_info("armprof-ss: running pmsscr 0x%llx polls %u before %llu %llu %llu saved %llu %llu %llu "
		"after %llu %llu %llu\n", v, polls, a.ev0, a.ev1, a.cc, s.ev0, s.ev1, s.cc, b.ev0, b.ev1,
		b.cc);
	write_sysreg_s(0, PMECR_EL1);
	write_sysreg(BIT(31) | 3, pmcntenclr_el0);
	preempt_enable();
external:
	if (allow_external && ((dfr0 >> 16) & 0xf)) {
		on_each_cpu(counters_on, NULL, 1);
		pr_info("armprof-ss: external requests allowed on every CPU\n");
	}
	return 0;
}

static void __exit pmu_ss_test_exit(void)
{
}

module_init(pmu_ss_test_init);
module_exit(pmu_ss_test_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("armprof: PMU snapshots (FEAT_PMUv3_SS) from EL1");
