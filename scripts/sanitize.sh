#!/usr/bin/env bash
# The checks that keep bad input from crashing us, with clang in build-sanitize/:
#  1. the whole CTest suite built with AddressSanitizer + UndefinedBehaviorSanitizer;
#  2. every input kept in fuzz/regressions/ (each once broke a reader) replayed through the
#     reader fuzz target (fuzz/reader_fuzz.cpp);
#  3. libFuzzer mutating a seed corpus of small valid files for FUZZ_SECONDS (default 60).
# A fuzzing finding is written to fuzz/finding-* and fails the script: fix the reader, then
# move the file into fuzz/regressions/.
#   scripts/sanitize.sh [FUZZ_SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
bash scripts/setup.sh >/dev/null   # the Debian packages and the ordinary build (seed corpus)
if ! command -v clang++ >/dev/null || ! dpkg-query -W -f='${Status}' libclang-rt-14-dev 2>/dev/null | grep -q "ok installed"; then
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends clang libclang-rt-14-dev >/dev/null
fi
CC=clang CXX=clang++ cmake -S . -B build-sanitize -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSRCC_FUZZ=ON \
  -DSRCC_WITH_CUDA=OFF -DSRCC_BUILD_BENCHMARKS=OFF >/dev/null
cmake --build build-sanitize -j "$(nproc)" >/dev/null

# HDF5 and OpenBLAS keep their global state to the end of the process on purpose (HDF5's exit
# handler is off, see io/h5_handle.cpp): leak reports would be about them, not us.
# A huge allocation request (a crafted size) returns null as it does outside the sanitizer.
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=0:allocator_may_return_null=1
export UBSAN_OPTIONS=print_stacktrace=1
echo "sanitize: the test suite under ASan + UBSan"
ctest --test-dir build-sanitize --output-on-failure -j "$(nproc)"

fuzzer=build-sanitize/fuzz/reader_fuzz
if compgen -G "fuzz/regressions/*" >/dev/null; then
  echo "sanitize: replaying $(ls fuzz/regressions | wc -l) fuzz regression inputs"
  "$fuzzer" -runs=0 fuzz/regressions/* 2>&1 | tail -1
fi
corpus=$(mktemp -d)
trap 'rm -rf "$corpus"' EXIT
bin=build/app/src-compress
"$bin" -q generate random-mps -o "$corpus/psi.h5" --sites 3 --bond 2 --seed 1 >/dev/null
"$bin" -q generate random-mpo -o "$corpus/h.h5" --sites 3 --bond 2 --seed 2 >/dev/null
"$bin" -q generate ising -o "$corpus/ising.h5" --sites 3 >/dev/null
"$bin" -q apply "$corpus/h.h5" "$corpus/psi.h5" -o "$corpus/out.h5" --chi 2 --seed 3 >/dev/null
echo "sanitize: fuzzing the readers for ${seconds}s"
status=0
"$fuzzer" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=3072 -print_final_stats=1 \
  -artifact_prefix=fuzz/finding- "$corpus" >"$corpus/fuzz.log" 2>&1 || status=$?
grep -E "^(Done|stat::number_of_executed_units|stat::peak_rss_mb|SUMMARY)|ERROR" "$corpus/fuzz.log" | tail -8 || true
if [ "$status" -ne 0 ]; then
  tail -40 "$corpus/fuzz.log"
  echo "sanitize: the fuzzer found an input that breaks a reader (fuzz/finding-*)" >&2
fi
exit "$status"
