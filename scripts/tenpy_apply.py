#!/usr/bin/env python3
"""TeNPy's own MPO·MPS products, timed, for scripts/bench_symmetric.sh (run by hand).

    TENPY_NO_CYTHON=true PYTHONPATH=/path/to/tenpy python3 scripts/tenpy_apply.py IN.h5 OP METHOD CHI OUT.h5 [TOL]

Reads IN.h5 (scripts/make_xxz_inputs.py: psi, H_MPO, U_II), applies the MPO named OP to psi with
MPO.apply(compression_method=METHOD: SVD, zip_up or variational, chi_max=CHI, svd_min=1e-30: no cut but χ̄;
with TOL also trunc_cut=TOL: at each bond the fewest Schmidt values whose discarded weight is at
most TOL relative, as src-compress's --tol keeps them) and writes the result to OUT.h5 as `psi` (hdf5_io.save), so that src-compress's `distance` measures
its error. Prints one JSON line: the seconds of the apply alone and the process's peak memory.
"""
import json
import resource
import sys
import time

import h5py
from tenpy.tools import hdf5_io


def main():
    src, op, method, chi, out = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
    tol = float(sys.argv[6]) if len(sys.argv) > 6 else None
    with h5py.File(src, "r") as f:
        psi = hdf5_io.load_from_hdf5(f, "/psi")
        mpo = hdf5_io.load_from_hdf5(f, "/" + op)
    options = {"compression_method": method, "trunc_params": {"chi_max": chi, "svd_min": 1e-30}}
    if tol is not None:
        options["trunc_params"]["trunc_cut"] = tol
    if method == "variational":
        options["max_sweeps"] = 2
    t0 = time.perf_counter()
    mpo.apply(psi, options)
    seconds = time.perf_counter() - t0
    hdf5_io.save({"psi": psi}, out)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    print(json.dumps({"seconds": seconds, "peak_rss_bytes": peak, "max_bond": max(psi.chi)}))


if __name__ == "__main__":
    main()
