#!/usr/bin/env bash
# Our whole process against quimb's in-process `gate_with_mpo` (methods zipup, with cutoff 0,
# and src) on the same inputs and output bond: the four cases of docs/PERFORMANCE.md, complex128,
# the paper's random recipe. quimb is not a Debian package: point QUIMB_PATH at its sources
# (and those of autoray and cotengra), e.g. checkouts of github.com/jcmgray/{quimb,autoray,cotengra}:
#
#   QUIMB_PATH=$HOME/src/quimb:$HOME/src/autoray:$HOME/src/cotengra bash scripts/compare_quimb.sh [ROUNDS]
#
# Python needs Debian's python3-h5py, python3-numba, python3-toolz, python3-cytoolz,
# python3-tqdm and python3-psutil (numba's JIT is switched off: NUMBA_DISABLE_JIT=1, which is
# how these measurements were taken). Ours: the median of 5 runs of the whole process (start to
# exit, `--force` replacing the previous output); quimb: the best of 5 calls (3 at n = 100,
# D = 50) inside one Python process, imports and file reading excluded. Prints one line per
# case and round with the fastest peer's time over ours.
set -euo pipefail
cd "$(dirname "$0")/.."
: "${QUIMB_PATH:?set QUIMB_PATH to the quimb, autoray and cotengra sources (see the top of this script)}"
bin=${SRC_COMPRESS:-build/app/src-compress}
py=${PYTHON:-/usr/bin/python3}  # Debian's Python, where the packages above are
[ -x "$bin" ] || bash scripts/setup.sh
. scripts/peer_blas.sh "$bin"
rounds=${1:-1}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cases="40:32:32:5 20:50:50:5 100:16:32:5 100:50:50:3"  # n:bond:chi:quimb repeats
for c in $cases; do
  IFS=: read -r n bond chi _ <<<"$c"
  "$bin" -q generate random-mpo -o "$work/H$n-$bond.h5" --sites "$n" --bond "$bond" --dtype complex128 --seed 1 --force >/dev/null
  "$bin" -q generate random-mps -o "$work/P$n-$bond.h5" --sites "$n" --bond "$bond" --dtype complex128 --seed 2 --force >/dev/null
done

cat >"$work/quimb_time.py" <<'PY'
import sys, time
import h5py
import quimb.tensor as qtn

hfile, pfile, chi, reps = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])

def load(path, group):
    g = h5py.File(path)[group]
    return [g[str(j)][()] for j in range(int(g.attrs["length"]))]

mpo = qtn.MatrixProductOperator(load(hfile, "A"), shape="lrud")
mps = qtn.MatrixProductState(load(pfile, "psi"), shape="lrp")
best = {}
for method, opts in (("zipup", dict(cutoff=0.0)), ("src", dict(seed=3))):
    t = float("inf")
    for _ in range(reps):
        t0 = time.perf_counter()
        mps.gate_with_mpo(mpo, method=method, max_bond=chi, **opts)
        t = min(t, time.perf_counter() - t0)
    best[method] = t
print(best["zipup"], best["src"])
PY

printf '%-22s %10s %12s %10s %8s\n' case "ours s" "zip-up s" "src s" "ratio"
for r in $(seq "$rounds"); do
  for c in $cases; do
    IFS=: read -r n bond chi reps <<<"$c"
    h="$work/H$n-$bond.h5" p="$work/P$n-$bond.h5"
    : >"$work/ours.txt"
    for _ in 1 2 3 4 5; do
      t0=$EPOCHREALTIME
      "$bin" -q apply "$h" "$p" -o "$work/out.h5" --chi "$chi" --seed 3 --force >/dev/null 2>&1
      t1=$EPOCHREALTIME
      echo "$t0 $t1" >>"$work/ours.txt"
    done
    read -r zipup src < <(PYTHONPATH="$QUIMB_PATH" NUMBA_DISABLE_JIT=1 "$py" "$work/quimb_time.py" "$h" "$p" "$chi" "$reps" 2>/dev/null)
    "$py" - "$work/ours.txt" "$zipup" "$src" "n=$n D=χ=$bond χ̄=$chi" <<'PY'
import statistics, sys
ours = statistics.median(float(b) - float(a) for a, b in (l.split() for l in open(sys.argv[1])))
zipup, src = float(sys.argv[2]), float(sys.argv[3])
print(f"{sys.argv[4]:<22} {ours:10.3f} {zipup:12.3f} {src:10.3f} {min(zipup, src) / ours:7.2f}x")
PY
  done
done
