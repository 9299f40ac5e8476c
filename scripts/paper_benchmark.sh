#!/usr/bin/env bash
# The SRC paper's synthetic benchmark shape (arXiv:2504.06475, §4): a random MPO times a random
# MPS (entries Uniform[−0.5, 1], each site divided by its Frobenius norm), physical dimension 2,
# bonds D = χ. For each χ̄: the error of plain SRC, of SRC with oversampling, and of the
# optimal contract-then-SVD truncation, each with its time and bond; then a tolerance sweep:
# adaptive SRC (--tol --oversample) against the optimal bonds for that tolerance.
# Errors are ‖result − exact‖ / ‖exact‖ with the exact product computed by SRC at full bond.
#
# Usage: scripts/paper_benchmark.sh [--sites N] [--bond D] [--chis "4 8 16"] [--tols "1e-4 1e-6"]
#                                   [--dtype float64] [--seed S]
# Defaults finish in about a minute on 2 cores; the paper's sizes are
#   --sites 100 --bond 50 --chis "10 20 50" --tols "1e-6 1e-10"   (hours on 2 cores: the exact
# product has bond 2500).
set -euo pipefail
cd "$(dirname "$0")/.."
sites=20 bond=12 chis="4 8 16 32" tols="1e-3 1e-5 1e-7" dtype=float64 seed=1
while [ $# -gt 0 ]; do
  case "$1" in
    --sites) sites=$2; shift 2 ;;
    --bond) bond=$2; shift 2 ;;
    --chis) chis=$2; shift 2 ;;
    --tols) tols=$2; shift 2 ;;
    --dtype) dtype=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
done
[ -x build/app/src-compress ] || bash scripts/setup.sh
bin=build/app/src-compress
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$bin" -q generate random-mpo -o "$work/H.h5" --sites "$sites" --bond "$bond" --dtype "$dtype" --seed "$seed" >/dev/null
"$bin" -q generate random-mps -o "$work/psi.h5" --sites "$sites" --bond "$bond" --dtype "$dtype" --seed $((seed + 1)) >/dev/null
"$bin" -q apply "$work/H.h5" "$work/psi.h5" -o "$work/exact.h5" --chi $((bond * bond)) --seed 7 --json >"$work/exact.json"

# field FILE KEY: a number from a one-line JSON document
field() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$1" "$2"; }
dist() { "$bin" -q distance "$1" "$work/exact.h5" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["relative_distance"])'; }

echo "n = $sites, D = χ = $bond, d = 2, $dtype; exact product: max bond $(field "$work/exact.json" max_bond), $(printf %.2f "$(field "$work/exact.json" wall_seconds)") s"
echo
echo "| χ̄ | plain SRC error | ×opt | s | SRC+oversampling error | ×opt | s | optimal error | s (after exact) |"
echo "|---|---|---|---|---|---|---|---|---|"
for chi in $chis; do
  "$bin" -q apply "$work/H.h5" "$work/psi.h5" -o "$work/plain.h5" --chi "$chi" --seed 3 --force --json >"$work/plain.json"
  "$bin" -q apply "$work/H.h5" "$work/psi.h5" -o "$work/over.h5" --chi "$chi" --oversample --seed 3 --force --json >"$work/over.json"
  "$bin" -q truncate "$work/exact.h5" -o "$work/opt.h5" --chi "$chi" --force --json >"$work/opt.json"
  python3 - "$chi" "$(dist "$work/plain.h5")" "$(dist "$work/over.h5")" "$(dist "$work/opt.h5")" \
    "$(field "$work/plain.json" wall_seconds)" "$(field "$work/over.json" wall_seconds)" "$(field "$work/opt.json" wall_seconds)" <<'PY'
import sys
chi, plain, over, opt, tp, to, tt = sys.argv[1], *map(float, sys.argv[2:])
ratio = lambda e: "%.2f" % (e / opt) if opt > 0 else "-"
print(f"| {chi} | {plain:.3e} | {ratio(plain)} | {tp:.2f} | {over:.3e} | {ratio(over)} | {to:.2f} | {opt:.3e} | {tt:.2f} |")
PY
done
echo
echo "| tol | adaptive SRC max bond | error | s | optimal max bond | error | bonds differing by > 2 |"
echo "|---|---|---|---|---|---|---|"
for tol in $tols; do
  "$bin" -q apply "$work/H.h5" "$work/psi.h5" -o "$work/tol.h5" --tol "$tol" --oversample --seed 3 --force --json >"$work/tol.json"
  "$bin" -q truncate "$work/exact.h5" -o "$work/topt.h5" --tol "$tol" --force --json >"$work/topt.json"
  python3 - "$tol" "$(dist "$work/tol.h5")" "$(dist "$work/topt.h5")" "$work/tol.json" "$work/topt.json" <<'PY'
import json, sys
tol, err, opt_err = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
a, o = json.load(open(sys.argv[4])), json.load(open(sys.argv[5]))
off = sum(1 for x, y in zip(a["bonds"], o["bonds"]) if abs(x - y) > 2)
print(f"| {tol} | {a['max_bond']} | {err:.3e} | {a['wall_seconds']:.2f} | {o['max_bond']} | {opt_err:.3e} | {off} of {len(a['bonds'])} |")
PY
done
