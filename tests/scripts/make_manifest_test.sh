#!/usr/bin/env bash
# scripts/slurm/make_manifest.sh: --seeds and --seed-base together give χ̄ × replicas, each
# replica's seed derived from the base (the same at every χ̄, different between replicas);
# either alone keeps its meaning. Usage: make_manifest_test.sh SRC_COMPRESS
set -euo pipefail
bin=$(realpath "$1")
repo=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
fail() { echo "FAIL: $*"; exit 1; }
mm() { bash "$repo/scripts/slurm/make_manifest.sh" -o m.txt --outdir out --inputs "H.h5 psi.h5" "$@" 2>/dev/null >/dev/null; }

mm --chis "4 8" --seeds "1 2" --seed-base 42
[ "$(wc -l <m.txt)" -eq 4 ] || fail "χ̄ × replicas: $(cat m.txt)"
grep -q -- "-o out/chi8_rep2.h5 --chi 8 --seed-base 42 --task-id 2" m.txt || fail "replica 2 at χ̄ 8: $(cat m.txt)"
"$bin" -q generate random-mpo -o H.h5 --sites 6 --bond 3 --seed 1
"$bin" -q generate random-mps -o psi.h5 --sites 6 --bond 3 --seed 2
seed_of() { "$bin" -q $(sed -n "${1}p" m.txt) --json | /usr/bin/python3 -c 'import json, sys; print(json.load(sys.stdin)["seed"])'; }
s1=$(seed_of 1) s2=$(seed_of 2) s3=$(seed_of 3)
[ "$s1" != "$s2" ] || fail "replicas 1 and 2 share seed $s1"
[ "$s1" = "$s3" ] || fail "replica 1 draws $s1 at χ̄ 4 but $s3 at χ̄ 8"

mm --chis "4 8" --seeds "1 2"
grep -q -- "-o out/chi4_seed2.h5 --chi 4 --seed 2" m.txt || fail "--seeds alone: $(cat m.txt)"
mm --chis "4 8" --seed-base 42
grep -q -- "-o out/chi8_task1.h5 --chi 8 --seed-base 42" m.txt || fail "--seed-base alone: $(cat m.txt)"
echo "make_manifest.sh: χ̄ × replicas with derived seeds; --seeds and --seed-base alone as before"
