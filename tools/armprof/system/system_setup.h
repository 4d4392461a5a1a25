/* `armprof system`: what a run needs on the host, before QEMU starts: the
 * QEMU and guest kit to use, the share directory, the private control
 * directory the guest's /init reads (system/kit/init.sh describes it) and
 * QEMU's command line. */
#ifndef ARMPROF_TOOL_SYSTEM_SETUP_H
#define ARMPROF_TOOL_SYSTEM_SETUP_H

#include <limits.h>
#include <stddef.h>

struct system_opts {
	unsigned cpus;         /* -smp */
	unsigned memory_mb;    /* -m */
	unsigned timeout_s;    /* 0: none */
	int spe;               /* -cpu ...,spe=on; the guest requires arm_spe_0 */
	int timing;            /* spe-config uarch=on: by default with SPE, off with --no-timing */
	int uarch_given;       /* a --uarch setting was given */
	const char *share;     /* NULL: the current directory */
	const char *dmesg;     /* NULL: not saved */
	const char *qemu;      /* NULL: $ARMPROF_SYSTEM_QEMU, then the source tree's */
	const char *kit;       /* NULL: $ARMPROF_KIT, then the source tree's */
	const char *kernel;    /* --kernel: the user's kernel image instead of the kit's */
	const char *modules;   /* --modules: its lib/modules/<release> tree */
	char spe_config[1024]; /* "K=V;K=V" from --config, "" if none */
	const char *spe_preset; /* --cpu: the SPE version and features of a CPU (spe-preset), NULL: N1's */
	/* --pc-sample (docs/system.md): the external PMU frames and QEMU's
	 * PC-sampling agent, under -icount. */
	unsigned long long pcs_period_ns; /* 0: no agent */
	const char *pcs_out;   /* -o: the profile (perf.data) */
	int pcs_system_bus;    /* --pc-sample-bus system: memory-mapped reads */
	int no_niden, no_spniden; /* the authentication inputs set FALSE */
	int cpu_debug;            /* --cpu-debug: the debug frames for coresight-cpu-debug */
	int el2;               /* --el2: -M virt,virtualization=on (Linux at EL2, VHE) */
	/* --snapshot-every: QEMU's external snapshot requests (FEAT_PMUv3_SS). */
	unsigned long long ss_period_ns; /* 0: none */
	const char *ss_out;    /* --snapshot-out: the counter series (CSV) */
	char *command;         /* the shell command (malloc'd) */
};

struct system_setup {
	char qemu[PATH_MAX];
	char kernel[PATH_MAX + 16], initrd[PATH_MAX + 16];
	char share[PATH_MAX]; /* absolute, symbolic links resolved */
	char cwd[PATH_MAX];   /* the guest's working directory, inside share */
	char ctl[PATH_MAX];   /* the control directory, "" until made */
	char nonce[33];
	char pcs_raw[PATH_MAX + 16]; /* the agent's raw samples (in ctl), "" without --pc-sample */
	char ss_raw[PATH_MAX + 16];  /* the snapshot agent's (in ctl), "" without --snapshot-every */
	char *argv[64];       /* QEMU's command line, NULL-terminated */
	char *owned[64];      /* the strings of argv made here, to free */
	size_t n_owned;
};

/* Why a setup step failed: which exit status it calls for. */
enum setup_failure {
	SETUP_MISSING = 1, /* no QEMU, or no guest kit */
	SETUP_USAGE = 2,   /* a bad share directory, an I/O error */
};

/* Finds QEMU and the kit (opts->qemu / ARMPROF_SYSTEM_QEMU / the source tree's
 * .cache/qemu/current; opts->kit / ARMPROF_KIT / .cache/kit/current).
 * Returns 0, or a setup_failure with the message in err. */
int system_find_tools(const struct system_opts *opts, struct system_setup *s, char *err, size_t errlen);

/* Resolves the share and the guest's working directory (the current one
 * when it is inside the share, else the share). */
int system_find_share(const struct system_opts *opts, struct system_setup *s, char *err, size_t errlen);

/* Makes the control directory (command, config) and QEMU's command line. */
int system_prepare(const struct system_opts *opts, struct system_setup *s, char *err, size_t errlen);

/* Copies the guest's kernel log (the control directory's dmesg) to path.
 * Returns 0, 1 when the guest wrote none, or -1 after printing an error. */
int system_save_dmesg(const struct system_setup *s, const char *path);

/* Removes the control directory and frees the command line. */
void system_cleanup(struct system_setup *s);

#endif
