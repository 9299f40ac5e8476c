#!/usr/bin/env bash
# A time evolution three ways, side by side: the transverse-field Ising chain (L sites, J = 1,
# h = 1, from the all-up product state) under its second-order Trotter step e^{-i dt H}
# (`generate ising-step`, a bond-2 MPO), STEPS steps of dt = 0.1, at χ̄ = 32 and 64, plain and
# with --oversample (1.5):
#
#   evolve   one `src-compress evolve` process for the whole evolution (no observables; then
#            again with --measure H and --measure M, for what two exact ⟨O⟩ per step cost)
#   apply    a driver's loop: one `apply` process per step, reading the previous result, and one
#            `expect` process per step for ⟨H⟩ and ⟨M⟩ — what the evolution costs without evolve
#   quimb    (with QUIMB_PATH, see scripts/compare_quimb.sh) the same loop in one Python process
#            with quimb's gate_with_mpo, methods zipup (cutoff 0) and src, file reading excluded
#
# For each: the total wall time (the whole process or loop, as a shell sees it; medians of
# REPEATS, default 3, the three ways alternating within each repeat so that they share the
# machine's drifting speed), the wall time per step against the sweep's time per step and the
# overhead ((wall − sweeps)/sweeps: the whole process's, and for evolve also the steps' own, from
# /trajectory, without the once-only start, reading and last checkpoint), the rate of the
# sweeps' and measurements' GEMM flops next to this machine's ZGEMM rate, the peak resident
# memory, and the fidelity |⟨ref|ψ⟩|/(‖ref‖‖ψ‖) of the last state against a χ̄ = 256 reference
# evolution.
#
#   scripts/bench_evolve.sh                    # L = 24, 40 steps (about two minutes on 2 cores)
#   L=32 STEPS=60 CHIS="32 64 128" scripts/bench_evolve.sh
#   QUIMB_PATH=$HOME/src/quimb:$HOME/src/autoray:$HOME/src/cotengra scripts/bench_evolve.sh
set -euo pipefail
cd "$(dirname "$0")/.."
[ -n "${SRC_COMPRESS:-}" ] || [ -x build/app/src-compress ] || bash scripts/setup.sh
bin=$(realpath "${SRC_COMPRESS:-build/app/src-compress}")
. scripts/peer_blas.sh "$bin"
py=${PYTHON:-/usr/bin/python3}  # Debian's Python (h5py; quimb's packages for the quimb rows)
L=${L:-24}
steps=${STEPS:-40}
chis=${CHIS:-"32 64"}
repeats=${REPEATS:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

zgemm="n/a"
if [ -x build/benchmarks/srcc_bench ]; then
  read -r zgemm _ < <(build/benchmarks/srcc_bench --benchmark_filter='BM_Zgemm/(1024|2048)|BM_FirstTouch' \
                        --benchmark_format=json 2>/dev/null | python3 scripts/machine_rates.py)
fi

cd "$work"
"$bin" -q generate product -o psi.h5 --sites "$L"
"$bin" -q generate ising-step -o U.h5 --sites "$L" --J 1 --h 1 --dt 0.1
"$bin" -q generate ising -o H.h5 --sites "$L" --J 1 --h 1
"$bin" -q generate magnetization -o M.h5 --sites "$L"
"$bin" -q evolve U.h5 psi.h5 --steps "$steps" --dt 0.1 --chi 256 --seed 7 -o ref.h5

BIN="$bin" STEPS="$steps" CHIS="$chis" REPEATS="$repeats" ZGEMM="$zgemm" L="$L" PYEXE="$py" \
QUIMB_PATH="${QUIMB_PATH:-}" "$py" - <<'PY'
import json, os, statistics, subprocess, sys, time
import h5py

bin_, steps, repeats = os.environ["BIN"], int(os.environ["STEPS"]), int(os.environ["REPEATS"])
quimb_path = os.environ["QUIMB_PATH"]

def run(args):
    """The command's wall time as a shell sees it and its stdout."""
    t0 = time.perf_counter()
    p = subprocess.run([bin_, *args], capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if p.returncode != 0:
        sys.exit(f"bench_evolve: {' '.join(args)} failed ({p.returncode}): {p.stderr.strip()}")
    return wall, p.stdout

def fidelity(path):
    _, out = run(["distance", "ref.h5:/result", path, "--json"])
    d = json.loads(out)
    return abs(complex(d["cosine_re"], d["cosine_im"]))

def evolve(chi, mode, measure):
    args = ["evolve", "U.h5", "psi.h5", "--steps", str(steps), "--dt", "0.1", "--chi", str(chi),
            "--seed", "1", "-o", "ev.h5", "--force", "-q", "--json", *mode]
    if measure:
        args += ["--measure", "H.h5", "--measure", "M.h5"]
    wall, out = run(args)
    s = json.loads(out)
    with h5py.File("ev.h5") as f:
        t = f["trajectory"][()]
        in_loop = (t["seconds"].sum() - t["sweep_seconds"].sum()) / t["sweep_seconds"].sum()
    return dict(wall=wall, sweep=s["sweep_seconds"], in_loop=in_loop, sweep_flops=s["sweep_flops"], measure=s["measure_seconds"],
                measure_flops=s["measure_flops"], rss=s["peak_rss_bytes"], fid=fidelity("ev.h5:/result"))

def apply_loop(chi, mode):
    wall = sweep = expect = 0.0
    rss = 0
    state = "psi.h5"
    for k in range(1, steps + 1):
        out_file = f"loop{k % 2}.h5"
        w, out = run(["apply", "U.h5", state, "-o", out_file, "--chi", str(chi), "--seed", str(k), "--force",
                      "-q", "--json", *mode])
        s = json.loads(out)
        wall += w
        sweep += s["sweep_seconds"]
        rss = max(rss, s["peak_rss_bytes"])
        w, _ = run(["expect", out_file, "H.h5", "M.h5", "--json"])
        expect += w
        state = out_file
    return dict(wall=wall + expect, apply=wall, sweep=sweep, expect=expect, rss=rss, fid=fidelity(state + ":/result"))

QUIMB = r'''
import sys, time, h5py, numpy as np
import quimb.tensor as qtn
steps, chi, method = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
def load(path, group):
    g = h5py.File(path)[group]
    return [g[str(j)][()] for j in range(int(g.attrs["length"]))]
mpo = qtn.MatrixProductOperator(load("U.h5", "U"), shape="lrud")
mps = qtn.MatrixProductState(load("psi.h5", "psi"), shape="lrp")
ref = qtn.MatrixProductState(load("ref.h5", "result"), shape="lrp")
opts = dict(cutoff=0.0) if method == "zipup" else dict(seed=3)
t0 = time.perf_counter()
for k in range(steps):
    mps = mps.gate_with_mpo(mpo, method=method, max_bond=chi, **opts)
wall = time.perf_counter() - t0
fid = abs(ref.H @ mps) / np.sqrt(abs(ref.H @ ref) * abs(mps.H @ mps))
print(wall, fid)
'''

def quimb_loop(chi, method):
    env = dict(os.environ, PYTHONPATH=quimb_path, NUMBA_DISABLE_JIT="1")
    p = subprocess.run([os.environ["PYEXE"], "-c", QUIMB, str(steps), str(chi), method], capture_output=True,
                       text=True, env=env)
    if p.returncode != 0:
        sys.exit(f"bench_evolve: quimb {method} failed: {p.stderr.strip()[-400:]}")
    wall, fid = map(float, p.stdout.split()[-2:])
    return dict(wall=wall, fid=fid)

zgemm = os.environ["ZGEMM"]
print(f"TFIM quench, L = {os.environ['L']}, {steps} steps of dt = 0.1, complex128; reference χ̄ = 256; "
      f"this machine's ZGEMM: {zgemm if zgemm == 'n/a' else '%.0f' % float(zgemm)} GFLOP/s; "
      f"medians of {repeats}; {time.strftime('%Y-%m-%d')}, {os.uname().nodename}")
head = (f"{'χ̄':>4} {'mode':<10} {'way':<16} {'total s':>8} {'ms/step':>8} {'sweep ms':>9} {'overhead':>9} "
        f"{'in steps':>9} {'GFLOP/s':>8} {'peak MB':>8} {'fidelity':>12}")
print(head)
print("-" * len(head))
med = statistics.median
for chi in map(int, os.environ["CHIS"].split()):
    for name, mode in (("plain", []), ("oversample", ["--oversample"])):
        rows = {k: [] for k in ("evolve", "measure", "loop", "zipup", "src")}
        for r in range(repeats):
            order = ["evolve", "measure", "loop"] if r % 2 == 0 else ["loop", "measure", "evolve"]
            for way in order:
                if way == "loop":
                    rows[way].append(apply_loop(chi, mode))
                else:
                    rows[way].append(evolve(chi, mode, way == "measure"))
            if quimb_path and name == "plain":
                for m in ("zipup", "src"):
                    rows[m].append(quimb_loop(chi, m))

        def line(way, total, sweep=None, rate=None, rss=None, fid=None, note="", in_loop=None):
            per = 1e3 * total / steps
            sw = f"{1e3 * sweep / steps:9.2f}" if sweep is not None else f"{'':>9}"
            ov = f"{100 * (total - sweep) / sweep:8.0f}%" if sweep is not None else f"{'':>9}"
            il = f"{100 * in_loop:8.1f}%" if in_loop is not None else f"{'':>9}"
            rt = f"{rate:8.1f}" if rate is not None else f"{'':>8}"
            mb = f"{rss / 1e6:8.1f}" if rss is not None else f"{'':>8}"
            fd = f"{fid:12.9f}" if fid is not None else f"{'':>12}"
            print(f"{chi:>4} {name:<10} {way:<16} {total:8.3f} {per:8.2f} {sw} {ov} {il} {rt} {mb} {fd}{note}")

        ev = rows["evolve"]
        line("evolve", med(e["wall"] for e in ev), med(e["sweep"] for e in ev),
             med(e["sweep_flops"] / e["sweep"] / 1e9 for e in ev), max(e["rss"] for e in ev), ev[0]["fid"],
             in_loop=med(e["in_loop"] for e in ev))
        ms = rows["measure"]
        line("evolve+measure", med(e["wall"] for e in ms), med(e["sweep"] for e in ms),
             med(e["measure_flops"] / e["measure"] / 1e9 for e in ms), max(e["rss"] for e in ms), ms[0]["fid"],
             f"   (⟨H⟩, ⟨M⟩: {1e3 * med(e['measure'] for e in ms) / steps:.2f} ms/step; GFLOP/s theirs)",
             in_loop=med(e["in_loop"] for e in ms))
        lp = rows["loop"]
        line("apply loop", med(e["apply"] for e in lp), med(e["sweep"] for e in lp), None,
             max(e["rss"] for e in lp), lp[0]["fid"])
        line("apply+expect", med(e["wall"] for e in lp), med(e["sweep"] for e in lp), None, None, None,
             f"   ({med(e['wall'] for e in lp) / med(e['wall'] for e in ms):.1f}× evolve+measure)")
        for m in ("zipup", "src"):
            if rows[m]:
                q = rows[m]
                line(f"quimb {m}", med(e["wall"] for e in q), fid=q[0]["fid"],
                     note=f"   ({med(e['wall'] for e in q) / med(e['wall'] for e in ev):.1f}× evolve)")
PY
