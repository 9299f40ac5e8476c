#!/usr/bin/env bash
# End-to-end speed table: wall time, sweep GFLOP/s next to this machine's measured ZGEMM rate,
# and peak memory, for the bundled example and the paper-recipe product MPO·MPS with
# n sites, D = χ = χ̄ (complex128). Times are medians of REPEATS (default 5) runs.
# Usage: scripts/bench.sh [SITES] [BOND]   (defaults 40 32; builds first if needed)
set -euo pipefail
cd "$(dirname "$0")/.."
sites=${1:-40}
bond=${2:-32}
[ -x build/app/src-compress ] && [ -x build/benchmarks/srcc_bench ] || bash scripts/setup.sh
bin=build/app/src-compress
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

zgemm=$(build/benchmarks/srcc_bench --benchmark_filter='BM_Zgemm/1024' --benchmark_format=json \
        2>/dev/null | python3 -c 'import json,sys; b=json.load(sys.stdin)["benchmarks"][0]; print(b["GFLOP/s"]/1e9 if b["GFLOP/s"]>1e6 else b["GFLOP/s"])')

"$bin" -q generate random-mpo -o "$work/H.h5" --sites "$sites" --bond "$bond" --dtype complex128 --seed 1 >/dev/null
"$bin" -q generate random-mps -o "$work/psi.h5" --sites "$sites" --bond "$bond" --dtype complex128 --seed 2 >/dev/null

repeats=${REPEATS:-5}
run() {  # label, then src-compress arguments; the median of $repeats runs
  local label=$1
  shift
  : >"$work/runs.jsonl"
  for _ in $(seq "$repeats"); do "$bin" -q "$@" --json --force >>"$work/runs.jsonl"; done
  python3 - "$label" "$zgemm" "$work/runs.jsonl" <<'PY'
import json, statistics, sys
label, zgemm, path = sys.argv[1], float(sys.argv[2]), sys.argv[3]
runs = [json.loads(line) for line in open(path)]
med = lambda key: statistics.median(r[key] for r in runs)
rate = runs[0]["gflop"] / med("sweep_seconds")
cells = [label, "%.3f" % med("wall_seconds"), "%.3f" % med("sweep_seconds"),
         "%.2f" % runs[0]["gflop"], "%.1f" % rate, "%.1f" % zgemm, "%.0f%%" % (100 * rate / zgemm),
         "%.0f" % (max(r["peak_rss_bytes"] for r in runs) / 1e6), str(runs[0]["threads"])]
print("| " + " | ".join(cells) + " |")
PY
}

echo "| case | wall s | sweep s | GFLOP | sweep GFLOP/s | ZGEMM GFLOP/s | of ZGEMM | peak RSS MB | threads |"
echo "|---|---|---|---|---|---|---|---|---|"
run "bundled example (n=16, Ising·ψ, χ̄=24)" apply examples/data/ising_n16.h5 examples/data/psi_n16_lpr.h5 \
  -o "$work/ex.h5" --chi 24 --seed 1
run "n=$sites D=χ=χ̄=$bond complex128" apply "$work/H.h5" "$work/psi.h5" -o "$work/out.h5" \
  --chi "$bond" --seed 3
