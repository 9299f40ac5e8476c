#!/usr/bin/env bash
# The cost of writing a result back in TeNPy's block structure (the default for a TeNPy input)
# beside the sweep that made it: for each input file (made by scripts/make_xxz_inputs.py), H·ψ and
# one W^II step at χ̄ = the state's bond, each written as TeNPy (default) and in our own layout;
# seconds of the sweep and of the write, the process's peak memory, and the write-back's error
# against the exact product (our `distance`). One thread, one run at a time.
#
#   scripts/bench_writeback.sh IN128.h5 [IN256.h5 …]
#   OLD=/path/to/older/src-compress scripts/bench_writeback.sh IN128.h5   # another build beside, in turn
#   LIMIT=240 …   # seconds a run may take before it is killed (default 900)
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-build/app/src-compress}
[ -x "$BIN" ] || cmake --build build --target src-compress >/dev/null
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
builds=("new:$BIN")
[ -n "${OLD:-}" ] && builds+=("old:$OLD")

# "sweep write peak" from a run's summary lines.
times_of() { sed -n 's/.*sweep with reading \([0-9.]*\), write \([0-9.]*\)).*peak memory \([0-9.]* [MG]B\).*/\1 \2 \3/p' "$1"; }

printf '%-10s %-5s %-4s %-7s %-6s %9s %9s %12s %12s\n' file op chi build format sweep_s write_s peak error
for input in "$@"; do
  chi=$("$BIN" inspect "$input:/psi" --json | /usr/bin/python3 -c "import json,sys; print(json.load(sys.stdin)[0]['max_bond'])")
  for op in H_MPO U_II; do
    # The exact product: χ̄ above the product's bond, our layout.
    "$BIN" apply "$input:/$op" "$input:/psi" -o "$WORK/exact.h5" --chi $((chi * 6)) --seed 1 --output-format srcc \
      --threads 1 -q --force
    for b in "${builds[@]}"; do
      name=${b%%:*} bin=${b#*:}
      for format in tenpy srcc; do
        out="$WORK/$name-$format.h5"
        if ! timeout "${LIMIT:-900}" "$bin" apply "$input:/$op" "$input:/psi" -o "$out" --chi "$chi" --seed 1 \
             --output-format "$format" --threads 1 --force >"$WORK/log" 2>&1; then
          printf '%-10s %-5s %-4s %-7s %-6s %9s\n' "$(basename "$input")" "$op" "$chi" "$name" "$format" "failed/killed"
          continue
        fi
        read -r sweep write peak < <(times_of "$WORK/log")
        err=$("$BIN" distance "$out:/result" "$WORK/exact.h5" --json | /usr/bin/python3 -c "import json,sys; print('%.3e' % json.load(sys.stdin)['relative_distance'])")
        printf '%-10s %-5s %-4s %-7s %-6s %9s %9s %12s %12s\n' "$(basename "$input")" "$op" "$chi" "$name" "$format" "$sweep" "$write" "$peak" "$err"
      done
    done
  done
done
