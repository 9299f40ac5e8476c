#!/usr/bin/env bash
# Whether two builds of src-compress write the same results: every subcommand run by both on the
# same inputs and seeds, one thread each, and the files compared by content (tensor data exactly,
# the evolution's trajectory and fingerprint, expect's and distance's numbers, collect's table;
# times, dates, the record's wording and ITensor's index ids, drawn fresh for every file, are
# not compared). For a change meant to leave results alone.
#
#   bash scripts/same_outputs.sh OLD/src-compress NEW/src-compress
set -euo pipefail
old=$(realpath "$1") new=$(realpath "$2")
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
data=$here/tests/data
runs=(
  "generate random-mpo -o h.h5 --sites 14 --bond 5 --seed 1"
  "generate random-mps -o psi.h5 --sites 14 --bond 16 --seed 2"
  "generate ising -o ising.h5 --sites 14"
  "generate ising-step -o step.h5 --sites 14 --dt 0.05"
  "generate magnetization -o m.h5 --sites 14"
  "generate product -o up.h5 --sites 14"
  "apply h.h5 psi.h5 -o src.h5 --chi 20 --seed 3"
  "apply h.h5 psi.h5 -o sdc.h5 --chi 20 --method sdc --seed 3"
  "apply h.h5 psi.h5 -o sdcr.h5 --chi 20 --method sdcr --seed 3"
  "apply h.h5 psi.h5 -o over.h5 --chi 20 --oversample --seed 3"
  "apply h.h5 psi.h5 -o tol.h5 --tol 1e-6 --seed 3"
  "apply h.h5 psi.h5 -o fit.h5 --chi 20 --fit-sweeps 2 --seed 3"
  "apply h.h5 h.h5 -o mpo.h5 --chi 12 --seed 3"
  "apply --term 0.5 h.h5 psi.h5 --term -1 ising.h5 psi.h5 --term 2 psi.h5 -o sum.h5 --chi 24 --seed 3"
  "apply --term 1 h.h5 psi.h5 --term 0.5 ising.h5 psi.h5 -o sumsdc.h5 --chi 24 --method sdc --seed 3"
  "compress psi.h5 -o comp.h5 --chi 8 --seed 3"
  "truncate psi.h5 -o trunc.h5 --chi 8"
  "evolve step.h5 up.h5 -o ev.h5 --chi 16 --steps 6 --dt 0.05 --measure m.h5 --measure ising.h5 --overlap up.h5 --save-every 2 --checkpoint-every 2 --seed 4"
  "evolve ising.h5 up.h5 -o tay.h5 --chi 16 --steps 3 --dt 0.05 --taylor 3 --imaginary-time --normalize --seed 4"
  "apply $data/tenpy_xxz_L12_sz.h5:/H_MPO $data/tenpy_xxz_L12_sz.h5:/psi -o tenpy.h5 --chi 16 --seed 3"
  "apply $data/itensor_xxz_L12_qn.h5:/H $data/itensor_xxz_L12_qn.h5:/psi -o itensor.h5 --chi 16 --seed 3"
)
for side in old new; do
  mkdir -p "$side"
  bin=${!side}
  for r in "${runs[@]}"; do
    threads="--threads 1"
    [[ $r == generate* ]] && threads=""
    (cd "$side" && "$bin" $r $threads -q > /dev/null)
  done
  # A resumed evolution: stopped after 3 of 6 steps by its own --max-time is not reproducible;
  # a finished one extended is: 6 steps, then --resume to 9.
  (cd "$side" && cp ev.h5 ev9.h5 && "$bin" evolve step.h5 up.h5 -o ev9.h5 --chi 16 --steps 9 --dt 0.05 --measure m.h5 \
     --measure ising.h5 --overlap up.h5 --save-every 2 --checkpoint-every 2 --resume --threads 1 -q > /dev/null)
  (cd "$side" && "$bin" expect psi.h5 ising.h5 m.h5 --variance --json --threads 1 > expect.json)
  (cd "$side" && "$bin" distance src.h5 over.h5 --json --threads 1 > distance.json)
  (cd "$side" && "$bin" collect src.h5 sdc.h5 sum.h5 ev.h5 trunc.h5 > collect.csv)
done
/usr/bin/python3 - "$work" <<'PY'
import json, sys, h5py, numpy as np, csv, os
work = sys.argv[1]
def datasets(f):
    out = {}
    def visit(name, obj):
        if isinstance(obj, h5py.Dataset) and not name.startswith("log"):
            out[name] = obj[()]
    f.visititems(visit)
    return out
bad = 0
for name in sorted(os.listdir(os.path.join(work, "old"))):
    a, b = os.path.join(work, "old", name), os.path.join(work, "new", name)
    if name.endswith(".h5"):
        with h5py.File(a) as fa, h5py.File(b) as fb:
            da, db = datasets(fa), datasets(fb)
            if set(da) != set(db):
                print(f"{name}: datasets differ: {sorted(set(da) ^ set(db))}"); bad += 1; continue
            for k in da:
                if k.endswith("/id"):  # ITensor's index ids are drawn fresh for every file written
                    continue
                x, y = da[k], db[k]
                if k == "trajectory":  # times aside
                    cols = [c for c in x.dtype.names if not c.endswith("seconds")]
                    x, y = x[cols], y[cols]
                if not (np.array_equal(x, y) if not (isinstance(x, np.ndarray) and x.dtype.kind in "fc") else np.array_equal(x, y, equal_nan=True)):
                    print(f"{name}:/{k}: differs"); bad += 1
            for attr in ("fingerprint", "seed", "method", "steps_done", "saved_states", "output_format"):
                if "log" not in fa:
                    break
                va, vb = fa["log"].attrs.get(attr), fb["log"].attrs.get(attr)
                if va is not None and va != vb:
                    print(f"{name}:/log@{attr}: {va!r} vs {vb!r}"); bad += 1
    elif name.endswith(".json"):
        ja, jb = json.load(open(a)), json.load(open(b))
        if ja != jb:
            print(f"{name}: {ja} vs {jb}"); bad += 1
    elif name.endswith(".csv"):
        ra, rb = list(csv.DictReader(open(a))), list(csv.DictReader(open(b)))
        for x, y in zip(ra, rb):
            for k in x:
                if k in y and k not in ("wall_seconds", "peak_rss_bytes", "command_line") and x[k] != y[k]:
                    print(f"{name}: {x['file']} {k}: {x[k]} vs {y[k]}"); bad += 1
print("same results" if bad == 0 else f"{bad} differences")
sys.exit(1 if bad else 0)
PY
