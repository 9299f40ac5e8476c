"""The srcc Python package against dense numpy references and against the program itself.

Run by CTest (python.module) with PYTHONPATH at the build tree's python/ and SRCC_BIN the program;
or by hand: PYTHONPATH=build/python SRCC_BIN=build/app/src-compress python3 -m pytest tests/python
"""
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

import srcc

DATA = Path(__file__).resolve().parents[1] / "data"


def random_mps(rng, n, d, chi, complex_=False):
    bonds = [1] + [min(chi, d ** j, d ** (n - j)) for j in range(1, n)] + [1]
    sites = []
    for j in range(n):
        a = rng.standard_normal((bonds[j], bonds[j + 1], d))
        if complex_:
            a = a + 1j * rng.standard_normal(a.shape)
        sites.append(a)
    return quimb_layout(sites)


def random_mpo(rng, n, d, D, complex_=False):
    sites = []
    for j in range(n):
        a = rng.standard_normal((1 if j == 0 else D, 1 if j == n - 1 else D, d, d))
        if complex_:
            a = a + 1j * rng.standard_normal(a.shape)
        sites.append(a)
    return quimb_layout(sites)


def quimb_layout(full):
    """Sites with unit outer bonds → quimb's shapes (the end sites without them)."""
    out = [a for a in full]
    out[0] = out[0][0]
    out[-1] = out[-1][:, 0] if len(out) > 1 else out[-1][0]
    return out


def full_layout(train):
    """quimb's shapes → sites with unit outer bonds (l, r, …)."""
    out = list(train)
    out[0] = out[0][None]
    out[-1] = np.expand_dims(out[-1], 1)
    return out


def dense_mps(train):
    """The state as a vector (site 0 the most significant index)."""
    v = np.ones((1, 1))
    for a in full_layout(train):
        v = np.einsum("xl,lrp->xpr", v, a).reshape(-1, a.shape[1])
    return v[:, 0]


def dense_mpo(train):
    """The operator as a matrix (rows: u, columns: d)."""
    m = np.ones((1, 1, 1))
    for a in full_layout(train):
        m = np.einsum("xyl,lrud->xuydr", m, a)
        m = m.reshape(m.shape[0] * m.shape[1], m.shape[2] * m.shape[3], m.shape[4])
    return m[:, :, 0]


def rel(a, b):
    return np.linalg.norm(a - b) / np.linalg.norm(b)


def test_product_at_full_bond_is_the_dense_product():
    rng = np.random.default_rng(1)
    psi, h = random_mps(rng, 7, 2, 6), random_mpo(rng, 7, 2, 3)
    for method in ("src", "sdc", "sdcr"):
        out, record = srcc.apply(h, psi, chi=64, method=method, seed=3)
        assert rel(dense_mps(out), dense_mpo(h) @ dense_mps(psi)) < 1e-12, method
        assert record["method"] == method and record["bonds"] == [a.shape[1] for a in full_layout(out)[:-1]]
        assert record["plans"][0]["sketch_columns"] >= 1 and record["sweep_seconds"] <= record["seconds"]


def test_complex_product_of_two_operators_and_an_mpo_state():
    rng = np.random.default_rng(2)
    a, b, c = (random_mpo(rng, 5, 2, 2, complex_=True) for _ in range(3))
    psi = random_mps(rng, 5, 2, 4, complex_=True)
    out, record = srcc.apply([a, b], psi, chi=64)
    assert rel(dense_mps(out), dense_mpo(a) @ dense_mpo(b) @ dense_mps(psi)) < 1e-12
    assert record["dtype"] == "complex128"
    prod, _ = srcc.apply(a, c, chi=64)  # MPO·MPO
    assert rel(dense_mpo(prod), dense_mpo(a) @ dense_mpo(c)) < 1e-12


def test_truncated_product_error_is_near_the_optimal_and_estimated():
    rng = np.random.default_rng(3)
    psi, h = random_mps(rng, 10, 2, 16), random_mpo(rng, 10, 2, 3)
    exact = dense_mpo(h) @ dense_mps(psi)
    out, record = srcc.apply(h, psi, chi=12, oversample=True, seed=5)
    err = rel(dense_mps(out), exact)
    # The optimal error of a bond-12 train is at least that of its middle cut's Schmidt truncation.
    s = np.linalg.svd(exact.reshape(2 ** 5, 2 ** 5), compute_uv=False)
    assert np.sqrt(np.sum(s[12:] ** 2)) / np.linalg.norm(s) <= err < 20 * np.sqrt(np.sum(s[12:] ** 2)) / np.linalg.norm(s) + 1e-12
    assert 0 < record["error_estimate"] and np.isfinite(record["error_estimate"])
    assert max(record["bonds"]) == 12


def test_same_seed_same_result_and_the_same_as_the_program(tmp_path):
    rng = np.random.default_rng(4)
    psi, h = random_mps(rng, 9, 2, 16), random_mpo(rng, 9, 2, 4)
    a, _ = srcc.apply(h, psi, chi=10, seed=11)
    b, _ = srcc.apply(h, psi, chi=10, seed=11)
    assert all(np.array_equal(x, y) for x, y in zip(a, b))
    binary = os.environ.get("SRCC_BIN")
    if not binary:
        pytest.skip("SRCC_BIN (the program) not given")
    srcc.write(tmp_path / "h.h5", h)
    srcc.write(tmp_path / "psi.h5", psi)
    subprocess.run([binary, "apply", f"{tmp_path}/h.h5", f"{tmp_path}/psi.h5", "-o", f"{tmp_path}/out.h5", "--chi", "10",
                    "--seed", "11", "-q"], check=True)
    assert srcc.distance(srcc.read(tmp_path / "out.h5"), a) < 1e-13


def test_sum_of_products_is_the_dense_sum():
    rng = np.random.default_rng(5)
    psi, phi = random_mps(rng, 6, 2, 4), random_mps(rng, 6, 2, 4)
    h = random_mpo(rng, 6, 2, 2)
    out, _ = srcc.sum([(0.5, h, psi), (-2.0, phi), (1j, [h, h], phi)], chi=64)
    ref = 0.5 * dense_mpo(h) @ dense_mps(psi) - 2 * dense_mps(phi) + 1j * dense_mpo(h) @ dense_mpo(h) @ dense_mps(phi)
    assert rel(dense_mps(out), ref) < 1e-12


def test_evolve_steps_like_repeated_dense_products():
    rng = np.random.default_rng(12)
    psi, u = random_mps(rng, 6, 2, 4, complex_=True), random_mpo(rng, 6, 2, 2, complex_=True)
    v, m = dense_mps(psi), dense_mpo(u)
    seen = []
    for k, state, record in srcc.evolve(u, psi, 3, chi=64, normalize=True, seed=4):
        v = m @ v
        v /= np.linalg.norm(v)
        assert rel(dense_mps(state), v) < 1e-12 and record["step"] == k and record["seed"] == 4 + k
        seen.append(k)
    assert seen == [1, 2, 3]


def test_truncate_is_the_exact_schmidt_truncation():
    rng = np.random.default_rng(6)
    psi = random_mps(rng, 2, 8, 8)  # one cut: the optimal truncation is its SVD's
    out, record = srcc.truncate(psi, chi=3)
    v = dense_mps(psi).reshape(8, 8)
    u, s, vh = np.linalg.svd(v)
    assert rel(dense_mps(out), ((u[:, :3] * s[:3]) @ vh[:3]).reshape(-1)) < 1e-12
    assert record["method"] == "svd"
    compressed, _ = srcc.compress(psi, chi=3, oversample=True)
    assert rel(dense_mps(compressed), ((u[:, :3] * s[:3]) @ vh[:3]).reshape(-1)) < 1e-12


def test_measures_against_dense():
    rng = np.random.default_rng(7)
    psi, phi = random_mps(rng, 6, 2, 4, complex_=True), random_mps(rng, 6, 2, 4, complex_=True)
    h = random_mpo(rng, 6, 2, 3, complex_=True)
    vp, vf, mh = dense_mps(psi), dense_mps(phi), dense_mpo(h)
    assert abs(srcc.inner(psi, phi) - np.vdot(vp, vf)) < 1e-12 * abs(np.vdot(vp, vf)) + 1e-12
    assert abs(srcc.norm(psi) - np.linalg.norm(vp)) < 1e-12 * np.linalg.norm(vp)
    assert abs(srcc.expect(psi, h) - np.vdot(vp, mh @ vp) / np.vdot(vp, vp)) < 1e-11 * abs(np.vdot(vp, mh @ vp) / np.vdot(vp, vp))
    assert abs(srcc.expect(psi, h, h) - np.vdot(vp, mh @ mh @ vp) / np.vdot(vp, vp)) < 1e-10 * np.linalg.norm(mh) ** 2
    assert abs(srcc.distance(psi, phi) - rel(vp, vf)) < 1e-12
    huge = [a * 1e60 for a in psi]  # ‖huge‖² ≈ 1e720‖ψ‖²: no double holds it
    with pytest.raises(srcc.NumericalError, match="beyond a double"):
        srcc.norm(huge)
    assert abs(srcc.compare(huge, psi)["log10_norm_a"] - 360 - np.log10(np.linalg.norm(vp))) < 1e-9
    c = srcc.compare(psi, phi)
    assert abs(c["overlap"] - np.vdot(vp, vf)) < 1e-12 * abs(np.vdot(vp, vf)) + 1e-12


def test_layouts_round_trip_and_agree(tmp_path):
    rng = np.random.default_rng(8)
    psi, h = random_mps(rng, 5, 3, 5), random_mpo(rng, 5, 3, 2)
    ref, _ = srcc.apply(h, psi, chi=40)
    # (p, l, r) sites and (u, d, l, r) operators, and the full layout with unit outer bonds.
    plr = [np.moveaxis(a, -1, 0) for a in psi]
    udlr = [np.moveaxis(np.moveaxis(a, -2, 0), -1, 1) for a in h]
    out, _ = srcc.apply(udlr, plr, chi=40, layout="plr,udlr")
    assert all(np.allclose(np.moveaxis(a, 0, -1), b, atol=1e-12) for a, b in zip(out, ref))
    out, _ = srcc.apply(h, full_layout(psi), chi=40)
    assert srcc.distance(out, ref) < 1e-13
    srcc.write(tmp_path / "psi.h5", psi)
    back = srcc.read(tmp_path / "psi.h5")
    assert all(np.array_equal(a, b) for a, b in zip(back, psi))
    with pytest.raises(srcc.OutputError):
        srcc.write(tmp_path / "psi.h5", psi)
    srcc.write(tmp_path / "psi.h5", h, force=True)
    assert all(np.array_equal(a, b) for a, b in zip(srcc.read(tmp_path / "psi.h5"), h))


def test_reads_other_libraries_files():
    h = srcc.read(DATA / "tenpy_xxz_L12_sz.h5", "/H_MPO")
    psi = srcc.read(DATA / "tenpy_xxz_L12_sz.h5", "/psi")
    assert len(h) == len(psi) == 12 and h[5].ndim == 4 and psi[5].ndim == 3
    energy = srcc.expect(psi, h)
    out, _ = srcc.apply(h, psi, chi=200)
    assert abs(srcc.inner(psi, out) / srcc.inner(psi, psi) - energy) < 1e-10 * abs(energy)


def test_charged_trains_are_computed_in_their_blocks(tmp_path):
    h = srcc.read(DATA / "tenpy_xxz_L12_sz.h5", "/H_MPO")
    psi = srcc.read(DATA / "tenpy_xxz_L12_sz.h5", "/psi")
    assert psi.charges["moduli"] == [1] and len(psi.charges["up"]) == 12 and h.charges is not None
    out, record = srcc.apply(h, psi, chi=24, seed=1)
    assert record["symmetry"] == "U(1)" and out.charges is not None
    # Plain lists carry no charges: the same product dense, equal where neither truncates.
    exact, _ = srcc.apply(h, psi, chi=400)
    dense, dense_record = srcc.apply(list(h), list(psi), chi=400)
    assert dense_record["symmetry"] == "" and srcc.distance(exact, dense) < 1e-12
    off, off_record = srcc.apply(h, psi, chi=24, seed=1, symmetry="off")
    assert off_record["symmetry"] == "" and srcc.distance(off, exact) < 10 * srcc.distance(out, exact) + 1e-12
    # A charged result stays charged through the next product, a file and a sum.
    again, again_record = srcc.apply(h, out, chi=24)
    assert again_record["symmetry"] == "U(1)"
    srcc.write(tmp_path / "out.h5", out)
    back = srcc.read(tmp_path / "out.h5")
    assert back.charges == out.charges and all(np.array_equal(a, b) for a, b in zip(back, out))
    _, sum_record = srcc.sum([(1.0, h, psi), (-0.5, psi)], chi=24)
    assert sum_record["symmetry"] == "U(1)"
    binary = os.environ.get("SRCC_BIN")
    if binary:  # the program on the same file, the same seed: the same charged computation
        subprocess.run([binary, "apply", f"{DATA}/tenpy_xxz_L12_sz.h5:/H_MPO", f"{DATA}/tenpy_xxz_L12_sz.h5:/psi", "-o",
                        f"{tmp_path}/cli.h5", "--chi", "24", "--seed", "1", "--output-format", "srcc", "-q"], check=True)
        assert srcc.distance(srcc.read(tmp_path / "cli.h5"), out) < 1e-12


def test_results_are_written_back_in_tenpy_format(tmp_path):
    f = DATA / "tenpy_xxz_L12_sz.h5"
    h, psi = srcc.read(f, "/H_MPO"), srcc.read(f, "/psi")
    out, _ = srcc.apply(h, psi, chi=24, seed=1)
    got = srcc.write(tmp_path / "tenpy.h5", out, like=f"{f}:/psi")
    assert got["group"] == "/psi" and got["dropped_weight"] < 1e-20
    back = srcc.read(tmp_path / "tenpy.h5", "/psi")  # read as TeNPy's file, with its charges
    assert back.charges is not None and srcc.distance(back, out) < 1e-12
    with pytest.raises(srcc.OutputError):
        srcc.write(tmp_path / "tenpy.h5", out, like=f"{f}:/psi")
    with pytest.raises(srcc.InputError, match="sites"):
        srcc.write(tmp_path / "short.h5", list(out)[:6], like=f"{f}:/psi")
    # ITensor's file (its H carries no charges: the product is dense, and what its block structure
    # cannot hold is reported, as the program's warning reports it).
    g = DATA / "itensor_xxz_L12_qn.h5"
    dense, record = srcc.apply(srcc.read(g, "/H"), srcc.read(g, "/psi"), chi=24, seed=1)
    assert record["symmetry"] == "" and "carries no charges" in record["symmetry_note"]
    got = srcc.write(tmp_path / "itensor.h5", dense, like=f"{g}:/psi")
    lost = np.sqrt(got["dropped_weight"] + got["truncated_weight"])
    assert abs(srcc.distance(srcc.read(tmp_path / "itensor.h5", "/psi"), dense) - lost) < 1e-3 * lost + 1e-12
    srcc.write(tmp_path / "ours.h5", out)
    with pytest.raises(srcc.UsageError, match="ours"):
        srcc.write(tmp_path / "x.h5", out, like=f"{tmp_path}/ours.h5:/result")


def test_bad_trains_are_refused_with_the_programs_messages():
    rng = np.random.default_rng(9)
    psi, h = random_mps(rng, 5, 2, 4), random_mpo(rng, 5, 2, 2)
    bad = list(psi)
    bad[2] = bad[2][:, :, :, None, None]
    with pytest.raises(srcc.InputError, match="site 2"):
        srcc.apply(h, bad, chi=4)
    nan = [a.copy() for a in psi]
    nan[3][0, 0, 0] = np.nan
    with pytest.raises(srcc.InputError, match="NaN"):
        srcc.apply(h, nan, chi=4)
    short = list(psi[:4])
    with pytest.raises(srcc.InputError):
        srcc.apply(h, short, chi=4)
    with pytest.raises(srcc.UsageError, match="--chi"):
        srcc.apply(h, psi)
    with pytest.raises(srcc.UsageError):
        srcc.apply(h, psi, chi=4, method="nonsense")
    with pytest.raises(srcc.InputError):
        srcc.read(DATA / "does-not-exist.h5")
    assert issubclass(srcc.InputError, srcc.Error) and issubclass(srcc.Error, Exception)
    assert (srcc.UsageError.exit_code, srcc.InputError.exit_code, srcc.NumericalError.exit_code) == (2, 3, 7)


def test_views_and_other_types_are_taken_as_their_values():
    rng = np.random.default_rng(13)
    psi, h = random_mps(rng, 5, 2, 4), random_mpo(rng, 5, 2, 2)
    strided = [np.asfortranarray(a) for a in psi]  # not C-ordered
    flipped = [np.ascontiguousarray(np.swapaxes(a, -1, -2)).swapaxes(-1, -2) for a in h]  # transposed views
    out, record = srcc.apply(flipped, strided, chi=64)
    assert rel(dense_mps(out), dense_mpo(h) @ dense_mps(psi)) < 1e-12
    single = [a.astype(np.float32) for a in psi]
    out32, record32 = srcc.apply(h, single, chi=64, dtype="float32")
    assert record32["dtype"] == "float32" and out32[1].dtype == np.float32
    assert rel(dense_mps(out32), dense_mpo(h) @ dense_mps(psi)) < 1e-5


def long_product(rng):
    return random_mpo(rng, 80, 2, 6), random_mps(rng, 80, 2, 160)


def test_the_gil_is_released_while_a_sweep_runs():
    rng = np.random.default_rng(10)
    h, psi = long_product(rng)
    ticks, stop = [0], threading.Event()

    def count():
        while not stop.is_set():
            ticks[0] += 1
            time.sleep(0.001)

    t = threading.Thread(target=count)
    t.start()
    t0 = time.perf_counter()
    srcc.apply(h, psi, chi=160, threads=1)
    elapsed = time.perf_counter() - t0
    stop.set()
    t.join()
    # A thread held out by the GIL would tick a handful of times (at the calls' edges).
    assert ticks[0] > 0.3 * elapsed / 0.0011, (ticks[0], elapsed)


def test_ctrl_c_stops_a_sweep_with_keyboard_interrupt():
    rng = np.random.default_rng(11)
    h, psi = long_product(rng)
    t0 = time.perf_counter()
    srcc.apply(h, psi, chi=160, threads=1)
    whole = time.perf_counter() - t0
    timer = threading.Timer(0.1 * whole, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    t0 = time.perf_counter()
    with pytest.raises(KeyboardInterrupt):
        srcc.apply(h, psi, chi=160, threads=1)
    assert time.perf_counter() - t0 < 0.8 * whole
    timer.join()


def test_says_how_to_start_python_where_openblas_does_not_know_the_cpu():
    # Where OpenBLAS chose its SSE3 kernels on a CPU with AVX2 (a model it does not know),
    # importing srcc says which OPENBLAS_CORETYPE to start Python with; started with it, the
    # kernels are those and nothing is said.
    code = "import srcc, srcc._srcc as c; print(c.blas_kernels()); print(c.better_blas_kernels())"
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_CORETYPE"}
    own = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    kernels, better = own.stdout.split("\n")[:2]
    if better:
        assert kernels == "Prescott"
        assert "OPENBLAS_CORETYPE=" + better in own.stderr
        env["OPENBLAS_CORETYPE"] = better
        fixed = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
        assert fixed.stdout.split("\n")[:2] == [better, ""]
        assert "OPENBLAS_CORETYPE" not in fixed.stderr
    else:
        assert "OPENBLAS_CORETYPE" not in own.stderr
    env["OPENBLAS_CORETYPE"] = "Prescott"  # a choice someone made is kept and not questioned
    chosen = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert chosen.stdout.split("\n")[:2] == ["Prescott", ""]
    assert "OPENBLAS_CORETYPE" not in chosen.stderr
