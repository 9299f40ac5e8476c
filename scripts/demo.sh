#!/usr/bin/env bash
# Sets up what the program needs and builds it alone (scripts/setup.sh --demo), then runs the main job on the bundled example:
# the transverse-field Ising Hamiltonian applied to a random MPS, compressed by SRC.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --demo
bash examples/ising_apply.sh build/app/src-compress "${1:-$(mktemp -d)}"
