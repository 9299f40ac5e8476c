#!/usr/bin/python3
"""Checks the report of examples/sweep_report.sh (scripts/sweep_report.py).

    check_report.py SRC_COMPRESS EXAMPLE_OUTPUT_DIR

Runs the example's report once more with one incomplete output added (a copy of a complete one
without /log@complete), then checks: every figure is a PNG that decodes, is 900 × 450 pixels
and is not blank; index.html shows every figure, lists the incomplete file as not plotted and
has a table row per complete run; runs.csv has every run with its mode, each true error equals
`src-compress distance RESULT REFERENCE` to 1e-12, each fixed-χ̄ run has the optimal error at its
χ̄ (the reference's `truncate`, measured by `distance`), no run beats it and the oversampled
runs come within 5% of it; with --format svg the figures are SVG files the page shows; sdc runs
added beside src's are a series of their own, named in the figures, with --format png,svg both
written and progress on stderr. Exit 77
(skipped) without python3-matplotlib.
"""
import csv
import glob
import json
import os
import shutil
import subprocess
import sys

try:
    import h5py
    import matplotlib.image
    import numpy as np
except ImportError as e:
    print(f"skipped: {e}")
    sys.exit(77)

binary, example = sys.argv[1], sys.argv[2]
root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
results = sorted(glob.glob(os.path.join(example, "results", "*", "*.h5")))
assert len(results) == 16, f"expected 16 outputs of the example, found {len(results)}"

# An incomplete output: a complete one without its completion flag.
broken = os.path.join(example, "incomplete.h5")
shutil.copy(results[0], broken)
with h5py.File(broken, "r+") as f:
    del f["log"].attrs["complete"]
report = os.path.join(example, "report-check")
reference = os.path.join(example, "exact.h5")
subprocess.run([sys.executable, os.path.join(root, "scripts", "sweep_report.py"), *results, broken,
                "-o", report, "--reference", reference, "--binary", binary], check=True)

failures = []
def check(ok, what):
    if not ok:
        failures.append(what)

figures = ["error.png", "cost.png", "bonds.png", "sites.png", "transfers.png"]
page = open(os.path.join(report, "index.html")).read()
for name in figures:
    path = os.path.join(report, name)
    check(os.path.exists(path), f"{name} missing")
    if not os.path.exists(path):
        continue
    with open(path, "rb") as f:
        check(f.read(8) == b"\x89PNG\r\n\x1a\n", f"{name} is not a PNG")
    pixels = matplotlib.image.imread(path)
    check(pixels.shape[:2] == (450, 900), f"{name} is {pixels.shape[1]}×{pixels.shape[0]} pixels, not 900×450")
    gray = pixels[..., :3].mean(axis=2)
    check(float(gray.std()) > 0.02, f"{name} looks blank (pixel std {gray.std():.4f})")
    # Not just axes: a good share of the pixels is neither white nor black (lines, bands, bars).
    colored = float((pixels[..., :3].std(axis=2) > 0.1).mean())
    check(colored > 0.002, f"{name} has almost no colored pixels ({colored:.4f})")
    check(f"src='{name}'" in page, f"index.html does not show {name}")
check("incomplete.h5" in page and "incomplete: no /log@complete" in page,
      "index.html does not list the incomplete output")

rows = list(csv.DictReader(open(os.path.join(report, "runs.csv"))))
optimal_of = {}
check(len(rows) == 17, f"runs.csv has {len(rows)} rows, expected 17")
modes = {}
for row in rows:
    if row["complete"] == "0":
        check(row["file"] == broken and row["true_error"] == "", "the incomplete output has a true error")
        continue
    modes[row["mode"]] = modes.get(row["mode"], 0) + 1
    check(row["file"] in page, f"{row['file']} is not in the table of index.html")
    out = subprocess.run([binary, "-q", "distance", row["file"], os.path.join(example, "exact.h5"),
                          "--json"], check=True, capture_output=True, text=True).stdout
    theirs = json.loads(out)["relative_distance"]
    ours = float(row["true_error"])
    check(abs(ours - theirs) <= 1e-12, f"{row['file']}: true error {ours:.15e} vs distance {theirs:.15e}")
    if row["mode"] == "tolerance":
        continue
    optimal = float(row["optimal_error"])
    check(ours >= optimal * (1 - 1e-9), f"{row['file']}: true error {ours:.3e} below the optimal {optimal:.3e}")
    if row["mode"] == "oversampled":
        check(ours <= 1.05 * optimal, f"{row['file']}: oversampled error {ours:.3e}, optimal {optimal:.3e}")
    optimal_of.setdefault(row["chi"], optimal)
check(modes == {"plain": 6, "oversampled": 6, "tolerance": 4}, f"modes in runs.csv: {modes}")
# The optimal error of one χ̄, computed here the same way.
chi = sorted(optimal_of)[0]
truncated = os.path.join(example, "optimal-check.h5")
subprocess.run([binary, "-q", "truncate", reference, "-o", truncated, "--chi", chi, "--force"], check=True)
out = subprocess.run([binary, "-q", "distance", truncated + ":/result", reference, "--json"], check=True,
                     capture_output=True, text=True).stdout
check(abs(json.loads(out)["relative_distance"] - optimal_of[chi]) <= 1e-12, f"the optimal error at χ̄ {chi}")
# Figures for a paper: --format svg.
svg = os.path.join(example, "report-svg")
subprocess.run([sys.executable, os.path.join(root, "scripts", "sweep_report.py"), *results, "-o", svg,
                "--format", "svg", "--binary", binary], check=True, capture_output=True)
svg_page = open(os.path.join(svg, "index.html")).read()
for name in figures:
    path = os.path.join(svg, name.replace(".png", ".svg"))
    check(os.path.exists(path) and b"<svg" in open(path, "rb").read(2000), f"{path} is not an SVG")
    check(f"src='{os.path.basename(path)}'" in svg_page, f"the svg page does not show {os.path.basename(path)}")

# Methods are never pooled: sdc runs beside src's at the same χ̄ are their own series, named in
# the figures (SVG is text); both formats at once; progress on stderr.
sdc_dir = os.path.join(example, "results-sdc")
os.makedirs(sdc_dir, exist_ok=True)
sdc = []
for chi in ("4", "8"):
    path = os.path.join(sdc_dir, f"sdc_{chi}.h5")
    subprocess.run([binary, "-q", "apply", os.path.join(example, "in.h5") + ":/H", os.path.join(example, "in.h5") + ":/psi",
                    "--method", "sdc", "--chi", chi, "-o", path, "--force"], check=True)
    sdc.append(path)
both = os.path.join(example, "report-methods")
p = subprocess.run([sys.executable, os.path.join(root, "scripts", "sweep_report.py"), *results, *sdc, "-o", both,
                    "--format", "png,svg", "--binary", binary], check=True, capture_output=True, text=True)
check("sweep_report: read 18/18" in p.stderr, f"no progress on stderr: {p.stderr!r}")
# (sdc has no error estimate: it is in the cost figure, not in the error figure's estimates.)
error_svg = open(os.path.join(both, "error.svg"), encoding="utf-8").read()
cost_svg = open(os.path.join(both, "cost.svg"), encoding="utf-8").read()
for series in ("src plain: estimate", "src oversampled: estimate"):
    check(series in error_svg, f"error.svg does not name the series {series!r}")
for series in ("<!-- sdc -->", "<!-- src plain -->", "<!-- src tolerance -->"):
    check(series in cost_svg, f"cost.svg does not name the series {series!r}")
check(os.path.exists(os.path.join(both, "error.png")), "png beside svg")
check("src='error.png'" in open(os.path.join(both, "index.html")).read(), "the page shows the first format")
sites_svg = open(os.path.join(both, "sites.svg"), encoding="utf-8").read()
check("χ̄=16" in sites_svg, "sites.svg labels its lines with χ̄")

if failures:
    print("\n".join("FAIL: " + f for f in failures))
    sys.exit(1)
print(f"report checked: {len(figures)} figures, {len(rows)} runs, true errors equal `distance` to 1e-12")
