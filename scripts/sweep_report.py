#!/usr/bin/python3
"""A report of a parameter sweep of src-compress runs: figures and a table in one folder.

    scripts/sweep_report.py RESULT.h5... -o DIR [--reference REF.h5[:/group]] [--title TEXT]
                            [--format png|svg|pdf] [--binary SRC_COMPRESS]

Reads each output through src-compress itself (`collect --json`: the run's mode, options and
summary; /log/sites with h5py) and, with --reference, measures each /result against it with
`src-compress distance`, and writes DIR/index.html with these figures (PNG unless --format):

  error.png      error estimate against χ̄ (fixed-bond runs) and against the tolerance
                 (tolerance runs), one line per series — the method and mode of the runs ("src
                 plain", "src oversampled", "sdc", "sdcr + fit"), never pooled — the median
                 over seeds with their range shaded; with --reference also the true relative
                 distance ‖result − reference‖ / ‖reference‖, and the optimal error: the
                 reference's SVD truncation to each χ̄ (`truncate`) measured the same way
  cost.png       wall time and peak memory against χ̄ (tolerance runs: their largest bond)
  bonds.png      the result's bond at each cut, one line per run
  sites.png      time per site and the estimated error at each cut along the chain, each run's
                 line labelled with its χ̄, sites far above the rest off scale (and counted)
  transfers.png  bytes moved per run, by mechanism (from /log/transfers)

Several formats at once with --format png,svg,pdf (the page shows the first). Progress goes to
stderr while outputs are read and measured. And DIR/runs.csv with one row per output (collect's columns and, with --reference, the true
error and the optimal error at the run's χ̄). Outputs without /log@complete = 1
are listed as incomplete and left out of every figure. The file format is docs/FORMAT.md.
Needs Debian's python3-h5py, python3-numpy and python3-matplotlib (scripts/setup.sh).
"""
import argparse
import csv
import html
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile

import h5py
import numpy as np

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

FIGSIZE = (9.0, 4.5)  # inches; with DPI, every figure is 900 × 450 pixels
DPI = 100
MODES = ("plain", "oversampled", "tolerance", "svd")
PALETTE = ["tab:red", "tab:blue", "tab:green", "tab:purple", "tab:orange", "tab:brown", "tab:pink",
           "tab:olive", "tab:cyan", "tab:gray"]
SERIES = []  # the runs' series (method and mode, series_of) in the order first drawn: their colours


def series_of(r):
    """What a run's numbers are comparable with: its method and mode ("src plain", "sdc",
    "src oversampled", "src tolerance", "sdcr + fit"), so that methods are never pooled."""
    method = r.get("method") or "src"
    mode = r["mode"]
    name = method if mode in ("plain", "svd") and method != "src" else f"{method} {mode}"
    if int(r.get("fit_sweeps") or 0) > 0:
        name += " + fit"
    return name


def color_of(r):
    key = series_of(r)
    if key not in SERIES:
        SERIES.append(key)
    return PALETTE[SERIES.index(key) % len(PALETTE)]


def progress(what, done, total):
    """A line on stderr while the report reads and measures (a sweep of hundreds of outputs takes
    minutes): every tenth of the way and at the end."""
    if total and (done == total or done % max(1, total // 10) == 0):
        print(f"sweep_report: {what} {done}/{total}", file=sys.stderr, flush=True)
COLLECT_COLUMNS = []  # collect's columns in its order, taken from its first row (read_run)
MECHANISMS = ["file read", "file write", "host copy", "device move"]


# --- Reading results, through src-compress itself ------------------------------------------

def default_binary():
    """$SRC_COMPRESS, else this checkout's build, else src-compress on the PATH."""
    if os.environ.get("SRC_COMPRESS"):
        return os.environ["SRC_COMPRESS"]
    here = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "build", "app", "src-compress")
    return here if os.access(here, os.X_OK) else (shutil.which("src-compress") or "src-compress")


def cli(binary, *args):
    """stdout of `src-compress -q ARGS…`; a failure ends the report naming the command."""
    p = subprocess.run([binary, "-q", *args], capture_output=True, text=True)
    if p.returncode != 0:
        raise SystemExit(f"src-compress {' '.join(args)}: exit {p.returncode}: {p.stderr.strip()}")
    return p.stdout


def distance(binary, a, b):
    """‖a − b‖ / ‖b‖ as `src-compress distance` computes it (exact, in log scale)."""
    return json.loads(cli(binary, "distance", a, b, "--json"))["relative_distance"]


def read_run(binary, path):
    """What the report shows of one output: `collect --json`'s row (mode, accuracy options,
    summary numbers, bytes moved) and /log/sites; a dict with 'problem' set when it is not a
    complete output of src-compress."""
    run = {"file": path, "complete": False}
    p = subprocess.run([binary, "-q", "collect", path, "--json"], capture_output=True, text=True)
    if p.returncode != 0:
        run["problem"] = f"unreadable: {p.stderr.strip()}"
        return run
    row = json.loads(p.stdout)[0]
    if not COLLECT_COLUMNS:
        COLLECT_COLUMNS.extend(row.keys())
    run.update(row)
    run["file"] = path
    if not run["complete"]:
        run["problem"] = "incomplete: no /log@complete = 1"
        return run
    try:
        with h5py.File(path, "r") as f:
            run["sites_table"] = f["log"]["sites"][()] if "sites" in f["log"] else None
    except (OSError, KeyError, ValueError) as e:
        run["problem"] = f"unreadable: {e}"
        run["complete"] = False
    return run


def optimal_errors(binary, reference, chis, scratch):
    """For each χ̄: the distance of the reference's SVD truncation to χ̄ (`truncate`) from the
    reference itself: the error no method of that bond does much better than."""
    out = {}
    for chi in sorted(chis):
        path = os.path.join(scratch, f"optimal_{chi}.h5")
        cli(binary, "truncate", reference, "-o", path, "--chi", str(chi), "--force")
        out[chi] = distance(binary, path + ":/result", reference)
    return out


# --- Figures --------------------------------------------------------------------------------

def new_figure(panels):
    fig, axes = plt.subplots(1, panels, figsize=FIGSIZE, dpi=DPI, squeeze=False)
    return fig, list(axes[0])


def save(fig, out, name):
    fig.tight_layout()
    fig.savefig(os.path.join(out, name), dpi=DPI)
    plt.close(fig)
    return name


def spread(ax, runs, x_of, y_of, color, label, style="-", marker="o"):
    """Median over seeds at each x, with the range of the seeds shaded."""
    by_x = {}
    for r in runs:
        y = y_of(r)
        if y is not None and y > 0:
            by_x.setdefault(x_of(r), []).append(y)
    if not by_x:
        return False
    xs = sorted(by_x)
    med = [float(np.median(by_x[x])) for x in xs]
    ax.plot(xs, med, style, marker=marker, color=color, label=label)
    if any(len(by_x[x]) > 1 for x in xs):
        ax.fill_between(xs, [min(by_x[x]) for x in xs], [max(by_x[x]) for x in xs],
                        color=color, alpha=0.2, linewidth=0)
    return True


def legend(ax, **kw):
    """A legend where the panel has labelled lines (none when there were no runs to draw)."""
    if ax.get_legend_handles_labels()[0]:
        ax.legend(**kw)


def decades(values):
    values = [v for v in values if v and v > 0]
    return len(values) > 1 and max(values) / min(values) >= 10


def error_figure(runs, out, fmt, has_reference, optimal):
    fixed = [r for r in runs if r["mode"] != "tolerance"]
    tolerance = [r for r in runs if r["mode"] == "tolerance"]
    panels = [p for p in (("χ̄", fixed), ("tolerance", tolerance)) if p[1]]
    fig, axes = new_figure(max(len(panels), 1))
    for ax, (xname, group) in zip(axes, panels):
        x_of = (lambda r: r["chi"]) if xname == "χ̄" else (lambda r: r["tol"])
        for name in series_in(group):
            mine = [r for r in group if series_of(r) == name]
            spread(ax, mine, x_of, lambda r: r.get("error_estimate"), color_of(mine[0]),
                   f"{name}: estimate")
            if has_reference:
                spread(ax, mine, x_of, lambda r: r.get("true_error"), color_of(mine[0]),
                       f"{name}: true error", style="--", marker="s")
        if xname == "χ̄" and optimal:
            chis = sorted(optimal)
            ax.plot(chis, [optimal[c] for c in chis], ":", marker="x", color="black",
                    label="optimal: SVD truncation of the reference")
        if xname == "tolerance":
            tols = sorted({r["tol"] for r in group})
            n = max(r.get("sites", 2) for r in group)
            ax.plot(tols, [t * math.sqrt(n - 1) for t in tols], ":", color="gray",
                    label="√(n−1)·tol")
            ax.set_xscale("log")
            ax.set_xlabel("tolerance --tol (relative, per cut)")
        else:
            ax.set_xlabel("χ̄ = --chi (bond dimension)")
            if decades([r["chi"] for r in group]):
                ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_ylabel("relative error ‖result − exact‖ / ‖exact‖")
        ax.grid(True, which="both", alpha=0.3)
        legend(ax, fontsize=7)
    if not panels:
        axes[0].text(0.5, 0.5, "no complete runs", ha="center", va="center")
    return save(fig, out, "error." + fmt)


def series_in(runs):
    """The series of `runs`, in the order of SERIES (their colours), new ones after."""
    names = []
    for r in runs:
        color_of(r)
        if series_of(r) not in names:
            names.append(series_of(r))
    return sorted(names, key=SERIES.index)


def cost_figure(runs, out, fmt):
    fig, (ax_t, ax_m) = new_figure(2)
    x_of = lambda r: r["chi"] if r["mode"] != "tolerance" else r.get("max_bond", 0)
    for name in series_in(runs):
        mine = [r for r in runs if series_of(r) == name]
        spread(ax_t, mine, x_of, lambda r: r.get("wall_seconds"), color_of(mine[0]), name)
        spread(ax_m, mine, x_of, lambda r: r.get("peak_rss_bytes", 0) / 1e6, color_of(mine[0]), name)
    for ax, label, values in ((ax_t, "wall time (s)", [r.get("wall_seconds") for r in runs]),
                              (ax_m, "peak resident memory (MB)",
                               [r.get("peak_rss_bytes", 0) / 1e6 for r in runs])):
        ax.set_xlabel("χ̄ (tolerance runs: their largest bond)")
        ax.set_ylabel(label)
        if decades(values):
            ax.set_yscale("log")
        ax.grid(True, alpha=0.3)
        legend(ax, fontsize=7)
    return save(fig, out, "cost." + fmt)


def series_legend(ax, runs, **kw):
    """One legend entry per series drawn (for panels with too many runs to name each)."""
    from matplotlib.lines import Line2D
    names = series_in(runs)
    if names:
        ax.legend([Line2D([], [], color=PALETTE[SERIES.index(n) % len(PALETTE)]) for n in names], names, **kw)


def label(r):
    what = f"tol {r['tol']:g}" if r["mode"] == "tolerance" else f"χ̄ {r['chi']}"
    return f"{series_of(r)} {what} seed {r['seed']}"


def chi_label(ax, x, y, r, color):
    """The run's χ̄ (or tolerance) written at the end of its line."""
    text = f"tol {r['tol']:g}" if r["mode"] == "tolerance" else f"χ̄={r['chi']}"
    ax.annotate(text, (x, y), xytext=(3, 0), textcoords="offset points", fontsize=6, color=color, va="center")


def bonds_figure(runs, out, fmt):
    fig, (ax,) = new_figure(1)
    for r in runs:
        bonds = r.get("bonds", [])
        ax.plot(range(1, len(bonds) + 1), bonds, drawstyle="steps-mid", color=color_of(r),
                alpha=0.8, label=label(r))
    ax.set_xlabel("cut (between sites j−1 and j)")
    ax.set_ylabel("bond dimension of the result")
    ax.grid(True, alpha=0.3)
    if len(runs) <= 12:
        legend(ax, fontsize=6, ncol=2)
    else:
        series_legend(ax, runs, fontsize=7)
    return save(fig, out, "bonds." + fmt)


def sites_figure(runs, out, fmt):
    fig, (ax_t, ax_e) = new_figure(2)
    errors, times = [], []
    for r in runs:
        table = r.get("sites_table")
        if table is None or len(table) == 0:
            continue
        ms = np.asarray(table["seconds"], dtype=float) * 1e3
        ax_t.plot(table["site"], ms, color=color_of(r), alpha=0.7, label=label(r))
        chi_label(ax_t, table["site"][-1], ms[-1], r, color_of(r))
        times.extend(ms)
        est = np.asarray(table["error_estimate"], dtype=float)
        keep = np.isfinite(est) & (est > 0)
        if keep.any():
            ax_e.plot(np.asarray(table["site"])[keep], est[keep], ".", color=color_of(r),
                      alpha=0.7, label=label(r))
            chi_label(ax_e, np.asarray(table["site"])[keep][-1], est[keep][-1], r, color_of(r))
            errors.extend(est[keep])
    # One slow site (a page-fault storm, a first touch) must not flatten every other line: the
    # axis stops above the 98th percentile and says what lies beyond it.
    if len(times) > 20:
        top = float(np.percentile(times, 98)) * 1.5
        beyond = [t for t in times if t > top]
        if beyond and top > 0:
            ax_t.set_ylim(0, top)
            ax_t.set_title(f"{len(beyond)} site(s) off scale, up to {max(beyond):.3g} ms", fontsize=7, color="gray")
    ax_t.set_xlabel("site")
    ax_t.set_ylabel("time per site, both sweeps (ms)")
    ax_e.set_xlabel("site (the cut left of it)")
    ax_e.set_ylabel("estimated relative error at the cut")
    if errors:
        ax_e.set_yscale("log")
    for ax in (ax_t, ax_e):
        ax.grid(True, alpha=0.3)
    for ax in (ax_t, ax_e):
        if len(runs) <= 8:
            legend(ax, fontsize=6)
        else:
            series_legend(ax, runs, fontsize=7)
    return save(fig, out, "sites." + fmt)


def transfers_figure(runs, out, fmt):
    fig, (ax,) = new_figure(1)
    bottom = np.zeros(len(runs))
    for i, mech in enumerate(MECHANISMS):
        mb = np.array([r.get("bytes_" + mech.replace(" ", "_"), 0) / 1e6 for r in runs])
        if mb.any():
            ax.bar(range(len(runs)), mb, bottom=bottom, label=mech, color=f"C{i}")
            bottom += mb
    ax.set_xticks(range(len(runs)))
    ax.set_xticklabels([label(r) for r in runs], rotation=60, ha="right", fontsize=6)
    ax.set_ylabel("data moved (MB)")
    ax.grid(True, axis="y", alpha=0.3)
    legend(ax, fontsize=7)
    return save(fig, out, "transfers." + fmt)


# --- Table and page -------------------------------------------------------------------------

def row_of(r, has_reference):
    row = {c: r.get(c, "") for c in COLLECT_COLUMNS or ["file", "complete", "bonds"]}
    row["file"] = r["file"]
    row["complete"] = int(bool(r["complete"]))
    row["bonds"] = " ".join(str(b) for b in r.get("bonds", []))
    if has_reference:
        row["true_error"] = "%.17e" % r["true_error"] if "true_error" in r else ""
        row["optimal_error"] = "%.17e" % r["optimal_error"] if "optimal_error" in r else ""
    return row


def write_page(out, title, figures, runs, problems, has_reference, reference):
    # Without one readable output, the columns every row has.
    columns = (COLLECT_COLUMNS or ["file", "complete", "bonds"]) + (["true_error", "optimal_error"] if has_reference else [])
    rows = [row_of(r, has_reference) for r in runs] + [row_of(r, has_reference) for r in problems]
    with open(os.path.join(out, "runs.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=columns)
        w.writeheader()
        w.writerows(rows)
    captions = {
        "error": "Error estimate (solid) against χ̄ and the tolerance, median over seeds "
                 "with their range shaded" + ("; dashed: the true relative distance to the "
                                              "reference; dotted: the reference's SVD truncation "
                                              "to χ̄, the optimal error at that bond" if has_reference else ""),
        "cost": "Wall time and peak resident memory of each run",
        "bonds": "The result's bond dimension at each cut",
        "sites": "Time per site and the estimated error at each cut along the chain",
        "transfers": "Bytes moved, by mechanism (/log/transfers)",
    }
    esc = html.escape
    parts = [f"<!DOCTYPE html>\n<html><head><meta charset='utf-8'><title>{esc(title)}</title>",
             "<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse;"
             "font-size:80%}td,th{border:1px solid #ccc;padding:2px 6px}</style></head><body>",
             f"<h1>{esc(title)}</h1>",
             f"<p>{len(runs)} complete run(s), {len(problems)} not plotted.",
             f" Reference for the true error: {esc(reference)}." if has_reference else "", "</p>"]
    for name in figures:
        base = name.rsplit(".", 1)[0]
        shown = (f"<embed src='{name}' type='application/pdf' width='900' height='450'>" if name.endswith(".pdf")
                 else f"<img src='{name}' alt='{name}' width='900'>")
        parts.append(f"<figure>{shown}<figcaption>{esc(captions[base])}</figcaption></figure>")
    parts.append("<h2>Runs</h2><table><tr>" + "".join(f"<th>{esc(c)}</th>" for c in columns) + "</tr>")
    for row in rows:
        parts.append("<tr>" + "".join(f"<td>{esc(str(row.get(c, '')))}</td>" for c in columns) + "</tr>")
    parts.append("</table>")
    if problems:
        parts.append("<h2>Not plotted</h2><ul>")
        for r in problems:
            parts.append(f"<li>{esc(r['file'])}: {esc(r['problem'])}</li>")
        parts.append("</ul>")
    parts.append("<p>runs.csv holds the table above.</p></body></html>\n")
    with open(os.path.join(out, "index.html"), "w") as f:
        f.write("\n".join(parts))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("results", nargs="+", help="output files of src-compress apply/compress/truncate/evolve")
    ap.add_argument("-o", "--out", required=True, help="folder for index.html, runs.csv and the figures")
    ap.add_argument("--reference", help="FILE.h5[:/group]: the train to measure true errors against")
    ap.add_argument("--title", default="src-compress sweep report")
    ap.add_argument("--format", default="png",
                    help="figure formats, comma-separated: png (the page shows the first), svg, pdf "
                         "(for a paper); default png")
    ap.add_argument("--binary", default=default_binary(),
                    help="the src-compress program that reads the outputs and computes distances "
                         "(default: $SRC_COMPRESS, this checkout's build, or the PATH's)")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    formats = args.format.split(",")
    if not formats or any(f not in ("png", "svg", "pdf") for f in formats):
        ap.error(f"--format {args.format}: give png, svg or pdf, comma-separated")
    runs, problems = [], []
    for k, path in enumerate(args.results, 1):
        r = read_run(args.binary, path)
        (runs if r["complete"] else problems).append(r)
        progress("read", k, len(args.results))
    optimal = {}
    if args.reference:
        for k, r in enumerate(runs, 1):
            r["true_error"] = distance(args.binary, r["file"] + ":/result", args.reference)
            progress("true errors", k, len(runs))
        fixed = {int(r["chi"]) for r in runs if r["mode"] != "tolerance" and r["chi"]}
        with tempfile.TemporaryDirectory() as scratch:
            optimal = optimal_errors(args.binary, args.reference, fixed, scratch)
        for r in runs:
            if r["mode"] != "tolerance" and int(r["chi"]) in optimal:
                r["optimal_error"] = optimal[int(r["chi"])]
    runs.sort(key=lambda r: (MODES.index(r["mode"]), series_of(r), r["chi"], r["tol"], str(r["seed"])))
    for fmt in reversed(formats):  # the first format last: the page shows its files
        figures = [error_figure(runs, args.out, fmt, args.reference is not None, optimal),
                   cost_figure(runs, args.out, fmt), bonds_figure(runs, args.out, fmt),
                   sites_figure(runs, args.out, fmt), transfers_figure(runs, args.out, fmt)]
    write_page(args.out, args.title, figures, runs, problems, args.reference is not None,
               args.reference or "")
    print(f"wrote {os.path.join(args.out, 'index.html')}: {len(runs)} runs, "
          f"{len(problems)} not plotted, {len(figures)} figures")
    return 0


if __name__ == "__main__":
    sys.exit(main())
