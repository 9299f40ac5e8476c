#!/usr/bin/env bash
# End-to-end speed table of src-compress on MPO × MPS products with the paper's random recipe
# (complex128): for each case the whole process's wall time (start to exit, as a shell sees it)
# and the sweep's time (medians of
# REPEATS runs, default 5), the GFLOP the sweep executed and the GFLOP the algorithm needs, the
# rate of the needed flops next to this machine's ZGEMM rate (square 1024 and 2048, measured
# here with the same threads), and the peak resident memory (median and largest of the runs: it
# varies by several MB from run to run with the threads' timing). The header also gives what the
# first write to a fresh 4 KiB page costs here: a fresh process pays it for every environment
# (docs/PERFORMANCE.md, "Memory", says how to read it).
#
#   scripts/bench.sh                   # all cases (about a minute on 2 cores)
#   CASES="40:32:32 100:50:50" scripts/bench.sh        # n:bond:chi, bond = D = χ
#   SRC_COMPRESS=/path/to/other/src-compress scripts/bench.sh   # time another build (before/after)
#   COMPARE=/path/to/old/src-compress REPEATS=21 scripts/bench.sh    # two builds side by side
#                                      # (runs alternate A B B A …, so that both see the same
#                                      # minutes of this machine's drifting speed; a row for
#                                      # each build and one with the difference of the sweeps)
#   PROFILE=1 scripts/bench.sh         # and, after the table, each case's GEMMs by shape
#                                      # (one more run with --profile-gemm; not in the timings)
#
# Needed flops (bulk site j, MPO bonds Dl, Dr, MPS bonds χl, χr, physical d, sketch s = χ̄,
# output bond b to the right of j, r = new bond): left step s·(d²·Dl·Dr + d·Dl·χl·χr + d·Dl·Dr·χr),
# right step b·(d·Dr·χr·χl + d²·Dl·Dr·χl) + s·b·d·Dl·χl + r·b·d·Dl·χl complex multiply-adds, 8 real
# flops each (docs/PERFORMANCE.md derives them). Factorisations (QR of the b·d × s sketch) are not
# counted. The sizes are read from the input files and the output's bonds.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x build/app/src-compress ] && [ -x build/benchmarks/srcc_bench ] || bash scripts/setup.sh
bin=${SRC_COMPRESS:-build/app/src-compress}
other=${COMPARE:-}
cases=${CASES:-"40:32:32 20:50:50 100:16:32 100:50:50 100:50:100"}
repeats=${REPEATS:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

threads=$("$bin" -q apply examples/data/ising_n16.h5 examples/data/psi_n16_lpr.h5 -o "$work/t.h5" \
          --chi 8 --seed 1 --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["threads"])')
# The machine: its ZGEMM rate, and what mapping fresh memory costs (a fresh process maps every
# environment it keeps; how much that costs depends on the kernel and the virtualisation).
read -r zgemm page_us < <(OPENBLAS_NUM_THREADS=$threads build/benchmarks/srcc_bench \
        --benchmark_filter='BM_Zgemm/(1024|2048)|BM_FirstTouch' --benchmark_format=json 2>/dev/null |
        python3 scripts/machine_rates.py)
[ -n "${page_us:-}" ] || { echo "bench.sh: srcc_bench did not measure the machine's rates" >&2; exit 1; }

echo "ZGEMM on this machine ($threads threads, best of 1024³ and 2048³): $zgemm GFLOP/s; $bin; medians of $repeats runs"
echo "First write to fresh memory: $page_us µs per 4 KiB page (the environments of n=100 D=χ=χ̄=50 are 200 MB)"
[ -n "$other" ] && echo "Compared with $other (B), run in turn with the build above (A)."
echo
echo "| case | process s | sweep s | GFLOP executed | GFLOP needed | needed GFLOP/s | of ZGEMM | peak RSS MB, median (max) |"
echo "|---|---|---|---|---|---|---|---|"
for c in $cases; do
  IFS=: read -r n bond chi <<<"$c"
  "$bin" -q generate random-mpo -o "$work/H.h5" --sites "$n" --bond "$bond" --dtype complex128 --seed 1 --force >/dev/null
  "$bin" -q generate random-mps -o "$work/psi.h5" --sites "$n" --bond "$bond" --dtype complex128 --seed 2 --force >/dev/null
  builds=(A)
  [ -n "$other" ] && builds=(A B)
  for b in "${builds[@]}"; do : >"$work/runs$b.jsonl"; : >"$work/process$b.txt"; done
  for r in $(seq "$repeats"); do
    order=("${builds[@]}")
    [ $((r % 2)) -eq 0 ] && [ ${#builds[@]} -eq 2 ] && order=(B A)
    for b in "${order[@]}"; do
      exe=$bin
      [ "$b" = B ] && exe=$other
      t0=$EPOCHREALTIME
      "$exe" -q apply "$work/H.h5" "$work/psi.h5" -o "$work/out$b.h5" --chi "$chi" --seed 3 --json --force >>"$work/runs$b.jsonl"
      t1=$EPOCHREALTIME
      echo "$t0 $t1" >>"$work/process$b.txt"
    done
  done
  for b in "${builds[@]}"; do
    label="n=$n D=χ=$bond χ̄=$chi"
    [ -n "$other" ] && label="$label, $b"
    /usr/bin/python3 - "$label" "$zgemm" "$work" "$chi" "$b" <<'PY'
import json, statistics, sys
import h5py
label, zgemm, work, chi, build = sys.argv[1], float(sys.argv[2]), sys.argv[3], int(sys.argv[4]), sys.argv[5]
runs = [json.loads(line) for line in open(work + "/runs" + build + ".jsonl")]
process = statistics.median(float(b) - float(a) for a, b in (l.split() for l in open(work + "/process" + build + ".txt")))
med = lambda key: statistics.median(r[key] for r in runs)

def bonds(path, group, ndim_bulk):
    """(left, right, phys) of each site of a train written by `generate` (quimb layout)."""
    g = h5py.File(path)[group]
    n = int(g.attrs["length"])
    out = []
    for j in range(n):
        shape = g[str(j)].shape
        if j == 0:
            out.append((1, shape[0], shape[-1]))
        elif j == n - 1:
            out.append((shape[0], 1, shape[-1]))
        else:
            out.append((shape[0], shape[1], shape[-1]))
    return out

mpo = bonds(work + "/H.h5", "A", 4)
mps = bonds(work + "/psi.h5", "psi", 3)
res = h5py.File(work + "/out" + build + ".h5")["result"]  # this build's own bonds
n = len(mps)
out_bond = [1] * (n + 1)  # out_bond[j] = bond between site j-1 and j of the result
for j in range(1, n):
    shape = res[str(j)].shape
    out_bond[j] = shape[0]
s = chi
macs = 0
for j in range(n):
    (Dl, Dr, d), (cl, cr, _) = mpo[j], mps[j]
    if j < n - 1:  # left step
        macs += s * (d * d * Dl * Dr + d * Dl * cl * cr + d * Dl * Dr * cr)
    b = out_bond[j + 1]
    macs += b * (d * Dr * cr * cl + d * d * Dl * Dr * cl)  # right block
    if j > 0:
        r = out_bond[j]
        macs += s * b * d * Dl * cl + r * b * d * Dl * cl  # sketch, next S
needed = 8 * macs / 1e9
sweep = med("sweep_seconds")
rate = needed / sweep
cells = [label, "%.3f" % process, "%.3f" % sweep, "%.2f" % runs[0]["gflop"],
         "%.2f" % needed, "%.1f" % rate, "%.0f%%" % (100 * rate / zgemm),
         "%.0f (%.0f)" % (med("peak_rss_bytes") / 1e6, max(r["peak_rss_bytes"] for r in runs) / 1e6)]
print("| " + " | ".join(cells) + " |")
PY
  done
  if [ -n "$other" ]; then
    /usr/bin/python3 - "$work" <<'PY'
import json, statistics, sys
work = sys.argv[1]
sweeps = {b: sorted(json.loads(l)["sweep_seconds"] for l in open(work + "/runs" + b + ".jsonl")) for b in "AB"}
quartile = lambda v: v[(len(v) - 1) // 4]
med = {b: statistics.median(v) for b, v in sweeps.items()}
q1 = {b: quartile(v) for b, v in sweeps.items()}
print("| B against A | | sweep %+.1f%% (median), %+.1f%% (first quartile) | | | | | |"
      % (100 * (med["B"] / med["A"] - 1), 100 * (q1["B"] / q1["A"] - 1)))
PY
  fi
  if [ -n "${PROFILE:-}" ]; then
    { echo; echo "n=$n D=χ=$bond χ̄=$chi:"
      "$bin" -q apply "$work/H.h5" "$work/psi.h5" -o "$work/out.h5" --chi "$chi" --seed 3 --force \
             --profile-gemm 2>&1 >/dev/null | head -12; } >>"$work/profiles.txt"
  fi
done
[ -f "$work/profiles.txt" ] && cat "$work/profiles.txt"
exit 0
