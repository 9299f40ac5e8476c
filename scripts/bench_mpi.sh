#!/usr/bin/env bash
# apply over MPI ranks on this machine: time and efficiency at 1 and 2 ranks (one thread each,
# each rank pinned to its core), and a cost model that predicts more ranks.
#   sum4:    a sum of 4 equal-cost terms Σ_k c_k H ψ_k (XXZ MPO, L = 40, states of bond 128,
#            χ̄ = 128), dealt over the ranks;
#   sum1:    its first term alone (with sum4, the model's split of a term's own and the shared work);
#   sum4sdc: sum4 by --method sdc (the ranks meet at each cut of the left sweep's reduction too);
#   sum4q:   sum4 computed on the states' U(1) charges (each rank sweeps its terms' blocks; the
#            cuts' block sketches are gathered); sum1q its first term alone, on charges;
#   sum4qsdc: sum4q by --method sdc (each rank its terms' R factors to all at each cut);
#   sum4qsdcr: sum4q by --method sdcr (every term's block shapes to all, its products gathered);
#   productq: product on charges, its sketch columns split (each rank its columns' block
#            environments and sketch rows; the rest of the right sweep on every rank);
#   product: one H·ψ at χ̄ = 256 (bond-256 state), its sketch columns split over the ranks;
#   product512: the same at χ̄ = 512.
# Each case alternates 1 and 2 ranks, REPEATS times; medians of the sweep's seconds. The errors
# of the ranks' results against the one-process result come from our `distance`.
#
#   scripts/bench_mpi.sh [REPEATS]        (default 3)
#   CASES="sum4 sum1 sum4sdc" scripts/bench_mpi.sh   # some cases (the models need sum4, sum1, product)
#   ALPHA=2e-6 BETA=1e10 scripts/bench_mpi.sh   # the network the model assumes (s, bytes/s)
set -euo pipefail
cd "$(dirname "$0")/.."
repeats=${1:-3}
BIN=build/app/src-compress
command -v mpirun >/dev/null || { echo "bench_mpi.sh: no mpirun (apt-get install openmpi-bin libopenmpi-dev)" >&2; exit 2; }
[ -e build/lib/libsrcc_mpi.so ] || { echo "bench_mpi.sh: this build has no MPI module (scripts/setup.sh with libopenmpi-dev)" >&2; exit 2; }
[ "$(id -u)" = 0 ] && export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
work=$(mktemp -d "${TMPDIR:-/tmp}/srcc-mpi.XXXXXX")
trap 'rm -rf "$work"' EXIT

dgemm=$(taskset -c 0 build/benchmarks/srcc_bench --benchmark_filter='BM_Dgemm/(1024|2048)|BM_FirstTouch' \
        --benchmark_format=json 2>/dev/null | python3 scripts/machine_rates.py | cut -d' ' -f1)
echo "$(date -u '+%F %H:%M') UTC, $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)), DGEMM $dgemm GFLOP/s on one thread; medians of $repeats"

# States with a flat spectrum (generate charged-random, computed dense: --symmetry off), so that
# every result keeps its full bond χ̄ (a plain random MPS's spectrum decays fast and its products
# keep bonds far below χ̄).
in=$work/in.h5
"$BIN" generate xxz -o "$in:/H" --sites 40 --delta 0.5 -q
for k in 0 1 2 3; do "$BIN" generate charged-random -o "$in:/psi$k" --sites 40 --bond 128 --seed $((k + 1)) -q; done
"$BIN" generate charged-random -o "$in:/big" --sites 40 --bond 256 --seed 9 -q
"$BIN" generate charged-random -o "$in:/huge" --sites 40 --bond 512 --seed 10 -q
terms4=(--term 1 "$in:/H" "$in:/psi0" --term 0.5 "$in:/H" "$in:/psi1" --term -0.25 "$in:/H" "$in:/psi2"
        --term 0.125 "$in:/H" "$in:/psi3" --chi 128)
sum4=("${terms4[@]}" --symmetry off)
sum1=(--term 1 "$in:/H" "$in:/psi0" --chi 128 --symmetry off)
product=("$in:/H" "$in:/big" --chi 256 --symmetry off)
productq=("$in:/H" "$in:/big" --chi 256)
product512=("$in:/H" "$in:/huge" --chi 512 --symmetry off)
sum4sdc=("${sum4[@]}" --method sdc)
sum4q=("${terms4[@]}")
sum1q=(--term 1 "$in:/H" "$in:/psi0" --chi 128)
sum4qsdc=("${terms4[@]}" --method sdc)
sum4qsdcr=("${terms4[@]}" --method sdcr)

run() {  # RANKS OUT ARGS…: the run's --json summary in OUT.json
  local n=$1 out=$2
  shift 2
  if [ "$n" = 1 ]; then
    taskset -c 0 "$BIN" apply "$@" --seed 7 --threads 1 -o "$out.h5" --force -q --json 2>/dev/null >"$out.json"
  else
    mpirun -n "$n" --bind-to core "$BIN" apply "$@" --seed 7 --threads 1 -o "$out.h5" --force -q --json 2>/dev/null >"$out.json"
  fi
}
field() { python3 -c "import json; print(json.load(open('$1'))$2)"; }
median() { python3 -c "import statistics,sys; print('%.3f' % statistics.median(map(float, sys.argv[1:])))" "$@"; }

declare -A sweep
printf '%-10s %5s %9s %9s %10s %11s %13s %12s %10s\n' case ranks sweep_s speedup efficiency GFLOP/s/rank bytes/cut peak_MB error
for c in ${CASES:-sum4 sum1 sum4sdc product product512}; do
  declare -n args=$c
  t1=() t2=()
  for ((r = 0; r < repeats; r++)); do
    run 1 "$work/$c-1" "${args[@]}"
    t1+=("$(field "$work/$c-1.json" '["sweep_seconds"]')")
    run 2 "$work/$c-2" "${args[@]}"
    t2+=("$(field "$work/$c-2.json" '["sweep_seconds"]')")
  done
  m1=$(median "${t1[@]}") m2=$(median "${t2[@]}")
  sweep[$c-1]=$m1 sweep[$c-2]=$m2
  err=$("$BIN" distance "$work/$c-2.h5" "$work/$c-1.h5" --json 2>/dev/null | python3 -c "import json,sys; print('%.1e' % json.load(sys.stdin)['relative_distance'])")
  for n in 1 2; do
    j=$work/$c-$n.json
    m=${sweep[$c-$n]}
    ranks=$(field "$j" '["ranks"]')
    python3 - "$j" "$m" "$m1" "$n" "$c" "$err" <<'PY'
import json, sys
j, m, m1, n, case, err = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4]), sys.argv[5], sys.argv[6]
d = json.load(open(j))
ranks = d["ranks"]
per_rank = max(d["rank_gflop"]) / m if m > 0 else 0
cuts = d["sites"] - 1
exchanged = d["bytes_by_mechanism"].get("rank exchange", 0) / cuts
peak = max(d["rank_peak_rss_bytes"] or [d["peak_rss_bytes"]]) / 1e6
speedup = m1 / m
print("%-10s %5d %9.3f %9.2f %9.0f%% %11.1f %13.0f %12.0f %10s" % (
    case, n, m, speedup, 100 * speedup / n, per_rank, exchanged, peak, err if n > 1 else "-"))
PY
  done
done

# The model: a sum's sweep is its terms' own work (left sweeps, right blocks, sketches), dealt
# over the ranks, plus the shared work every rank repeats (each cut's QR and core), plus per cut
# an all-gather of every term's sketch and the broadcasts of the core (3 exchanges of latency
# α·⌈log₂R⌉; the sketches' bytes B at bandwidth β, each rank receiving (R−1)/R of them).
[ -n "${sweep[sum4-1]:-}" ] && [ -n "${sweep[sum1-1]:-}" ] && python3 - "${sweep[sum4-1]}" "${sweep[sum1-1]}" "${sweep[sum4-2]}" "$work/sum4-2.json" "${ALPHA:-2e-6}" "${BETA:-1e10}" <<'PY'
import json, math, sys
t4, t1, t4_2, j, alpha, beta = float(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), sys.argv[4], float(sys.argv[5]), float(sys.argv[6])
d = json.load(open(j))
cuts = d["sites"] - 1
# sum1 is one term: t = t_term + t_shared; sum4 is 4 t_term + t_shared.
t_term = (t4 - t1) / 3
t_shared = max(t1 - t_term, 0.0)
per_term_bytes = d["bytes_by_mechanism"].get("rank exchange", 0) / cuts / 4  # each term's sketch, per cut
def model(terms, ranks):
    comm = 0.0 if ranks == 1 else cuts * (3 * alpha * math.ceil(math.log2(ranks)) + terms * per_term_bytes * (ranks - 1) / ranks / beta)
    return math.ceil(terms / ranks) * t_term + t_shared + comm
print()
print("model: a term's own work %.3f s, shared work %.3f s, %.0f bytes of sketch per term and cut; network alpha = %g s, beta = %g B/s"
      % (t_term, t_shared, per_term_bytes, alpha, beta))
print("  check: 4 terms on 2 ranks predicted %.3f s, measured %.3f s (same-node exchanges)" % (model(4, 2), t4_2))
print("%-8s %6s %10s %9s %11s" % ("terms", "ranks", "predicted", "speedup", "efficiency"))
for terms, ranks in [(4, 1), (4, 2), (4, 4), (64, 1), (64, 16), (64, 64)]:
    t = model(terms, ranks)
    s = model(terms, 1) / t
    print("%-8d %6d %10.3f %9.2f %10.0f%%" % (terms, ranks, t, s, 100 * s / ranks))
PY

# A product: the split work (left sweep, right blocks, sketch, next S) over R, the factoring of
# each cut's sketch on every rank, and per cut the right block's rows, the sketch's columns and
# the core exchanged (6 exchanges of latency α·⌈log₂R⌉, the bytes at bandwidth β).
[ -n "${sweep[product-1]:-}" ] && python3 - "${sweep[product-1]}" "${sweep[product-2]}" "$work/product-2.json" "${ALPHA:-2e-6}" "${BETA:-1e10}" <<'PY'
import json, math, sys
t1, t2, j, alpha, beta = float(sys.argv[1]), float(sys.argv[2]), sys.argv[3], float(sys.argv[4]), float(sys.argv[5])
d = json.load(open(j))
cuts = d["sites"] - 1
split = 2 * (t1 - t2)
shared = max(t1 - split, 0.0)
bytes_cut = d["bytes_by_mechanism"].get("rank exchange", 0) / cuts / 2  # what one rank receives, about
def model(ranks):
    comm = 0.0 if ranks == 1 else cuts * (6 * alpha * math.ceil(math.log2(ranks)) + bytes_cut * (ranks - 1) / ranks / beta)
    return split / ranks + shared + comm
print()
print("product model: split work %.3f s, work every rank repeats %.3f s (from 1 and 2 ranks here), %.0f bytes per cut" % (split, shared, bytes_cut))
print("%-8s %6s %10s %9s %11s" % ("", "ranks", "predicted", "speedup", "efficiency"))
for ranks in [1, 2, 16, 64]:
    t = model(ranks)
    print("%-8s %6d %10.3f %9.2f %10.0f%%" % ("product", ranks, t, t1 / t, 100 * t1 / t / ranks))
PY
true
