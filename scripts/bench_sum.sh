#!/usr/bin/env bash
# A sum of products in one sweep (apply --term) against the products one at a time. The sum is
# a second-order Taylor step ψ − iτ Hψ − τ²/2 H²ψ (τ = 0.1) for the paper's random MPO H (bond
# D) and MPS ψ (bond χ), compressed to χ̄: plain, --oversample, and --fit-tol 1e-3.
#
# Beside it, the time of compressing ψ and computing the products Hψ and H·H·ψ separately at χ̄ (what a
# term-by-term approach pays before it has even added them: adding gives bond 2χ̄ + χ, to be
# compressed once more, with a second error). The error is `distance` to a reference (the sum
# by src --oversample at 4·χ̄) next to the optimum (`truncate` of the reference to χ̄). Times are
# the sweep's seconds (reading included) and its GEMM work, medians of REPEATS (default 5),
# alternating.
#
# With QUIMB_PATH (as for bench_methods.sh), quimb's `fit` on the same sum too (the one quimb
# method that takes a sum: variational sweeps over the sequence of networks), timed on its
# second call (scripts/quimb_methods.py --terms).
#
#   scripts/bench_sum.sh                                    # n = 20, D = 8, χ = 48, χ̄ = 24
#   N=12 D=4 CHI=16 CHIBAR=24 REPEATS=1 scripts/bench_sum.sh   # a quick look
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x build/app/src-compress ] || bash scripts/setup.sh
bin=$(realpath build/app/src-compress)
. scripts/peer_blas.sh "$bin"
n=${N:-20} d=${D:-8} chi=${CHI:-48} chibar=${CHIBAR:-24} repeats=${REPEATS:-5}
work=$(mktemp -d "${TMPDIR:-/tmp}/srcc-sum.XXXXXX")
trap 'rm -rf "$work"' EXIT

zgemm=$(build/benchmarks/srcc_bench --benchmark_filter='BM_Zgemm/(1024|2048)|BM_FirstTouch' \
        --benchmark_format=json 2>/dev/null | python3 scripts/machine_rates.py | cut -d' ' -f1)
printf "%s %s cores, ZGEMM %.0f GFLOP/s; medians of %s runs\n" "$(date -u +%F)" "$(nproc)" "$zgemm" "$repeats"
echo "Taylor step ψ − iτHψ − τ²/2·H²ψ, τ = 0.1: n = $n, H bond $d, ψ bond $chi, χ̄ = $chibar"

"$bin" -q generate random-mpo -o "$work/in.h5:/H" --sites "$n" --bond "$d" --seed 1
"$bin" -q generate random-mps -o "$work/in.h5:/psi" --sites "$n" --bond "$chi" --seed 2
H="$work/in.h5:/H" psi="$work/in.h5:/psi"
sum="--term 1 $psi --term -0.1i $H $psi --term -0.005 $H $H $psi"
# shellcheck disable=SC2086
"$bin" -q apply $sum -o "$work/ref.h5" --chi $((4 * chibar)) --oversample --seed 9 2>/dev/null
"$bin" -q truncate "$work/ref.h5" -o "$work/opt.h5" --chi "$chibar"
field() { python3 -c "import json,sys; print(json.load(sys.stdin)['$1'])"; }
optimal=$("$bin" distance "$work/opt.h5" "$work/ref.h5" --json | field relative_distance)

runs=("sum:--method src" "sum:--oversample" "sum:--fit-tol 1e-3 --fit-sweeps 10"
      "psi" "H psi" "H H psi")
declare -A secs=() errs=() peaks=() gflop=()
for ((r = 0; r < repeats; ++r)); do
  for i in "${!runs[@]}"; do
    spec=${runs[$i]}
    if [[ $spec == sum:* ]]; then
      # shellcheck disable=SC2086
      out=$("$bin" -q apply $sum -o "$work/r$i.h5" --force --chi "$chibar" --seed $((r + 1)) ${spec#sum:} --json)
      errs[$i]+="$("$bin" distance "$work/r$i.h5" "$work/ref.h5" --json | field relative_distance) "
    else
      trains=${spec//H/$H}
      trains=${trains//psi/$psi}
      # shellcheck disable=SC2086
      command=apply
      [[ $spec == psi ]] && command=compress
      # In the sum's working type (complex: a weight is), for work that compares.
      out=$("$bin" -q $command $trains -o "$work/r$i.h5" --force --chi "$chibar" --seed $((r + 1)) --dtype complex128 --json)
      errs[$i]+="nan "
    fi
    secs[$i]+="$(echo "$out" | field sweep_seconds) "
    peaks[$i]+="$(echo "$out" | field peak_rss_bytes) "
    gflop[$i]+="$(echo "$out" | field gflop) "
  done
done

if [ -n "${QUIMB_PATH:-}" ]; then
  py=/usr/bin/python3
  [ -x "$py" ] || py=python3
  spec="[[1,0,\"$psi\"],[0,-0.1,\"$H\",\"$psi\"],[-0.005,0,\"$H\",\"$H\",\"$psi\"]]"
  for ((r = 0; r < repeats; ++r)); do
    line=$(PYTHONPATH=$QUIMB_PATH "$py" scripts/quimb_methods.py --terms "$spec" "$chibar" "$work" fit --seed $((r + 1)) 2>/dev/null)
    qsecs+="$(echo "$line" | field seconds) "
    qerrs+="$("$bin" distance "$work/quimb-fit.h5" "$work/ref.h5" --json | field relative_distance) "
  done
fi

printf '\n  %-46s %10s %8s %12s %10s %9s\n' run seconds GFLOP "rel. error" "× optimum" "peak MB"
for i in "${!runs[@]}"; do
  spec=${runs[$i]}
  label=${spec/sum:/"sum in one sweep, "}
  [[ $spec == sum:* ]] || label="product $spec alone"
  python3 - "$label" "${secs[$i]}" "${gflop[$i]}" "${errs[$i]}" "${peaks[$i]}" "$optimal" <<'PY'
import math, statistics, sys
label, s, g, e, p, opt = sys.argv[1], *[list(map(float, a.split())) for a in sys.argv[2:6]], float(sys.argv[6])
err = statistics.median(e)
ratio = "" if math.isnan(err) else "%.2f" % (err / opt)
shown = "" if math.isnan(err) else "%.3e" % err
print("  %-46s %10.3f %8.3f %12s %10s %9.1f" % (label, statistics.median(s), statistics.median(g), shown, ratio,
                                                statistics.median(p) / 1e6))
PY
done
if [ -n "${qsecs:-}" ]; then
  python3 - "${qsecs}" "${qerrs}" "$optimal" <<'PY'
import statistics, sys
s, e = [list(map(float, a.split())) for a in sys.argv[1:3]]
err = statistics.median(e)
print("  %-46s %10.3f %8s %12.3e %10.2f" % ("quimb fit of the sum", statistics.median(s), "", err, err / float(sys.argv[3])))
PY
fi
echo "  optimal truncation of the sum to χ̄: $optimal"
