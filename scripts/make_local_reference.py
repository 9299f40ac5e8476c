#!/usr/bin/env python3
"""Writes tests/data/tenpy_local_reference.h5: TeNPy's own local observables of TeNPy states, the
peer reference `expect --site-op/--correlation` is tested against, and
tests/data/tenpy_xxz_L12_steps.h5: TeNPy's W^I and W^II steps of its XXZ chain, the reference of
`generate step` (run by hand; the outputs are committed).

    TENPY_NO_CYTHON=true PYTHONPATH=/path/to/tenpy python3 scripts/make_local_reference.py tests/data

It reads the states of make_interop_fixtures.py (tenpy_xxz_L12_sz.h5: SpinSite, basis (down,
up); tenpy_tfi_L10_quench.h5: SpinHalfSite, complex), and computes a new one: the ground state of
spinless fermions (TeNPy's FermionChain, J = 1, V = 0.5, μ = 0.1, N conserved, half filling),
saved as tenpy_fermions_L10.h5 with its Hamiltonian. Each reference is a dataset named
STATE/OP (⟨O_i⟩) or STATE/A,B (TeNPy's correlation_function: ⟨A_i B_j⟩ for all i, j, the
Jordan-Wigner strings its own).
"""
import sys

import h5py
import numpy as np

from tenpy.algorithms import dmrg
from tenpy.models.fermions_spinless import FermionChain
from tenpy.networks.mps import MPS
from tenpy.tools import hdf5_io


def main(out):
    f = FermionChain({"L": 10, "J": 1.0, "V": 0.5, "mu": 0.1, "bc_MPS": "finite", "conserve": "N"})
    psi_f = MPS.from_lat_product_state(f.lat, [["empty"], ["full"]])
    dmrg.run(psi_f, f, {"trunc_params": {"chi_max": 32, "svd_min": 1e-12}, "max_E_err": 1e-13, "mixer": True})
    hdf5_io.save({"psi": psi_f, "H_MPO": f.H_MPO, "E0": f.H_MPO.expectation_value(psi_f)},
                 f"{out}/tenpy_fermions_L10.h5")
    states = {
        "xxz": (hdf5_io.load(f"{out}/tenpy_xxz_L12_sz.h5")["psi"], ["Sz"], [("Sz", "Sz"), ("Sp", "Sm")]),
        "tfi": (hdf5_io.load(f"{out}/tenpy_tfi_L10_quench.h5")["psi"], ["Sx", "Sy", "Sz"], [("Sx", "Sx"), ("Sz", "Sy")]),
        "fermions": (psi_f, ["N"], [("Cd", "C"), ("N", "N"), ("C", "Cd")]),
    }
    h_xxz = hdf5_io.load(f"{out}/tenpy_xxz_L12_sz.h5")["H_MPO"]
    # ExpMPOEvolution's order 2: U1 = make_U(-(1 + 1j)/2 dt 1j) first, then U2 (dt = 0.1).
    hdf5_io.save({"U_II_real": h_xxz.make_U_II(-0.1j), "U_II_imag": h_xxz.make_U_II(-0.1),
                  "U_I_real": h_xxz.make_U_I(-0.1j),
                  "U_II_order2_first": h_xxz.make_U_II(-(1.0 + 1j) / 2.0 * 0.1 * 1j),
                  "U_II_order2_second": h_xxz.make_U_II(-(1.0 - 1j) / 2.0 * 0.1 * 1j)},
                 f"{out}/tenpy_xxz_L12_steps.h5")
    with h5py.File(f"{out}/tenpy_local_reference.h5", "w") as h:
        h.attrs["tenpy_version"] = __import__("tenpy").__version__
        for name, (psi, ops, pairs) in states.items():
            g = h.create_group(name)
            for op in ops:
                g[op] = np.asarray(psi.expectation_value(op))
            for a, b in pairs:
                g[f"{a},{b}"] = np.asarray(psi.correlation_function(a, b))


if __name__ == "__main__":
    main(sys.argv[1])
