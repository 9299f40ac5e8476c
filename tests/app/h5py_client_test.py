#!/usr/bin/env python3
"""The client our users have: h5py + numpy write inputs, run src-compress, read the result.

Writes an MPO (physics order "ludr") and an MPS (quimb's arrays: boundary bonds dropped) with
h5py, runs `src-compress apply`, and checks the result against a dense numpy product, its
right-canonical form, and the transfer log. Exits 77 (skipped) without h5py/numpy.
Usage: h5py_client_test.py SRC_COMPRESS_BINARY
"""
import subprocess
import sys
import tempfile

try:
    import h5py
    import numpy as np
except ImportError:
    print("skipped: python3-h5py / python3-numpy not installed")
    sys.exit(77)


def dense_mps(sites):  # quimb arrays: (r,p), (l,r,p)…, (l,p)
    v = sites[0].T  # (p, r)
    for s in sites[1:-1]:
        v = np.einsum("al,lrp->apr", v, s).reshape(-1, s.shape[1])
    return np.einsum("al,lp->ap", v, sites[-1]).reshape(-1)


def dense_mpo(sites):  # layout "lrud", boundary bonds dropped
    m = np.transpose(sites[0], (1, 2, 0))  # (u, d, r)
    for s in sites[1:-1]:
        m = np.einsum("udl,lrxy->uxdyr", m, s)
        u, x, d, y, r = m.shape
        m = m.reshape(u * x, d * y, r)
    m = np.einsum("udl,lxy->uxdy", m, sites[-1])
    u, x, d, y = m.shape
    return m.reshape(u * x, d * y)


def main():
    binary = sys.argv[1]
    rng = np.random.default_rng(5)
    n, D, chi, d = 9, 3, 5, 2
    with tempfile.TemporaryDirectory() as tmp:
        H, psi = [], []
        with h5py.File(f"{tmp}/in.h5", "w") as f:
            g = f.create_group("H")
            g.attrs["type"] = "MPO"
            g.attrs["layout"] = "ludr"
            h = f.create_group("psi")
            h.attrs["type"] = "MPS"
            for j in range(n):
                l = 1 if j == 0 else D
                r = 1 if j == n - 1 else D
                w = rng.uniform(-0.5, 1, (l, r, d, d)) + 1j * rng.uniform(-0.5, 1, (l, r, d, d))
                w = w[0] if j == 0 else (w[:, 0] if j == n - 1 else w)
                H.append(w)
                stored = w
                if w.ndim == 4:
                    stored = np.transpose(w, (0, 2, 3, 1))  # l u d r
                g[str(j)] = stored if w.ndim == 4 else w  # boundary (r|l, u, d): "ludr" minus l/r
                l = 1 if j == 0 else chi
                r = 1 if j == n - 1 else chi
                a = rng.uniform(-0.5, 1, (l, r, d))
                a = a[0] if j == 0 else (a[:, 0] if j == n - 1 else a)
                psi.append(a)
                h[str(j)] = a
        # Boundary MPO sites above were stored as (r, u, d) / (l, u, d): with layout "ludr" a
        # dropped l leaves "udr", so store site 0 as (u, d, r) instead.
        with h5py.File(f"{tmp}/in.h5", "a") as f:
            del f["H/0"]
            f["H/0"] = np.transpose(H[0], (1, 2, 0))
        out = f"{tmp}/out.h5"
        proc = subprocess.run([binary, "apply", f"{tmp}/in.h5:/H", f"{tmp}/in.h5:/psi", "-o", out,
                               "--chi", str(D * chi), "--seed", "9", "-q"],
                              capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr
        with h5py.File(out, "r") as f:
            res = f["result"]
            assert res.attrs["type"] == "MPS"
            sites = [res[str(i)][()] for i in range(res.attrs["length"])]
            ref = dense_mpo(H) @ dense_mps(psi)
            err = np.linalg.norm(dense_mps(sites) - ref) / np.linalg.norm(ref)
            assert err < 1e-10, f"relative error {err}"
            for j in range(1, n):  # right-canonical
                c = sites[j].reshape(sites[j].shape[0], -1)
                assert np.allclose(c @ c.conj().T, np.eye(c.shape[0]), atol=1e-10), j
            log = f["log"]
            assert log.attrs["complete"] == 1
            assert log.attrs["seed"] == 9
            t = log["transfers"][()]
            mech = [m.decode() if isinstance(m, bytes) else m for m in t["mechanism"]]
            what = [w.decode() if isinstance(w, bytes) else w for w in t["what"]]
            writes = sum(1 for m in mech if m == "file write")
            assert writes == n, writes
            # Sites are read lazily (once per sweep): every input site at least once, and each
            # read moves exactly its dataset.
            read = {(w, int(site)): int(b) for w, m, site, b in zip(what, mech, t["site"], t["bytes"])
                    if m == "file read"}
            assert len(read) == 2 * n, len(read)
            # H is complex128 (16 bytes), ψ float64 (8 bytes, cast to complex128 after reading)
            assert sum(read.values()) == 16 * sum(a.size for a in H) + 8 * sum(a.size for a in psi)
            casts = [w for w, m in zip(t["what"], mech) if m == "host copy"]
            assert len(casts) >= n, len(casts)
            assert list(t["seq"]) == list(range(len(t)))
            sites_log = log["sites"][()]
            assert list(sites_log["site"]) == list(range(n))
            bonds = [s.shape[0] if i == 0 else s.shape[1] for i, s in enumerate(sites[:-1])]
            assert list(sites_log["bond_right"][:-1]) == bonds, (sites_log["bond_right"], bonds)
    print(f"h5py client: relative error {err:.2e}, {len(t)} transfer rows")


if __name__ == "__main__":
    main()
