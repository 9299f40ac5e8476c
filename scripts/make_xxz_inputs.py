#!/usr/bin/env python3
"""Writes the inputs of the U(1) benchmarks with TeNPy itself (run by hand, not by the tests).

    TENPY_NO_CYTHON=true PYTHONPATH=/path/to/tenpy python3 scripts/make_xxz_inputs.py L CHI OUT.h5

OUT.h5 holds, as TeNPy's hdf5_io.save writes them: `psi`, a DMRG ground state of the
spin-1/2 XXZ chain (Jx = Jy = Jz = 1, charge 2·Sz conserved, bond at most CHI); `H_MPO`, its
Hamiltonian; `U_II`, TeNPy's W^II step e^{-i dt H} for dt = 0.05; and `E0`, the DMRG energy.
"""
import sys
import time

from tenpy.algorithms import dmrg
from tenpy.models.spins import SpinChain
from tenpy.networks.mps import MPS
from tenpy.tools import hdf5_io


def main():
    length, chi, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    model = SpinChain({"L": length, "S": 0.5, "Jx": 1.0, "Jy": 1.0, "Jz": 1.0, "bc_MPS": "finite",
                       "conserve": "Sz"})
    psi = MPS.from_lat_product_state(model.lat, [["up"], ["down"]])
    t0 = time.time()
    info = dmrg.run(psi, model, {"trunc_params": {"chi_max": chi, "svd_min": 1e-10},
                                 "max_sweeps": 4, "min_sweeps": 2, "mixer": True})
    u2 = model.H_MPO.make_U(-0.05j, approximation="II")  # ≈ e^{H·dt}: dt = -i·0.05
    print(f"E0 {info['E']:.12f}  bond {max(psi.chi)}  DMRG {time.time() - t0:.1f} s")
    hdf5_io.save({"psi": psi, "H_MPO": model.H_MPO, "U_II": u2, "E0": info["E"]}, out)


if __name__ == "__main__":
    main()
