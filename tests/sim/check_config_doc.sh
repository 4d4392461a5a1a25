#!/bin/bash
# Every configuration key the model has (armprof sim --list-config) appears
# in docs/model-config.md with its real default.
#   check_config_doc.sh ARMPROF SRCDIR [SCRATCH]   check
#   check_config_doc.sh ARMPROF SRCDIR --update    rewrite the table between the
#                                                  "keys:begin/end" markers
set -u
armprof=$1 src=$2 mode=${3:-}
doc=$src/docs/model-config.md
table() {
	echo "| key | default | meaning (requirement IDs) |"
	echo "|---|---|---|"
	"$armprof" sim --list-config | awk -F'\t' '{split($1,kv,"="); printf "| `%s` | `%s` | %s |\n", kv[1], kv[2], $2}'
}
if [ "$mode" = "--update" ]; then
	tmp=$(mktemp "$doc.XXXXXX")
	awk -v table="$(table)" '
		/<!-- keys:begin -->/ { print; print table; skip = 1; next }
		/<!-- keys:end -->/ { skip = 0 }
		!skip { print }' "$doc" >"$tmp" && mv "$tmp" "$doc"
	exit
fi
fail=0 n=0
while IFS=$'\t' read -r kv _; do
	key=${kv%%=*} value=${kv#*=}
	n=$((n + 1))
	if ! grep -qF -- "| \`$key\` | \`$value\` |" "$doc"; then
		echo "docs/model-config.md lacks or misstates: $key (default $value);" \
		     "run: bash tests/sim/check_config_doc.sh ARMPROF . --update"
		fail=1
	fi
done < <("$armprof" sim --list-config)
[ $n -gt 0 ] || { echo "no keys listed"; fail=1; }
exit $fail
