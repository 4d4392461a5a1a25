#!/usr/bin/env bash
# Configures and builds armprof into build/ (release with debug info).
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -G Ninja -DARMPROF_WERROR=ON >/dev/null
cmake --build build
