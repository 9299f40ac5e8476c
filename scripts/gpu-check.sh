#!/usr/bin/env bash
# The device check, for a machine with an NVIDIA GPU and the CUDA toolkit in /usr/local/cuda:
# builds with the CUDA backend, runs the GPU tests (every kernel against the CPU, CPU vs GPU
# sweeps for MPO·MPS, MPO·MPO, a depth-3 stack and compress in every dtype, the ordering of the
# compute and copy streams, and a run whose host budget forces spills, with its device moves
# summed from /log/transfers), then one benchmark: MPO·MPO at 50 sites, phys 2, χ̄ = 1000, complex128,
# printing wall time, achieved TFLOP/s and the device memory used. Sized for a few minutes on an
# H200; set SITES / BOND / CHI to change the benchmark.
#
# The benchmark's inputs: two random MPOs of bond 32 (fused bond 1024 ≈ χ̄), the largest product
# whose environments (n · s · fused bond) fit a single GPU with χ̄ = 1000.
set -euo pipefail
cd "$(dirname "$0")/.."
SITES=${SITES:-50} BOND=${BOND:-32} CHI=${CHI:-1000}
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader || true
jobs=$(nproc)
if command -v apt-get >/dev/null && [ "$(id -u)" -eq 0 ]; then
  bash scripts/setup.sh -DSRCC_WITH_CUDA=ON >/dev/null
else
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DSRCC_WITH_CUDA=ON >/dev/null
  cmake --build build -j "$jobs" >/dev/null
fi
grep -q "SRCC_CUDA:INTERNAL=ON\|src-compress CUDA backend: ON" build/CMakeCache.txt 2>/dev/null ||
  ls build/lib/libsrcc_cuda.so >/dev/null || { echo "CUDA backend was not built" >&2; exit 1; }

echo "== GPU tests"
build/tests/srcc_tests --gtest_filter='Gpu*:Device*:CliDevice*' 2>&1 | grep -E "OK|FAILED|SKIPPED|PASSED|Failure|no GPU" 

echo "== GPU run with tight budgets (environments on the device, in host memory and on disk) equals the CPU run"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bin=build/app/src-compress
py=/usr/bin/python3; [ -x "$py" ] || py=python3  # Debian's, which has python3-h5py
"$bin" -q generate random-mpo -o "$work/a.h5" --sites 60 --bond 16 --dtype complex128 --seed 1 >/dev/null
"$bin" -q generate random-mps -o "$work/p.h5" --sites 60 --bond 32 --dtype complex128 --seed 2 >/dev/null
"$bin" -q apply "$work/a.h5" "$work/p.h5" -o "$work/cpu.h5" --chi 64 --seed 5
# 10 MB of device and 100 MB of host memory: the plan keeps 12 of the 59 environments on the
# device, 30 in host memory and 17 on scratch disk (see --dry-run).
"$bin" -q apply "$work/a.h5" "$work/p.h5" -o "$work/gpu.h5" --chi 64 --seed 5 --device gpu \
  --gpu-memory 10MB --host-memory 100MB --json | head -c 400; echo
"$bin" distance "$work/gpu.h5" "$work/cpu.h5"
# The device moves of that run, as /log/transfers records them (seconds from CUDA events).
"$py" - "$work/gpu.h5" <<'PY' || true
import sys, h5py
f = h5py.File(sys.argv[1], "r")
t = f["/log/transfers"][()]
dec = lambda v: v.decode() if isinstance(v, bytes) else str(v)
rows = {}
for r in t:
    if dec(r["mechanism"]) != "device move":
        continue
    key = (dec(r["what"]), "up" if dec(r["source"]) == "host" else "down")
    n, b, s = rows.get(key, (0, 0, 0.0))
    rows[key] = (n + 1, b + int(r["bytes"]), s + float(r["seconds"]))
for (what, way), (n, b, s) in sorted(rows.items()):
    print(f"  {what:14s} {way:4s} {n:5d} moves {b / 1e6:9.1f} MB {s:8.3f} s on the copy stream"
          f" ({b / 1e9 / s if s > 0 else 0:.1f} GB/s)")
print(f"  run wall time {float(f['/log'].attrs['wall_seconds']):.2f} s")
PY
gpus=$(nvidia-smi -L 2>/dev/null | wc -l)
if [ "$gpus" -ge 2 ]; then
  echo "== $gpus GPUs: sketch columns split over gpu:0,1 equal the one-GPU result"
  "$bin" -q apply "$work/a.h5" "$work/p.h5" -o "$work/gpu2.h5" --chi 64 --seed 5 --device gpu:0,1
  "$bin" distance "$work/gpu2.h5" "$work/gpu.h5"
fi

echo "== benchmark: MPO·MPO, $SITES sites, phys 2, inputs of bond $BOND, χ̄ = $CHI, complex128"
"$bin" -q generate random-mpo -o "$work/A.h5" --sites "$SITES" --bond "$BOND" --dtype complex128 --seed 1 >/dev/null
"$bin" -q generate random-mpo -o "$work/B.h5" --sites "$SITES" --bond "$BOND" --dtype complex128 --seed 2 >/dev/null
"$bin" -q apply "$work/A.h5" "$work/B.h5" -o "$work/AB.h5" --chi "$CHI" --seed 3 --device gpu \
  --json >"$work/bench.json" &
pid=$!
peak=0
while kill -0 "$pid" 2>/dev/null; do
  used=$(nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits 2>/dev/null | head -n 1 || echo 0)
  [ "${used:-0}" -gt "$peak" ] && peak=$used
  sleep 0.2
done
wait "$pid"
"$py" - "$work/bench.json" "$peak" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
print(f"wall {s['wall_seconds']:.2f} s, sweep {s['sweep_seconds']:.2f} s, "
      f"{s['gflop'] / 1000:.2f} TFLOP, {s['gflops_per_second'] / 1000:.2f} TFLOP/s achieved, "
      f"max bond {s['max_bond']}, device memory peak {s['device_peak_bytes'] / 2**20:.0f} MiB "
      f"(pool; nvidia-smi saw {sys.argv[2]} MiB), "
      f"host peak {s['peak_rss_bytes'] / 1e6:.0f} MB")
PY
