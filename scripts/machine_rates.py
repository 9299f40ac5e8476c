#!/usr/bin/env python3
"""Reads srcc_bench's JSON (--benchmark_format=json) on stdin, run with
--benchmark_filter='BM_Zgemm/(1024|2048)|BM_FirstTouch' (or BM_Dgemm for float64), and prints two
numbers: the best GEMM rate in GFLOP/s and the cost of the first write to a fresh 4 KiB page in
µs. Used by scripts/bench.sh, bench_symmetric.sh and gpu-check.sh to put a machine's own limits
next to the sweep."""
import json
import sys

runs = json.load(sys.stdin)["benchmarks"]
# BM_Zgemm's counter is in GFLOP/s already; a value above 1e6 can only be FLOP/s (a counter
# defined without the 1e9) and is scaled.
rates = [b["GFLOP/s"] for b in runs if "GFLOP/s" in b]
pages = [b["per_page"] for b in runs if "per_page" in b]
if not rates or not pages:
    sys.exit("machine_rates.py: the benchmark output lacks BM_Zgemm or BM_FirstTouch")
print(max(r / 1e9 if r > 1e6 else r for r in rates), "%.2f" % (pages[0] * 1e6))
