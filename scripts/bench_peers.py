#!/usr/bin/env python3
"""Speed at equal accuracy: every method of ours beside quimb's and TeNPy's, on the paper's
recipe and on physics, as error-time fronts; the headline is the fastest peer's time over ours
at the same or lower error. A benchmark, run by hand (not a test).

    QUIMB=/src/quimb:/src/autoray:/src/cotengra TENPY=/src/tenpy XXZ=/data/xxz64_128.h5 \\
        scripts/bench_peers.py [--cases paper,mpo-mpo,gaussian,xxz-h,xxz-step,thermal] \\
                               [--repeats 3] [--table OUT.tsv] [--figure OUT.png]

Cases (each at three χ̄, the front):
  paper     MPO·MPS, n = 20, D = χ = 50 (the paper's recipe: entries Uniform[-0.5, 1], each site
            normalised; real), χ̄ = 12, 25, 50
  paper-big MPO·MPS, n = 30, D = χ = 80, χ̄ = 20, 40, 80
  paper-wide MPO·MPS, n = 16, D = χ = 128, χ̄ = 64, 128, 256 (the middle cuts' exact bond is 2^8 = 256)
  mpo-mpo   MPO·MPO, n = 20, D = 32, χ̄ = 16, 32, 64 (the paper's recipe)
  gaussian  the recipe's MPO (n = 20, D = 8) on an MPS of complex Gaussian entries (χ = 64: slow
            decay), χ̄ = 16, 32, 64
  xxz-h     H·ψ, TeNPy's DMRG ground state of the XXZ chain (L = 64, χ = 128; made by
            scripts/make_xxz_inputs.py, given as XXZ=FILE), χ̄ = 32, 64, 128; ours on its U(1)
            charges (the default; src and sdc dense too), quimb on the same train dense, TeNPy's
            MPO.apply
  xxz-step  one W^II step e^{-i·0.05·H} of the same state (TeNPy's make_U), likewise
  thermal   MPO·MPO: ρ·ρ for ρ ≈ e^{-βH}, β = 0.8, of the XXZ chain, L = 32 (our W^II
            imaginary-time steps squared four times, bond 32), χ̄ = 8, 16, 32

Every run is single-threaded and pinned to core 0 (taskset), one at a time, the tools
alternating within each repeat; times are medians over the repeats: ours the sweep's seconds
with reading (`--json`), quimb's the compression alone in-process (quimb_methods.py, after a
warm-up call), TeNPy's its `MPO.apply` alone (tenpy_apply.py); the peak memory of ours and of
TeNPy's process (quimb's methods share one process: not separable). Errors are our `distance` to a
reference: ours oversampled at 4·max χ̄ (the products' exact bond where smaller); its own error
bound (its distance to the one at 2·max χ̄) is printed per case. GFLOP/s of our runs stand beside
the machine's GEMM rate on one core, measured at the start.

Headline per case: for every point of the peers' front (no peer point faster and at least as
accurate), our time at the same error — on our front, interpolated in log-log between its two
neighbouring points (as a χ̄ between them would run), or our fastest point at the same or lower
error (within 2%: two randomized runs differ by more); the least ratio of the two times over the
front ("every point"), and the ratio at its loosest point.
"""
import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.environ.get("BIN", os.path.join(ROOT, "build", "app", "src-compress"))
PY = "/usr/bin/python3"
PIN = ["taskset", "-c", "0"]
ONE_THREAD = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "NUMBA_DISABLE_JIT": "1",
              "TENPY_NO_CYTHON": "true"}


def blas_kernels():
    """The OpenBLAS kernels our binary runs on, for the peers' numpy too: on a CPU OpenBLAS does
    not know, the binary restarts itself with better ones than the SSE3 fallback a Python peer
    would otherwise be measured on (scripts/peer_blas.sh does the same for the shell scripts)."""
    if os.environ.get("OPENBLAS_CORETYPE"):
        return os.environ["OPENBLAS_CORETYPE"]
    out = subprocess.run([BIN, "--version"], capture_output=True, text=True).stdout
    return next((l.split(": ", 1)[1] for l in out.splitlines() if l.startswith("OpenBLAS kernels: ")), "")

OURS = [
    ("src", []),
    ("src oversampled ×1.5", ["--oversample"]),
    ("src oversampled ×1.1", ["--oversample=1.1"]),
    ("sdc", ["--method", "sdc"]),
    ("sdc oversampled ×1.1", ["--method", "sdc", "--oversample=1.1"]),
    ("sdcr", ["--method", "sdcr"]),
    ("sdcr oversampled ×1.5", ["--method", "sdcr", "--oversample"]),
    ("src + fit", ["--fit-tol", "1e-3", "--fit-sweeps", "4"]),
]
# On charged inputs ours computes on the charges by default; these run it dense as well.
OURS_DENSE = [("src, dense", ["--symmetry", "off"]), ("sdc, dense", ["--method", "sdc", "--symmetry", "off"])]
QUIMB = ["zipup", "zipup-oversample", "dm", "src", "src-oversample", "sdc", "sdc-oversample", "fit"]
TENPY = ["zip_up", "SVD", "variational"]


def run(cmd, env=None, check=True):
    e = dict(os.environ)
    e.update(ONE_THREAD)
    e.update(env or {})
    p = subprocess.run(cmd, env=e, capture_output=True, text=True)
    if check and p.returncode != 0:
        raise RuntimeError("%s: exit %d\n%s" % (" ".join(cmd), p.returncode, p.stderr[-2000:]))
    return p


def ours(*args):
    return run(PIN + [BIN, "-q", *args, "--threads", "1"])


def distance(a, ref):
    out = run([BIN, "distance", a, ref, "--json", "--threads", "1"]).stdout
    return json.loads(out)["relative_distance"]


def gemm_rate(dtype):
    """The machine's GEMM rate on one core (GFLOP/s), best of 1024³ and 2048³."""
    bench = os.path.join(ROOT, "build", "benchmarks", "srcc_bench")
    name = {"float64": "Dgemm", "complex128": "Zgemm"}[dtype]
    p = run(PIN + [bench, "--benchmark_filter=BM_%s/(1024|2048)|BM_FirstTouch" % name,
                   "--benchmark_format=json"])
    q = subprocess.run([PY, os.path.join(ROOT, "scripts", "machine_rates.py")], input=p.stdout,
                       capture_output=True, text=True, check=True)
    return float(q.stdout.split()[0])


class Case:
    def __init__(self, name, label, top, bottom, chis, tenpy=None, dtype="float64"):
        self.name, self.label, self.top, self.bottom, self.chis = name, label, top, bottom, chis
        self.tenpy = tenpy  # (TeNPy file, operator name) where TeNPy runs it
        self.dtype = dtype
        self.quimb_top, self.quimb_bottom = top, bottom  # our format, for quimb


def to_ours(spec, out):
    """A TeNPy train as our format (dense; quimb reads ours)."""
    path, group = spec.rsplit(":", 1)
    code = ("import sys, srcc; t = srcc.read(sys.argv[1], sys.argv[2]); t.charges = None; "
            "srcc.write(sys.argv[3], t, group='/t', force=True)")
    run([PY, "-c", code, path, group, out], env={"PYTHONPATH": os.path.join(ROOT, "build", "python")})
    return out + ":/t"


def make_cases(names, work):
    cases = []
    gen = lambda *a: ours("generate", *a, "--force")
    recipes = (("paper", (20, 50, [12, 25, 50])), ("paper-big", (30, 80, [20, 40, 80])),
               ("paper-wide", (16, 128, [64, 128, 256])))
    if any(name in names for name, _ in recipes):
        for name, (n, d, chis) in recipes:
            if name not in names:
                continue
            f = os.path.join(work, name + ".h5")
            gen("random-mpo", "-o", f + ":/mpo", "--sites", str(n), "--bond", str(d), "--seed", "1")
            gen("random-mps", "-o", f + ":/mps", "--sites", str(n), "--bond", str(d), "--seed", "2")
            cases.append(Case(name, "MPO·MPS n=%d D=χ=%d (recipe)" % (n, d), f + ":/mpo", f + ":/mps", chis))
    if "mpo-mpo" in names:
        f = os.path.join(work, "ops.h5")
        gen("random-mpo", "-o", f + ":/a", "--sites", "20", "--bond", "32", "--seed", "3")
        gen("random-mpo", "-o", f + ":/b", "--sites", "20", "--bond", "32", "--seed", "4")
        cases.append(Case("mpo-mpo", "MPO·MPO n=20 D=32 (recipe)", f + ":/a", f + ":/b", [16, 32, 64]))
    if "gaussian" in names:
        f = os.path.join(work, "gauss.h5")
        gen("random-mpo", "-o", f + ":/mpo", "--sites", "20", "--bond", "8", "--seed", "5")
        code = ("import sys, numpy as np, srcc\n"
                "rng = np.random.default_rng(6); n, chi, d = 20, 64, 2\n"
                "b = [min(chi, d**j, d**(n-j)) for j in range(n+1)]\n"
                "t = [(rng.standard_normal((b[j], d, b[j+1])) + 1j*rng.standard_normal((b[j], d, b[j+1])))"
                " / np.sqrt(2*b[j]*d) for j in range(n)]\n"
                "srcc.write(sys.argv[1], srcc.Train(t), group='/mps', force=True, layout='lpr')\n")
        run([PY, "-c", code, os.path.join(work, "gmps.h5")], env={"PYTHONPATH": os.path.join(ROOT, "build", "python")})
        cases.append(Case("gaussian", "MPO (D=8) · Gaussian MPS n=20 χ=64", f + ":/mpo",
                          os.path.join(work, "gmps.h5") + ":/mps", [16, 32, 64], dtype="complex128"))
    xxz = os.environ.get("XXZ")
    for name, op, label in (("xxz-h", "H_MPO", "H·ψ XXZ L=64 χ=128 (TeNPy DMRG, U(1))"),
                            ("xxz-step", "U_II", "W^II step XXZ L=64 χ=128 (TeNPy)")):
        if name not in names:
            continue
        if not xxz:
            print("# %s: skipped (set XXZ to scripts/make_xxz_inputs.py's file)" % name, flush=True)
            continue
        c = Case(name, label, xxz + ":/" + op, xxz + ":/psi", [32, 64, 128], tenpy=(xxz, op),
                 dtype="complex128" if op == "U_II" else "float64")
        c.quimb_top = to_ours(c.top, os.path.join(work, name + "-op.h5"))
        c.quimb_bottom = to_ours(c.bottom, os.path.join(work, name + "-psi.h5"))
        cases.append(c)
    if "thermal" in names:
        w = lambda k: os.path.join(work, "w%d.h5" % k)
        gen("xxz", "-o", w(0) + ":/h", "--sites", "32")
        gen("step", "--from", w(0) + ":/h", "--dt", "0.05", "--imaginary-time", "-o", w(0) + ":/w")
        g = ":/w"
        for k in range(4):  # e^{-0.05·2^k·H}: 0.05 → 0.8
            ours("apply", w(k) + g, w(k) + g, "-o", w(k + 1), "--chi", "32", "--oversample", "--seed", "11", "--force")
            g = ":/result"
        cases.append(Case("thermal", "ρ·ρ, ρ ≈ e^{-0.8 H} XXZ L=32 (MPO·MPO, bond 32)", w(4) + g, w(4) + g,
                          [8, 16, 32]))
    return cases


def max_bond(spec):
    return max(t["max_bond"] for t in json.loads(run([BIN, "inspect", spec, "--json"]).stdout))


def reference(c, work):
    """Ours oversampled at 4·max χ̄, or at the product's exact bond where that is smaller (then
    exact to rounding); and its distance to the one at 2·max χ̄, a bound on its own error."""
    ref, ref2 = os.path.join(work, c.name + "-ref.h5"), os.path.join(work, c.name + "-ref2.h5")
    big = max(c.chis)
    exact = max_bond(c.top) * max_bond(c.bottom)
    ours("apply", c.top, c.bottom, "-o", ref, "--chi", str(min(4 * big, exact)), "--oversample", "--seed", "9",
         "--force")
    if exact <= 4 * big:
        return ref, "exact bond %d" % exact
    ours("apply", c.top, c.bottom, "-o", ref2, "--chi", str(2 * big), "--oversample", "--seed", "8", "--force")
    return ref, "error bound %.1e" % distance(ref2, ref)


def front(points):
    """The points no other point beats in both time and error."""
    best = []
    for p in sorted(points, key=lambda p: (p["seconds"], p["error"])):
        if not best or p["error"] < best[-1]["error"]:
            best.append(p)
    return best


# Errors within this factor count as the same (two randomized runs at one χ̄ differ by more).
SAME_ERROR = 1.02


def time_at(points, error):
    """Our time at `error` on our front: between two of its points, interpolated in log-log (a
    χ̄ between the two measured ones would land there); else the fastest point at the same or
    lower error; None where none is as accurate."""
    ours = front(points)  # time ascending, error descending
    for a, b in zip(ours, ours[1:]):
        if b["error"] <= error <= a["error"]:
            if a["error"] == b["error"]:
                return a["seconds"]
            w = math.log(a["error"] / error) / math.log(a["error"] / b["error"])
            return math.exp((1 - w) * math.log(a["seconds"]) + w * math.log(b["seconds"]))
    fit = [o["seconds"] for o in ours if o["error"] <= SAME_ERROR * error]
    return min(fit) if fit else None


def headline(rows):
    """(peer point, its time over ours at the same error) along the peers' front, loosest
    point first."""
    ours_pts = [r for r in rows if r["tool"] == "ours"]
    ratios = []
    for p in front([r for r in rows if r["tool"] != "ours"]):
        t = time_at(ours_pts, p["error"])
        ratios.append((p, p["seconds"] / t if t else None))
    return ratios


def report(case, ratios):
    if not ratios:
        return
    print("peers' front → its time over ours at the same error:", flush=True)
    for p, ratio in ratios:
        print("  %s %s χ̄=%d %.4f s, %.2e: %s" % (p["tool"], p["method"], p["chi"], p["seconds"], p["error"],
                                                "%.2f×" % ratio if ratio else "none of ours as accurate"), flush=True)
    known = [r for _, r in ratios if r]
    loosest = ratios[0][1]
    print("HEADLINE %s: every point ≥ %s, loosest point %s" % (
        case, "%.2f×" % min(known) if len(known) == len(ratios) else "— (a peer point unmatched)",
        "%.2f×" % loosest if loosest else "—"), flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cases", default="paper,mpo-mpo,gaussian,xxz-h,xxz-step,thermal")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--quimb-methods", default=",".join(QUIMB),
                    help="quimb's methods to run (dm takes minutes a run at n = 30, D = χ = 80)")
    ap.add_argument("--ours-methods", default=",".join(n for n, _ in OURS),
                    help="our methods to run, by their names in the table (comma-separated)")
    ap.add_argument("--table", default=os.path.join(ROOT, "build", "bench-peers.tsv"))
    ap.add_argument("--figure", default=os.path.join(ROOT, "build", "bench-peers.png"))
    ap.add_argument("--from-table", metavar="TSV", help="only the headlines and the figure of a table written before")
    args = ap.parse_args()
    if args.from_table:
        with open(args.from_table) as f:
            next(f)
            table = [dict(zip(("case", "chi", "tool", "method", "seconds", "error"), line.rstrip("\n").split("\t")))
                     for line in f]
        for r in table:
            r["chi"], r["seconds"], r["error"] = int(r["chi"]), float(r["seconds"]), float(r["error"])
        for c in dict.fromkeys(r["case"] for r in table):
            report(c, headline([r for r in table if r["case"] == c]))
        plot(table, args.figure)
        return
    names = args.cases.split(",")
    wanted = set(args.ours_methods.split(","))
    kernels = blas_kernels()
    if kernels:
        ONE_THREAD["OPENBLAS_CORETYPE"] = kernels
    quimb = os.environ.get("QUIMB")
    tenpy = os.environ.get("TENPY")
    with tempfile.TemporaryDirectory(prefix="srcc-peers.") as work:
        cases = make_cases(names, work)
        rates = {t: gemm_rate(t) for t in sorted({c.dtype for c in cases})}
        cpu = run(["sh", "-c", "lscpu | sed -n 's/^Model name: *//p'"]).stdout.strip()
        print("# %s, %s; one thread, pinned; medians of %d; GEMM on one core: %s; OpenBLAS kernels (ours and "
              "the peers'): %s" % (run(["date", "-u", "+%F"]).stdout.strip(), cpu, args.repeats,
                                   ", ".join("%s %.1f GFLOP/s" % kv for kv in rates.items()), kernels or "OpenBLAS's choice"),
              flush=True)
        table = []
        for c in cases:
            ref, bound = reference(c, work)
            print("\n## %s (reference: %s)" % (c.label, bound), flush=True)
            print("%-5s %-7s %-24s %10s %9s %11s %8s" % ("chi", "tool", "method", "seconds", "GFLOP/s", "error", "peak MB"),
                  flush=True)
            rows = []
            for chi in c.chis:
                samples = {}
                for r in range(args.repeats):
                    for name, flags in [m for m in OURS if m[0] in wanted] + (OURS_DENSE if c.tenpy else []):
                        out = os.path.join(work, "o.h5")
                        d = json.loads(ours("apply", c.top, c.bottom, "-o", out, "--chi", str(chi), "--seed",
                                            str(r + 1), "--force", "--json", *flags).stdout)
                        s = samples.setdefault(("ours", name), {"seconds": [], "error": [], "rate": [], "peak": []})
                        s["seconds"].append(d["sweep_seconds"])
                        s["rate"].append(d["gflops_per_second"])
                        s["peak"].append(d["peak_rss_bytes"] / 2**20)
                        s["error"].append(distance(out, ref))
                    if quimb:
                        p = run(PIN + [PY, os.path.join(ROOT, "scripts", "quimb_methods.py"), c.quimb_top,
                                       c.quimb_bottom, str(chi), work, *args.quimb_methods.split(","), "--seed", str(r + 1)],
                                env={"PYTHONPATH": quimb}, check=False)
                        for line in p.stdout.splitlines():
                            q = json.loads(line)
                            s = samples.setdefault(("quimb", q["method"]), {"seconds": [], "error": []})
                            s["seconds"].append(q["seconds"])
                            s["error"].append(distance(os.path.join(work, "quimb-%s.h5:/result" % q["method"]), ref))
                    if tenpy and c.tenpy:
                        for m in TENPY:
                            out = os.path.join(work, "t.h5")
                            p = run(PIN + [PY, os.path.join(ROOT, "scripts", "tenpy_apply.py"), c.tenpy[0],
                                           c.tenpy[1], m, str(chi), out], env={"PYTHONPATH": tenpy}, check=False)
                            if p.returncode != 0:
                                continue
                            s = samples.setdefault(("TeNPy", m), {"seconds": [], "error": [], "peak": []})
                            t = json.loads(p.stdout.splitlines()[-1])
                            s["seconds"].append(t["seconds"])
                            s["peak"].append(t["peak_rss_bytes"] / 2**20)
                            s["error"].append(distance(out + ":/psi", ref))
                for (tool, name), s in samples.items():
                    row = {"case": c.name, "chi": chi, "tool": tool, "method": name,
                           "seconds": statistics.median(s["seconds"]), "error": statistics.median(s["error"]),
                           "peak": max(s["peak"]) if "peak" in s else None}
                    rate = "%.1f" % statistics.median(s["rate"]) if "rate" in s else ""
                    rows.append(row)
                    print("%-5d %-7s %-24s %10.4f %9s %11.2e %8s" % (
                        chi, tool, name, row["seconds"], rate, row["error"],
                        "%.0f" % row["peak"] if row["peak"] is not None else "—"), flush=True)
            table += rows
            report(c.name, headline(rows))
        os.makedirs(os.path.dirname(args.table), exist_ok=True)
        with open(args.table, "w") as f:
            f.write("case\tchi\ttool\tmethod\tseconds\terror\tpeak_MB\n")
            for r in table:
                f.write("%s\t%d\t%s\t%s\t%r\t%r\t%s\n" % (r["case"], r["chi"], r["tool"], r["method"], r["seconds"],
                                                          r["error"], "" if r["peak"] is None else "%.0f" % r["peak"]))
        plot(table, args.figure)


def plot(table, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return
    cases = list(dict.fromkeys(r["case"] for r in table))
    cols = min(3, len(cases))
    rows = (len(cases) + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(4.6 * cols, 3.9 * rows), squeeze=False)
    marks = {"ours": "o", "quimb": "s", "TeNPy": "^"}
    for ax in axes.flat[len(cases):]:
        ax.set_visible(False)
    for ax, c in zip(axes.flat, cases):
        rows = [r for r in table if r["case"] == c]
        for key in dict.fromkeys((r["tool"], r["method"]) for r in rows):
            pts = sorted((r["seconds"], r["error"]) for r in rows if (r["tool"], r["method"]) == key)
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker=marks[key[0]], ms=4, lw=0.8,
                    label="%s %s" % key, alpha=1.0 if key[0] == "ours" else 0.6)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_title(c, fontsize=9)
        ax.set_xlabel("seconds (one core)")
        ax.set_ylabel("relative error")
    handles = {}
    for ax in axes.flat:
        for h, label in zip(*ax.get_legend_handles_labels()):
            handles.setdefault(label, h)
    fig.tight_layout(rect=(0, 0, 0.86, 1))
    fig.legend(handles.values(), handles.keys(), loc="center right", fontsize=7)
    fig.savefig(path, dpi=90)


if __name__ == "__main__":
    main()
