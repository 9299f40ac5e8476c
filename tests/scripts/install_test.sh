#!/usr/bin/env bash
# cmake --install into a prefix of a user's own (no root): the installed program runs a product
# from there; a CMake project (find_package(srcc) → srcc::srcc) and a pkg-config build (srcc.pc)
# compile and run against the installed library and headers.
# Usage: install_test.sh BUILD_DIR
set -euo pipefail
build=$(realpath "$1")
# Resolved: the program finds its module through /proc/self/exe, which names no symlinks.
work=$(realpath "$(mktemp -d)")
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix
fail() { echo "FAIL: $*"; exit 1; }

cmake --install "$build" --prefix "$prefix" >"$work/install.log" 2>&1 || { cat "$work/install.log"; fail "cmake --install"; }
bin=$prefix/bin/src-compress
# Outputs are captured before they are searched: `prog | grep -q` fails under pipefail when grep
# leaves early and the program's later writes meet a closed pipe.
version=$("$bin" --version) || fail "the installed program does not run"
[[ $version == src-compress* ]] || fail "its --version printed '$version'"
cd "$work"
"$bin" -q generate ising -o h.h5 --sites 8 || fail "the installed program's generate"
"$bin" -q generate random-mps -o psi.h5 --sites 8 --bond 4 --seed 1 || fail "generate random-mps"
"$bin" -q apply h.h5 psi.h5 -o out.h5 --chi 6 --seed 2 || fail "the installed program's apply"
listing=$("$bin" inspect out.h5) || fail "inspect of its output"
grep -q "/result  MPS  length 8" <<<"$listing" || fail "its output: $listing"

# The CUDA module, where built, is loaded from the installed tree (the dynamic loader's log
# names the file), whether or not this machine has a GPU.
if [ -e "$build/lib/libsrcc_cuda.so" ]; then
  LD_DEBUG=files "$bin" -q apply h.h5 psi.h5 -o gpu.h5 --chi 6 --seed 2 --device gpu >ld.log 2>&1 || true
  grep -q "file=$prefix/lib[^ ]*/libsrcc_cuda.so" ld.log ||
    fail "the installed program did not load its own CUDA module (installed: $(find "$prefix" -name 'libsrcc_cuda*'); the loader: $(grep -m3 'libsrcc_cuda' ld.log); the program: $(grep -v '^ *[0-9]*:' ld.log | tail -3))"
fi

# A program of a user: the library's parser of sizes, and a train of xtensor arrays read from
# the installed program's output, compressed in memory to bond 3.
cat >main.cpp <<'CPP'
#include <cstdio>
#include "srcc/srcc.hpp"
#include "srcc/session/xtensor_trains.hpp"
int main() {
  const auto psi = srcc::read_xtrain<double>("out.h5", "/result");
  srcc::SweepOptions o;
  o.chi = 3;
  const auto small = srcc::apply_xtrains<double>({}, psi, o);
  std::printf("%s %llu %zu %zu\n", srcc::kVersion, static_cast<unsigned long long>(srcc::parse_size("4GiB", "size")),
              small.size(), small[4].shape()[1]);
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
# The consumers use the build's own compiler: a sanitized (clang) archive links only there.
cxx=$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt")
cxx=${cxx:-c++}
cmake -S cm -B cm/build -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_CXX_COMPILER="$cxx" >cm.log 2>&1 || { cat cm.log; fail "find_package(srcc)"; }
cmake --build cm/build >>cm.log 2>&1 || { cat cm.log; fail "building against srcc::srcc"; }
out=$(cm/build/uses_srcc)
[ "$out" = "$(awk 'NR == 1 {print $2}' <<<"$version") 4294967296 8 3" ] || fail "the CMake consumer printed '$out'"

if command -v pkg-config >/dev/null; then
  flags=$(PKG_CONFIG_PATH=$prefix/lib/pkgconfig pkg-config --cflags --libs srcc) || fail "pkg-config srcc"
  # shellcheck disable=SC2086
  "$cxx" main.cpp -o uses_pc $flags || fail "building with pkg-config's flags"
  [ "$(./uses_pc)" = "$out" ] || fail "the pkg-config consumer differs"
  echo "installed: program, CMake package and pkg-config file work from $prefix"
else
  echo "installed: program and CMake package work from $prefix (no pkg-config here to try srcc.pc)"
fi

# The Python package, where built: imported from the prefix's site-packages (no build tree on
# the path), it reads the installed program's output and compresses it in memory.
if compgen -G "$build/python/srcc/_srcc*.so" >/dev/null; then
  site=$(find "$prefix" -path '*-packages/srcc/__init__.py' -printf '%h\n' | head -1)
  [ -n "$site" ] || fail "cmake --install put no srcc package under $prefix"
  py=$(sed -n 's/^Python_EXECUTABLE:[A-Z]*=//p' "$build/CMakeCache.txt")
  got=$(cd / && PYTHONPATH=$(dirname "$site") "${py:-python3}" -c "
import srcc
psi = srcc.read('$work/out.h5')
small, record = srcc.compress(psi, chi=3)
print(srcc.__file__.startswith('$prefix'), len(small), max(record['bonds']))") || fail "import srcc from $site"
  [ "$got" = "True 8 3" ] || fail "the installed package printed '$got'"
  echo "installed: the Python package works from $site"
fi
