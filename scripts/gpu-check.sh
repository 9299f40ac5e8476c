#!/usr/bin/env bash
# The device check, for a machine with an NVIDIA GPU:
#  0. preflight: every library of the CUDA module resolves (where one does not, the module would
#     not load and every GPU test would skip as if there were no device);
#  1. the GPU tests: every kernel against the CPU; CPU vs GPU sweeps for MPO·MPS, MPO·MPO, a
#     depth-3 stack and compress in every dtype and mode; the ordering of the compute and copy
#     streams (chunked moves, memory freed under a running GEMM, download after a mark). A test
#     that skips while nvidia-smi lists a device fails the step. Then CPU against GPU runs of
#     the command line, each distance judged against a limit: fixed χ̄ in complex128, complex64
#     and float64, --oversample, --tol, MPO·MPO, compress, truncate; one of them again with
#     SRCC_CUDA_SYNC=1 (every CUDA call synchronised and checked); the same for charged (U(1))
#     products by every method, a sum, MPO·MPO and an evolution measured in its blocks, each run
#     saying it kept the charges;
#  2. a run whose budgets put environments on the device, in host memory and on scratch disk,
#     compared with the CPU run, and its device moves summed from /log/transfers;
#  3. (two or more GPUs) the sketch split over gpu:0,1 against one GPU;
#  4. (SANITIZE=1) the kernel and stream tests under compute-sanitizer;
#  5. one benchmark: MPO·MPO at 50 sites, phys 2, χ̄ = 1000, complex128: wall time, achieved
#     TFLOP/s, device memory peak. SITES / BOND / CHI change it;
#  6. the CPU sweep of the speed issue on this machine's host CPU (n = 100, D = χ = χ̄ = 50,
#     fresh processes, 2 threads and all of them; the rate of the executed flops, 0.2% below
#     the needed count of scripts/bench.sh) next to its ZGEMM rate and the cost of a fresh page: the development machine's share of ZGEMM depends on its virtualisation
#     (docs/PERFORMANCE.md, "Memory"), and this is another host to compare with.
# The benchmark's inputs are two random MPOs of bond 32 (fused bond 1024 ≈ χ̄): the largest
# product whose environments (n · s · fused bond) fit one GPU with χ̄ = 1000.
#
# Programs: from .gpu-bundle/ when it is there (made by scripts/gpu-bundle.sh on a machine with
# our Debian packages; the device machines have CUDA but not those, and cannot fetch them), else
# built here (needs the packages of scripts/setup.sh and nvcc), or those of SRCC_BUILD_DIR.
#
# One run under a deadline (DEADLINE seconds, default 540: the device tool's 600 s less the
# transfers), the important steps first; a step gets STEP_LIMIT seconds or what is left, and one
# that cannot start in time is reported as not run. A failing step does not stop the others;
# the exit code says whether all passed. Everything goes to $OUT (the device tool brings it
# back; ./gpu-check-out elsewhere): gpu-check.log (all of it), one unfiltered log per step,
# the GPU tests' XML, and steps.json (each step's name, exit code and seconds).
set -uo pipefail
cd "$(dirname "$0")/.."
SITES=${SITES:-50} BOND=${BOND:-32} CHI=${CHI:-1000}
STEP_LIMIT=${STEP_LIMIT:-240}  # seconds per step at most
DEADLINE=${DEADLINE:-540}      # seconds for the whole check
OUT=${OUT:-$PWD/gpu-check-out}
# The device the "GPU" runs ask for. GPU=cpu makes a dry run of the whole check on a machine
# without one: every comparison then runs, CPU against CPU.
GPU=${GPU:-gpu}
# ONLY="preflight agreement …": run just those steps (by function name), e.g. for a dry run.
mkdir -p "$OUT"
exec > >(tee -a "$OUT/gpu-check.log") 2>&1
failed=()
steps_json=()
nstep=0
step() {  # step NAME FUNCTION: runs the (exported) function with a time limit, notes failures
  local name=$1 fn=$2 left=$((DEADLINE - SECONDS))
  if [ -n "${ONLY:-}" ] && [[ " $ONLY " != *" $fn "* ]]; then return; fi
  nstep=$((nstep + 1))
  local log; log=$(printf '%s/step%02d-%s.log' "$OUT" "$nstep" "$fn")
  echo "== $name"
  if [ "$left" -lt 20 ]; then
    echo "   not run: $left s left of the ${DEADLINE} s deadline"
    failed+=("$name (not run: deadline)")
    steps_json+=("{\"step\": \"$fn\", \"exit\": null, \"seconds\": 0}")
    return
  fi
  local limit=$((left < STEP_LIMIT ? left : STEP_LIMIT)) t0=$SECONDS
  # Written as it comes (no filter in between), so a step cut by its limit keeps what it said.
  timeout "$limit" bash -c "set -o pipefail; $fn" >"$log" 2>&1
  local rc=$?
  cat "$log"
  [ "$rc" -eq 124 ] && echo "   stopped at its limit of $limit s"
  [ "$rc" -eq 0 ] || failed+=("$name (exit $rc)")
  steps_json+=("{\"step\": \"$fn\", \"exit\": $rc, \"seconds\": $((SECONDS - t0))}")
  echo "   ($((SECONDS - t0)) s, exit $rc)"
}
# Agreement of a GPU result with the CPU's: `close A B LIMIT` fails when the relative distance
# (src-compress distance) exceeds LIMIT, and prints it either way.
close() {
  local d
  d=$("$bin" distance "$1" "$2" --json | "$py" -c 'import json,sys; print(json.load(sys.stdin)["relative_distance"])') || return 1
  "$py" -c "import sys; d, lim = float('$d'), float('$3'); print(f'  {sys.argv[1]}: distance {d:.3e} (limit {lim:.0e})'); sys.exit(0 if d <= lim else 1)" "$(basename "$1") vs $(basename "$2")"
}
export -f close
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader || true

if [ -x .gpu-bundle/bin/src-compress ]; then
  runtime=$(mktemp -d)
  tar -C "$runtime" -xzf .gpu-bundle/runtime.tar.gz
  libs=$runtime/runtime
  # Our C++ runtime only where the system's lacks the newest symbol version ours has.
  sys_cxx=$(ldconfig -p 2>/dev/null | awk '/libstdc\+\+\.so\.6 .*x86-64/ {print $NF; exit}')
  want=$(grep -ao 'GLIBCXX_3\.4\.[0-9]*' "$libs"/compat/libstdc++.so.6 | sort -u -t. -k3,3n | tail -n 1)
  if [ -z "$sys_cxx" ] || ! grep -qa "$want" "$sys_cxx"; then libs=$libs:$runtime/runtime/compat; fi
  # CUDA's own libraries where this machine has them: the toolkit's, or the CUDA wheels of an
  # installed Python (site-packages/nvidia/*/lib).
  cuda_dirs=$( { ls -d /usr/local/cuda/lib64 /usr/local/cuda/lib /usr/local/cuda-*/lib64 2>/dev/null
                 python3 -c 'import glob, os, sys
for p in sys.path:
    for d in glob.glob(os.path.join(p, "nvidia", "*", "lib")): print(d)' 2>/dev/null; } | paste -sd: -)
  libs=$libs${cuda_dirs:+:$cuda_dirs}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  # Wrappers, so that only our programs see the bundled libraries (not python, nvidia-smi).
  wrappers=$(mktemp -d)
  for prog in src-compress srcc_tests srcc_cli_tests srcc_bench; do
    [ -x ".gpu-bundle/bin/$prog" ] || continue  # srcc_bench only where Google Benchmark was found
    printf '#!/bin/sh\nLD_LIBRARY_PATH=%s exec %s "$@"\n' "$libs" "$PWD/.gpu-bundle/bin/$prog" >"$wrappers/$prog"
    chmod +x "$wrappers/$prog"
  done
  bin=$wrappers/src-compress
  tests=$wrappers/srcc_tests
  cli_tests=$wrappers/srcc_cli_tests
  benchmarks=$wrappers/srcc_bench
  [ -x "$benchmarks" ] || benchmarks=
  echo "using the prebuilt bundle (.gpu-bundle); C++ runtime: ${sys_cxx:-none on the system}${want:+, ours has $want}"
elif [ -n "${SRCC_BUILD_DIR:-}" ]; then
  # A build made already (the test suite's dry run): its programs as they are.
  libs=${LD_LIBRARY_PATH:-}
  bin=$SRCC_BUILD_DIR/app/src-compress
  tests=$SRCC_BUILD_DIR/tests/srcc_tests
  cli_tests=$SRCC_BUILD_DIR/tests/srcc_cli_tests
  benchmarks=$SRCC_BUILD_DIR/benchmarks/srcc_bench
  [ -x "$benchmarks" ] || benchmarks=
else
  libs=${LD_LIBRARY_PATH:-}
  jobs=$(nproc)
  if command -v apt-get >/dev/null && [ "$(id -u)" -eq 0 ] && ! [ -f /usr/include/hdf5/serial/hdf5.h ]; then
    bash scripts/setup.sh -DSRCC_WITH_CUDA=ON >/dev/null
  else
    cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DSRCC_WITH_CUDA=ON >/dev/null &&
      cmake --build build -j "$jobs" >/dev/null
  fi
  [ -f build/lib/libsrcc_cuda.so ] || { echo "CUDA backend was not built" >&2; exit 1; }
  bin=$PWD/build/app/src-compress
  tests=$PWD/build/tests/srcc_tests
  cli_tests=$PWD/build/tests/srcc_cli_tests
  benchmarks=$PWD/build/benchmarks/srcc_bench
  [ -x "$benchmarks" ] || benchmarks=
fi
export SRCC_BINARY=$bin SRCC_SOURCE_DIR=$PWD
py=/usr/bin/python3
[ -x "$py" ] && "$py" -c 'import h5py' 2>/dev/null || py=python3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export bin tests cli_tests benchmarks py work SITES BOND CHI OUT libs GPU

# The module's libraries, before anything needs them: a module that cannot load makes every GPU
# test skip as if there were no device.
preflight() {
  local module
  module=$(dirname "$bin")/../lib/libsrcc_cuda.so
  [ -f "$module" ] || module=.gpu-bundle/lib/libsrcc_cuda.so
  [ -f "$module" ] || module=build/lib/libsrcc_cuda.so
  echo "  module: $module"
  local missing
  missing=$(LD_LIBRARY_PATH=${libs:-${LD_LIBRARY_PATH:-}} ldd "$module" | grep 'not found')
  env | grep -E '^(NVIDIA_TF32_OVERRIDE|CUBLAS_WORKSPACE_CONFIG|CUDA_VISIBLE_DEVICES|CUDA_LAUNCH_BLOCKING)=' | sed 's/^/  /'
  if [ -n "$missing" ]; then
    echo "  the CUDA module cannot load here:"
    echo "$missing" | sed 's/^/   /'
    return 1
  fi
  echo "  every library of the module resolves"
}
export -f preflight
step "preflight: the CUDA module's libraries" preflight

devices=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU' || true)
export devices
gpu_tests() {
  local rc=0
  "$tests" --gtest_filter='Gpu*:Device*:SeveralDevices*' --gtest_output=xml:"$OUT/gpu-tests.xml" || rc=1
  "$cli_tests" --gtest_filter='CliDevice*' --gtest_output=xml:"$OUT/gpu-cli-tests.xml" || rc=1
  # A skipped GPU test where a device is visible means the backend did not come up.
  local skipped
  skipped=$(cat "$OUT"/gpu-tests.xml "$OUT"/gpu-cli-tests.xml 2>/dev/null | grep -c '<skipped' || true)
  echo "  $devices device(s) visible, $skipped GPU test(s) skipped"
  if [ "${devices:-0}" -gt 0 ] && [ "$skipped" -gt 0 ]; then
    echo "  FAIL: GPU tests skipped although a device is visible"
    rc=1
  fi
  return $rc
}
export -f gpu_tests
step "GPU tests" gpu_tests

# CPU and GPU on small products in every mode: the same seed gives the same result to rounding.
agreement() {
  local g=$work/agree
  mkdir -p "$g"
  "$bin" -q generate random-mpo -o "$g/h.h5" --sites 24 --bond 8 --dtype complex128 --seed 1 &&
    "$bin" -q generate random-mps -o "$g/psi.h5" --sites 24 --bond 16 --dtype complex128 --seed 2 &&
    "$bin" -q generate random-mpo -o "$g/hr.h5" --sites 24 --bond 8 --dtype float64 --seed 3 || return 1
  local rc=0 mode args limit
  while IFS='|' read -r mode args limit; do
    # shellcheck disable=SC2086
    "$bin" -q $args -o "$g/$mode-cpu.h5" &&
      "$bin" -q $args -o "$g/$mode-gpu.h5" --device "$GPU" &&
      close "$g/$mode-gpu.h5" "$g/$mode-cpu.h5" "$limit" || rc=1
  done <<LIST
c128|apply $g/h.h5 $g/psi.h5 --chi 32 --seed 7|1e-10
c64|apply $g/h.h5 $g/psi.h5 --chi 32 --seed 7 --dtype complex64|1e-4
f64|apply $g/hr.h5 $g/hr.h5 --chi 24 --seed 7|1e-10
over|apply $g/h.h5 $g/psi.h5 --chi 32 --seed 7 --oversample|1e-10
tol|apply $g/h.h5 $g/psi.h5 --tol 1e-6 --seed 7|1e-8
mpo|apply $g/h.h5 $g/h.h5 --chi 32 --seed 7|1e-10
comp|compress $g/psi.h5 --chi 8 --seed 7|1e-10
trunc|truncate $g/psi.h5 --chi 8|1e-10
LIST
  return $rc
}
export -f agreement
step "CPU and GPU agree: fixed χ̄ (complex128, complex64, float64), --oversample, --tol, MPO·MPO, compress, truncate" agreement

# The same product with SRCC_CUDA_SYNC=1: the device synchronised and checked after every call,
# so an asynchronous fault would be reported at the call that made it; the result is the same.
synced() {
  local g=$work/agree
  SRCC_CUDA_SYNC=1 "$bin" -q apply "$g/h.h5" "$g/psi.h5" --chi 32 --seed 7 -o "$g/sync-gpu.h5" --device "$GPU" &&
    close "$g/sync-gpu.h5" "$g/c128-cpu.h5" 1e-10
}
export -f synced
step "SRCC_CUDA_SYNC=1: every call synchronised and checked" synced

# Charges kept on the GPU: each method on a U(1) product, a --taylor evolution with measurements
# in blocks, and the run's own word that it computed on charges (--json's "symmetry"); the GPU's
# sweep seconds beside the CPU's (one thread) for the record.
charged() {
  local g=$work/charged
  mkdir -p "$g"
  "$bin" -q generate xxz -o "$g/h.h5" --sites 40 --delta 0.7 &&
    "$bin" -q generate charged-random -o "$g/psi.h5" --sites 40 --bond 96 --total-charge 0 || return 1
  local rc=0 mode args limit
  while IFS='|' read -r mode args limit; do
    # shellcheck disable=SC2086
    "$bin" -q $args -o "$g/$mode-cpu.h5" --threads 1 --json >"$g/$mode-cpu.json" &&
      "$bin" -q $args -o "$g/$mode-gpu.h5" --device "$GPU" --json >"$g/$mode-gpu.json" &&
      close "$g/$mode-gpu.h5" "$g/$mode-cpu.h5" "$limit" || { rc=1; continue; }
    "$py" - "$g/$mode-cpu.json" "$g/$mode-gpu.json" <<'PY' || rc=1
import json, sys
cpu, gpu = (json.load(open(f)) for f in sys.argv[1:3])
print(f"  symmetry {gpu.get('symmetry')}, sweep {gpu.get('sweep_seconds', 0):.3f} s on the GPU, "
      f"{cpu.get('sweep_seconds', 0):.3f} s on one CPU thread")
sys.exit(0 if gpu.get("symmetry") == "U(1)" else 1)
PY
  done <<LIST
src|apply $g/h.h5 $g/psi.h5 --chi 64 --seed 7|1e-10
over|apply $g/h.h5 $g/psi.h5 --chi 64 --seed 7 --oversample|1e-10
tol|apply $g/h.h5 $g/psi.h5 --tol 1e-5 --seed 7|1e-8
sdc|apply $g/h.h5 $g/psi.h5 --chi 64 --method sdc --oversample=1.1|1e-10
sdcr|apply $g/h.h5 $g/psi.h5 --chi 64 --method sdcr --seed 7|1e-10
fit|apply $g/h.h5 $g/psi.h5 --chi 64 --seed 7 --fit-sweeps 1|1e-10
sum|apply --term 1 $g/psi.h5 --term -0.1 $g/h.h5 $g/psi.h5 --chi 64 --seed 7|1e-10
hh|apply $g/h.h5 $g/h.h5 --chi 16 --seed 7|1e-10
LIST
  "$bin" -q evolve "$g/h.h5" "$g/psi.h5" --taylor 2 --dt 0.05 --steps 2 --chi 128 --seed 3 --measure "$g/h.h5" \
    --measure-site-op Sz --measure-entropy -o "$g/ev-cpu.h5" --threads 1 &&
    "$bin" -q evolve "$g/h.h5" "$g/psi.h5" --taylor 2 --dt 0.05 --steps 2 --chi 128 --seed 3 --measure "$g/h.h5" \
      --measure-site-op Sz --measure-entropy -o "$g/ev-gpu.h5" --device "$GPU" &&
    close "$g/ev-gpu.h5:/result" "$g/ev-cpu.h5:/result" 1e-10 || rc=1
  return $rc
}
export -f charged
step "charges on the GPU: src, --oversample, --tol, sdc, sdcr, a fit sweep, a sum, MPO·MPO, evolve --taylor with measurements" charged

spilled() {
  "$bin" -q generate random-mpo -o "$work/a.h5" --sites 60 --bond 16 --dtype complex128 --seed 1 >/dev/null &&
    "$bin" -q generate random-mps -o "$work/p.h5" --sites 60 --bond 32 --dtype complex128 --seed 2 >/dev/null &&
    "$bin" -q apply "$work/a.h5" "$work/p.h5" -o "$work/cpu.h5" --chi 64 --seed 5 || return 1
  # 10 MB of device and 100 MB of host memory: the plan keeps 12 of the 59 environments on the
  # device, 30 in host memory and 17 on scratch disk (see --dry-run).
  "$bin" -q apply "$work/a.h5" "$work/p.h5" -o "$work/gpu.h5" --chi 64 --seed 5 --device "$GPU" \
    --gpu-memory 10MB --host-memory 100MB --json >"$work/spilled.json" || return 1
  "$py" -c 'import json,sys; s=json.load(open(sys.argv[1])); print({k: s[k] for k in ("wall_seconds", "sweep_seconds", "device_peak_bytes", "peak_rss_bytes") if k in s})' "$work/spilled.json"
  close "$work/gpu.h5" "$work/cpu.h5" 1e-10 || return 1
  # The device moves of that run as /log/transfers records them (seconds from CUDA events).
  "$py" - "$work/gpu.h5" <<'PY'
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
    print(f"  {what:14s} {way:4s} {n:5d} moves {b / 1e6:9.1f} MB {s:8.3f} s on the copy streams"
          f" ({b / 1e9 / s if s > 0 else 0:.1f} GB/s)")
print(f"  run wall time {float(f['/log'].attrs['wall_seconds']):.2f} s")
PY
}
export -f spilled
step "GPU run with environments on the device, in host memory and on disk vs the CPU run" spilled

gpus=$(nvidia-smi -L 2>/dev/null | wc -l)
if [ "$gpus" -ge 2 ]; then
  two() {
    "$bin" -q apply "$work/a.h5" "$work/p.h5" -o "$work/gpu1.h5" --chi 64 --seed 5 --device gpu &&
      "$bin" -q apply "$work/a.h5" "$work/p.h5" -o "$work/gpu2.h5" --chi 64 --seed 5 --device gpu:0,1 &&
      close "$work/gpu2.h5" "$work/gpu1.h5" 1e-10
  }
  export -f two
  step "$gpus GPUs: sketch columns split over gpu:0,1 vs one GPU" two
fi

# SANITIZE=1: the kernel and stream tests once more under compute-sanitizer (memcheck for
# out-of-bounds and misaligned accesses, synccheck), where the toolkit has it.
if [ "${SANITIZE:-0}" = 1 ] && command -v compute-sanitizer >/dev/null; then
  sanitized() {
    for tool in memcheck synccheck; do
      compute-sanitizer --tool "$tool" --error-exitcode 99 "$tests" \
        --gtest_filter='GpuKernels*:GpuMoves*' 2>&1 | grep -E 'ERROR SUMMARY|PASSED|FAILED' || return 1
    done
  }
  export -f sanitized
  step "compute-sanitizer (memcheck, synccheck) on the kernel and stream tests" sanitized
fi

bench() {
  "$bin" -q generate random-mpo -o "$work/A.h5" --sites "$SITES" --bond "$BOND" --dtype complex128 --seed 1 >/dev/null &&
    "$bin" -q generate random-mpo -o "$work/B.h5" --sites "$SITES" --bond "$BOND" --dtype complex128 --seed 2 >/dev/null ||
    return 1
  "$bin" -q apply "$work/A.h5" "$work/B.h5" -o "$work/AB.h5" --chi "$CHI" --seed 3 --device "$GPU" \
    --json >"$work/bench.json" &
  local pid=$! peak=0 used
  while kill -0 "$pid" 2>/dev/null; do
    used=$(nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits 2>/dev/null | head -n 1)
    [ "${used:-0}" -gt "$peak" ] 2>/dev/null && peak=$used
    sleep 0.2
  done
  wait "$pid" || return 1
  "$py" - "$work/bench.json" "$peak" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
print(f"wall {s['wall_seconds']:.2f} s, sweep {s['sweep_seconds']:.2f} s, "
      f"{s['gflop'] / 1000:.2f} TFLOP, {s['gflops_per_second'] / 1000:.2f} TFLOP/s achieved, "
      f"max bond {s['max_bond']}, device memory peak {s['device_peak_bytes'] / 2**20:.0f} MiB "
      f"(pool; nvidia-smi saw {sys.argv[2]} MiB), "
      f"host peak {s['peak_rss_bytes'] / 1e6:.0f} MB")
PY
}
export -f bench
step "benchmark: MPO·MPO, $SITES sites, phys 2, inputs of bond $BOND, χ̄ = $CHI, complex128" bench

cpu_host() {
  [ -n "$benchmarks" ] || { echo "srcc_bench was not built (no Google Benchmark): no ZGEMM rate to compare with" >&2; return 1; }
  "$bin" -q generate random-mpo -o "$work/H.h5" --sites 100 --bond 50 --dtype complex128 --seed 1 >/dev/null &&
    "$bin" -q generate random-mps -o "$work/psi.h5" --sites 100 --bond 50 --dtype complex128 --seed 2 >/dev/null ||
    return 1
  local t r
  for t in $(printf "%s\n" 2 "$(nproc)" | sort -un); do
    OPENBLAS_NUM_THREADS=$t "$benchmarks" --benchmark_filter='BM_Zgemm/(1024|2048)|BM_FirstTouch' \
      --benchmark_format=json 2>/dev/null | "$py" scripts/machine_rates.py >"$work/machine$t.txt" || return 1
    : >"$work/cpu$t.jsonl"
    for r in 1 2 3 4 5; do
      "$bin" -q apply "$work/H.h5" "$work/psi.h5" -o "$work/cpu.h5" --chi 50 --seed 3 --threads "$t" \
        --force --json >>"$work/cpu$t.jsonl" || return 1
    done
    "$py" - $(cat "$work/machine$t.txt") "$work/cpu$t.jsonl" <<'PY' || return 1
import json, statistics, sys
zgemm, page_us = float(sys.argv[1]), float(sys.argv[2])
sweeps = [json.loads(line) for line in open(sys.argv[3])]
sweep = statistics.median(s["sweep_seconds"] for s in sweeps)
rate = sweeps[0]["gflop"] / sweep
print(f"  {sweeps[0]['threads']} threads: sweep {sweep:.3f} s (median of {len(sweeps)} processes), "
      f"{sweeps[0]['gflop']:.2f} GFLOP executed = {rate:.1f} GFLOP/s, {100 * rate / zgemm:.0f}% of "
      f"ZGEMM ({zgemm:.1f} GFLOP/s); first write to a fresh page {page_us:.2f} µs; "
      f"peak {max(s['peak_rss_bytes'] for s in sweeps) / 1e6:.0f} MB")
PY
  done
}
export -f cpu_host
step "the CPU sweep on this host: n = 100, D = χ = χ̄ = 50, complex128, fresh processes" cpu_host

(IFS=,; echo "[${steps_json[*]}]") >"$OUT/steps.json"
if [ ${#failed[@]} -gt 0 ]; then
  printf 'FAILED: %s\n' "${failed[@]}"
  exit 1
fi
echo "all steps passed"
