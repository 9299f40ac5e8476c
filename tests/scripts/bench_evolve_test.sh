#!/usr/bin/env bash
# scripts/bench_evolve.sh on a small chain: every way has its row (evolve with and without
# observables, the apply loop with and without expect) with a time, an overhead and a fidelity
# in (0, 1] against the reference (whose bond holds the exact state of 10 sites).
# Usage: bench_evolve_test.sh SRC_COMPRESS. Exit 77 (skipped) without python3-h5py.
set -euo pipefail
bin=$1
/usr/bin/python3 -c 'import h5py' 2>/dev/null || exit 77
repo=$(cd "$(dirname "$0")/../.." && pwd)
table=$(L=10 STEPS=4 CHIS=4 REPEATS=1 SRC_COMPRESS="$bin" bash "$repo/scripts/bench_evolve.sh" 2>/dev/null)
echo "$table"
for way in "plain      evolve " "plain      evolve+measure" "plain      apply loop" "plain      apply+expect" \
           "oversample evolve " "oversample apply loop"; do
  row=$(grep -F "   4 $way" <<<"$table") || { echo "no row for '$way'"; exit 1; }
  case "$way" in *"+expect"*) continue ;; esac
  fid=$(grep -oE ' [01]\.[0-9]{9}' <<<"$row") || { echo "no fidelity in '$row'"; exit 1; }
  awk -v f="$fid" 'BEGIN { exit !(f > 0 && f <= 1) }' || { echo "fidelity $fid out of (0, 1]"; exit 1; }
  grep -q '%' <<<"$row" || { echo "no overhead in '$row'"; exit 1; }
done
echo "bench_evolve.sh: every way has its row"
