#!/usr/bin/env bash
# Sets everything up (scripts/setup.sh) and runs the whole test suite with CTest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# A failure is shown again at the end, where a log's tail shows it.
ctest --test-dir build --output-on-failure -j "$(nproc)" ||
  { ctest --test-dir build --rerun-failed --output-on-failure; exit 1; }
