#!/bin/busybox sh
# The guest's /init (busybox sh), put into the initramfs by system/kit/build.sh.
# The command runs in /bin/sh: busybox's, or dash in a kit with extra
# packages (busybox's sh prefers its own applets to the programs on PATH).
# It runs one command for `armprof system` (tools/armprof/system_run.c) and
# powers the machine off. The protocol with the host:
#
# - kernel command line: armprof.nonce=HEX, a fresh number per run, so that
#   the marker lines below cannot be printed by the command by accident;
# - 9p share "armprofctl" (host: a private temporary directory), mounted at
#   /run/armprof: `command` (the shell command), `config` (lines KEY=VALUE:
#   share=, cwd=, spe=1|0); the guest writes `dmesg` (the kernel log) and
#   `status` there at the end;
# - 9p share "armprof" (host: the --share directory), mounted at its host
#   path (config share=);
# - console (ttyAMA0) lines "ARMPROF-<nonce> start", then the command's
#   output, then "ARMPROF-<nonce> exit <status>"; or instead of start,
#   "ARMPROF-<nonce> error spe|setup <message>".
#
# Modules are loaded with insmod in the order build.sh computed from their
# `depends=` fields (lib/modules/<release>/armprof-load-order), since the kit
# has no modules.dep.
PATH=/usr/sbin:/usr/bin:/sbin:/bin
export PATH
/bin/busybox --install -s
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mkdir -p /tmp /run /dev/pts
mount -t tmpfs tmpfs /tmp
mount -t tmpfs tmpfs /run

nonce=
user_modules=
for arg in $(cat /proc/cmdline); do
	case "$arg" in
	armprof.nonce=*) nonce=${arg#armprof.nonce=} ;;
	armprof.modules=*) user_modules=${arg#armprof.modules=} ;;
	esac
done
mark="ARMPROF-${nonce:-none}"

# The end of every path: the kernel log to the control share when it is
# there, then power off (the host sees QEMU exit).
finish() {
	if grep -q ' /run/armprof ' /proc/mounts; then
		dmesg > /run/armprof/dmesg 2>/dev/null
		echo "$1" > /run/armprof/status 2>/dev/null
	fi
	sync
	[ -n "$share" ] && umount "$share" 2>/dev/null
	umount /run/armprof 2>/dev/null
	poweroff -f
	sleep 10
}

# Failure before the command: say what and where, with the kernel's lines
# about it printed before, then the marker with the message, which the host
# turns into an exit status.
fail() {
	kind=$1
	shift
	echo "$mark error $kind $*"
	finish "error $kind"
}

# Load the modules, in dependency order; note those that fail. With
# `armprof system --kernel IMAGE --modules DIR` they are the user's, added
# to the initramfs under DIR's release (armprof.modules=), which must be the
# running kernel's. A module the user's `make modules_install` compressed
# with xz or gzip is unpacked first (busybox's insmod takes ELF).
release=$(uname -r)
order=/lib/modules/$release/armprof-load-order
if [ -n "$user_modules" ] && [ "$user_modules" != "$release" ]; then
	fail setup "the kernel is $release, but --modules gave lib/modules/$user_modules: give the modules of that kernel"
fi
failed_modules=
if [ -f "$order" ]; then
	while read -r rel; do
		[ -n "$rel" ] || continue
		name=${rel##*/}
		name=${name%%.ko*}
		ko=/lib/modules/$release/$rel
		case "$rel" in
		*.ko.xz) xzcat "$ko" > /tmp/module.ko && ko=/tmp/module.ko ;;
		*.ko.gz) zcat "$ko" > /tmp/module.ko && ko=/tmp/module.ko ;;
		esac
		if ! out=$(insmod "$ko" 2>&1); then
			echo "armprof guest: insmod $name: $out"
			failed_modules="$failed_modules $name"
		fi
		rm -f /tmp/module.ko
	done < "$order"
else
	echo "armprof guest: no modules for kernel $release here ($order); a kernel of your own:" \
		"armprof system --kernel IMAGE --modules DIR, or virtio_mmio, 9p and arm_spe_pmu built in"
fi

# The virtio-mmio transports probe when virtio_mmio loads; the 9p channels
# appear once 9pnet_virtio has bound them, which can lag the insmod.
mount_9p() {
	tries=0
	while ! mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144,cache=mmap "$1" "$2" 2>/tmp/mount.err; do
		tries=$((tries + 1))
		[ $tries -lt 50 ] || return 1
		usleep 100000
	done
}
mkdir -p /run/armprof
mount_9p armprofctl /run/armprof ||
	fail setup "cannot mount the control share (9p tag armprofctl): $(cat /tmp/mount.err);" \
		"modules that failed:${failed_modules:- none}; does QEMU have virtio-9p-device?"

share=
cwd=
spe=1
while IFS= read -r line; do
	case "$line" in
	share=*) share=${line#share=} ;;
	cwd=*) cwd=${line#cwd=} ;;
	spe=*) spe=${line#spe=} ;;
	esac
done < /run/armprof/config
[ -n "$share" ] && [ -f /run/armprof/command ] || fail setup "no share= in /run/armprof/config or no command file"

# The SPE driver: arm_spe_pmu registers the PMU arm_spe_0 when its probe of
# the device-tree node succeeded (it refuses under KPTI, or without SPE).
if [ "$spe" = 1 ] && [ ! -e /sys/bus/event_source/devices/arm_spe_0 ]; then
	if ! grep -q '/arm_spe_pmu\.ko' "$order" 2> /dev/null; then
		why="this kernel has no arm_spe_pmu module"
	elif ! grep -q '^arm_spe_pmu ' /proc/modules; then
		why="the arm_spe_pmu module did not load"
	else
		why="arm_spe_pmu loaded but did not probe (no SPE in the CPU, no device-tree node, or KPTI on)"
	fi
	echo "armprof guest: kernel lines about SPE:"
	dmesg | grep -i -e arm_spe -e kpti -e 'page table isolation' | sed 's/^/armprof guest:   /'
	fail spe "$why; /sys/bus/event_source/devices has: $(ls /sys/bus/event_source/devices | tr '\n' ' ')"
fi

mkdir -p "$share" && mount_9p armprof "$share" ||
	fail setup "cannot mount the share (9p tag armprof) at $share: $(cat /tmp/mount.err)"
cd "${cwd:-$share}" || fail setup "cannot enter $cwd in the guest"

# The command's output goes to the console unchanged (no \n -> \r\n), with
# no kernel messages in between; perf neither pages nor opens its TUI.
stty -opost < /dev/console 2>/dev/null
dmesg -n 1
export HOME=/root TERM=dumb PAGER=cat
mkdir -p /root
echo "$mark start"
/bin/sh -c "$(cat /run/armprof/command)" < /dev/null
status=$?
# A newline first: the host drops it, so output without a final newline
# still ends as it was, and the marker starts a line.
printf '\n%s exit %d\n' "$mark" "$status"
finish "exit $status"
