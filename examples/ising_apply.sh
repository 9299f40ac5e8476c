#!/usr/bin/env bash
# The bundled example: the transverse-field Ising Hamiltonian (MPO, bond 3, float64, written by
# `src-compress generate ising`) applied to a random complex MPS of bond 16 written by h5py in
# the physics leg order "lpr" with the boundary bonds dropped. The exact product has bond 48;
# SRC compresses it to --chi 24 and writes the result with its transfer log.
# Usage: examples/ising_apply.sh SRC_COMPRESS_BINARY OUTPUT_DIR
set -euo pipefail
bin=${1:?usage: ising_apply.sh SRC_COMPRESS OUTPUT_DIR}
out=${2:?usage: ising_apply.sh SRC_COMPRESS OUTPUT_DIR}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"

"$bin" inspect "$here/data/ising_n16.h5"
"$bin" inspect "$here/data/psi_n16_lpr.h5"
"$bin" apply "$here/data/ising_n16.h5" "$here/data/psi_n16_lpr.h5:/psi" \
  -o "$out/H_psi.h5" --chi 24 --seed 2026 --force -q
"$bin" inspect "$out/H_psi.h5"
echo "result: $out/H_psi.h5"
