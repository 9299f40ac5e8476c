#!/usr/bin/env bash
# Installs the Debian packages src-compress needs (when missing) and builds it in build/.
# Usage: scripts/setup.sh [--demo] [extra cmake arguments]
#   --demo: only what the program needs, and only the program (scripts/demo.sh); else everything:
#           the tests, benchmarks and the Python package too.
set -euo pipefail
cd "$(dirname "$0")/.."

demo=false
if [ "${1:-}" = --demo ]; then
  demo=true
  shift
fi
# gfortran brings libgfortran.a, for linking OpenBLAS's LAPACK statically (CMakeLists.txt).
packages=(build-essential cmake pkg-config libcli11-dev libxtensor-dev libxtensor-blas-dev
          libhdf5-dev libspdlog-dev libopenblas-dev liblapacke-dev gfortran)
$demo || packages+=(libgtest-dev libbenchmark-dev python3-h5py python3-numpy python3-matplotlib hdf5-tools
                    slurm-wlm munge pybind11-dev python3-dev python3-pytest openmpi-bin libopenmpi-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null
fi

# The parts are named either way, so that a tree configured by one mode builds in the other.
if $demo; then
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DSRCC_BUILD_TESTS=OFF -DSRCC_BUILD_BENCHMARKS=OFF \
        -DSRCC_BUILD_PYTHON=OFF "$@" >/dev/null
  cmake --build build -j "$(nproc)" --target src-compress
else
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DSRCC_BUILD_TESTS=ON -DSRCC_BUILD_BENCHMARKS=ON \
        -DSRCC_BUILD_PYTHON=ON "$@" >/dev/null
  cmake --build build -j "$(nproc)"
  # `import srcc` for Debian's python3 without PYTHONPATH: a .pth file in the user's site-packages
  # naming the build tree's package (cmake --install puts it in a prefix instead).
  if [ -d build/python/srcc ] && [ -x /usr/bin/python3 ]; then
    site=$(/usr/bin/python3 -m site --user-site)
    mkdir -p "$site" && echo "$PWD/build/python" > "$site/srcc-build-tree.pth"
  fi
fi
