#!/bin/bash
# Runs the scenario scripts of one folder with `armprof sim`:
#   run_sim_dir.sh ARMPROF DIR WORKDIR
#   DIR/*.sim      must exit 0; if NAME.out exists, stdout must equal it.
#   DIR/bad/*.sim  header lines "# expect-exit: N" and "# expect-stderr: TEXT"
#                  (TEXT must appear in stderr, which must name FILE:LINE).
# Prints one line per script; exits 1 if any failed or fewer than 10 ran.
set -u
armprof=$1 dir=$2 work=$3
mkdir -p "$work"
fail=0 count=0
for script in "$dir"/*.sim; do
	count=$((count + 1))
	name=$(basename "$script" .sim)
	"$armprof" sim "$script" >"$work/$name.stdout" 2>"$work/$name.stderr"
	rc=$?
	if [ $rc -ne 0 ]; then
		echo "FAIL $name: exit $rc"; cat "$work/$name.stderr"; fail=1; continue
	fi
	if [ -f "$dir/$name.out" ] && ! diff -u "$dir/$name.out" "$work/$name.stdout"; then
		echo "FAIL $name: output differs"; fail=1; continue
	fi
	echo "ok   $name"
done
for script in "$dir"/bad/*.sim; do
	[ -e "$script" ] || continue
	count=$((count + 1))
	name=bad/$(basename "$script" .sim)
	want_rc=$(sed -n 's/^# expect-exit: *//p' "$script" | head -1)
	want_err=$(sed -n 's/^# expect-stderr: *//p' "$script" | head -1)
	if [ -z "$want_rc" ] || [ -z "$want_err" ]; then
		echo "FAIL $name: header lacks expect-exit/expect-stderr"; fail=1; continue
	fi
	"$armprof" sim "$script" >"$work/bad.stdout" 2>"$work/bad.stderr"
	rc=$?
	if [ "$rc" != "$want_rc" ]; then
		echo "FAIL $name: exit $rc, expected $want_rc"; cat "$work/bad.stderr"; fail=1; continue
	fi
	if ! grep -qF -- "$want_err" "$work/bad.stderr"; then
		echo "FAIL $name: stderr lacks '$want_err':"; cat "$work/bad.stderr"; fail=1; continue
	fi
	if ! grep -qE -- "$(basename "$script"):[0-9]+: " "$work/bad.stderr"; then
		echo "FAIL $name: stderr lacks FILE:LINE:"; cat "$work/bad.stderr"; fail=1; continue
	fi
	echo "ok   $name"
done
[ $count -gt 10 ] || { echo "FAIL: only $count scripts found in $dir"; fail=1; }
exit $fail
