#!/usr/bin/env bash
# The SRC paper's synthetic benchmark (arXiv:2504.06475, §4): a random MPO times a random MPS
# (entries Uniform[−0.5, 1], each site divided by its Frobenius norm), physical dimension 2,
# bonds D = χ, complex128 by default.
#   For each χ̄: plain SRC, SRC with --oversample, and the optimal truncation (contract, then
#   SVD-truncate to χ̄): the error of each, its ratio to the optimal one, the run's error
#   estimate over its true error, and the time.
#   For each tolerance: --tol alone, its largest bond and the optimal bonds for that tolerance
#   (how many cuts are more than 2 above them), its error, estimate and time, and the time of a
#   fixed-χ̄ run at the largest bond it chose.
# Errors are ‖result − reference‖ / ‖reference‖ (`src-compress distance`). The reference is the
# exact product (SRC at χ̄ = D·χ, exact with probability one) where D·χ <= 512; above that,
# SRC with --oversample at χ̄ = REF (default 200), whose own error estimate is printed: the
# exact product of the paper's size has bond 2500, which needs ~10 GB and ~10 min here.
#
# Usage: scripts/paper_benchmark.sh [--paper] [--sites N] [--bond D] [--chis "4 8 16"]
#                                   [--tols "1e-4 1e-6"] [--dtype T] [--seed S] [--ref REF]
#   (no flags)  n = 20, D = χ = 12: about half a minute on 2 cores
#   --paper     n = 100, D = χ = 50, χ̄ = 10 20 50, tol = 1e-6 … 1e-14: a few minutes
set -euo pipefail
cd "$(dirname "$0")/.."
sites=20 bond=12 chis="4 8 16 32" tols="1e-3 1e-5 1e-7" dtype=complex128 seed=1 ref=200
while [ $# -gt 0 ]; do
  case "$1" in
    --paper) sites=100 bond=50 chis="10 20 50" tols="1e-6 1e-8 1e-10 1e-12 1e-14"; shift ;;
    --sites) sites=$2; shift 2 ;;
    --bond) bond=$2; shift 2 ;;
    --chis) chis=$2; shift 2 ;;
    --tols) tols=$2; shift 2 ;;
    --dtype) dtype=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --ref) ref=$2; shift 2 ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
done
[ -x build/app/src-compress ] || bash scripts/setup.sh
bin=build/app/src-compress
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$bin" -q generate random-mpo -o "$work/H.h5" --sites "$sites" --bond "$bond" --dtype "$dtype" --seed "$seed" >/dev/null
"$bin" -q generate random-mps -o "$work/psi.h5" --sites "$sites" --bond "$bond" --dtype "$dtype" --seed $((seed + 1)) >/dev/null
if [ $((bond * bond)) -le 512 ]; then
  reference="the exact product (SRC at χ̄ = $((bond * bond)))"
  "$bin" -q apply "$work/H.h5" "$work/psi.h5" -o "$work/ref.h5" --chi $((bond * bond)) --seed 7 --json >"$work/ref.json"
else
  reference="SRC with --oversample at χ̄ = $ref"
  "$bin" -q apply "$work/H.h5" "$work/psi.h5" -o "$work/ref.h5" --chi "$ref" --oversample --seed 7 --json >"$work/ref.json"
fi

# field FILE KEY: a value of a one-line JSON document
field() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$1" "$2"; }
dist() { "$bin" -q distance "$1" "$work/ref.h5" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["relative_distance"])'; }
run() {  # run NAME ARGS...: apply with ARGS, JSON summary in NAME.json
  local name=$1
  shift
  "$bin" -q apply "$work/H.h5" "$work/psi.h5" -o "$work/$name.h5" --seed 3 --force --json "$@" >"$work/$name.json"
}

echo "n = $sites, D = χ = $bond, d = 2, $dtype. Reference: $reference; max bond $(field "$work/ref.json" max_bond)," \
     "estimated error $(printf %.1e "$(field "$work/ref.json" error_estimate)"), $(printf %.1f "$(field "$work/ref.json" wall_seconds)") s"
echo
echo "| χ̄ | plain SRC error | ×opt | est/err | s | + --oversample error | ×opt | est/err | s | optimal error |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for chi in $chis; do
  run plain --chi "$chi"
  run over --chi "$chi" --oversample
  "$bin" -q truncate "$work/ref.h5" -o "$work/opt.h5" --chi "$chi" --force >/dev/null
  python3 - "$chi" "$(dist "$work/plain.h5")" "$(dist "$work/over.h5")" "$(dist "$work/opt.h5")" \
    "$work/plain.json" "$work/over.json" <<'PY'
import json, sys
chi, plain, over, opt = sys.argv[1], *map(float, sys.argv[2:5])
p, o = (json.load(open(f)) for f in sys.argv[5:7])
ratio = lambda e: "%.2f" % (e / opt) if opt > 0 else "-"
est = lambda r, e: "%.2f" % (r["error_estimate"] / e) if e > 0 else "-"
print(f"| {chi} | {plain:.3e} | {ratio(plain)} | {est(p, plain)} | {p['wall_seconds']:.2f} "
      f"| {over:.3e} | {ratio(over)} | {est(o, over)} | {o['wall_seconds']:.2f} | {opt:.3e} |")
PY
done
echo
echo "| tol | max bond | optimal max bond | cuts > optimal + 2 | error | est/err | s | fixed χ̄ at that bond, s |"
echo "|---|---|---|---|---|---|---|---|"
for tol in $tols; do
  run tol --tol "$tol"
  run fixed --chi "$(field "$work/tol.json" max_bond)"
  "$bin" -q truncate "$work/ref.h5" -o "$work/topt.h5" --tol "$tol" --force --json >"$work/topt.json"
  python3 - "$tol" "$(dist "$work/tol.h5")" "$work/tol.json" "$work/topt.json" "$work/fixed.json" <<'PY'
import json, sys
tol, err = sys.argv[1], float(sys.argv[2])
a, o, f = (json.load(open(x)) for x in sys.argv[3:6])
over = sum(1 for x, y in zip(a["bonds"], o["bonds"]) if x > y + 2)
est = "%.2f" % (a["error_estimate"] / err) if err > 0 else "-"
print(f"| {tol} | {a['max_bond']} | {o['max_bond']} | {over} of {len(a['bonds'])} | {err:.3e} | {est} "
      f"| {a['wall_seconds']:.2f} | {f['wall_seconds']:.2f} |")
PY
done
