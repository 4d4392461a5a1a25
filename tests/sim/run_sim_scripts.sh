#!/bin/bash
# Runs the PE-core scenario scripts (conventions in tests/run_sim_dir.sh),
# then checks the command line of `armprof sim`.
# $1 = armprof, $2 = source dir, $3 = scratch dir.
set -u
armprof=$1 src=$2 work=$3
dir=$src/tests/sim
mkdir -p "$work"
fail=0
bash "$src/tests/run_sim_dir.sh" "$armprof" "$dir" "$work" || fail=1
# Command-line use of `armprof sim` (exit 2 with a message naming the problem).
cli() { # cli WANT_RC STDERR_TEXT ARGS...
	local want=$1 text=$2; shift 2
	"$armprof" sim "$@" >"$work/cli.out" 2>"$work/cli.err" </dev/null
	local rc=$?
	if [ $rc -ne "$want" ] || { [ -n "$text" ] && ! grep -qF -- "$text" "$work/cli.err" "$work/cli.out"; }; then
		echo "FAIL cli '$*': exit $rc (want $want), output:"; cat "$work/cli.err"; fail=1
	else
		echo "ok   cli $*"
	fi
}
cli 2 "usage: armprof sim"
cli 2 "no-such.sim: No such file" "$work/no-such.sim"
cli 2 "unknown option '--frob'" --frob "$dir/table3.sim"
cli 2 "only one SCRIPT" "$dir/table3.sim" "$dir/table5.sim"
cli 2 "-c: unknown config key 'nope'" -c nope=1 "$dir/table3.sim"
cli 2 "-c: expected KEY=VALUE" -c nope "$dir/table3.sim"
printf 'have_fgt=1 # FGT on\n\nspe.max_size=99\n' >"$work/bad.cfg"
cli 2 "bad.cfg:3: spe.max_size: 99 is out of range" --config "$work/bad.cfg" "$dir/table3.sim"
# access_fgt.sim without its `config have_fgt=1` line: fails, unless the
# command line or a config file supplies the key.
grep -v '^config ' "$dir/access_fgt.sim" >"$work/fgt_noconfig.sim"
printf '# FGT on\nhave_fgt=1\n' >"$work/fgt.cfg"
cli 1 "expectation failed" "$work/fgt_noconfig.sim"
cli 0 "" --config "$work/fgt.cfg" "$work/fgt_noconfig.sim"
cli 0 "" -c have_fgt=1 "$work/fgt_noconfig.sim"
cli 0 "usage: armprof sim" --help
cli 0 "spe.max_size=0x6" --list-config
# stdin
"$armprof" sim - <"$dir/table5.sim" >/dev/null 2>&1 && echo "ok   cli stdin" || { echo "FAIL cli stdin"; fail=1; }

exit $fail
