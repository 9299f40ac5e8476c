#!/usr/bin/env bash
# cmake --install into a prefix of a user's own (no root): the installed program runs a product
# from there; a CMake project (find_package(srcc) → srcc::srcc) and a pkg-config build (srcc.pc)
# compile and run against the installed library and headers.
# Usage: install_test.sh BUILD_DIR
set -euo pipefail
build=$(realpath "$1")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix
fail() { echo "FAIL: $*"; exit 1; }

cmake --install "$build" --prefix "$prefix" >/dev/null || fail "cmake --install"
bin=$prefix/bin/src-compress
"$bin" --version | grep -q "src-compress" || fail "the installed program does not run"
cd "$work"
"$bin" -q generate ising -o h.h5 --sites 8
"$bin" -q generate random-mps -o psi.h5 --sites 8 --bond 4 --seed 1
"$bin" -q apply h.h5 psi.h5 -o out.h5 --chi 6 --seed 2 || fail "the installed program's apply"
"$bin" inspect out.h5 | grep -q "/result  MPS  length 8" || fail "its output"

# The CUDA module, where built, is loaded from the installed tree (the dynamic loader's log
# names the file), whether or not this machine has a GPU.
if [ -e "$build/lib/libsrcc_cuda.so" ]; then
  LD_DEBUG=files "$bin" -q apply h.h5 psi.h5 -o gpu.h5 --chi 6 --seed 2 --device gpu >ld.log 2>&1 || true
  grep -q "file=$prefix/lib[^ ]*/libsrcc_cuda.so" ld.log ||
    fail "the installed program did not load its own CUDA module: $(grep -m3 'libsrcc_cuda' ld.log)"
fi

# A program of a user: the library's parser of sizes and its generator, the norm of a train.
cat >main.cpp <<'CPP'
#include <cstdio>
#include "srcc/srcc.hpp"
int main() {
  const auto cores = srcc::random_train<double>(srcc::TrainKind::kMps, 6, 3, 2, 7);
  double sq = 0;
  for (double v : cores.front().data) sq += v * v;
  std::printf("%s %llu %zu %s\n", srcc::kVersion, static_cast<unsigned long long>(srcc::parse_size("4GiB", "size")),
              cores.size(), sq > 0 ? "ok" : "zero");
}
CPP
mkdir -p cm && cat >cm/CMakeLists.txt <<'CMAKE'
cmake_minimum_required(VERSION 3.25)
project(uses_srcc CXX)
set(CMAKE_CXX_STANDARD 20)
find_package(srcc REQUIRED)
add_executable(uses_srcc ../main.cpp)
target_link_libraries(uses_srcc PRIVATE srcc::srcc)
CMAKE
cmake -S cm -B cm/build -DCMAKE_PREFIX_PATH="$prefix" >cm.log 2>&1 || { cat cm.log; fail "find_package(srcc)"; }
cmake --build cm/build >>cm.log 2>&1 || { cat cm.log; fail "building against srcc::srcc"; }
out=$(cm/build/uses_srcc)
[ "$out" = "$("$bin" --version | awk '{print $2}') 4294967296 6 ok" ] || fail "the CMake consumer printed '$out'"

if command -v pkg-config >/dev/null; then
  flags=$(PKG_CONFIG_PATH=$prefix/lib/pkgconfig pkg-config --cflags --libs srcc) || fail "pkg-config srcc"
  # shellcheck disable=SC2086
  c++ main.cpp -o uses_pc $flags || fail "building with pkg-config's flags"
  [ "$(./uses_pc)" = "$out" ] || fail "the pkg-config consumer differs"
  echo "installed: program, CMake package and pkg-config file work from $prefix"
else
  echo "installed: program and CMake package work from $prefix (no pkg-config here to try srcc.pc)"
fi
