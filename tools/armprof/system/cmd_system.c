/* armprof system [options] -- 'SHELL COMMAND'
 *
 * Boots a full-system aarch64 QEMU machine whose CPUs implement SPE with
 * the armprof model (the patched QEMU of system/qemu/), with Debian's own
 * kernel, arm_spe_pmu driver and perf (the kit of system/kit/build.sh),
 * runs the command in it with the share directory at the same path, and
 * exits with the command's status (docs/system.md). */
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "armprof/model.h"
#include "armprof/number.h"
#include "cli_inputs.h"
#include "cli_output.h"
#include "armprof/uarch.h"
#include "commands.h"
#include "system_pcs.h"
#include "system_run.h"
#include "system_ss.h"
#include "system_setup.h"

const char cmd_system_summary[] = "run a shell command in a full-system aarch64 guest with SPE (Linux perf)";

/* Exit statuses of armprof system besides the command's own. */
enum {
	SYSTEM_EXIT_GUEST_SETUP = 121, /* the guest could not mount the share or read the command */
	SYSTEM_EXIT_NO_SPE = 122,      /* the arm_spe_pmu driver is missing or did not probe */
	SYSTEM_EXIT_MISSING = 123,     /* no QEMU, or no guest kit */
	SYSTEM_EXIT_TIMEOUT = 124,     /* the guest did not finish in time; QEMU killed */
	SYSTEM_EXIT_QEMU = 125,        /* QEMU failed to start, or ended without a status */
};

static void usage(FILE *out)
{
	fprintf(out,
	        "usage: armprof system [options] -- 'SHELL COMMAND'\n"
	        "Boot an aarch64 Linux guest (QEMU, -M virt, neoverse-n1 CPUs with SPE from the armprof\n"
	        "model), load Linux's arm_spe_pmu driver (the kit's Debian kernel, or --kernel), run\n"
	        "the command with the guest's /bin/sh and the kit's perf (Debian's, of the kit's suite),\n"
	        "and exit with its status. The share directory is readable and writable in the guest\n"
	        "at the same path; the command starts in the current directory when it is inside the\n"
	        "share, else in the share. Its stdout and stderr both come out\n"
	        "on stdout (the guest's console); its stdin is empty.\n"
	        "  --cpus N          vCPUs (default 2)\n"
	        "  --memory MB       guest memory (default 1024)\n"
	        "  --share DIR       the directory shared with the guest (default: the current one)\n"
	        "  --dmesg FILE      save the guest's kernel log\n"
	        "  --timeout SECS    stop the guest after this long, boot included (default 600; 0: never)\n"
	        "  --qemu PATH       qemu-system-aarch64 (default $ARMPROF_SYSTEM_QEMU, else the one\n"
	        "                    `bash system/qemu/build.sh` builds: .cache/qemu/current)\n"
	        "  --kit DIR         guest kit (default $ARMPROF_KIT, else the one\n"
	        "                    `bash system/kit/build.sh` builds: .cache/kit/current)\n"
	        "  --kernel IMAGE    boot this kernel (an arm64 Image, e.g. arch/arm64/boot/Image of a\n"
	        "                    kernel you built) instead of the kit's, under the kit's userland\n"
	        "  --modules DIR     its modules: a lib/modules/<release> tree as `make modules_install`\n"
	        "                    writes it (virtio_mmio, 9p and arm_spe_pmu with what modules.dep\n"
	        "                    says they need are loaded from it; not needed for built-in ones)\n"
	        "  --no-spe          no SPE in the CPU (spe=on left out) and no driver required: any\n"
	        "                    QEMU 7.2, e.g. Debian's stock qemu-system-aarch64\n"
	        "  --cpu NAME        the SPE version and features of a CPU (the model's presets,\n"
	        "                    docs/model-config.md): neoverse-n1 (default, SPEv1), neoverse-v1,\n"
	        "                    neoverse-n2, neoverse-v2, max (SPEv1p5 with every feature); QEMU's\n"
	        "                    core stays its Neoverse N1 (-cpu neoverse-n1,spe=on,spe-preset=NAME)\n"
	        "  --config K=V      a setting of the SPE model (docs/model-config.md, e.g.\n"
	        "                    spe.max_size=7), repeatable; passed to QEMU as\n"
	        "                    -cpu neoverse-n1,spe=on,spe-config=K=V;K=V\n"
	        "  --pc-sample PERIOD  PC sampling from outside: every PERIOD of guest time (N, Nns, Nus\n"
	        "                    or Nms; at least 1000 ns; under -icount 1 ns is one instruction) an\n"
	        "                    agent in QEMU reads every vCPU's PMPCSR through its external PMU\n"
	        "                    frame; the samples go to -o FILE as a perf.data (docs/system.md)\n"
	        "  -o FILE           --pc-sample's profile (default perf.data)\n"
	        "  --pc-sample-bus B debug (default: the debug port, no Software Lock) or system (the\n"
	        "                    memory-mapped frame, where the Software Lock applies)\n"
	        "  --snapshot-every PERIOD  PMU snapshots from outside: every PERIOD of guest time (as\n"
	        "                    --pc-sample's) QEMU asserts every vCPU's external snapshot request\n"
	        "                    (FEAT_PMUv3_SS: snapshot.feat_pmuv3_ss=1 is added to --config) and\n"
	        "                    reads the saved counters; the series goes to --snapshot-out as CSV\n"
	        "  --snapshot-out FILE  --snapshot-every's series (default snapshots.csv)\n"
	        "  --el2             EL2 in the CPUs (-M virt,virtualization=on): Linux runs at EL2 (VHE)\n"
	        "  --no-niden        ExternalNoninvasiveDebugEnabled() FALSE (PC sampling prohibited)\n"
	        "  --no-spniden      ExternalSecureNoninvasiveDebugEnabled() FALSE\n"
	        "  --cpu-debug       every vCPU's external debug frame in the device tree for Linux's\n"
	        "                    coresight-cpu-debug (FEAT_PCSRv8: a panic prints each CPU's PC)\n"
	        "  --no-timing       do not feed the timing model: the sampled operations' latencies are\n"
	        "                    constants and their Data Source 0. By default (--timing) every load,\n"
	        "                    store and branch of the guest goes through it (caches, TLBs, branch\n"
	        "                    predictor), and latencies, events and Data Source are its\n"
	        "  --uarch K=V       a setting of the timing model (docs/record-and-report.md, e.g.\n"
	        "                    llc.size=2M), repeatable\n"
	        "Exit status: the command's; 2 usage; %d the guest could not set up (share, command);\n"
	        "%d the SPE driver is missing or did not probe (its kernel lines are shown); %d no QEMU\n"
	        "or no guest kit; %d timeout (QEMU killed); %d QEMU failed to start or ended without\n"
	        "the command's status; 128+N armprof got signal N (QEMU killed).\n",
	        SYSTEM_EXIT_GUEST_SETUP, SYSTEM_EXIT_NO_SPE, SYSTEM_EXIT_MISSING, SYSTEM_EXIT_TIMEOUT,
	        SYSTEM_EXIT_QEMU);
}

/* --pc-sample, --snapshot-every PERIOD: N[ns|us|ms] of guest time, in ns. */
static int parse_period(const char *opt, const char *s, unsigned long long *out)
{
	/* The number in armprof's one syntax (armprof/number.h), then the unit. */
	static const struct { const char *suffix; uint64_t mult; } units[] = {
		{ "ns", 1 }, { "us", 1000 }, { "ms", 1000000 }, { "", 1 },
	};
	uint64_t v = 0, mult = 0;
	size_t len = s ? strlen(s) : 0;
	for (size_t i = 0; !mult && i < sizeof(units) / sizeof(units[0]); i++) {
		size_t n = strlen(units[i].suffix);
		char digits[32];
		if (len <= n || len - n >= sizeof(digits) || strcmp(s + len - n, units[i].suffix))
			continue;
		memcpy(digits, s, len - n);
		digits[len - n] = 0;
		if (ap_parse_u64(digits, &v) == 0)
			mult = units[i].mult;
	}
	if (!mult || v > (1ull << 50) / mult || v * mult < 1000) {
		fprintf(stderr, "armprof system: %s %s: want a period of guest time from 1000 ns: "
		                "N, Nns, Nus or Nms\n", opt, s ? s : "");
		return -1;
	}
	*out = v * mult;
	return 0;
}

static int parse_uint(const char *opt, const char *s, unsigned lo, unsigned hi, unsigned *out)
{
	uint64_t v = 0;
	if (!s || ap_parse_u64(s, &v) < 0 || v < lo || v > hi) {
		fprintf(stderr, "armprof system: %s %s: want a whole number from %u to %u\n", opt, s ? s : "",
		        lo, hi);
		return -1;
	}
	*out = (unsigned)v;
	return 0;
}

/* --cpu NAME: one of the model's SPE presets, checked by the model itself
 * (ap_config_spe_preset names them in its message). */
static int parse_cpu(const char *val, const char **out)
{
	struct ap_config cfg;
	struct ap_error_ctx err;
	memset(&err, 0, sizeof(err));
	ap_config_init(&cfg);
	if (ap_config_spe_preset(&cfg, val, &err) < 0) {
		fprintf(stderr, "armprof system: --cpu %s: %s\n", val, err.message);
		return -1;
	}
	*out = val;
	return 0;
}

/* --config K=V into opts->spe_config ("K=V;K=V", the spe-config property of
 * system/qemu's CPU): names of letters, digits, '_', '-', '.'; values
 * without ',', ';', '=' or spaces (QEMU's -cpu syntax and the list's own). */
static int add_config(struct system_opts *o, const char *kv)
{
	const char *eq = strchr(kv ? kv : "", '=');
	int ok = eq && eq > kv && eq[1];
	for (const char *c = kv; ok && c < eq; c++)
		ok = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
		     *c == '_' || *c == '-' || *c == '.';
	if (ok)
		ok = eq[1 + strcspn(eq + 1, ",;= \t\n")] == 0;
	if (!ok) {
		fprintf(stderr, "armprof system: --config %s: want KEY=VALUE (no ',', ';', '=' or spaces in the value)\n",
		        kv ? kv : "");
		return -1;
	}
	size_t n = strlen(o->spe_config);
	if (n + strlen(kv) + 2 > sizeof(o->spe_config)) {
		fprintf(stderr, "armprof system: --config: too many settings\n");
		return -1;
	}
	snprintf(o->spe_config + n, sizeof(o->spe_config) - n, "%s%s", n ? ";" : "", kv);
	return 0;
}

/* --uarch K=V: checked here (a bad key is a usage error, not a QEMU that
 * fails to start), passed as the spe-config item uarch.K=V. */
static int add_uarch(struct system_opts *o, struct ap_uarch_config *cfg, const char *kv)
{
	char key[256], item[300];
	const char *eq = strchr(kv, '=');
	size_t n = eq ? (size_t)(eq - kv) : 0;
	if (!eq || n >= sizeof(key)) {
		fprintf(stderr, "armprof system: --uarch %s: want KEY=VALUE\n", kv);
		return -1;
	}
	memcpy(key, kv, n);
	key[n] = 0;
	if (ap_uarch_config_set(cfg, key, eq + 1) < 0) {
		fprintf(stderr, "armprof system: --uarch %s: unknown key or bad value (the keys: "
		                "docs/record-and-report.md, \"The timing model\")\n", kv);
		return -1;
	}
	snprintf(item, sizeof(item), "uarch.%s", kv);
	o->uarch_given = 1;
	return add_config(o, item);
}

/* The words of the command, joined by spaces (as ssh does). */
static char *join_words(int argc, char **argv)
{
	size_t n = 1;
	for (int i = 0; i < argc; i++)
		n += strlen(argv[i]) + 1;
	char *s = malloc(n);
	if (!s)
		return NULL;
	s[0] = 0;
	for (int i = 0; i < argc; i++) {
		if (i)
			strcat(s, " ");
		strcat(s, argv[i]);
	}
	return s;
}

/* Returns -1 (usage error, printed), 0, or 1 (--help). */
static int parse_opts(int argc, char **argv, struct system_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->cpus = 2;
	o->memory_mb = 1024;
	o->timeout_s = 600;
	o->spe = 1;
	o->timing = -1; /* on with SPE unless --no-timing */
	struct ap_uarch_config ucfg;
	ap_uarch_config_init(&ucfg);
	int i = 1;
	for (; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--")) {
			i++;
			break;
		}
		if (a[0] != '-')
			break;
		if (!strcmp(a, "--help") || !strcmp(a, "-h"))
			return 1;
		if (!strcmp(a, "--no-spe")) {
			o->spe = 0;
			continue;
		}
		if (!strcmp(a, "--el2")) {
			o->el2 = 1;
			continue;
		}
		if (!strcmp(a, "--cpu-debug")) {
			o->cpu_debug = 1;
			continue;
		}
		if (!strcmp(a, "--no-niden") || !strcmp(a, "--no-spniden")) {
			*(a[5] == 'n' ? &o->no_niden : &o->no_spniden) = 1;
			continue;
		}
		if (!strcmp(a, "--timing") || !strcmp(a, "--no-timing")) {
			o->timing = a[2] == 't';
			continue;
		}
		static const char *const with_value[] = { "--cpus", "--memory", "--share", "--dmesg",
		                                           "--timeout", "--qemu", "--kit", "--config",
		                                           "--pc-sample-bus", "--pc-sample", "-o",
		                                           "--snapshot-every", "--snapshot-out",
		                                           "--uarch", "--kernel", "--modules", "--cpu" };
		const char *val = NULL, *name = NULL;
		for (size_t k = 0; k < sizeof(with_value) / sizeof(with_value[0]) && !name; k++) {
			size_t len = strlen(with_value[k]);
			if (!strncmp(a, with_value[k], len) && (a[len] == 0 || a[len] == '=')) {
				name = with_value[k];
				val = a[len] == '=' ? a + len + 1 : i + 1 < argc ? argv[++i] : NULL;
			}
		}
		if (!name) {
			fprintf(stderr, "armprof system: unknown option %s\n", a);
			return -1;
		}
		if (!val) {
			fprintf(stderr, "armprof system: %s needs a value\n", name);
			return -1;
		}
		int rc = 0;
		if (!strcmp(name, "--cpus"))
			rc = parse_uint(name, val, 1, 512, &o->cpus);
		else if (!strcmp(name, "--memory"))
			rc = parse_uint(name, val, 128, 1u << 20, &o->memory_mb);
		else if (!strcmp(name, "--timeout"))
			rc = parse_uint(name, val, 0, 7 * 24 * 3600, &o->timeout_s);
		else if (!strcmp(name, "--config"))
			rc = add_config(o, val);
		else if (!strcmp(name, "--uarch"))
			rc = add_uarch(o, &ucfg, val);
		else if (!strcmp(name, "--pc-sample"))
			rc = parse_period(name, val, &o->pcs_period_ns);
		else if (!strcmp(name, "--snapshot-every"))
			rc = parse_period(name, val, &o->ss_period_ns);
		else if (!strcmp(name, "--snapshot-out"))
			o->ss_out = val;
		else if (!strcmp(name, "-o"))
			o->pcs_out = val;
		else if (!strcmp(name, "--pc-sample-bus")) {
			if (strcmp(val, "debug") && strcmp(val, "system")) {
				fprintf(stderr, "armprof system: --pc-sample-bus %s: want debug or system\n", val);
				rc = -1;
			}
			o->pcs_system_bus = !strcmp(val, "system");
		} else if (!strcmp(name, "--share"))
			o->share = val;
		else if (!strcmp(name, "--dmesg"))
			o->dmesg = val;
		else if (!strcmp(name, "--qemu"))
			o->qemu = val;
		else if (!strcmp(name, "--kernel"))
			o->kernel = val;
		else if (!strcmp(name, "--modules"))
			o->modules = val;
		else if (!strcmp(name, "--cpu"))
			rc = parse_cpu(val, &o->spe_preset);
		else
			o->kit = val;
		if (rc)
			return -1;
	}
	if (i >= argc) {
		fprintf(stderr, "armprof system: no command: armprof system [options] -- 'SHELL COMMAND'\n");
		return -1;
	}
	if (!o->spe && (o->spe_config[0] || o->timing == 1 || o->spe_preset)) {
		fprintf(stderr, "armprof system: --cpu, --config, --timing and --uarch configure the SPE CPU: "
		                "not with --no-spe\n");
		return -1;
	}
	if (o->timing == 0 && o->uarch_given) {
		fprintf(stderr, "armprof system: --uarch configures the timing model: not with --no-timing\n");
		return -1;
	}
	if (o->timing < 0)
		o->timing = o->spe;
	if (o->modules && !o->kernel) {
		fprintf(stderr, "armprof system: --modules goes with --kernel (the kit's kernel has its own)\n");
		return -1;
	}
	/* The external frames are part of armprof's model PE, which spe=on creates. */
	if (!o->spe && (o->pcs_period_ns || o->ss_period_ns || o->no_niden || o->no_spniden || o->cpu_debug)) {
		fprintf(stderr, "armprof system: --pc-sample, --snapshot-every, --cpu-debug, --no-niden and --no-spniden "
		                "need armprof's CPU model: not with --no-spe\n");
		return -1;
	}
	if (!o->ss_period_ns && o->ss_out) {
		fprintf(stderr, "armprof system: --snapshot-out is --snapshot-every's\n");
		return -1;
	}
	if (o->ss_period_ns && !o->ss_out)
		o->ss_out = "snapshots.csv";
	if (!o->pcs_period_ns && (o->pcs_out || o->pcs_system_bus)) {
		fprintf(stderr, "armprof system: -o and --pc-sample-bus are --pc-sample's\n");
		return -1;
	}
	if (o->pcs_period_ns && !o->pcs_out)
		o->pcs_out = "perf.data";
	if (o->timing) {
		/* The settings must make a model (power-of-two sets, one line
		 * size): checked here, as armprof record does. */
		struct ap_uarch_system *sys = NULL;
		struct ap_uarch_core *core = NULL;
		int bad = ap_uarch_system_create(&sys, &ucfg) < 0 || ap_uarch_core_create(&core, sys, 0) < 0;
		ap_uarch_core_destroy(core);
		ap_uarch_system_destroy(sys);
		if (bad) {
			fprintf(stderr, "armprof system: --uarch: inconsistent timing model (sizes and entries "
			                "must give power-of-two sets; one line size for all levels)\n");
			return -1;
		}
		if (add_config(o, "uarch=on") < 0)
			return -1;
	}
	o->command = join_words(argc - i, argv + i);
	if (!o->command) {
		fprintf(stderr, "armprof system: out of memory\n");
		return -1;
	}
	return 0;
}

/* The last lines of the guest's console before its command started. */
static void print_boot_log(const struct console *c)
{
	enum { LINES = 40 };
	size_t start = c->log_len;
	int lines = 0;
	for (; start > 0; start--)
		if (c->log[start - 1] == '\n' && ++lines > LINES)
			break;
	if (start == c->log_len)
		return;
	fprintf(stderr, "armprof system: the guest's console%s:\n",
	        start || c->log_dropped ? " (its last lines)" : "");
	const char *p = c->log + start, *end = c->log + c->log_len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
		fprintf(stderr, "  | %.*s\n", (int)len, p);
		p += len + 1;
	}
}

/* The run's outcome as a message and an exit status. */
/* The guest writes "exit N" to the control share before it powers off
 * (system/kit/init.sh, finish()). When QEMU ended (status 0) while the
 * console still showed the command running, the exit marker was still in
 * the guest's tty buffer when `poweroff -f` stopped the machine (the
 * kernel's "reboot: Power down" is printed synchronously and can overtake
 * it, seen once at load): the share's file gives the command's status. */
static void status_from_share(const struct system_setup *s, struct system_result *r)
{
	if (r->outcome != SYSTEM_QEMU_FAILED || r->console.phase != CONSOLE_RUN || !s->ctl[0] ||
	    !WIFEXITED(r->qemu_status) || WEXITSTATUS(r->qemu_status) != 0)
		return;
	char path[PATH_MAX + 16], word[16];
	snprintf(path, sizeof(path), "%s/status", s->ctl);
	FILE *f = fopen(path, "r");
	if (!f)
		return;
	int n;
	if (fscanf(f, "%15s %d", word, &n) == 2 && !strcmp(word, "exit") && n >= 0 && n <= 255) {
		r->outcome = SYSTEM_EXITED;
		r->console.status = n;
	}
	fclose(f);
}

static int report(const struct system_opts *o, const struct system_setup *s, const struct system_result *r)
{
	switch (r->outcome) {
	case SYSTEM_EXITED:
		return r->console.status;
	case SYSTEM_GUEST_ERROR:
		print_boot_log(&r->console);
		if (!strcmp(r->console.kind, "spe")) {
			fprintf(stderr, "armprof system: the SPE driver did not probe: %s\n", r->console.message);
			fprintf(stderr, "armprof system: (is %s built with armprof's SPE? `bash system/qemu/build.sh`; "
			                "--no-spe runs without it)\n", s->qemu);
			return SYSTEM_EXIT_NO_SPE;
		}
		fprintf(stderr, "armprof system: the guest could not run the command: %s\n", r->console.message);
		return SYSTEM_EXIT_GUEST_SETUP;
	case SYSTEM_TIMEOUT:
		if (r->start_seconds < 0)
			print_boot_log(&r->console);
		fprintf(stderr, "armprof system: timeout: the guest %s within %u s; QEMU was killed\n",
		        r->start_seconds < 0 ? "did not even start the command" : "did not finish the command",
		        o->timeout_s);
		return SYSTEM_EXIT_TIMEOUT;
	case SYSTEM_SIGNALLED:
		fprintf(stderr, "armprof system: stopped by signal %d; QEMU was killed\n", r->signal);
		return 128 + r->signal;
	case SYSTEM_OUTPUT_FAILED:
		fprintf(stderr, "armprof system: %s; QEMU was killed\n", r->why);
		return EXIT_USAGE;
	case SYSTEM_QEMU_FAILED:
		break;
	}
	print_boot_log(&r->console);
	int st = r->qemu_status;
	char how[64] = "";
	if (st >= 0 && WIFEXITED(st))
		snprintf(how, sizeof(how), " (QEMU's exit status %d)", WEXITSTATUS(st));
	else if (st >= 0 && WIFSIGNALED(st))
		snprintf(how, sizeof(how), " (QEMU killed by signal %d)", WTERMSIG(st));
	fprintf(stderr, "armprof system: %s%s\n", r->why, how);
	if (o->spe && r->start_seconds < 0 && r->console.log_len == 0)
		fprintf(stderr, "armprof system: (a QEMU without armprof's SPE rejects -cpu ...,spe=on: build "
		                "it with `bash system/qemu/build.sh`, or run with --no-spe)\n");
	return SYSTEM_EXIT_QEMU;
}

int cmd_system(int argc, char **argv)
{
	struct system_opts opts;
	int rc = parse_opts(argc, argv, &opts);
	if (rc) {
		if (rc > 0)
			usage(stdout);
		else
			fprintf(stderr, "usage: armprof system [options] -- 'SHELL COMMAND' (--help: the options)\n");
		free(opts.command);
		return rc > 0 ? EXIT_OK : EXIT_USAGE;
	}
	struct system_setup setup;
	memset(&setup, 0, sizeof(setup));
	char err[2 * PATH_MAX];
	int exit_status = EXIT_USAGE;
	struct system_result *res = NULL;
	struct cli_output pcs_out, ss_out;
	int pcs_open = 0, ss_open = 0;
	if ((rc = system_find_tools(&opts, &setup, err, sizeof(err))) != 0 ||
	    (rc = system_find_share(&opts, &setup, err, sizeof(err))) != 0 ||
	    (rc = system_prepare(&opts, &setup, err, sizeof(err))) != 0) {
		fprintf(stderr, "armprof system: %s\n", err);
		exit_status = rc == SETUP_MISSING ? SYSTEM_EXIT_MISSING : EXIT_USAGE;
		goto out;
	}
	res = malloc(sizeof(*res));
	if (!res) {
		fprintf(stderr, "armprof system: out of memory\n");
		goto out;
	}
	/* The profile's path is checked before the guest boots; it must not
	 * be a file the guest is made of. */
	const char *const named[] = { opts.kernel, opts.modules, opts.qemu };
	for (size_t k = 0; k < sizeof(named) / sizeof(named[0]); k++)
		cli_input_note(named[k]);
	if (opts.pcs_period_ns && cli_output_open_seekable(&pcs_out, "system", opts.pcs_out) != 0)
		goto out;
	pcs_open = opts.pcs_period_ns != 0;
	if (opts.ss_period_ns && cli_output_open(&ss_out, "system", opts.ss_out) != 0)
		goto out;
	ss_open = opts.ss_period_ns != 0;
	fflush(stdout);
	system_run(setup.argv, setup.nonce, opts.timeout_s, res);
	status_from_share(&setup, res);
	exit_status = report(&opts, &setup, res);
	if (pcs_open && (res->outcome == SYSTEM_EXITED || res->outcome == SYSTEM_GUEST_ERROR)) {
		struct pcs_summary sum;
		int c = system_pcs_convert(setup.pcs_raw, &pcs_out, opts.pcs_out, &sum);
		pcs_open = 0;
		if (cli_output_close(&pcs_out, "system", c == 0) != 0 && exit_status == EXIT_OK)
			exit_status = c == 1 ? EXIT_DATA_ERROR : EXIT_USAGE;
		else if (c == 0)
			system_pcs_print(&sum, opts.pcs_out);
	}
	if (ss_open && (res->outcome == SYSTEM_EXITED || res->outcome == SYSTEM_GUEST_ERROR)) {
		int c = system_ss_convert(setup.ss_raw, &ss_out, opts.ss_out);
		ss_open = 0;
		if (cli_output_close(&ss_out, "system", c == 0) != 0 && exit_status == EXIT_OK)
			exit_status = c == 1 ? EXIT_DATA_ERROR : EXIT_USAGE;
	}
	if (opts.dmesg) {
		int d = system_save_dmesg(&setup, opts.dmesg);
		if (d > 0)
			fprintf(stderr, "armprof system: --dmesg %s: the guest wrote no kernel log (it did not finish)\n",
			        opts.dmesg);
		if (d < 0 && exit_status == EXIT_OK)
			exit_status = EXIT_USAGE;
	}
out:
	if (pcs_open)
		cli_output_close(&pcs_out, "system", 0);
	if (ss_open)
		cli_output_close(&ss_out, "system", 0);
	free(res);
	system_cleanup(&setup);
	free(opts.command);
	return exit_status;
}
