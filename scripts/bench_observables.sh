#!/usr/bin/env bash
# Local observables of a charged state, the physicist's after-the-run measurements: ⟨Sz_i⟩ at
# every site and the whole matrix ⟨Sz_i Sz_j⟩ (or ⟨S+_i S−_j⟩ with OPS="Sp Sm"), ours in the
# state's blocks (--symmetry auto), ours dense (--symmetry off), and TeNPy's expectation_value +
# correlation_function, on TeNPy's own DMRG ground states of the XXZ chain
# (scripts/make_xxz_inputs.py). Ours: the whole process (reading, canonical form, measuring);
# TeNPy: the two calls alone, the state already loaded. Peak memory of each process; the largest
# difference between our values and TeNPy's. One thread each, pinned to one core; ROUNDS rounds
# (default 3) alternating, medians.
#
#   TENPY=/path/to/tenpy scripts/bench_observables.sh IN128.h5 [IN256.h5 …]
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-build/app/src-compress}
[ -x "$BIN" ] || cmake --build build --target src-compress >/dev/null
. scripts/peer_blas.sh "$BIN"
: "${TENPY:?set TENPY to a TeNPy source tree (fetch tenpy/tenpy)}"
read -r A B <<<"${OPS:-Sz Sz}"
ROUNDS=${ROUNDS:-3}
PY="env TENPY_NO_CYTHON=true PYTHONPATH=$TENPY OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 taskset -c 0 /usr/bin/python3"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cat >"$WORK/tenpy_local.py" <<'EOF'
import json, resource, sys, time
import numpy as np
from tenpy.tools import hdf5_io
path, a, b = sys.argv[1:4]
psi = hdf5_io.load(path)["psi"]
t0 = time.perf_counter()
site = psi.expectation_value(a)
corr = psi.correlation_function(a, b)
seconds = time.perf_counter() - t0
np.save(sys.argv[4], np.concatenate([np.ravel(site), np.ravel(corr)]))
print(json.dumps({"seconds": seconds, "peak_rss_bytes": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024}))
EOF

median() { tr ' ' '\n' | grep . | sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
echo "# $(date -u +%F) $(lscpu | sed -n 's/^Model name: *//p'), one thread, ⟨${A}_i⟩ and ⟨${A}_i ${B}_j⟩, medians of $ROUNDS"
printf '%-12s %-5s %-18s %9s %9s %12s\n' input chi run seconds peak_MB vs_TeNPy
for input in "$@"; do
  chi=$("$BIN" inspect "$input:/psi" --json | /usr/bin/python3 -c "import json,sys; print(json.load(sys.stdin)[0]['max_bond'])")
  declare -A secs=() peak=()
  for _ in $(seq "$ROUNDS"); do
    for sym in auto off; do
      /usr/bin/time -f '%e %M' -o "$WORK/time" taskset -c 0 "$BIN" expect "$input:/psi" --site-op "$A" \
        --correlation "$A,$B" --symmetry $sym --threads 1 --json >"$WORK/ours_$sym.json"
      read -r s m <"$WORK/time"
      secs[$sym]+="$s "
      peak[$sym]=$((m / 1024))
    done
    out=$($PY "$WORK/tenpy_local.py" "$input" "$A" "$B" "$WORK/tenpy.npy")
    secs[tenpy]+="$(echo "$out" | /usr/bin/python3 -c "import json,sys; print('%.2f' % json.load(sys.stdin)['seconds'])") "
    peak[tenpy]=$(echo "$out" | /usr/bin/python3 -c "import json,sys; print(json.load(sys.stdin)['peak_rss_bytes'] // 2**20)")
  done
  diff() {
    /usr/bin/python3 - "$1" "$WORK/tenpy.npy" <<'EOF'
import json, sys
import numpy as np
d = json.load(open(sys.argv[1]))
vals = []
for group in (d["site_ops"], d["correlations"]):
    g = group[0]
    vals.append(np.ravel(np.array(g["re"]) + 1j * np.array(g["im"])))
print("%.1e" % np.max(np.abs(np.concatenate(vals) - np.load(sys.argv[2]))))
EOF
  }
  for run in auto off; do
    name=$([ $run = auto ] && echo "ours on charges" || echo "ours dense")
    printf '%-12s %-5s %-18s %9s %9s %12s\n' "$(basename "$input" .h5)" "$chi" "$name" \
      "$(echo "${secs[$run]}" | median)" "${peak[$run]}" "$(diff "$WORK/ours_$run.json")"
  done
  printf '%-12s %-5s %-18s %9s %9s %12s\n' "$(basename "$input" .h5)" "$chi" "TeNPy" "$(echo "${secs[tenpy]}" | median)" \
    "${peak[tenpy]}" "-"
  unset secs peak
done
