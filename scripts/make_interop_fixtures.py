#!/usr/bin/env python3
"""Writes the TeNPy and ITensor test files of tests/data/ (run by hand; its outputs are committed).

    TENPY_NO_CYTHON=true PYTHONPATH=/path/to/tenpy python3 scripts/make_interop_fixtures.py tests/data

TeNPy files are written by TeNPy itself (hdf5_io.save) from states it computed (DMRG, TEBD), with
the values the tests check against (energies by TeNPy's own expectation_value). TeNPy runs on
Debian's numpy from a source tree without any patch. ITensor files follow ITensorMPS.jl's HDF5
layout (docs/FORMAT.md, "ITensor files"), written with h5py from TeNPy's states: Julia is not
installable here. They exercise what an ITensors.jl file may hold: BlockSparse storage with QN
indices, Diag (full and uniform) and EmptyStorage, the old 'store' key, indices in any order.
"""
import sys

import h5py
import numpy as np

import tenpy
from tenpy.algorithms import dmrg, tebd
from tenpy.models.tf_ising import TFIChain
from tenpy.models.spins import SpinChain
from tenpy.networks.mps import MPS
from tenpy.tools import hdf5_io


def ground_state(model, chi):
    psi = MPS.from_lat_product_state(model.lat, [["up"], ["down"]])
    info = dmrg.run(psi, model, {"trunc_params": {"chi_max": chi, "svd_min": 1e-12},
                                 "max_E_err": 1e-13, "mixer": None})
    return psi, info["E"]


def tenpy_files(out):
    # A U(1)-conserving chain (charge 2*Sz): the physical basis is stored sorted by charge.
    params = {"L": 12, "S": 0.5, "Jx": 1.0, "Jy": 1.0, "Jz": 0.7, "hz": 0.1, "bc_MPS": "finite",
              "conserve": "Sz"}
    xxz = SpinChain(params)
    psi, e0 = ground_state(xxz, 32)
    hdf5_io.save({"psi": psi, "H_MPO": xxz.H_MPO, "E0": e0}, f"{out}/tenpy_xxz_L12_sz.h5")
    # The same Hamiltonian stored as W with H = W + W† (explicit_plus_hc).
    xxz_hc = SpinChain(dict(params, explicit_plus_hc=True))
    assert xxz_hc.H_MPO.explicit_plus_hc
    e_hc = xxz_hc.H_MPO.expectation_value(psi)
    hdf5_io.save({"psi": psi, "H_MPO": xxz_hc.H_MPO, "E0": e_hc}, f"{out}/tenpy_xxz_L12_sz_plus_hc.h5")
    # A complex state: the ground state at g = 1.5 evolved by TEBD with g = 0.5 up to t = 1.
    tfi = TFIChain({"L": 10, "J": 1.0, "g": 1.5, "bc_MPS": "finite", "conserve": None})
    psi_c, _ = ground_state(tfi, 32)
    quench = TFIChain({"L": 10, "J": 1.0, "g": 0.5, "bc_MPS": "finite", "conserve": None})
    eng = tebd.TEBDEngine(psi_c, quench, {"dt": 0.05, "N_steps": 20, "order": 2,
                                          "trunc_params": {"chi_max": 64, "svd_min": 1e-12}})
    eng.run()
    e_quench = quench.H_MPO.expectation_value(psi_c)
    hdf5_io.save({"psi": psi_c, "H_MPO": quench.H_MPO, "E": e_quench}, f"{out}/tenpy_tfi_L10_quench.h5")
    # A small charged file: a seed for fuzzing the TeNPy reader (scripts/sanitize.sh).
    small = TFIChain({"L": 4, "J": 1.0, "g": 1.2, "bc_MPS": "finite", "conserve": "parity"})
    psi_s, e_s = ground_state(small, 4)
    hdf5_io.save({"psi": psi_s, "H_MPO": small.H_MPO, "E0": e_s}, f"{out}/tenpy_tfi_L4_parity.h5")
    return psi, xxz, e0


# --- ITensor files ------------------------------------------------------------------------------

rng = np.random.default_rng(2026)


def _string_type(b):
    """A string as HDF5.jl writes it: fixed length of exactly its bytes, NULLTERM, UTF-8."""
    t = h5py.h5t.C_S1.copy()
    t.set_size(max(len(b), 1))
    t.set_strpad(h5py.h5t.STR_NULLTERM)
    t.set_cset(h5py.h5t.CSET_UTF8)
    return t


def string_attr(obj, name, value):
    b = value.encode()
    t = _string_type(b)
    a = h5py.h5a.create(obj.id, name.encode(), t, h5py.h5s.create(h5py.h5s.SCALAR))
    a.write(np.array(b or b"\0", dtype=f"S{max(len(b), 1)}"), mtype=t)


def string_dataset(g, name, value):
    b = value.encode()
    t = _string_type(b)
    d = h5py.h5d.create(g.id, name.encode(), t, h5py.h5s.create(h5py.h5s.SCALAR))
    d.write(h5py.h5s.ALL, h5py.h5s.ALL, np.array(b or b"\0", dtype=f"S{max(len(b), 1)}"), mtype=t)


def typed(g, typ):
    string_attr(g, "type", typ)
    g.attrs["version"] = np.int64(1)


def write_index(g, name, ix):
    h = g.create_group(name)
    typed(h, "Index")
    h["id"] = np.uint64(ix["id"])
    h["dim"] = np.int64(ix["dim"])
    h["dir"] = np.int64(ix["dir"])
    h["plev"] = np.int64(ix["plev"])
    t = h.create_group("tags")
    typed(t, "TagSet")
    string_dataset(t, "tags", ix["tags"])
    if "blocks" in ix:
        string_attr(h, "space_type", "QNBlocks")
        s = h.create_group("space")
        typed(s, "QNBlocks")
        s["length"] = np.int64(len(ix["blocks"]))
        s["dims"] = np.array([d for _, d in ix["blocks"]], dtype=np.int64)
        for n, (qn, _) in enumerate(ix["blocks"], 1):
            q = s.create_group(f"QN[{n}]")
            typed(q, "QN")
            q.create_dataset("names", data=np.array(["Sz", "", "", ""], dtype=h5py.string_dtype("utf-8")))
            q["vals"] = np.array([qn, 0, 0, 0], dtype=np.int64)
            q["mods"] = np.array([1, 0, 0, 0], dtype=np.int64)
    else:
        string_attr(h, "space_type", "Int")


def write_itensor(g, name, inds, array, storage="Dense", key="storage"):
    """`array` has axes in the order of `inds`; stored column-major as ITensor does."""
    t = g.create_group(name)
    typed(t, "ITensor")
    s = t.create_group("inds")
    typed(s, "IndexSet")
    s["length"] = np.int64(len(inds))
    for k, ix in enumerate(inds, 1):
        write_index(s, f"index_{k}", ix)
    st = t.create_group(key)
    el = "ComplexF64" if np.iscomplexobj(array) else "Float64"
    if storage == "Dense":
        typed(st, f"Dense{{{el}}}")
        st["data"] = array.ravel(order="F")
    elif storage == "BlockSparse":
        typed(st, f"BlockSparse{{{el}}}")
        starts = []
        for ix in inds:
            s0 = [0]
            for _, d in ix["blocks"]:
                s0.append(s0[-1] + d)
            starts.append(s0)
        data, offsets = [], []
        off = 0
        # All nonzero blocks, in an order of our choosing (ITensor keeps insertion order).
        nb = [len(ix["blocks"]) for ix in inds]
        for flat in rng.permutation(int(np.prod(nb))):
            b = np.unravel_index(flat, nb)
            sl = tuple(slice(starts[k][b[k]], starts[k][b[k] + 1]) for k in range(len(inds)))
            block = array[sl]
            if not np.any(block):
                continue
            offsets += [x + 1 for x in b] + [off]
            data.append(block.ravel(order="F"))
            off += block.size
        st["ndims"] = np.int64(len(inds))
        st["data"] = np.concatenate(data) if data else np.zeros(0)
        st["offsets"] = np.array(offsets, dtype=np.int64)
    elif storage == "Diag":
        typed(st, f"Diag{{{el},Vector{{{el}}}}}")
        n = min(array.shape)
        st["data"] = np.array([array[(i,) * array.ndim] for i in range(n)])
    elif storage == "UniformDiag":
        typed(st, f"Diag{{{el},{el}}}")
        st["data"] = np.array([array[(0,) * array.ndim]])
    elif storage == "Empty":
        typed(st, f"EmptyStorage{{{el}, NDTensors.Dense{{{el}, Vector{{{el}}}}}}}")


def itensor_mps(path, name, tensors, sites, links, qn_of=None, storages=None, keys=None, order_seed=0):
    """tensors[j]: array (l, p, r) dense (boundary legs of size 1 dropped); sites[j], links[j]: index dicts."""
    order = np.random.default_rng(order_seed)
    with h5py.File(path, "a") as f:
        g = f.create_group(name)
        typed(g, "MPS")
        n = len(tensors)
        g["length"] = np.int64(n)
        g["rlim"] = np.int64(n + 1)
        g["llim"] = np.int64(0)
        for j, a in enumerate(tensors):
            inds, axes = [], []
            if j > 0:
                inds.append(dict(links[j - 1], dir=-1)); axes.append(0)
            inds.append(sites[j]); axes.append(1)
            if j < n - 1:
                inds.append(links[j]); axes.append(2)
            a = a.reshape([s for s in a.shape])
            dense = a
            if j == 0:
                dense = a[0]
                axes = [x - 1 for x in axes]
            if j == n - 1:
                dense = dense[..., 0]
            perm = order.permutation(len(inds))
            write_itensor(g, f"MPS[{j + 1}]", [inds[p] for p in perm], np.transpose(dense, perm),
                          storages[j] if storages else "Dense", keys[j] if keys else "storage")


def itensor_files(out, psi, model):
    # The XXZ ground state as an ITensor MPS with QN blocks, and its Hamiltonian as an MPO.
    n = psi.L
    # ITensor's S=1/2 basis is (Up, Dn); TeNPy's SpinSite stores (down, up), SpinHalfSite sorts
    # by charge: go by the state labels.
    labels = psi.sites[0].state_labels
    inv = [labels["up"], labels["down"]]

    def original(a, axis):  # the physical axis in ITensor's order
        return np.take(a, inv, axis=axis)

    tensors, links, sites = [], [], []
    for j in range(n):
        B = psi.get_B(j, "B" if j else "Th").to_ndarray()  # (vL, p, vR)
        if j == 0:
            B = B * psi.norm
        tensors.append(original(B, 1))
    for j in range(n):
        site_blocks = [(+1, 1), (-1, 1)]  # (Up: 2Sz = +1), (Dn: −1), ITensor's order
        sites.append({"id": int(rng.integers(1, 2**63)) * 2 + 1, "dim": 2, "dir": 1, "plev": 0,
                      "tags": f"S=1/2,Site,n={j + 1}", "blocks": site_blocks})
    for j in range(n - 1):
        leg = psi.get_B(j, "B").get_leg("vR")
        # One block per charge sector of the bond; TeNPy's leg is sorted and bunched.
        blocks = [(int(-leg.charges[b][0]), int(leg.slices[b + 1] - leg.slices[b])) for b in range(leg.block_number)]
        links.append({"id": int(rng.integers(1, 2**63)) * 2, "dim": int(leg.ind_len), "dir": 1, "plev": 0,
                      "tags": f"Link,l={j + 1}", "blocks": blocks})
    storages = ["BlockSparse"] * n
    storages[3] = "Dense"  # a file may mix them
    keys = ["storage"] * n
    keys[5] = "store"      # ITensors ≤ 0.1
    path = f"{out}/itensor_xxz_L12_qn.h5"
    with h5py.File(path, "w") as f:
        f["E0"] = model_e0
    itensor_mps(path, "psi", tensors, sites, links, storages=storages, keys=keys, order_seed=7)
    # The MPO: TeNPy's W with its outer bonds projected, as ITensor tensors (Dense).
    W = model.H_MPO
    with h5py.File(path, "a") as f:
        g = f.create_group("H")
        typed(g, "MPO")
        g["length"] = np.int64(n)
        g["rlim"] = np.int64(n + 1)
        g["llim"] = np.int64(0)
        mlinks = [{"id": int(rng.integers(1, 2**63)), "dim": W.get_W(j).get_leg("wR").ind_len, "dir": 1,
                   "plev": 0, "tags": f"Link,l={j + 1}"} for j in range(n - 1)]
        for j in range(n):
            w = W.get_W(j).to_ndarray()  # wL, wR, p, p* (TeNPy's default order for these models)
            labels = W.get_W(j).get_leg_labels()
            w = np.transpose(w, [labels.index(x) for x in ("wL", "wR", "p", "p*")])
            w = np.take(np.take(w, inv, axis=2), inv, axis=3)
            if j == 0:
                w = w[W.IdL[0]:W.IdL[0] + 1]
            if j == n - 1:
                w = w[:, W.IdR[n]:W.IdR[n] + 1]
            site = {k: v for k, v in sites[j].items() if k != "blocks"}
            inds, arr = [], w
            dims = []
            if j > 0:
                inds.append(mlinks[j - 1]); dims.append(0)
            if j < n - 1:
                inds.append(mlinks[j]); dims.append(1)
            inds += [dict(site, plev=1), dict(site, plev=0)]
            dims += [2, 3]
            arr = w.reshape(w.shape)
            squeeze = [a for a in (0, 1) if a not in dims]
            arr = np.squeeze(arr, axis=tuple(squeeze)) if squeeze else arr
            perm = np.random.default_rng(j).permutation(len(inds))
            write_itensor(g, f"MPO[{j + 1}]", [inds[p] for p in perm], np.transpose(arr, perm))

    # GHZ (|0…0⟩ + |1…1⟩)/√2 from diagonal tensors: Diag (full and uniform) and Dense; and the
    # zero state, one of its tensors EmptyStorage.
    for name, kinds in (("itensor_ghz_L5_diag.h5", ["UniformDiag", "Diag", "UniformDiag", "Diag", "Dense"]),
                        ("itensor_zero_L4_empty.h5", ["Dense", "Empty", "Dense", "Dense"])):
        L = len(kinds)
        ts = []
        for j in range(L):
            shape = (1 if j == 0 else 2, 2, 1 if j == L - 1 else 2)
            t = np.zeros(shape)
            for i in range(2):
                t[min(i, shape[0] - 1), i, min(i, shape[2] - 1)] = 1.0
            if j == 0:
                t = t / np.sqrt(2)
            if kinds[j] == "Empty":
                t[:] = 0
            ts.append(t)
        sites_g = [{"id": 1000 + j, "dim": 2, "dir": 1, "plev": 0, "tags": f"S=1/2,Site,n={j + 1}"} for j in range(L)]
        links_g = [{"id": 2000 + j, "dim": 2, "dir": 1, "plev": 0, "tags": f"Link,l={j + 1}"} for j in range(L - 1)]
        p = f"{out}/{name}"
        with h5py.File(p, "w"):
            pass
        itensor_mps(p, "psi", ts, sites_g, links_g, storages=kinds, order_seed=3)


if __name__ == "__main__":
    out = sys.argv[1] if len(sys.argv) > 1 else "tests/data"
    print("TeNPy", tenpy.__version__)
    psi, xxz, model_e0 = tenpy_files(out)
    itensor_files(out, psi, xxz)
    print("wrote the files in", out)
