#!/usr/bin/env bash
# Products of charged trains, ours on charges (--symmetry auto: src plain and oversampled, sdc
# oversampled by 1.1, plain src and one two-site fit sweep), ours dense (--symmetry off: the
# same four methods) and TeNPy's MPO.apply (SVD, zip_up, variational), side by side on TeNPy's own DMRG ground states of
# the XXZ chain (scripts/make_xxz_inputs.py writes them: L = 64, χ = 128, 256, 512). For each
# input: H·ψ and one W^II step at χ̄ = the state's bond; time (ours: the sweep with reading;
# TeNPy: the apply alone), peak memory of the process, achieved GFLOP/s next to the machine's
# measured GEMM rate, and the error against a reference (ours on charges at 2χ̄, oversampled, whose
# own error is far below the ones compared) by our own `distance`. One thread each, pinned to one
# core, one run at a time. Last, per input and product, the ratios at equal accuracy: each dense
# run's and each TeNPy run's time over the fastest of ours on charges whose error is at most its
# own (5% over it counted as equal: 1.84e-8 against 1.83e-8).
#
#   TENPY=/path/to/tenpy scripts/bench_symmetric.sh IN128.h5 [IN256.h5 …]
#   LIMIT=600 …   # seconds a run may take before it is killed (default 1200)
#   TENPY_METHODS="zip_up SVD" …   # TeNPy's methods to run (default: zip_up SVD variational)
#   TOLS="1e-6 1e-8" …   # then by accuracy too: ours --tol on charges and dense, TeNPy's methods with
#                        # trunc_cut = the tolerance (its chi_max 4χ, out of the way); compared as above
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-build/app/src-compress}
[ -x "$BIN" ] || cmake --build build --target src-compress >/dev/null
. scripts/peer_blas.sh "$BIN"
: "${TENPY:?set TENPY to a TeNPy source tree (fetch tenpy/tenpy)}"
PY="env TENPY_NO_CYTHON=true PYTHONPATH=$TENPY OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 taskset -c 0 /usr/bin/python3"
WORK=$(mktemp -d)
ROWS=$WORK/rows.tsv
trap 'rm -rf "$WORK"' EXIT
json() { /usr/bin/python3 -c "import json,sys; d=json.load(sys.stdin); print($1)"; }
dist() { "$BIN" distance "$1" "$2" --json | json "'%.2e' % d['relative_distance']"; }

echo "# $(date -u +%F) $(lscpu | sed -n 's/^Model name: *//p'), one thread"
[ -x build/benchmarks/srcc_bench ] || cmake --build build --target srcc_bench >/dev/null
read -r dgemm _ < <(OPENBLAS_NUM_THREADS=1 taskset -c 0 build/benchmarks/srcc_bench \
        --benchmark_filter='BM_Dgemm/(1024|2048)|BM_FirstTouch' --benchmark_format=json 2>/dev/null |
        /usr/bin/python3 scripts/machine_rates.py)
echo "# the machine's DGEMM on one core (best of 1024³ and 2048³): $dgemm GFLOP/s"
printf '%-12s %-5s %-4s %-22s %9s %9s %9s %10s\n' input op chi run seconds GFLOP/s peak_MB error
for input in "$@"; do
  chi=$("$BIN" inspect "$input:/psi" --json | json "d[0]['max_bond']")
  for op in H_MPO U_II; do
    ref="$WORK/ref.h5"
    taskset -c 0 "$BIN" apply "$input:/$op" "$input:/psi" -o "$ref" --chi $((2 * chi)) --oversample --seed 7 \
      --output-format srcc --threads 1 -q --force
    row() {
      printf '%-12s %-5s %-4s %-22s %9s %9s %9s %10s\n' "$(basename "$input" .h5)" "$op" "$chi" "$@"
      printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$(basename "$input" .h5)" "$op" "$chi" "$1" "$2" "${5:-}" >> "$ROWS"
    }
    # One of ours: the row's name and its flags.
    ours() {
      # shellcheck disable=SC2086
      if ! out=$(timeout "${LIMIT:-1200}" taskset -c 0 "$BIN" apply "$input:/$op" "$input:/psi" -o "$WORK/o.h5" \
                 --seed 1 $2 --output-format srcc --threads 1 --force --json -q); then
        row "$1" killed; return
      fi
      read -r s r p < <(echo "$out" | json "'%.2f %.1f %d' % (d['sweep_seconds'], d['gflops_per_second'], d['peak_rss_bytes'] / 2**20)")
      row "$1" "$s" "$r" "$p" "$(dist "$WORK/o.h5" "$ref")"
    }
    theirs() {  # TeNPy's methods at chi_max $1 (and trunc_cut $2)
      for method in ${TENPY_METHODS:-zip_up SVD variational}; do
        # shellcheck disable=SC2086
        if ! out=$(timeout "${LIMIT:-1200}" $PY scripts/tenpy_apply.py "$input" "$op" $method "$1" "$WORK/t.h5" ${2:-}); then
          row "TeNPy $method" killed; continue
        fi
        read -r s p < <(echo "$out" | json "'%.2f %d' % (d['seconds'], d['peak_rss_bytes'] / 2**20)")
        row "TeNPy $method" "$s" "-" "$p" "$(dist "$WORK/t.h5:/psi" "$ref")"
      done
    }
    runs=("ours charges|--symmetry auto" "ours charges oversampled|--symmetry auto --oversample"
          "ours charges sdc ×1.1|--symmetry auto --method sdc --oversample=1.1"
          "ours charges + 1 fit sweep|--symmetry auto --fit-sweeps 1"
          "ours dense|--symmetry off" "ours dense oversampled|--symmetry off --oversample"
          "ours dense sdc ×1.1|--symmetry off --method sdc --oversample=1.1"
          "ours dense + 1 fit sweep|--symmetry off --fit-sweeps 1")
    for run in "${runs[@]}"; do ours "${run%%|*}" "--chi $chi ${run#*|}"; done
    theirs "$chi"
    for tol in ${TOLS:-}; do
      row() {
        printf '%-12s %-5s %-4s %-22s %9s %9s %9s %10s\n' "$(basename "$input" .h5)" "$op" "$tol" "$@"
        printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$(basename "$input" .h5)" "$op" "tol $tol" "$1" "$2" "${5:-}" >> "$ROWS"
      }
      ours "ours charges --tol" "--symmetry auto --tol $tol"
      ours "ours dense --tol" "--symmetry off --tol $tol"
      theirs "$((4 * chi))" "$tol"
    done
  done
done

echo
echo "# at equal accuracy: the run's time over the fastest of ours on charges with an error at most its own (×1.05)"
/usr/bin/python3 - "$ROWS" <<'PY'
import sys
rows = {}
for line in open(sys.argv[1]):
    inp, op, chi, name, secs, err = line.rstrip("\n").split("\t")
    try:
        rows.setdefault((inp, op, chi), []).append((name, float(secs), float(err)))
    except ValueError:  # a killed run
        pass
for (inp, op, chi), runs in rows.items():
    ours = [r for r in runs if r[0].startswith("ours charges")]
    for name, secs, err in runs:
        if name.startswith("ours charges"):
            continue
        fit = [o for o in ours if o[2] <= 1.05 * err]
        if not fit:
            print(f"{inp:12s} {op:5s} {chi:4s} {name:26s} {secs:7.2f} s {err:.2e}: none of ours on charges as accurate")
            continue
        best = min(fit, key=lambda o: o[1])
        print(f"{inp:12s} {op:5s} {chi:4s} {name:26s} {secs:7.2f} s {err:.2e} / {best[0]} {best[1]:.2f} s {best[2]:.2e} = {secs / best[1]:.2f}x")
PY
