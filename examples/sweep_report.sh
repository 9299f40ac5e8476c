#!/usr/bin/env bash
# A χ̄ sweep and its report, the way it runs on a cluster but on this machine: the inputs go into
# one file (generate -o FILE.h5:/group), scripts/slurm/make_manifest.sh writes one line per run,
# each line runs through the SLURM array template (scripts/slurm/array.sbatch) with the task id
# set by hand instead of by SLURM, and scripts/sweep_report.py turns the outputs into a report
# with the exact product as the reference. Three χ̄ × two seeds, plain and oversampled, and two
# tolerances: 16 runs on a random MPO (bond 4) times a random MPS (bond 8), 16 sites, complex128;
# under a minute on two cores.
# Usage: examples/sweep_report.sh SRC_COMPRESS_BINARY OUTPUT_DIR   (report: OUTPUT_DIR/report)
set -euo pipefail
bin=$(cd "$(dirname "${1:?usage: sweep_report.sh SRC_COMPRESS OUTPUT_DIR}")" && pwd)/$(basename "$1")
out=${2:?usage: sweep_report.sh SRC_COMPRESS OUTPUT_DIR}
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)
rm -rf "$out/results" "$out/report" "$out"/*.txt "$out/in.h5" "$out/exact.h5"

"$bin" -q generate random-mpo -o "$out/in.h5:/H" --sites 16 --bond 4 --dtype complex128 --seed 11
"$bin" -q generate random-mps -o "$out/in.h5:/psi" --sites 16 --bond 8 --dtype complex128 --seed 12
# The reference: the exact product (χ̄ = the product's bond, 4 · 8).
"$bin" -q apply "$out/in.h5:/H" "$out/in.h5:/psi" -o "$out/exact.h5" --chi 32 --seed 1

inputs="$out/in.h5:/H $out/in.h5:/psi"
manifest() {  # manifest NAME EXTRA ARGS...: one manifest per mode, outputs in results/NAME/
  bash "$root/scripts/slurm/make_manifest.sh" -o "$out/$1.txt" --outdir "$out/results/$1" \
    --inputs "$inputs" --extra "$2 -q --threads 1" "${@:3}" >/dev/null
}
manifest plain "" --chis "4 8 16" --seeds "1 2"
manifest oversampled --oversample --chis "4 8 16" --seeds "1 2"
manifest tolerance "" --tols "1e-3 1e-6" --seeds "1 2"
for mode in plain oversampled tolerance; do
  tasks=$(wc -l <"$out/$mode.txt")
  for task in $(seq 0 $((tasks - 1))); do
    SLURM_ARRAY_TASK_ID=$task SRC_COMPRESS=$bin bash "$root/scripts/slurm/array.sbatch" "$out/$mode.txt" >/dev/null 2>&1
  done
done

/usr/bin/python3 "$root/scripts/sweep_report.py" "$out"/results/*/*.h5 -o "$out/report" --binary "$bin" \
  --reference "$out/exact.h5" --title "χ̄ sweep: random MPO (bond 4) × MPS (bond 8), 16 sites"
echo "report: $out/report/index.html"
