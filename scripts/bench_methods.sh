#!/usr/bin/env bash
# Every method on the same inputs: error against time. The paper's random recipe (entries
# Uniform[-0.5, 1], each site normalised), an MPO of bond D times an MPS of bond D, compressed
# to χ̄, and one MPO·MPO case; for each: src, src --oversample, sdc, sdc --oversample, sdcr,
# sdcr --oversample, and src followed by fit sweeps (--fit-tol 1e-3, at most 10).
#
# The error is `distance` (the canonical-form difference, no cancellation) to a reference: the
# product compressed by src --oversample at 4·χ̄, whose own error is far below the methods'
# (printed as "reference error bound": its distance to the 2·χ̄ one). Times are the sweep's
# seconds from --json (reading included, writing not), medians of REPEATS (default 3), methods
# alternating within each repeat; the sweep's GFLOP/s stands beside the machine's ZGEMM rate.
#
# With QUIMB_PATH (a PYTHONPATH holding quimb, autoray and cotengra source trees; Debian's
# numpy, scipy and h5py), quimb's src, src-oversample, sdc, sdc-oversample and fit run on the
# same inputs (scripts/quimb_methods.py: the compression alone is timed, in one Python process per
# case and repeat), and their errors are measured the same way. With matplotlib, FIGURE (default
# build/bench-methods.png, its table beside it as .tsv) plots error against time, one panel per case.
#
#   scripts/bench_methods.sh                                   # (n, D, χ̄) = (20, 50, 50), (30, 80, 80), (20, 64, 128)
#   CASES="12 16 16" MPO_CASE="10 8 16" REPEATS=1 scripts/bench_methods.sh     # a quick look
#   QUIMB_PATH=/src/quimb:/src/autoray:/src/cotengra scripts/bench_methods.sh   # beside quimb
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = --plot ]; then exec "${PY:-/usr/bin/python3}" scripts/plot_methods.py "$2" "$3"; fi
[ -x build/app/src-compress ] || bash scripts/setup.sh
bin=$(realpath build/app/src-compress)
. scripts/peer_blas.sh "$bin"
repeats=${REPEATS:-3}
cases=${CASES:-"20 50 50,30 80 80,20 64 128"}
mpo_case=${MPO_CASE:-"20 16 64"}
figure=${FIGURE:-build/bench-methods.png}
py=/usr/bin/python3
[ -x "$py" ] || py=python3
quimb_methods=(src src-oversample sdc sdc-oversample fit)
if [ -n "${QUIMB_PATH:-}" ] && ! PYTHONPATH=$QUIMB_PATH "$py" -c 'import quimb.tensor, h5py' 2>/dev/null; then
  echo "QUIMB_PATH=$QUIMB_PATH: quimb does not import; running without it" >&2
  QUIMB_PATH=
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/srcc-methods.XXXXXX")
trap 'rm -rf "$work"' EXIT

zgemm=$(build/benchmarks/srcc_bench --benchmark_filter='BM_Zgemm/(1024|2048)|BM_FirstTouch' \
        --benchmark_format=json 2>/dev/null | python3 scripts/machine_rates.py | cut -d' ' -f1)
echo "$(date -u +%F) $(nproc) cores, ZGEMM $zgemm GFLOP/s; medians of $repeats runs"

methods=("--method src" "--method src --oversample" "--method sdc" "--method sdc --oversample"
         "--method sdcr" "--method sdcr --oversample" "--method src --fit-tol 1e-3 --fit-sweeps 10")
run_case() {  # label, top train, bottom train, chi
  local label=$1 top=$2 bottom=$3 chi=$4
  "$bin" -q apply "$top" "$bottom" -o "$work/ref.h5" --force --chi $((4 * chi)) --oversample --seed 9
  "$bin" -q apply "$top" "$bottom" -o "$work/ref2.h5" --force --chi $((2 * chi)) --oversample --seed 8
  local bound
  bound=$("$bin" distance "$work/ref2.h5" "$work/ref.h5" --json | python3 -c 'import json,sys; print("%.1e" % json.load(sys.stdin)["relative_distance"])')
  echo
  echo "$label, χ̄ = $chi (reference error bound $bound)"
  printf '  %-44s %10s %10s %12s\n' method seconds GFLOP/s "rel. error"
  declare -A secs=() rates=() errs=() qsecs=() qerrs=()
  for ((r = 0; r < repeats; ++r)); do
    if [ -n "${QUIMB_PATH:-}" ]; then
      while read -r line; do
        m=$(echo "$line" | python3 -c 'import json,sys; print(json.load(sys.stdin)["method"])')
        qsecs[$m]+="$(echo "$line" | python3 -c 'import json,sys; print(json.load(sys.stdin)["seconds"])') "
        qerrs[$m]+="$("$bin" distance "$work/quimb-$m.h5" "$work/ref.h5" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["relative_distance"])') "
      done < <(PYTHONPATH=$QUIMB_PATH "$py" scripts/quimb_methods.py "$top" "$bottom" "$chi" "$work" "${quimb_methods[@]}" --seed $((r + 1)) 2>/dev/null)
    fi
    for i in "${!methods[@]}"; do
      # shellcheck disable=SC2086
      out=$("$bin" -q apply "$top" "$bottom" -o "$work/m$i.h5" --force --chi "$chi" --seed $((r + 1)) ${methods[$i]} --json)
      secs[$i]+="$(echo "$out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["sweep_seconds"])') "
      rates[$i]+="$(echo "$out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["gflops_per_second"])') "
      errs[$i]+="$("$bin" distance "$work/m$i.h5" "$work/ref.h5" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["relative_distance"])') "
    done
  done
  for i in "${!methods[@]}"; do
    python3 - "${methods[$i]}" "${secs[$i]}" "${rates[$i]}" "${errs[$i]}" "$label" "$work/rows.tsv" <<'PY'
import statistics, sys
name, s, g, e = sys.argv[1], *[list(map(float, a.split())) for a in sys.argv[2:5]]
print("  %-44s %10.3f %10.1f %12.3e" % (name, statistics.median(s), statistics.median(g), statistics.median(e)))
with open(sys.argv[6], "a") as rows:
    rows.write("%s\tsrc-compress %s\t%r\t%r\n" % (sys.argv[5], name.replace("--method ", ""), statistics.median(s), statistics.median(e)))
PY
  done
  for m in "${quimb_methods[@]}"; do
    [ -n "${qsecs[$m]:-}" ] || continue
    python3 - "quimb $m" "${qsecs[$m]}" "${qerrs[$m]}" "$label" "$work/rows.tsv" <<'PY'
import statistics, sys
name, s, e = sys.argv[1], *[list(map(float, a.split())) for a in sys.argv[2:4]]
print("  %-44s %10.3f %10s %12.3e" % (name, statistics.median(s), "", statistics.median(e)))
with open(sys.argv[5], "a") as rows:
    rows.write("%s\t%s\t%r\t%r\n" % (sys.argv[4], name, statistics.median(s), statistics.median(e)))
PY
  done
}

IFS=',' read -ra list <<< "$cases"
for c in "${list[@]}"; do
  read -r n d chi <<< "$c"
  "$bin" -q generate random-mpo -o "$work/in.h5:/mpo" --sites "$n" --bond "$d" --seed 1 --force
  "$bin" -q generate random-mps -o "$work/in.h5:/mps" --sites "$n" --bond "$d" --seed 2 --force
  run_case "MPO·MPS n = $n, D = $d" "$work/in.h5:/mpo" "$work/in.h5:/mps" "$chi"
done
read -r n d chi <<< "$mpo_case"
"$bin" -q generate random-mpo -o "$work/ops.h5:/a" --sites "$n" --bond "$d" --seed 3 --force
"$bin" -q generate random-mpo -o "$work/ops.h5:/b" --sites "$n" --bond "$d" --seed 4 --force
run_case "MPO·MPO n = $n, D = $d" "$work/ops.h5:/a" "$work/ops.h5:/b" "$chi"

# Error against time, one panel per case (matplotlib, when there is one): a colour per method,
# circles ours, squares quimb's. The table beside the figure (FIGURE with .tsv) replots with
#   scripts/bench_methods.sh --plot TABLE.tsv FIGURE.png
cp "$work/rows.tsv" "${figure%.png}.tsv"
if "$py" -c 'import matplotlib' 2>/dev/null; then
  "$py" scripts/plot_methods.py "${figure%.png}.tsv" "$figure"
fi
