#!/usr/bin/env bash
# The main job on the built-in default input.
set -euo pipefail
cd "$(dirname "$0")/.."
./build/armprof demo
