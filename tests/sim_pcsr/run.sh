#!/bin/bash
# $1 = armprof, $2 = source dir, $3 = scratch dir: the scripts of this folder
# (conventions in tests/run_sim_dir.sh).
exec bash "$2/tests/run_sim_dir.sh" "$1" "$2/tests/sim_pcsr" "$3"
