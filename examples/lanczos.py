#!/usr/bin/env python3
"""A few Lanczos steps for the ground state of the XXZ chain, in-process with the srcc package.

Every Krylov vector is an MPS compressed to bond `chi`: H·v by SRC (srcc.apply), the
orthogonalisation w − α v − β v' as one compressed sum (srcc.sum), the scalars by exact
contraction (srcc.inner, srcc.norm). No file and no process start per step: the loop is plain
Python over numpy arrays in quimb's layouts (quimb.tensor.MatrixProductState(v) takes any of them).

The script checks itself: at a bond that holds every vector exactly, its Lanczos energies equal
those of the same iteration on dense vectors (numpy) to 1e-9, and every estimate lies above the
exact ground energy. Run with PYTHONPATH=BUILD/python (or the installed package):

    python3 examples/lanczos.py [--sites 10] [--steps 8] [--chi 32]
"""
import argparse

import numpy as np

import srcc


def xxz_mpo(n, jz=0.5, h=0.0):
    """H = Σ (S+S- + S-S+)/2 + jz Sz Sz + h Σ Sz as an MPO of bond 5, quimb's layout (l, r, u, d)."""
    sz = np.diag([0.5, -0.5])
    sp = np.array([[0.0, 1.0], [0.0, 0.0]])
    one = np.eye(2)
    w = np.zeros((5, 5, 2, 2))
    w[0, 0] = w[4, 4] = one
    w[0, 1], w[0, 2], w[0, 3] = sp, sp.T, sz
    w[1, 4], w[2, 4], w[3, 4] = 0.5 * sp.T, 0.5 * sp, jz * sz
    w[0, 4] = h * sz
    return [w[0]] + [w] * (n - 2) + [w[:, 4]]


def lanczos(apply_h, combine, inner, v0, steps):
    """Lanczos energies (the lowest Ritz value after each step) from v0, on any vector type."""
    norm0 = np.sqrt(inner(v0, v0).real)
    v, v_prev, beta = combine([(1 / norm0, v0)]), None, 0.0
    alphas, betas, energies = [], [], []
    for _ in range(steps):
        w = apply_h(v)
        alpha = inner(v, w).real
        w = combine([(1.0, w), (-alpha, v)] + ([(-beta, v_prev)] if v_prev is not None else []))
        alphas.append(alpha)
        t = np.diag(alphas) + np.diag(betas, 1) + np.diag(betas, -1)
        energies.append(np.linalg.eigvalsh(t)[0])
        beta = np.sqrt(inner(w, w).real)
        if beta < 1e-12:
            break
        betas.append(beta)
        v_prev, v = v, combine([(1 / beta, w)])
    return energies


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sites", type=int, default=10)
    p.add_argument("--steps", type=int, default=8)
    p.add_argument("--chi", type=int, default=32)
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()
    rng = np.random.default_rng(a.seed)
    n = a.sites
    h = xxz_mpo(n)
    bonds = [1] + [min(4, 2 ** j, 2 ** (n - j)) for j in range(1, n)] + [1]
    full = [rng.standard_normal((bonds[j], bonds[j + 1], 2)) for j in range(n)]
    psi = [full[0][0]] + full[1:-1] + [full[-1][:, 0]]

    opts = dict(chi=a.chi, seed=a.seed, oversample=True)
    energies = lanczos(lambda v: srcc.apply(h, v, **opts)[0],
                       lambda terms: srcc.sum([(c, v) for c, v in terms], **opts)[0],
                       srcc.inner, psi, a.steps)

    # The same iteration on dense vectors, and the exact ground energy.
    dense_h = np.ones((1, 1, 1))
    for w in [h[0][None]] + h[1:-1] + [h[-1][:, None]]:
        dense_h = np.einsum("xyl,lrud->xuydr", dense_h, w).reshape(
            dense_h.shape[0] * 2, dense_h.shape[1] * 2, w.shape[1])
    dense_h = dense_h[:, :, 0]
    vec = np.ones((1, 1))
    for s in full:
        vec = np.einsum("xl,lrp->xpr", vec, s).reshape(-1, s.shape[1])
    reference = lanczos(lambda v: dense_h @ v, lambda terms: sum(c * v for c, v in terms),
                        lambda x, y: complex(np.vdot(x, y)), vec[:, 0], a.steps)
    exact = np.linalg.eigvalsh(dense_h)[0]

    print(f"XXZ chain, {n} sites, Lanczos from a random MPS, Krylov vectors at bond {a.chi}")
    print(f"{'step':>4} {'E (srcc)':>20} {'E (dense Lanczos)':>20} {'difference':>11}")
    for k, (e, r) in enumerate(zip(energies, reference), 1):
        print(f"{k:4d} {e:20.12f} {r:20.12f} {abs(e - r):11.2e}")
    print(f"exact ground energy {exact:.12f}")
    exact_bond = a.chi >= 2 ** (n // 2)
    assert all(e >= exact - 1e-9 for e in energies), "an estimate below the ground energy"
    if exact_bond:
        assert max(abs(e - r) for e, r in zip(energies, reference)) < 1e-9, "differs from dense Lanczos"


if __name__ == "__main__":
    main()
