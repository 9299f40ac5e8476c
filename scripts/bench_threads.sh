#!/usr/bin/env bash
# How the sweep scales from one thread to all of the machine's cores, next to numpy's ZGEMM
# measured the same way in the same minute (the yardstick: what the machine gives a GEMM that
# scales perfectly). One row per case: the medians of ROUNDS runs at 1 and at N threads,
# alternating, the sweep's seconds from --json; ZGEMM 2048³ on 1 and N OpenBLAS threads between
# the cases. Run on a quiet machine: another process on a core halves its share.
#
#   scripts/bench_threads.sh                       # N = nproc, cases below, 5 rounds
#   CASES="20:64:64 20:64:128" ROUNDS=9 scripts/bench_threads.sh
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-build/app/src-compress}
[ -x "$BIN" ] || cmake --build build --target src-compress >/dev/null
. scripts/peer_blas.sh "$BIN"  # numpy's ZGEMM, the yardstick, on our kernels
N=${THREADS:-$(nproc)}
ROUNDS=${ROUNDS:-5}
CASES=${CASES:-"20:64:64 20:64:128 40:100:100"}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
zgemm() {  # GFLOP/s of numpy's complex128 2048³ product on $1 OpenBLAS threads (best of 3)
  OPENBLAS_NUM_THREADS=$1 /usr/bin/python3 -c '
import numpy as np, time
n = 2048; a = (np.random.rand(n, n) + 1j) ; b = a.copy(); a @ b; best = 1e9
for _ in range(3):
    t = time.perf_counter(); a @ b; best = min(best, time.perf_counter() - t)
print("%.1f" % (8 * n**3 / best / 1e9))'
}
median() { /usr/bin/python3 -c 'import statistics,sys; print("%.4f" % statistics.median(map(float, sys.argv[1:])))' "$@"; }
echo "# $(date -u +%F) $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores; 1 against $N threads, medians of $ROUNDS"
printf '%-14s %10s %10s %8s %12s %12s %8s\n' "n:D=χ:χ̄" "1 thread" "$N threads" speedup "ZGEMM 1" "ZGEMM $N" "ratio"
for c in $CASES; do
  IFS=: read -r n d chi <<< "$c"
  "$BIN" -q generate random-mpo -o "$WORK/in.h5:/mpo" --sites "$n" --bond "$d" --seed 1 --force --dtype complex128
  "$BIN" -q generate random-mps -o "$WORK/in.h5:/mps" --sites "$n" --bond "$d" --seed 2 --force --dtype complex128
  one=() many=()
  for ((r = 0; r < ROUNDS; ++r)); do
    for t in 1 "$N"; do
      s=$("$BIN" -q apply "$WORK/in.h5:/mpo" "$WORK/in.h5:/mps" -o "$WORK/o.h5" --force --chi "$chi" --seed 1 \
            --threads "$t" --json | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["sweep_seconds"])')
      if [ "$t" = 1 ]; then one+=("$s"); else many+=("$s"); fi
    done
  done
  z1=$(zgemm 1); zn=$(zgemm "$N")
  a=$(median "${one[@]}"); b=$(median "${many[@]}")
  ratio() { /usr/bin/python3 -c 'import sys; print("%.2f" % (float(sys.argv[1]) / float(sys.argv[2])))' "$1" "$2"; }
  printf '%-14s %10s %10s %8s %12s %12s %8s\n' "$c" "$a" "$b" "$(ratio "$a" "$b")" "$z1" "$zn" "$(ratio "$zn" "$z1")"
done
