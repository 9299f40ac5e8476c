"""The srcc package on quimb's and TeNPy's own objects, against those libraries' own results.

Neither library is a Debian package: these tests run where they are importable (put checkouts of
quimb, autoray and cotengra, and of TeNPy, on PYTHONPATH) and are skipped elsewhere, CI included.
"""
import os

import numpy as np
import pytest

import srcc

os.environ.setdefault("NUMBA_DISABLE_JIT", "1")  # Debian's numba cannot compile quimb's kernels
os.environ.setdefault("TENPY_NO_CYTHON", "true")


def test_quimb_objects_in_and_out():
    qtn = pytest.importorskip("quimb.tensor")
    psi = qtn.MPS_rand_state(8, 6, dtype="complex128", seed=1)
    h = qtn.MPO_ham_heis(8)
    out, _ = srcc.apply(h, psi, chi=64)
    ref = h.apply(psi)
    phi = qtn.MatrixProductState(out)  # quimb takes our arrays as they are
    assert srcc.distance(phi, ref) < 1e-13
    assert abs(srcc.expect(psi, h) - (psi.H @ ref) / (psi.H @ psi)) < 1e-13
    hh, _ = srcc.apply(h, h, chi=100)
    assert srcc.distance(qtn.MatrixProductOperator(hh), h.apply(h)) < 1e-13
    # quimb's own zip-up at the same bond, and ours, against the exact product.
    small, _ = srcc.apply(h, psi, chi=8, oversample=True, seed=2)
    zipped = h.apply(psi, compress=True, max_bond=8, cutoff=0.0)
    assert srcc.distance(small, ref) < 1.5 * srcc.distance(zipped, ref)


def test_tenpy_objects_in():
    pytest.importorskip("tenpy.networks.mps")
    from tenpy.algorithms import dmrg
    from tenpy.models.xxz_chain import XXZChain
    from tenpy.networks.mps import MPS
    model = XXZChain({"L": 10, "Jz": 0.7, "hz": 0.1, "bc_MPS": "finite"})
    psi = MPS.from_product_state(model.lat.mps_sites(), ["up", "down"] * 5, bc="finite")
    dmrg.run(psi, model, {"trunc_params": {"chi_max": 32}, "max_sweeps": 4})
    energy = model.H_MPO.expectation_value(psi)
    assert abs(srcc.expect(psi, model.H_MPO) - energy) < 1e-12 * abs(energy)
    out, record = srcc.apply(model.H_MPO, psi, chi=200)
    assert record["symmetry"] == "U(1)"  # TeNPy's charges, computed on
    assert abs(srcc.inner(psi, out) - energy) < 1e-12 * abs(energy)
    dense, dense_record = srcc.apply(model.H_MPO, psi, chi=200, symmetry="off")
    assert dense_record["symmetry"] == "" and srcc.distance(dense, out) < 1e-12
    sz = psi.expectation_value("Sz")
    assert abs(srcc.norm(psi) - 1) < 1e-12 and len(sz) == 10
    # Back to TeNPy: its own overlap and energy of the result, and the way round again.
    back = srcc.to_tenpy(out, psi.sites)
    assert abs(back.overlap(psi) - energy) < 1e-12 * abs(energy)
    assert abs(model.H_MPO.expectation_value(back) - srcc.expect(out, model.H_MPO)) < 1e-10
    again, _ = srcc.compress(back, chi=200)
    assert srcc.distance(again, out) < 1e-12


def test_tenpy_reads_what_srcc_writes_on_its_file(tmp_path):
    pytest.importorskip("tenpy.networks.mps")
    from pathlib import Path

    import h5py
    from tenpy.tools import hdf5_io
    f = Path(__file__).resolve().parents[1] / "data" / "tenpy_xxz_L12_sz.h5"
    h, psi = srcc.read(f, "/H_MPO"), srcc.read(f, "/psi")
    out, _ = srcc.apply(h, psi, chi=24, seed=1)
    srcc.write(tmp_path / "t.h5", out, like=f"{f}:/psi")
    with h5py.File(tmp_path / "t.h5", "r") as g:
        mps = hdf5_io.load_from_hdf5(g, "/psi")
    with h5py.File(f, "r") as g:
        ref = hdf5_io.load_from_hdf5(g, "/psi")
    assert abs(mps.overlap(ref) - srcc.inner(psi, out)) < 1e-10 * abs(srcc.inner(psi, out))
