#!/usr/bin/env bash
# Writes a manifest for scripts/slurm/array.sbatch: one src-compress run per combination of the
# swept values. Prints the sbatch command that runs it.
#
#   make_manifest.sh -o manifest.txt --outdir results --inputs "H.h5 psi.h5" \
#       [--command apply] [--chis "16 32 64"] [--tols "1e-6 1e-8"] [--cutoffs "1e-10"] \
#       [--seeds "1 2 3"] [--seed-base 42] [--extra "--oversample --dtype complex128"]
#
# Every run gets its own output file named after its parameters. --seeds alone: each value is a
# run's --seed. --seed-base alone: each task's seed is derived from the base and its array task
# id (tasks differ, reruns repeat). Both: every combination of the other values is run once per
# listed number, a replica whose seed is derived from the base and that number (--seed-base B
# --task-id K): replicas differ, and a replica draws the same sketch seed at every χ̄, so that
# the differences between χ̄ are not the seeds' noise.
set -euo pipefail
out="" outdir="" inputs="" command=apply chis="" tols="" cutoffs="" seeds="" seed_base="" extra=""
while [ $# -gt 0 ]; do
  case "$1" in
    -o) out=$2; shift 2 ;;
    --outdir) outdir=$2; shift 2 ;;
    --inputs) inputs=$2; shift 2 ;;
    --command) command=$2; shift 2 ;;
    --chis) chis=$2; shift 2 ;;
    --tols) tols=$2; shift 2 ;;
    --cutoffs) cutoffs=$2; shift 2 ;;
    --seeds) seeds=$2; shift 2 ;;
    --seed-base) seed_base=$2; shift 2 ;;
    --extra) extra=$2; shift 2 ;;
    *) echo "make_manifest.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
[ -n "$out" ] && [ -n "$outdir" ] && [ -n "$inputs" ] || {
  echo "make_manifest.sh: -o, --outdir and --inputs are required" >&2; exit 2; }
[ -n "$chis$tols" ] || { echo "make_manifest.sh: give --chis and/or --tols" >&2; exit 2; }
mkdir -p "$outdir"
: >"$out"
n=0
for chi in ${chis:-0}; do
  for tol in ${tols:-0}; do
    for cutoff in ${cutoffs:-0}; do
      for seed in ${seeds:-base}; do
        name="" args=""
        [ "$chi" != 0 ] && { name+="chi${chi}_"; args+=" --chi $chi"; }
        [ "$tol" != 0 ] && { name+="tol${tol}_"; args+=" --tol $tol"; }
        [ "$cutoff" != 0 ] && { name+="cut${cutoff}_"; args+=" --cutoff $cutoff"; }
        if [ "$seed" = base ]; then
          [ -n "$seed_base" ] && args+=" --seed-base $seed_base"
          name+="task$n"
        elif [ -n "$seed_base" ]; then
          name+="rep$seed"
          args+=" --seed-base $seed_base --task-id $seed"
        else
          name+="seed$seed"
          args+=" --seed $seed"
        fi
        echo "$command $inputs -o $outdir/$name.h5$args $extra" >>"$out"
        n=$((n + 1))
      done
    done
  done
done
echo "wrote $n tasks to $out; run them with:" >&2
echo "sbatch --array=0-$((n - 1)) $(dirname "$0")/array.sbatch $out"
