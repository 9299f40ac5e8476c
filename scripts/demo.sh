#!/usr/bin/env bash
# Sets everything up (scripts/setup.sh) and runs the main job on the bundled example:
# the transverse-field Ising Hamiltonian applied to a random MPS, compressed by SRC.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash examples/ising_apply.sh build/app/src-compress "${1:-$(mktemp -d)}"
