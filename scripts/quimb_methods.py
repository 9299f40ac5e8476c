#!/usr/bin/env python3
"""quimb's 1D compression methods on the inputs of scripts/bench_methods.sh, timed, their
results written as trains that `src-compress distance` reads.

    quimb_methods.py TOP BOTTOM CHI OUTDIR METHOD... [--seed N]
    quimb_methods.py --terms JSON CHI OUTDIR METHOD... [--seed N]

TOP and BOTTOM are FILE.h5:/group trains in our format (TOP an MPO, BOTTOM an MPS or an MPO):
the product TOP·BOTTOM is built as quimb's uncontracted network (each site keeps both
tensors) and compressed by `tensor_network_1d_compress(..., method=METHOD, max_bond=CHI,
cutoff=0)`. Each result goes to OUTDIR/quimb-METHOD.h5:/result; one JSON line per method on
stdout: {"method": …, "seconds": …} (the compression alone: no reading or writing). quimb,
autoray and cotengra come from source trees on PYTHONPATH (Debian packages numpy and scipy).

With --terms, a sum Σ_k c_k (product k) as `apply --term` takes it: JSON [[re, im, TRAIN, …], …]
(each product's trains operators first, the state last, MPS results), handed to quimb as the
sequence of networks it compresses as their sum (only its `fit` method takes one).
"""
import json
import os
import sys
import time

import h5py
import numpy as np
import quimb.tensor as qtn
from quimb.tensor import decomp
from quimb.tensor.tn1d.compress import tensor_network_1d_compress

# Debian's numba (0.56) cannot type quimb's accelerated truncated SVD: its plain numpy/scipy
# implementation (quimb's own fallback for arrays of more dimensions) serves every array.
decomp.svd_truncated.register("numpy")(
    lambda x, **kw: decomp.svd_truncated._default_fn(x, **kw))


def read_train(spec):
    """(kind, arrays in l r u d / l r p order with the outer bonds dropped) of FILE:/group."""
    path, group = spec.rsplit(":", 1)
    with h5py.File(path, "r") as f:
        g = f[group]
        kind = g.attrs["type"]
        kind = kind.decode() if isinstance(kind, bytes) else str(kind)
        layout = g.attrs.get("layout", "lrp" if kind == "MPS" else "lrud")
        layout = layout.decode() if isinstance(layout, bytes) else str(layout)
        n = len([k for k in g.keys() if k.isdigit()])
        want = "lrp" if kind == "MPS" else "lrud"
        arrays = []
        for j in range(n):
            a = g[str(j)][()]
            if a.dtype.names:  # compound {r, i}
                a = a[a.dtype.names[0]] + 1j * a[a.dtype.names[1]]
            letters = layout
            if a.ndim < len(layout):  # boundary bond dropped
                letters = layout.replace("l" if j == 0 else "r", "")
            order = [letters.index(c) for c in want if c in letters]
            a = np.transpose(a, order)
            kept = [c for c in want if c in letters]
            if j == 0 and "l" in kept:
                a = a[0]
            if j == n - 1 and "r" in kept:
                a = np.take(a, 0, axis=kept.index("r") - (1 if j == 0 and "l" in kept else 0))
            arrays.append(a)
    return kind, arrays


def as_quimb(kind, arrays):
    if kind == "MPS":
        return qtn.MatrixProductState(arrays, shape="lrp")
    return qtn.MatrixProductOperator(arrays, shape="lrud")


def write_result(tn, site_tags, outer, path):
    """The compressed network as a train (l, r, u[, d]) with size-1 outer bonds kept."""
    tensors = [tn[tag] for tag in site_tags]
    n = len(tensors)
    with h5py.File(path, "w") as f:
        g = f.create_group("result")
        g.attrs["type"] = "MPO" if len(outer[0]) == 2 else "MPS"
        g.attrs["layout"] = "lrud" if len(outer[0]) == 2 else "lrp"
        for j, t in enumerate(tensors):
            left = [i for i in t.inds if j > 0 and i in tensors[j - 1].inds]
            right = [i for i in t.inds if j < n - 1 and i in tensors[j + 1].inds]
            data = t.transpose(*left, *right, *outer[j]).data
            if j == 0:
                data = data[None]
            if j == n - 1:
                data = np.expand_dims(data, 1)
            g[str(j)] = np.ascontiguousarray(data)


def product_network(trains):
    """The uncontracted network of a product of trains (operators first, an MPS last)."""
    cur = as_quimb(*read_train(trains[-1]))
    for spec in reversed(trains[:-1]):
        op = as_quimb(*read_train(spec))
        op.mangle_inner_()  # a train given twice (H·H·ψ) must not share its bonds with itself
        cur = qtn.tensor_network_apply_op_vec(op, cur, contract=False, compress=False)
    return cur


def compress_sum(spec, chi, outdir, methods, seed):
    terms = json.loads(spec)
    tns = []
    for re_, im_, *trains in terms:
        tn = product_network(trains)
        first = tn.tensors[0]
        first.modify(data=first.data * complex(re_, im_))
        tns.append(tn)
    x = as_quimb(*read_train(terms[0][-1]))
    n = x.L
    site_tags = [x.site_tag(j) for j in range(n)]
    outer = [(x.site_ind(j),) for j in range(n)]
    for method in methods:
        # Timed on its second call: the first pays for compilation and contraction-path searches
        # that a user's later calls find cached.
        tensor_network_1d_compress(tns, max_bond=chi, cutoff=0.0, method=method, site_tags=site_tags, seed=seed)
        t0 = time.perf_counter()
        out = tensor_network_1d_compress(tns, max_bond=chi, cutoff=0.0, method=method, site_tags=site_tags, seed=seed)
        seconds = time.perf_counter() - t0
        write_result(out, site_tags, outer, os.path.join(outdir, "quimb-%s.h5" % method))
        print(json.dumps({"method": method, "seconds": seconds}), flush=True)


def main():
    args = sys.argv[1:]
    seed = 1
    if "--seed" in args:
        i = args.index("--seed")
        seed = int(args[i + 1])
        del args[i : i + 2]
    if args[0] == "--terms":
        compress_sum(args[1], int(args[2]), args[3], args[4:], seed)
        return
    top, bottom, chi, outdir, methods = args[0], args[1], int(args[2]), args[3], args[4:]
    a = as_quimb(*read_train(top))
    x = as_quimb(*read_train(bottom))
    n = a.L
    # A first call pays for imports and just-in-time compilation: each method runs once on a
    # small product of the same kind before it is timed.
    small_x = (qtn.MPS_rand_state(4, 2, dtype=x.dtype) if isinstance(x, qtn.MatrixProductState)
               else qtn.MPO_rand(4, 2, dtype=x.dtype))
    small_a = qtn.MPO_rand(4, 2, dtype=a.dtype)
    for method in methods:
        if isinstance(small_x, qtn.MatrixProductState):
            warm = qtn.tensor_network_apply_op_vec(small_a, small_x, contract=False, compress=False)
        else:
            warm = qtn.tensor_network_apply_op_op(small_a, small_x, contract=False, compress=False)
        opts = {"seed": seed} if method.startswith(("src", "fit")) else {}
        tensor_network_1d_compress(warm, max_bond=2, cutoff=0.0, method=method,
                                   site_tags=[small_x.site_tag(j) for j in range(4)], **opts)
    for method in methods:
        site_tags = [x.site_tag(j) for j in range(n)]
        if isinstance(x, qtn.MatrixProductState):
            tn = qtn.tensor_network_apply_op_vec(a, x, contract=False, compress=False)
            outer = [(x.site_ind(j),) for j in range(n)]
        else:  # A's lower legs on B's upper ones; the product keeps B's index names
            tn = qtn.tensor_network_apply_op_op(a, x, contract=False, compress=False)
            outer = [(x.upper_ind(j), x.lower_ind(j)) for j in range(n)]
        opts = {"seed": seed} if method.startswith(("src", "fit")) else {}
        t0 = time.perf_counter()
        out = tensor_network_1d_compress(tn, max_bond=chi, cutoff=0.0, method=method, site_tags=site_tags, **opts)
        seconds = time.perf_counter() - t0
        write_result(out, site_tags, outer, os.path.join(outdir, "quimb-%s.h5" % method))
        print(json.dumps({"method": method, "seconds": seconds}), flush=True)


if __name__ == "__main__":
    main()
