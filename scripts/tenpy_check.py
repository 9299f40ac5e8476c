#!/usr/bin/env python3
"""Checks that TeNPy itself reads what src-compress writes back in its layout (run by hand).

    TENPY_NO_CYTHON=true PYTHONPATH=/path/to/tenpy python3 scripts/tenpy_check.py build/app/src-compress

For each case, src-compress compresses or multiplies a train of a file TeNPy wrote
(tests/data/tenpy_*.h5) and writes the result back as TeNPy (the default for a TeNPy state).
TeNPy's own hdf5_io.load then reads it; test_sanity() and norm_test() run on the state; its
energy is computed by TeNPy with the user's own MPO (charged where the model conserves
charges); and a DMRG restarted from a written-back state on a freshly built charged model must
reach the ground-state energy. Prints one line per case and exits 1 if any check fails.
"""
import os
import subprocess
import sys
import tempfile

import h5py
import numpy as np

from tenpy.algorithms import dmrg
from tenpy.models.spins import SpinChain
from tenpy.tools import hdf5_io

here = os.path.dirname(os.path.abspath(__file__))
data = os.path.join(here, "..", "tests", "data")


def run(binary, args):
    subprocess.run([binary] + args + ["-q"], check=True, stdout=subprocess.DEVNULL)


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "build", "app", "src-compress")
    failed = 0
    out = tempfile.mkdtemp()
    cases = [
        # (name, src-compress arguments, file with H_MPO and E0 or E, tolerance on the energy)
        ("TFI L=16, compress to chi 8", ["compress", f"{data}/tenpy_tfi_L16_mps.h5:/psi", "--chi", "8"],
         f"{data}/tenpy_tfi_L16_parity.h5", 1e-6),
        ("TFI L=16 parity, compress to chi 8", ["compress", f"{data}/tenpy_tfi_L16_parity.h5:/psi", "--chi", "8"],
         f"{data}/tenpy_tfi_L16_parity.h5", 1e-6),
        ("XXZ L=12 Sz, compress to chi 8", ["compress", f"{data}/tenpy_xxz_L12_sz.h5:/psi", "--chi", "8"],
         f"{data}/tenpy_xxz_L12_sz.h5", 1e-2),
        ("XXZ L=12 Sz, H psi at chi 64", ["apply", f"{data}/tenpy_xxz_L12_sz.h5:/H_MPO",
                                          f"{data}/tenpy_xxz_L12_sz.h5:/psi", "--chi", "64"],
         f"{data}/tenpy_xxz_L12_sz.h5", 1e-10),
        ("TFI L=10 quench (complex), compress to chi 12",
         ["compress", f"{data}/tenpy_tfi_L10_quench.h5:/psi", "--chi", "12", "--oversample"],
         f"{data}/tenpy_tfi_L10_quench.h5", 1e-3),
    ]
    for k, (name, args, model, tol) in enumerate(cases):
        path = os.path.join(out, f"case{k}.h5")
        run(binary, args + ["-o", path, "--seed", "7"])
        loaded = hdf5_io.load(path)
        psi = loaded["psi"]
        psi.test_sanity()
        norm_err = float(np.max(np.abs(psi.norm_test())))
        ref = hdf5_io.load(model)
        H = ref["H_MPO"]
        if "parity" in model and "parity" not in args[1]:  # the plain state, TeNPy's plain MPO
            with h5py.File(f"{data}/tenpy_tfi_L16_mpo.h5", "r") as f:  # save_to_hdf5(f, H, "H_MPO")
                H = hdf5_io.load_from_hdf5(f, "H_MPO")
        e = H.expectation_value(psi)
        e0 = ref["E0"] if "E0" in ref else ref["E"]
        ok = abs(e - e0) <= tol * abs(e0) and norm_err < 1e-5
        failed += not ok
        print(f"{'ok  ' if ok else 'FAIL'} {name}: hdf5_io.load + test_sanity passed, norm_test {norm_err:.1e}, "
              f"chi {max(psi.chi)}, E = {e:.12f} (file: {e0:.12f}, |dE| {abs(e - e0):.1e})")
    # An evolution of our own (a W^II step generated from TeNPy's MPO), its result written back on
    # the ground state as template: TeNPy reads it and its energy is ours (the step conserves it
    # only to O(dt²): compared with our own expect, not E0).
    xxz = f"{data}/tenpy_xxz_L12_sz.h5"
    run(binary, ["generate", "step", "--from", f"{xxz}:/H_MPO", "--dt", "0.02", "-o", os.path.join(out, "u.h5")])
    run(binary, ["evolve", os.path.join(out, "u.h5"), f"{xxz}:/psi", "--steps", "5", "--dt", "0.02", "--chi", "32",
                 "--seed", "1", "-o", os.path.join(out, "ev.h5")])
    run(binary, ["compress", os.path.join(out, "ev.h5") + ":/result", "--chi", "32", "--template", f"{xxz}:/psi",
                 "-o", os.path.join(out, "back.h5"), "--seed", "1"])
    ours = subprocess.run([binary, "expect", os.path.join(out, "ev.h5") + ":/result", f"{xxz}:/H_MPO", "--json"],
                          check=True, capture_output=True, text=True).stdout
    e_ours = float(ours.split('"re": ')[1].split(",")[0])
    back = hdf5_io.load(os.path.join(out, "back.h5"))["psi"]
    back.test_sanity()
    e_back = hdf5_io.load(xxz)["H_MPO"].expectation_value(back)  # of the normalised state, as ours
    ok = abs(e_back - e_ours) < 1e-10
    failed += not ok
    print(f"{'ok  ' if ok else 'FAIL'} evolve result written back on the TeNPy template (--template): "
          f"TeNPy's energy {e_back:.12f}, ours {e_ours:.12f}")
    # A DMRG started from the chi-8 write-back of the charged state, with a freshly built model.
    psi = hdf5_io.load(os.path.join(out, "case2.h5"))["psi"]
    model = SpinChain({"L": 12, "S": 0.5, "Jx": 1.0, "Jy": 1.0, "Jz": 0.7, "hz": 0.1, "bc_MPS": "finite",
                       "conserve": "Sz"})
    info = dmrg.run(psi, model, {"trunc_params": {"chi_max": 32, "svd_min": 1e-12}, "max_E_err": 1e-12,
                                 "mixer": None})
    e0 = hdf5_io.load(f"{data}/tenpy_xxz_L12_sz.h5")["E0"]
    ok = abs(info["E"] - e0) < 1e-9
    failed += not ok
    print(f"{'ok  ' if ok else 'FAIL'} DMRG restarted from the chi-8 write-back (charged model built anew): "
          f"E = {info['E']:.12f}, E0 = {e0:.12f}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
