# Sourced by the bench scripts: best RUNS_CMD... prints "wall cpu", the
# best of $runs runs of the command for each (CPU = user + sys), with its
# output dropped and the last run's stderr left in $tmp/err. Needs $runs,
# $tmp and /usr/bin/time.
best() {
  local bw="" bc="" w u s c
  for _ in $(seq "$runs"); do
    /usr/bin/time -f '%e %U %S' -o "$tmp/t" "$@" > /dev/null 2> "$tmp/err"
    read -r w u s < "$tmp/t"
    c=$(awk -v u="$u" -v s="$s" 'BEGIN { print u + s }')
    if [ -z "$bw" ] || awk -v a="$w" -v b="$bw" 'BEGIN { exit !(a < b) }'; then bw=$w; fi
    if [ -z "$bc" ] || awk -v a="$c" -v b="$bc" 'BEGIN { exit !(a < b) }'; then bc=$c; fi
  done
  echo "$bw $bc"
}
