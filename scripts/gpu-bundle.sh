#!/usr/bin/env bash
# Prepares the device check for a GPU machine that cannot fetch packages (the device machines
# lent to this project have CUDA 13 and CMake but none of our Debian libraries, and no network).
# Run it here, on the CPU machine: it makes a Release build with the CUDA backend (same nvcc
# major version as the device) and puts, in .gpu-bundle/ (ignored by git):
#   bin/      src-compress, srcc_tests, srcc_cli_tests, srcc_bench
#   lib/      libsrcc_cuda.so (found by the programs as ../lib/ beside them)
#   runtime.tar.gz  every shared library they load beyond the C library and the CUDA toolkit
#                   (the C++ runtime in compat/, used only where the device's is older)
# Then name `.gpu-bundle` in the device tool's `carry` and run `bash scripts/gpu-check.sh` there:
# it uses the bundle instead of building. Prints the bundle's size and the newest glibc symbol
# version the bundle needs (the device's C library must be at least that new).
set -euo pipefail
cd "$(dirname "$0")/.."
out=.gpu-bundle
build=build-gpu
# OpenBLAS shared here: linked statically it would add its ~28 MB of kernels to each of the
# three programs, past what the device tool carries; as one library it goes into the tarball.
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DSRCC_WITH_CUDA=ON -DSRCC_STATIC_BLAS=OFF >/dev/null
cmake --build "$build" -j "$(nproc)" >/dev/null
[ -f "$build/lib/libsrcc_cuda.so" ] || { echo "gpu-bundle: the CUDA backend was not built (no nvcc?)" >&2; exit 1; }

rm -rf "$out"
mkdir -p "$out/bin" "$out/lib" "$out/runtime"
cp "$build/app/src-compress" "$build/tests/srcc_tests" "$build/tests/srcc_cli_tests" "$out/bin/"
[ -f "$build/benchmarks/srcc_bench" ] && cp "$build/benchmarks/srcc_bench" "$out/bin/"
cp "$build/lib/libsrcc_cuda.so" "$out/lib/"

# Everything ldd resolves except the C library itself and the CUDA toolkit's libraries, which
# the device has in the version its driver wants.
for f in "$out"/bin/* "$out"/lib/*.so; do ldd "$f"; done |
  awk '/=> \// {print $3}' | sort -u |
  grep -Ev '/(libc|libm|libdl|libpthread|librt|libresolv|ld-linux-x86-64)\.so' |
  grep -Ev '/(libcuda|libcudart|libcublas|libcublasLt|libcusolver|libcusparse|libnvJitLink)\.so' |
  while read -r lib; do cp -L "$lib" "$out/runtime/"; done
# The C++ runtime is the device's own when it is at least as new as ours (it needs a newer C
# library than everything else here); ours waits in compat/ for a device where it is older.
mkdir -p "$out/runtime/compat"
mv "$out"/runtime/libstdc++.so.* "$out"/runtime/libgcc_s.so.* "$out/runtime/compat/" 2>/dev/null || true
tar -C "$out" -czf "$out/runtime.tar.gz" runtime
newest=$(for f in "$out"/bin/* "$out"/lib/*.so "$out"/runtime/*.so*; do objdump -T "$f" 2>/dev/null; done |
  grep -o 'GLIBC_[0-9.]*' | sort -t. -k2,2n -k3,3n -u | tail -n 1)
rm -rf "$out/runtime"
echo "gpu-bundle: $(du -sh "$out" | cut -f1) in $out ($(ls "$out"/bin | tr '\n' ' ')); needs ${newest:-no versioned} glibc symbols"
