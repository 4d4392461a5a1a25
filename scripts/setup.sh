#!/usr/bin/env bash
# The README's first command: install what is needed, build, and run the
# main job on the built-in default input.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
bash scripts/main-job.sh
