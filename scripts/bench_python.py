#!/usr/bin/env python3
"""The srcc Python package in-process beside quimb's own calls, at equal accuracy.

For each case (random complex trains made by `src-compress generate`, an MPO of bond D applied to
an MPS of bond χ, compressed to χ̄): ours (srcc.apply, plain and oversampled) and quimb's
`tensor_network_1d_compress` (zipup, src) on the product network, each timed as the median of
ROUNDS calls in one process, alternating, one thread; the error of each against a reference
(ours at 2χ̄, oversampled) by srcc.distance; our achieved GFLOP/s next to numpy's ZGEMM rate
measured at the start; the per-call overhead of srcc.apply (the call's time less the sweep's own,
record["sweep_seconds"], the median over the calls); and for each of our rows the fastest quimb time at the same or lower
error over ours (quimb's is left out where quimb is not importable).

    OPENBLAS_NUM_THREADS=1 taskset -c 0 env PYTHONPATH=build/python:QUIMB:AUTORAY:COTENGRA \\
        NUMBA_DISABLE_JIT=1 /usr/bin/python3 scripts/bench_python.py [ROUNDS]
"""
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

import srcc

BIN = os.environ.get("SRC_COMPRESS", os.path.join(os.path.dirname(__file__), "..", "build", "app", "src-compress"))
CASES = [(20, 16, 16, 16), (20, 50, 50, 50), (30, 80, 80, 80)]  # n, D, χ, χ̄
try:
    import quimb.tensor as qtn
    from quimb.tensor import decomp
    from quimb.tensor.tn1d.compress import tensor_network_1d_compress
    # Debian's numba cannot compile quimb's truncated SVD: quimb's numpy fallback serves it.
    decomp.svd_truncated.register("numpy")(lambda x, **kw: decomp.svd_truncated._default_fn(x, **kw))
except ImportError:
    qtn = None


def zgemm_rate():
    a = np.random.default_rng(0).standard_normal((1024, 1024)) * (1 + 1j)
    a @ a
    best = min(timed(lambda: a @ a)[0] for _ in range(3))
    return 8 * 1024 ** 3 / best / 1e9


def timed(f):
    t0 = time.perf_counter()
    out = f()
    return time.perf_counter() - t0, out


def quimb_arrays(tn, n):
    """quimb's compressed network as an MPS in quimb's layout (the outer bonds left out)."""
    tensors = [tn[tn.site_tag(j)] if hasattr(tn, "site_tag") else tn[f"I{j}"] for j in range(n)]
    out = []
    for j, t in enumerate(tensors):
        left = [i for i in t.inds if j > 0 and i in tensors[j - 1].inds]
        right = [i for i in t.inds if j < n - 1 and i in tensors[j + 1].inds]
        phys = [i for i in t.inds if i not in left + right]
        out.append(np.asarray(t.transpose(*left, *right, *phys).data))
    return out


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    rate = zgemm_rate()
    print(f"# {time.strftime('%Y-%m-%d')}, one thread; numpy's ZGEMM at 1024³: {rate:.1f} GFLOP/s")
    print(f"{'case n,D,χ,χ̄':<16} {'run':<22} {'seconds':>9} {'GFLOP/s':>8} {'error':>9} {'overhead':>9} {'peer/ours':>10}")
    work = tempfile.mkdtemp()
    for n, d_bond, chi, chibar in CASES:
        h_path, p_path = f"{work}/h{n}-{d_bond}.h5", f"{work}/p{n}-{chi}.h5"
        subprocess.run([BIN, "-q", "generate", "random-mpo", "-o", h_path, "--sites", str(n), "--bond", str(d_bond),
                        "--dtype", "complex128", "--seed", "1", "--force"], check=True)
        subprocess.run([BIN, "-q", "generate", "random-mps", "-o", p_path, "--sites", str(n), "--bond", str(chi),
                        "--dtype", "complex128", "--seed", "2", "--force"], check=True)
        h, psi = srcc.read(h_path), srcc.read(p_path)
        ref, _ = srcc.apply(h, psi, chi=2 * chibar, oversample=True, seed=9, threads=1)
        runs = {
            "ours src": lambda: srcc.apply(h, psi, chi=chibar, seed=1, threads=1),
            "ours src oversampled": lambda: srcc.apply(h, psi, chi=chibar, oversample=True, seed=1, threads=1),
        }
        if qtn is not None:
            qh, qpsi = qtn.MatrixProductOperator(h), qtn.MatrixProductState(psi)
            for method in ("zipup", "src"):
                def call(method=method):
                    tn = qtn.tensor_network_apply_op_vec(qh, qpsi, contract=False, compress=False)
                    opts = {"seed": 1} if method == "src" else {}
                    out = tensor_network_1d_compress(tn, max_bond=chibar, cutoff=0.0, method=method,
                                                     site_tags=[qpsi.site_tag(j) for j in range(n)], **opts)
                    return quimb_arrays(out, n), None
                runs[f"quimb {method}"] = call
        for f in runs.values():  # first calls pay for imports, caches and paths
            f()
        times = {k: [] for k in runs}
        overheads = {k: [] for k in runs}
        results = {}
        for _ in range(rounds):
            for k, f in runs.items():
                t, results[k] = timed(f)
                times[k].append(t)
                if results[k][1]:
                    overheads[k].append(t - results[k][1]["sweep_seconds"])
        rows = {}
        for k in runs:
            out, record = results[k]
            rows[k] = dict(seconds=float(np.median(times[k])), error=srcc.distance(out, ref), record=record)
        for k, r in rows.items():
            rec = r["record"]
            gflops = f"{rec['gflop'] / rec['sweep_seconds']:.1f}" if rec else "-"
            overhead = f"{np.median(overheads[k]) * 1e3:.2f} ms" if rec else "-"
            ratio = "-"
            if rec:
                peers = [p["seconds"] for name, p in rows.items() if name.startswith("quimb") and p["error"] <= r["error"] * 1.05]
                ratio = f"{min(peers) / r['seconds']:.2f}" if peers else "none as good"
            print(f"{f'{n},{d_bond},{chi},{chibar}':<16} {k:<22} {r['seconds']:9.4f} {gflops:>8} {r['error']:9.2e} "
                  f"{overhead:>9} {ratio:>10}", flush=True)


if __name__ == "__main__":
    main()
