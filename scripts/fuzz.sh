#!/usr/bin/env bash
# Fuzzes every reader of user-given files (fuzz/reader_fuzz.cpp) with libFuzzer, ASan and UBSan.
# Builds with clang in build-fuzz/, replays every input kept in fuzz/regressions/ (each once
# broke a reader), then mutates a seed corpus of small valid files written by src-compress
# itself for SECONDS (default 60). A finding is written to fuzz/finding-* and fails the script:
# fix the reader, then move the file to fuzz/regressions/.
#   scripts/fuzz.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
[ -x build/app/src-compress ] || bash scripts/setup.sh
if ! command -v clang++ >/dev/null || ! dpkg-query -W -f='${Status}' libclang-rt-14-dev 2>/dev/null | grep -q "ok installed"; then
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends clang libclang-rt-14-dev >/dev/null
fi
CC=clang CXX=clang++ cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSRCC_FUZZ=ON \
  -DSRCC_WITH_CUDA=OFF -DSRCC_BUILD_TESTS=OFF -DSRCC_BUILD_BENCHMARKS=OFF >/dev/null
cmake --build build-fuzz -j "$(nproc)" --target reader_fuzz >/dev/null
fuzzer=build-fuzz/fuzz/reader_fuzz

corpus=$(mktemp -d)
trap 'rm -rf "$corpus"' EXIT
bin=build/app/src-compress
"$bin" -q generate random-mps -o "$corpus/psi.h5" --sites 3 --bond 2 --seed 1 >/dev/null
"$bin" -q generate random-mpo -o "$corpus/h.h5" --sites 3 --bond 2 --seed 2 >/dev/null
"$bin" -q generate ising -o "$corpus/ising.h5" --sites 3 >/dev/null
"$bin" -q apply "$corpus/h.h5" "$corpus/psi.h5" -o "$corpus/out.h5" --chi 2 --seed 3 >/dev/null

export ASAN_OPTIONS=detect_leaks=0  # HDF5 keeps its globals to the end on purpose (no atexit)
if compgen -G "fuzz/regressions/*" >/dev/null; then
  echo "fuzz: replaying $(ls fuzz/regressions | wc -l) regression inputs"
  "$fuzzer" -runs=0 fuzz/regressions/* 2>&1 | tail -2
fi
echo "fuzz: mutating for ${seconds}s"
"$fuzzer" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=3072 -print_final_stats=1 \
  -artifact_prefix=fuzz/finding- "$corpus" 2>&1 | tail -12
