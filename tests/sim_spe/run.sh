#!/bin/bash
# Run one SPE scenario script: run.sh ARMPROF SRCDIR WORKDIR NAME
#
# Directives in the script (comment lines starting with "#!"):
#   #! exit N             expected exit status of `armprof sim` (default 0)
#   #! stderr TEXT        stderr must contain TEXT
#   #! decode FILE N      `armprof decode FILE` (written by `mem save FILE`)
#                         exits 0 and prints N records
#   #! decode-golden FILE GOLDEN   its text output equals tests/sim_spe/GOLDEN
# If tests/sim_spe/NAME.expected exists, stdout must equal it.
set -u
armprof=$1
src=$2/tests/sim_spe
work=$3
name=$4
script=$src/$name.sim
rm -rf "$work"
mkdir -p "$work"
cd "$work" || exit 2

fail=0
want_exit=$(sed -n 's/^#! exit \([0-9]\)$/\1/p' "$script" | tail -1)
"$armprof" sim "$script" > out.txt 2> err.txt
rc=$?
if [ "$rc" != "${want_exit:-0}" ]; then
	echo "FAIL $name: exit $rc, expected ${want_exit:-0}"
	cat err.txt
	fail=1
fi
while IFS= read -r pat; do
	if ! grep -qF -- "$pat" err.txt; then
		echo "FAIL $name: stderr lacks: $pat"
		cat err.txt
		fail=1
	fi
done < <(sed -n 's/^#! stderr //p' "$script")
while read -r file n; do
	"$armprof" decode "$file" > "$file.txt" 2> "$file.err"
	drc=$?
	count=$(grep -c '^@' "$file.txt")
	if [ "$drc" != 0 ] || [ "$count" != "$n" ]; then
		echo "FAIL $name: armprof decode $file: exit $drc, $count records, expected 0 and $n"
		cat "$file.err"
		fail=1
	fi
done < <(sed -n 's/^#! decode //p' "$script")
while read -r file golden; do
	"$armprof" decode "$file" > "$file.golden.txt" 2>/dev/null
	if ! diff -u "$src/$golden" "$file.golden.txt"; then
		echo "FAIL $name: decode of $file differs from $golden"
		fail=1
	fi
done < <(sed -n 's/^#! decode-golden //p' "$script")
if [ -f "$src/$name.expected" ] && ! diff -u "$src/$name.expected" out.txt; then
	echo "FAIL $name: stdout differs from $name.expected"
	fail=1
fi
[ "$fail" = 0 ] && echo "ok $name"
exit $fail
