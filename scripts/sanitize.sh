#!/usr/bin/env bash
# The checks that keep bad input from crashing us, with clang in build-sanitize/:
#  1. the whole CTest suite built with AddressSanitizer + UndefinedBehaviorSanitizer;
#  2. every input kept in fuzz/regressions/ (each once broke a reader) replayed through the
#     reader fuzz target (fuzz/reader_fuzz.cpp);
#  3. libFuzzer mutating a seed corpus of small valid files for FUZZ_SECONDS (default 60).
# Findings are replayed and sorted: a fault in our code is copied to fuzz/finding-* and fails
# the script (fix the reader, then move the file into fuzz/regressions/); a fault inside the
# HDF5 library's own code is reported and copied to fuzz/upstream-* (see fuzz/hdf5.supp).
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
# handler is off, see io/h5/h5_handle.cpp): leak reports would be about them, not us.
# A huge allocation request (a crafted size) returns null as it does outside the sanitizer.
# Reports from inside HDF5's own (uninstrumented) code are suppressed: see fuzz/hdf5.supp.
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=0:allocator_may_return_null=1:suppressions=$PWD/fuzz/hdf5.supp
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
# Seeds of the other libraries' formats (TeNPy's np_conserved Arrays with charges, ITensor's
# Diag and Dense storages) and for the storage the reader undoes itself and the types it
# checks: gzip chunks (with shuffle and a checksum) and a complex compound {r, i}.
cp tests/data/tenpy_tfi_L4_parity.h5 tests/data/itensor_ghz_L5_diag.h5 "$corpus/"
/usr/bin/python3 - "$corpus" <<'PY'
import sys, h5py, numpy as np
d = sys.argv[1]
rng = np.random.default_rng(1)
with h5py.File(d + "/gzip.h5", "w") as f:
    g = f.create_group("psi"); g.attrs["type"] = "MPS"
    for j, shape in enumerate([(2, 2), (2, 2, 2), (2, 2)]):
        g.create_dataset(str(j), data=rng.random(shape), chunks=shape, compression="gzip",
                         shuffle=True, fletcher32=True)
with h5py.File(d + "/complex.h5", "w") as f:
    g = f.create_group("psi"); g.attrs["type"] = "MPS"
    for j, shape in enumerate([(2, 2), (2, 2, 2), (2, 2)]):
        g[str(j)] = rng.random(shape) + 1j * rng.random(shape)
PY
echo "sanitize: fuzzing the readers for ${seconds}s"
# Fork mode keeps fuzzing after a crash. Each finding is then replayed and sorted: a fault
# inside the HDF5 library's own code (a crafted file it mishandles; contained by the read
# check where it is repeatable, see fuzz/hdf5.supp) is reported and kept aside in
# fuzz/upstream-*; a fault anywhere else is ours and fails the run.
findings=$(mktemp -d)
"$fuzzer" -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 -max_total_time="$seconds" \
  -timeout=20 -rss_limit_mb=3072 -artifact_prefix="$findings/" "$corpus" >"$corpus/fuzz.log" 2>&1 || true
grep -E "^#[0-9]+: .*(exec/s|DONE)" "$corpus/fuzz.log" | tail -1 || true
status=0
for f in "$findings"/*; do
  [ -e "$f" ] || continue
  # Replayed under the fuzzing's own limits (without -timeout, libFuzzer would give a hang
  # twenty minutes before reporting it).
  "$fuzzer" -runs=1 -timeout=25 -rss_limit_mb=3072 "$f" >"$f.log" 2>&1 && continue  # not repeatable: nothing to sort
  # The first frame of the report that is not the C library, a sanitizer or libFuzzer (nor the
  # allocator: an out-of-memory report starts in malloc, called by whoever asked).
  frame=$(grep -E "^ +#[0-9]+ " "$f.log" | grep -vE " in (__|_sanitizer|__interceptor|fuzzer::|memcpy|memmove|memset|strlen|abort|raise)" \
          | grep -vE " in (malloc|calloc|realloc|free|operator new|operator delete)[ (]" \
          | grep -vE "(libc\.so|sysdeps|/nptl/)" | head -1 | sed -E 's/.* in ([^ (]+).*/\1/')
  if [[ "$frame" == H5* ]]; then
    cp "$f" "fuzz/upstream-$(basename "$f")"
    echo "sanitize: HDF5 mishandles fuzz/upstream-$(basename "$f") (fault in $frame)"
  else
    cp "$f" "fuzz/finding-$(basename "$f")"
    echo "sanitize: a reader of ours breaks on fuzz/finding-$(basename "$f") (fault in ${frame:-?}):" >&2
    grep -E "ERROR|SUMMARY|^ +#[0-9]+ " "$f.log" | head -20 >&2
    status=1
  fi
done
rm -rf "$findings"
exit "$status"
