#!/usr/bin/env bash
# scripts/bench.sh comparing two builds (here the same one twice, COMPARE) on a small case: a
# row for each build whose "GFLOP executed" is the `gflop` that src-compress itself reports for
# the same inputs (made here as bench.sh makes them), and a row with the difference of the
# sweeps. Usage: bench_compare_test.sh SRC_COMPRESS. Exit 77 (skipped) without python3-h5py.
set -euo pipefail
bin=$1
/usr/bin/python3 -c 'import h5py' 2>/dev/null || exit 77
repo=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

table=$(CASES=20:16:16 REPEATS=2 SRC_COMPRESS="$bin" COMPARE="$bin" bash "$repo/scripts/bench.sh")
echo "$table"

"$bin" -q generate random-mpo -o "$work/H.h5" --sites 20 --bond 16 --dtype complex128 --seed 1 >/dev/null
"$bin" -q generate random-mps -o "$work/psi.h5" --sites 20 --bond 16 --dtype complex128 --seed 2 >/dev/null
want=$("$bin" -q apply "$work/H.h5" "$work/psi.h5" -o "$work/out.h5" --chi 16 --seed 3 --json |
       /usr/bin/python3 -c 'import json, sys; print("%.2f" % json.load(sys.stdin)["gflop"])')
[ "$want" != "0.00" ] || { echo "the case is too small to check its flops"; exit 1; }

for b in A B; do
  row=$(grep -F "| n=20 D=χ=16 χ̄=16, $b |" <<<"$table") || { echo "no row for build $b"; exit 1; }
  got=$(awk -F'|' '{gsub(/ /, "", $5); print $5}' <<<"$row")
  [ "$got" = "$want" ] || { echo "build $b: GFLOP executed $got, src-compress reports $want"; exit 1; }
done
grep -Eq '^\| B against A \| \| sweep [+-][0-9.]+% \(median\)' <<<"$table" ||
  { echo "no row with the difference of the sweeps"; exit 1; }
echo "bench.sh compare: both rows report the $want GFLOP src-compress executed"
