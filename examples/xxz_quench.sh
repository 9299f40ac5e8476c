#!/usr/bin/env bash
# A physicist's workflow without leaving the tool: TeNPy's DMRG ground state of the XXZ chain
# (L = 12, Jz = 0.7, hz = 0.1; tests/data/tenpy_xxz_L12_sz.h5) is quenched to Jz = −0.5 by a W^II
# step generated from an operator sum, evolved to t = 2 with the magnetisation profile and the
# entanglement entropies recorded at every step, its connected ⟨Sz_i Sz_j⟩ and Schmidt spectrum
# measured at the end, and the final state written back as a TeNPy file on the ground state's
# sites (TeNPy's hdf5_io.load reads it; scripts/tenpy_check.py checks that). The post-quench
# energy is conserved up to W^II's error, which the script checks.
# Copy it and change the model (the terms), the step or the sizes.
# Usage: examples/xxz_quench.sh SRC_COMPRESS_BINARY OUTPUT_DIR
set -euo pipefail
bin=$(realpath "${1:?usage: xxz_quench.sh SRC_COMPRESS OUTPUT_DIR}")
gs=$(realpath "$(dirname "$0")/../tests/data/tenpy_xxz_L12_sz.h5"):/psi
out=${2:?usage: xxz_quench.sh SRC_COMPRESS OUTPUT_DIR}
mkdir -p "$out"
cd "$out"

# The quench Hamiltonian, one term per line, repeated along the chain; written in the basis the
# TeNPy state names (its SpinSite stores (down, up)).
cat > quench.terms <<'TERMS'
0.5  Sp 0 Sm 1
0.5  Sm 0 Sp 1
-0.5 Sz 0 Sz 1
TERMS
"$bin" -q generate opsum --sites 12 --terms quench.terms --translate --basis-of "$gs" -o H.h5 --force
"$bin" -q generate step --from H.h5 --dt 0.02 -o U.h5 --force          # e^{-i dt H}, W^II

# /trajectory: ⟨H⟩, ⟨Sz_i⟩ and the entropy S_b at every step; the state every 50 steps.
"$bin" evolve U.h5 "$gs" --steps 100 --dt 0.02 --chi 48 --seed 7 --measure H.h5 \
  --measure-site-op Sz --measure-entropy --save-every 50 -o quench.h5 --force

"$bin" expect quench.h5:/result --correlation Sz,Sz --site-range 3:9 --connected
"$bin" expect quench.h5:/result --entropy --spectrum 3 | sed -n '1,4p'

# Back home: the final state as TeNPy's own file, on the ground state's sites and charges.
"$bin" compress quench.h5:/result --chi 48 --seed 7 --template "$gs" -o back.h5 --force

# The energy after the quench is conserved up to the step's error (W^II: O(dt²) per step, so
# O(dt) over a fixed time: 1.1e-3 here from t = 1 to 2, 5.4e-4 at dt = 0.01): compare t = 1 and t = 2.
e1=$("$bin" expect quench.h5:/states/50 H.h5 --json | sed 's/.*"re": \([^,]*\),.*/\1/')
e2=$("$bin" expect back.h5:/psi H.h5 --json | sed 's/.*"re": \([^,]*\),.*/\1/')
awk -v a="$e1" -v b="$e2" 'BEGIN { d = a - b; if (d < 0) d = -d;
  printf "energy at t = 1: %.10f, at t = 2 (written back): %.10f, drift %.1e\n", a, b, d; exit !(d < 5e-3) }'
