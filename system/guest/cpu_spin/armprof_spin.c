// SPDX-License-Identifier: GPL-2.0
/*
 * A CPU spinning in a known function, for `armprof system --cpu-debug`'s
 * test of Linux's coresight-cpu-debug driver (tests/system_pcs/
 * system_cpu_debug.sh): loaded, it starts a kernel thread bound to CPU `cpu`
 * (default 1) that disables interrupts and spins in armprof_spin_loop()
 * forever. With interrupts off, the stop IPI of a panic on another CPU cannot
 * move it (the kits' kernels have no pseudo-NMI), so the driver's panic dump
 * must name armprof_spin_loop as that CPU's EDPCSR. The module cannot be
 * unloaded: the CPU is lost until the guest ends. One "armprof-spin:" line
 * says the CPU is spinning, and the thread's id.
 */
#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/irqflags.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/processor.h>
#include <linux/sched.h>

static unsigned int cpu = 1;
module_param(cpu, uint, 0444);
MODULE_PARM_DESC(cpu, "the CPU to spin on (default 1)");

static atomic_t spinning = ATOMIC_INIT(-1);

/* The function the dump must name: not inlined, never returns. */
static noinline void armprof_spin_loop(void)
{
	for (;;)
		cpu_relax();
}

static int spin_thread(void *unused)
{
	local_irq_disable();
	atomic_set(&spinning, (int)smp_processor_id());
	armprof_spin_loop();
	return 0;
}

static int __init armprof_spin_init(void)
{
	struct task_struct *t;

	if (cpu >= nr_cpu_ids || !cpu_online(cpu)) {
		pr_err("armprof-spin: cpu %u is not online\n", cpu);
		return -EINVAL;
	}
	t = kthread_create(spin_thread, NULL, "armprof_spin/%u", cpu);
	if (IS_ERR(t))
		return PTR_ERR(t);
	kthread_bind(t, cpu);
	wake_up_process(t);
	while (atomic_read(&spinning) < 0)
		msleep(1);
	/* The thread's id is what CONTEXTIDR_EL1 holds while it runs
	 * (CONFIG_PID_IN_CONTEXTIDR), so what EDCIDSR samples. */
	pr_info("armprof-spin: cpu %d pid %d spinning in armprof_spin_loop with interrupts off\n",
		atomic_read(&spinning), task_pid_nr(t));
	return 0;
}
module_init(armprof_spin_init);

MODULE_DESCRIPTION("armprof: a CPU spinning in a known function (coresight-cpu-debug test)");
MODULE_LICENSE("GPL");
