/* `armprof system`: the host's side of a run before QEMU starts
 * (system_setup.h). */
#define _XOPEN_SOURCE 700 /* realpath */
#include "system_setup.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli_io.h"
#include "system_modules.h"

#ifndef ARMPROF_SOURCE_DIR
#define ARMPROF_SOURCE_DIR "" /* no source tree: --qemu/--kit or the environment */
#endif

/* The files of the control directory (init.sh reads and writes them). */
static const char *const ctl_files[] = { "command", "config", "dmesg", "status", "pcs.raw", "ss.raw",
	                                      "initrd.img" /* --modules */ };

static int is_executable_file(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISREG(st.st_mode) && access(p, X_OK) == 0;
}

static int is_nonempty_file(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0;
}

int system_find_tools(const struct system_opts *opts, struct system_setup *s, char *err, size_t errlen)
{
	const char *env = getenv("ARMPROF_SYSTEM_QEMU");
	const char *qemu = opts->qemu ? opts->qemu : env && *env ? env : NULL;
	const char *src = ARMPROF_SOURCE_DIR;
	if (qemu) {
		snprintf(s->qemu, sizeof(s->qemu), "%s", qemu);
		if (!is_executable_file(qemu)) {
			snprintf(err, errlen, "%s%s: not an executable file", opts->qemu ? "--qemu " : "ARMPROF_SYSTEM_QEMU=", qemu);
			return SETUP_MISSING;
		}
	} else {
		snprintf(s->qemu, sizeof(s->qemu), "%s/.cache/qemu/current/bin/qemu-system-aarch64", src);
		if (!src[0] || !is_executable_file(s->qemu)) {
			snprintf(err, errlen,
			         "no QEMU with armprof's SPE at %s: build it with `bash system/qemu/build.sh` in the "
			         "source tree, or give --qemu PATH (or ARMPROF_SYSTEM_QEMU); Debian's stock "
			         "qemu-system-aarch64 (package qemu-system-arm) runs with --no-spe",
			         src[0] ? s->qemu : "<source dir>/.cache/qemu/current/bin/qemu-system-aarch64");
			return SETUP_MISSING;
		}
	}
	env = getenv("ARMPROF_KIT");
	const char *kit = opts->kit ? opts->kit : env && *env ? env : NULL;
	char dflt[PATH_MAX];
	snprintf(dflt, sizeof(dflt), "%s/.cache/kit/current", src);
	if (!kit && !src[0]) {
		snprintf(err, errlen, "no guest kit: give --kit DIR (or ARMPROF_KIT), a directory that "
		                      "`bash system/kit/build.sh` made");
		return SETUP_MISSING;
	}
	const char *dir = kit ? kit : dflt;
	snprintf(s->kernel, sizeof(s->kernel), "%s/vmlinuz", dir);
	snprintf(s->initrd, sizeof(s->initrd), "%s/initrd.img", dir);
	if (!is_nonempty_file(s->kernel) || !is_nonempty_file(s->initrd)) {
		snprintf(err, errlen, "%s%s: no guest kit there (vmlinuz and initrd.img); build it with "
		         "`bash system/kit/build.sh` in the source tree",
		         opts->kit ? "--kit " : kit ? "ARMPROF_KIT=" : "", dir);
		return SETUP_MISSING;
	}
	/* --kernel: the user's kernel under the kit's userland. */
	if (opts->kernel) {
		snprintf(s->kernel, sizeof(s->kernel), "%s", opts->kernel);
		if (!is_nonempty_file(opts->kernel)) {
			snprintf(err, errlen, "--kernel %s: not a kernel image (a non-empty file: arch/arm64/boot/Image)",
			         opts->kernel);
			return SETUP_USAGE;
		}
	}
	return 0;
}

/* Directories of the guest's own root that a share mounted at its host
 * path must not hide. */
static const char *const guest_dirs[] = {
	"/bin", "/sbin", "/usr/bin", "/usr/sbin", "/usr/lib/perf-core", "/lib/aarch64-linux-gnu",
	"/lib/modules", "/proc", "/sys", "/dev", "/run/armprof",
};

int system_find_share(const struct system_opts *opts, struct system_setup *s, char *err, size_t errlen)
{
	char cwd[PATH_MAX];
	if (!getcwd(cwd, sizeof(cwd))) {
		snprintf(err, errlen, "the current directory: %s", strerror(errno));
		return SETUP_USAGE;
	}
	const char *share = opts->share ? opts->share : cwd;
	const char *what = opts->share ? "--share " : "the current directory ";
	struct stat st;
	if (!realpath(share, s->share) || stat(s->share, &st) != 0) {
		snprintf(err, errlen, "%s%s: %s", what, share, strerror(errno));
		return SETUP_USAGE;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s%s: not a directory", what, share);
		return SETUP_USAGE;
	}
	if (strchr(s->share, '\n')) {
		snprintf(err, errlen, "%s%s: a path with a newline cannot be shared", what, share);
		return SETUP_USAGE;
	}
	size_t n = strlen(s->share);
	for (size_t i = 0; i < sizeof(guest_dirs) / sizeof(guest_dirs[0]); i++) {
		const char *g = guest_dirs[i];
		if (!strcmp(s->share, "/") || (!strncmp(g, s->share, n) && (g[n] == 0 || g[n] == '/'))) {
			snprintf(err, errlen,
			         "%s%s: mounted at the same path in the guest it would hide the guest's %s; "
			         "share a directory below it (--share DIR)",
			         what, share, g);
			return SETUP_USAGE;
		}
	}
	char real_cwd[PATH_MAX];
	if (realpath(cwd, real_cwd) && !strncmp(real_cwd, s->share, n) &&
	    (real_cwd[n] == 0 || real_cwd[n] == '/') && !strchr(real_cwd, '\n'))
		snprintf(s->cwd, sizeof(s->cwd), "%s", real_cwd);
	else
		snprintf(s->cwd, sizeof(s->cwd), "%s", s->share);
	return 0;
}

static int write_text(const char *dir, const char *name, const char *text, char *err, size_t errlen)
{
	char path[PATH_MAX + 16];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	if (!f || fputs(text, f) == EOF || fclose(f) != 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* A fresh number, so that the guest's markers are not in the command's
 * output by accident. */
static void make_nonce(char *out, size_t cap)
{
	unsigned char r[8] = { 0 };
	int fd = open("/dev/urandom", O_RDONLY);
	ssize_t got = fd >= 0 ? read(fd, r, sizeof(r)) : -1;
	if (fd >= 0)
		close(fd);
	if (got != (ssize_t)sizeof(r)) {
		unsigned long long t = (unsigned long long)time(NULL) ^ ((unsigned long long)getpid() << 32);
		memcpy(r, &t, sizeof(r));
	}
	for (size_t i = 0; i < sizeof(r) && 2 * i + 2 < cap; i++)
		snprintf(out + 2 * i, 3, "%02x", r[i]);
}

/* A string for argv, owned by s; NULL when out of room or memory. */
static char *own(struct system_setup *s, char *str)
{
	if (!str || s->n_owned == sizeof(s->owned) / sizeof(s->owned[0])) {
		free(str);
		return NULL;
	}
	s->owned[s->n_owned++] = str;
	return str;
}

static char *fmt(struct system_setup *s, const char *format, const char *a, const char *b)
{
	size_t n = strlen(format) + strlen(a) + strlen(b) + 1;
	char *p = malloc(n);
	if (p)
		snprintf(p, n, format, a, b);
	return own(s, p);
}

/* A path inside a QEMU option value: its commas doubled. */
static char *qemu_escaped(struct system_setup *s, const char *path)
{
	char *p = malloc(2 * strlen(path) + 1), *q = p;
	for (const char *c = path; p && *c; c++) {
		*q++ = *c;
		if (*c == ',')
			*q++ = ',';
	}
	if (p)
		*q = 0;
	return own(s, p);
}

/* QEMU links libarmprof-core and libarmprof-uarch as shared libraries
 * (system/qemu/build.sh), so that the models this armprof was built with
 * run in it, not the copies installed when QEMU was built: the directory
 * of the libraries beside this executable (a build tree) or in ../lib (an
 * installed one) goes first on
 * LD_LIBRARY_PATH. Without either, QEMU's own RUNPATH copy runs; so it does
 * for a sanitizer build, whose library QEMU (no sanitizer runtime) cannot load. */
static void use_own_model(void)
{
#if defined(__SANITIZE_ADDRESS__)
	return;
#endif
	char exe[PATH_MAX], lib[PATH_MAX + 32];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return;
	exe[n] = 0;
	char *slash = strrchr(exe, '/');
	if (!slash)
		return;
	*slash = 0;
	static const char *const dirs[] = { "", "/../lib" };
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(lib, sizeof(lib), "%s%s/libarmprof-core.so.0", exe, dirs[i]);
		if (access(lib, R_OK) != 0)
			continue;
		*strrchr(lib, '/') = 0;
		const char *old = getenv("LD_LIBRARY_PATH");
		char path[2 * PATH_MAX + 64];
		snprintf(path, sizeof(path), "%s%s%s", lib, old && *old ? ":" : "", old ? old : "");
		setenv("LD_LIBRARY_PATH", path, 1);
		return;
	}
}

int system_prepare(const struct system_opts *opts, struct system_setup *s, char *err, size_t errlen)
{
	use_own_model();
	const char *tmp = getenv("TMPDIR");
	snprintf(s->ctl, sizeof(s->ctl), "%s/armprof-system.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(s->ctl)) {
		snprintf(err, errlen, "cannot make a directory %s: %s", s->ctl, strerror(errno));
		s->ctl[0] = 0;
		return SETUP_USAGE;
	}
	make_nonce(s->nonce, sizeof(s->nonce));
	/* --modules: the kit's initramfs and the user's modules, in ctl. */
	char release[256] = "";
	if (opts->modules) {
		char out[PATH_MAX + 16];
		snprintf(out, sizeof(out), "%s/initrd.img", s->ctl);
		if (system_modules_initrd(s->initrd, opts->modules, out, release, sizeof(release), err, errlen) != 0)
			return SETUP_USAGE;
		snprintf(s->initrd, sizeof(s->initrd), "%s", out);
	}
	char config[3 * PATH_MAX];
	snprintf(config, sizeof(config), "share=%s\ncwd=%s\nspe=%d\n", s->share, s->cwd, opts->spe ? 1 : 0);
	if (write_text(s->ctl, "config", config, err, errlen) != 0 ||
	    write_text(s->ctl, "command", opts->command, err, errlen) != 0)
		return SETUP_USAGE;

	char smp[16], mem[16];
	snprintf(smp, sizeof(smp), "%u", opts->cpus);
	snprintf(mem, sizeof(mem), "%u", opts->memory_mb);
	/* --snapshot-every needs FEAT_PMUv3_SS in the model (a --config may still
	 * say otherwise, and QEMU then refuses the agent). */
	const char *spe_config = opts->spe_config;
	if (opts->ss_period_ns)
		spe_config = fmt(s, "snapshot.feat_pmuv3_ss=1%s%s", opts->spe_config[0] ? ";" : "", opts->spe_config);
	/* --cpu NAME: the SPE of that CPU (the model's preset, QEMU's spe-preset)
	 * on QEMU's Neoverse N1 core; --config's keys apply on top. */
	const char *preset = opts->spe_preset;
	char *cpu = !opts->spe ? fmt(s, "neoverse-n1%s%s", "", "")
	          : spe_config ? fmt(s, "neoverse-n1,spe=on%s%s", preset ? ",spe-preset=" : "", preset ? preset : "")
	                       : NULL;
	if (cpu && opts->spe && spe_config[0])
		cpu = fmt(s, "%s,spe-config=%s", cpu, spe_config);
	/* kpti=off: arm_spe_pmu refuses to probe under KPTI. cryptomgr.notests:
	 * Linux 7.x's crypto self-tests ran seconds of RSA and ECC on the other
	 * vCPU into user space, beside the program profiled (docs/system.md). */
	char *append = fmt(s, "console=ttyAMA0 kpti=off panic=-1 quiet cryptomgr.notests armprof.nonce=%s%s", s->nonce, "");
	/* The release of --modules: /init checks it is the running kernel's. */
	if (append && release[0])
		append = fmt(s, "%s armprof.modules=%s", append, release);
	char *share_path = qemu_escaped(s, s->share), *ctl_path = qemu_escaped(s, s->ctl);
	char *share_dev = share_path ? fmt(s, "local,id=share,path=%s,security_model=none%s", share_path, "") : NULL;
	char *ctl_dev = ctl_path ? fmt(s, "local,id=ctl,path=%s,security_model=none%s", ctl_path, "") : NULL;
	/* --pc-sample, --snapshot-every: every vCPU's external frames
	 * (armprof-pmu-ext), the agents writing into the control directory, and
	 * -icount shift=0 so that a period is guest time: one instruction is
	 * 1 ns of QEMU's virtual clock. */
	char *machine = fmt(s, "virt,gic-version=3%s%s",
	                    opts->pcs_period_ns || opts->ss_period_ns || opts->no_niden || opts->no_spniden ||
	                            opts->cpu_debug
	                        ? ",armprof-pmu-ext=on" : "", "");
	/* --cpu-debug: the debug frames described for coresight-cpu-debug
	 * (patch 0011: a FEAT_PCSRv8 PC sampler in them). */
	if (machine && opts->cpu_debug)
		machine = fmt(s, "%s%s", machine, ",armprof-cpu-debug=on");
	char per[24];
	if (machine && opts->pcs_period_ns) {
		snprintf(s->pcs_raw, sizeof(s->pcs_raw), "%s/pcs.raw", s->ctl);
		snprintf(per, sizeof(per), "%llu", opts->pcs_period_ns);
		machine = fmt(s, "%s,armprof-pcs-period=%s", machine, per);
		char *raw = machine ? qemu_escaped(s, s->pcs_raw) : NULL;
		machine = raw ? fmt(s, "%s,armprof-pcs-out=%s", machine, raw) : NULL;
		if (machine && opts->pcs_system_bus)
			machine = fmt(s, "%s%s", machine, ",armprof-pcs-bus=system");
	}
	if (machine && opts->ss_period_ns) {
		snprintf(s->ss_raw, sizeof(s->ss_raw), "%s/ss.raw", s->ctl);
		snprintf(per, sizeof(per), "%llu", opts->ss_period_ns);
		machine = fmt(s, "%s,armprof-ss-period=%s", machine, per);
		char *raw = machine ? qemu_escaped(s, s->ss_raw) : NULL;
		machine = raw ? fmt(s, "%s,armprof-ss-out=%s", machine, raw) : NULL;
	}
	if (machine && opts->el2)
		machine = fmt(s, "%s%s", machine, ",virtualization=on");
	if (machine && opts->no_niden)
		machine = fmt(s, "%s%s", machine, ",armprof-niden=off");
	if (machine && opts->no_spniden)
		machine = fmt(s, "%s%s", machine, ",armprof-spniden=off");
	int icount = opts->pcs_period_ns || opts->ss_period_ns;
	const char *args[] = {
		s->qemu, "-M", machine, "-cpu", cpu, "-smp", own(s, strdup(smp)),
		"-m", own(s, strdup(mem)), "-nographic", "-no-reboot", "-nic", "none",
		"-kernel", s->kernel, "-initrd", s->initrd, "-append", append,
		"-fsdev", share_dev, "-device", "virtio-9p-device,fsdev=share,mount_tag=armprof",
		"-fsdev", ctl_dev, "-device", "virtio-9p-device,fsdev=ctl,mount_tag=armprofctl",
		icount ? "-icount" : NULL, "shift=0",
	};
	size_t n = sizeof(args) / sizeof(args[0]);
	if (!icount)
		n -= 2;
	for (size_t i = 0; i < n; i++) {
		if (!args[i]) {
			snprintf(err, errlen, "out of memory");
			return SETUP_USAGE;
		}
		s->argv[i] = (char *)args[i];
	}
	s->argv[n] = NULL;
	return 0;
}

int system_save_dmesg(const struct system_setup *s, const char *path)
{
	char src[PATH_MAX + 16];
	snprintf(src, sizeof(src), "%s/dmesg", s->ctl);
	FILE *in = fopen(src, "rb");
	if (!in)
		return 1;
	struct cli_output out;
	if (cli_output_open(&out, "system", path) != 0) {
		fclose(in);
		return -1;
	}
	char buf[65536];
	size_t got;
	while ((got = fread(buf, 1, sizeof(buf), in)) > 0 && fwrite(buf, 1, got, out.f) == got)
		;
	/* a write error is the output's: cli_output_close reports it */
	int read_ok = !ferror(in);
	if (!read_ok)
		fprintf(stderr, "armprof system: %s: %s\n", src, strerror(errno));
	fclose(in);
	if (cli_output_close(&out, "system", read_ok) != 0 || !read_ok)
		return -1;
	return 0;
}

void system_cleanup(struct system_setup *s)
{
	if (s->ctl[0]) {
		for (size_t i = 0; i < sizeof(ctl_files) / sizeof(ctl_files[0]); i++) {
			char p[PATH_MAX + 16];
			snprintf(p, sizeof(p), "%s/%s", s->ctl, ctl_files[i]);
			if (unlink(p) != 0 && errno != ENOENT)
				fprintf(stderr, "armprof system: warning: cannot remove %s: %s\n", p, strerror(errno));
		}
		if (rmdir(s->ctl) != 0)
			fprintf(stderr, "armprof system: warning: cannot remove %s: %s\n", s->ctl, strerror(errno));
		s->ctl[0] = 0;
	}
	for (size_t i = 0; i < s->n_owned; i++)
		free(s->owned[i]);
	s->n_owned = 0;
}
