#!/usr/bin/python3
"""A report of a parameter sweep of src-compress runs: figures and a table in one folder.

    scripts/sweep_report.py RESULT.h5... -o DIR [--reference REF.h5[:/group]] [--title TEXT]

Reads each output's /log (the run's options, its summary, /log/sites, /log/transfers) and, with
--reference, its /result, and writes DIR/index.html with these figures (PNG):

  error.png      error estimate against χ̄ (fixed-bond runs) and against the tolerance
                 (tolerance runs), one line per mode (plain, oversampled, tolerance), the median
                 over seeds with their range shaded; with --reference also the true relative
                 distance ‖result − reference‖ / ‖reference‖, computed here from the two trains
  cost.png       wall time and peak memory against χ̄ (tolerance runs: their largest bond)
  bonds.png      the result's bond at each cut, one line per run
  sites.png      time per site and the estimated error at each cut along the chain
  transfers.png  bytes moved per run, by mechanism (from /log/transfers)

and DIR/runs.csv with one row per output (collect's columns, then mode, χ̄, tolerance,
oversampling factor and, with --reference, the true error). Outputs without /log@complete = 1
are listed as incomplete and left out of every figure. The file format is docs/FORMAT.md.
Needs Debian's python3-h5py, python3-numpy and python3-matplotlib (scripts/setup.sh).
"""
import argparse
import csv
import html
import json
import math
import os
import sys

import h5py
import numpy as np

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

FIGSIZE = (9.0, 4.5)  # inches; with DPI, every figure is 900 × 450 pixels
DPI = 100
MODES = ("plain", "oversampled", "tolerance")
COLORS = {"plain": "tab:red", "oversampled": "tab:blue", "tolerance": "tab:green"}
COLLECT_COLUMNS = ["file", "complete", "result", "sites", "max_bond", "bonds", "error_estimate",
                   "wall_seconds", "seed", "threads", "bytes_file_read", "bytes_file_write",
                   "bytes_host_copy", "bytes_device_move", "command_line"]
MECHANISMS = ["file read", "file write", "host copy", "device move", "shared host buffer"]


# --- Reading trains and results -----------------------------------------------------------

def as_complex(data):
    """A dataset's values as a numpy array; complex compounds {r, i} or {real, imag} joined."""
    if data.dtype.names:
        names = data.dtype.names
        re, im = ("r", "i") if "r" in names else ("real", "imag")
        return data[re] + 1j * data[im]
    return data


def split_ref(text):
    """FILE.h5[:/group] → (file, group or None), the group starting at the last ':/'."""
    pos = text.rfind(":/")
    return (text, None) if pos < 0 else (text[:pos], text[pos + 1:])


def find_train(f, group):
    """The train group: the one named, /result, or the file's only train."""
    if group:
        return f[group]
    if "result" in f:
        return f["result"]
    trains = []
    f.visititems(lambda name, obj: trains.append(obj) if isinstance(obj, h5py.Group)
                 and "type" in obj.attrs else None)
    if len(trains) != 1:
        raise SystemExit(f"{f.filename}: holds {len(trains)} trains; name one as FILE.h5:/group")
    return trains[0]


def load_train(path, group=None):
    """Cores as arrays (l, r, p), p = u·d for an MPO, boundary bonds restored (docs/FORMAT.md)."""
    with h5py.File(path, "r") as f:
        g = find_train(f, group)
        kind = g.attrs["type"]
        kind = kind.decode() if isinstance(kind, bytes) else str(kind)
        layout = g.attrs.get("layout", "lrp" if kind == "MPS" else "lrud")
        layout = layout.decode() if isinstance(layout, bytes) else str(layout)
        n = len([k for k in g.keys() if k.isdigit()])
        cores = []
        for j in range(n):
            a = np.asarray(as_complex(g[str(j)][()]), dtype=np.complex128)
            letters = layout
            if a.ndim == len(layout) - 1:  # a boundary site without its outer bond
                letters = layout.replace("l" if j == 0 else "r", "")
            order = [letters.index(c) for c in ("l", "r") if c in letters]
            phys = [letters.index(c) for c in ("p", "u", "d") if c in letters]
            a = np.transpose(a, order + phys)
            if "l" not in letters:
                a = a[np.newaxis]
            if "r" not in letters:
                a = a[:, np.newaxis]
            cores.append(a.reshape(a.shape[0], a.shape[1], -1))
    return cores


def log_norm(cores):
    """log ‖train‖ by a right-to-left QR sweep, the carried factor kept at unit norm."""
    cores = [c.copy() for c in cores]
    log_scale = 0.0
    for j in range(len(cores) - 1, 0, -1):
        l, r, p = cores[j].shape
        q, rr = np.linalg.qr(cores[j].reshape(l, r * p).conj().T)  # M = rrᴴ qᴴ
        left = rr.conj().T
        cores[j] = q.conj().T.reshape(-1, r, p)
        prev = np.einsum("arp,rk->akp", cores[j - 1], left)
        scale = np.linalg.norm(prev)
        if scale > 0:
            prev /= scale
            log_scale += math.log(scale)
        cores[j - 1] = prev
    norm0 = np.linalg.norm(cores[0])
    return math.log(norm0) + log_scale if norm0 > 0 else -math.inf


def relative_distance(a, b):
    """‖a − b‖ / ‖b‖ from the difference as one train of summed bonds (exact to rounding)."""
    if len(a) != len(b):
        raise SystemExit(f"the reference has {len(b)} sites, a result {len(a)}")
    n = len(a)
    diff = []
    for j, (x, y) in enumerate(zip(a, b)):
        if x.shape[2] != y.shape[2]:
            raise SystemExit(f"site {j}: physical legs differ from the reference's")
        if j == 0:
            diff.append(np.concatenate([x, -y], axis=1))
        elif j == n - 1:
            diff.append(np.concatenate([x, y], axis=0))
        else:
            c = np.zeros((x.shape[0] + y.shape[0], x.shape[1] + y.shape[1], x.shape[2]), complex)
            c[:x.shape[0], :x.shape[1]] = x
            c[x.shape[0]:, x.shape[1]:] = y
            diff.append(c)
    return math.exp(log_norm(diff) - log_norm(b))


def attr_text(group, name, default=""):
    value = group.attrs.get(name, default)
    return value.decode() if isinstance(value, bytes) else str(value)


def read_run(path):
    """Everything the report shows of one output, or a dict with 'problem' set."""
    run = {"file": path, "complete": False}
    try:
        with h5py.File(path, "r") as f:
            log = f["log"] if "log" in f else None
            if log is None or int(log.attrs.get("complete", 0)) != 1:
                run["problem"] = "incomplete: no /log@complete = 1"
                return run
            run["complete"] = True
            run["summary"] = json.loads(attr_text(log, "summary", "{}"))
            run["plan"] = json.loads(attr_text(log, "plan", "{}"))
            run["command_line"] = attr_text(log, "command_line")
            run["sites_table"] = log["sites"][()] if "sites" in log else None
            moved = {}
            if "transfers" in log:
                table = log["transfers"][()]
                for mech, count in zip(table["mechanism"], table["bytes"]):
                    mech = mech.decode() if isinstance(mech, bytes) else str(mech)
                    moved[mech] = moved.get(mech, 0) + int(count)
            run["moved"] = moved
    except (OSError, KeyError, ValueError) as e:
        run["problem"] = f"unreadable: {e}"
        return run
    plan, summary = run["plan"], run["summary"]
    if plan.get("tol", 0) > 0:
        run["mode"] = "tolerance"
    elif plan.get("oversample", 0) > 0:
        run["mode"] = "oversampled"
    else:
        run["mode"] = "plain"
    run["chi"] = int(plan.get("chi", 0))
    run["tol"] = float(plan.get("tol", 0))
    run["oversample"] = float(plan.get("oversample", 0))
    run["seed"] = summary.get("seed", plan.get("seed", 0))
    return run


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


def error_figure(runs, out, has_reference):
    fixed = [r for r in runs if r["mode"] != "tolerance"]
    tolerance = [r for r in runs if r["mode"] == "tolerance"]
    panels = [p for p in (("χ̄", fixed), ("tolerance", tolerance)) if p[1]]
    fig, axes = new_figure(max(len(panels), 1))
    for ax, (xname, group) in zip(axes, panels):
        x_of = (lambda r: r["chi"]) if xname == "χ̄" else (lambda r: r["tol"])
        for mode in MODES:
            mine = [r for r in group if r["mode"] == mode]
            spread(ax, mine, x_of, lambda r: r["summary"].get("error_estimate"), COLORS[mode],
                   f"{mode}: estimate")
            if has_reference:
                spread(ax, mine, x_of, lambda r: r.get("true_error"), COLORS[mode],
                       f"{mode}: true error", style="--", marker="s")
        if xname == "tolerance":
            tols = sorted({r["tol"] for r in group})
            n = max(r["summary"].get("sites", 2) for r in group)
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
    return save(fig, out, "error.png")


def cost_figure(runs, out):
    fig, (ax_t, ax_m) = new_figure(2)
    x_of = lambda r: r["chi"] if r["mode"] != "tolerance" else r["summary"].get("max_bond", 0)
    for mode in MODES:
        mine = [r for r in runs if r["mode"] == mode]
        spread(ax_t, mine, x_of, lambda r: r["summary"].get("wall_seconds"), COLORS[mode], mode)
        spread(ax_m, mine, x_of, lambda r: r["summary"].get("peak_rss_bytes", 0) / 1e6,
               COLORS[mode], mode)
    for ax, label, values in ((ax_t, "wall time (s)", [r["summary"].get("wall_seconds") for r in runs]),
                              (ax_m, "peak resident memory (MB)",
                               [r["summary"].get("peak_rss_bytes", 0) / 1e6 for r in runs])):
        ax.set_xlabel("χ̄ (tolerance runs: their largest bond)")
        ax.set_ylabel(label)
        if decades(values):
            ax.set_yscale("log")
        ax.grid(True, alpha=0.3)
        legend(ax, fontsize=7)
    return save(fig, out, "cost.png")


def label(r):
    what = f"tol {r['tol']:g}" if r["mode"] == "tolerance" else f"χ̄ {r['chi']}"
    return f"{r['mode']} {what} seed {r['seed']}"


def bonds_figure(runs, out):
    fig, (ax,) = new_figure(1)
    for r in runs:
        bonds = r["summary"].get("bonds", [])
        ax.plot(range(1, len(bonds) + 1), bonds, drawstyle="steps-mid", color=COLORS[r["mode"]],
                alpha=0.8, label=label(r))
    ax.set_xlabel("cut (between sites j−1 and j)")
    ax.set_ylabel("bond dimension of the result")
    ax.grid(True, alpha=0.3)
    if len(runs) <= 12:
        legend(ax, fontsize=6, ncol=2)
    return save(fig, out, "bonds.png")


def sites_figure(runs, out):
    fig, (ax_t, ax_e) = new_figure(2)
    errors = []
    for r in runs:
        table = r.get("sites_table")
        if table is None or len(table) == 0:
            continue
        ax_t.plot(table["site"], table["seconds"] * 1e3, color=COLORS[r["mode"]], alpha=0.7,
                  label=label(r))
        est = np.asarray(table["error_estimate"], dtype=float)
        keep = np.isfinite(est) & (est > 0)
        if keep.any():
            ax_e.plot(np.asarray(table["site"])[keep], est[keep], ".", color=COLORS[r["mode"]],
                      alpha=0.7, label=label(r))
            errors.extend(est[keep])
    ax_t.set_xlabel("site")
    ax_t.set_ylabel("time per site, both sweeps (ms)")
    ax_e.set_xlabel("site (the cut left of it)")
    ax_e.set_ylabel("estimated relative error at the cut")
    if errors:
        ax_e.set_yscale("log")
    for ax in (ax_t, ax_e):
        ax.grid(True, alpha=0.3)
    if len(runs) <= 8:
        legend(ax_t, fontsize=6)
    return save(fig, out, "sites.png")


def transfers_figure(runs, out):
    fig, (ax,) = new_figure(1)
    bottom = np.zeros(len(runs))
    for i, mech in enumerate(MECHANISMS):
        mb = np.array([r["moved"].get(mech, 0) / 1e6 for r in runs])
        if mb.any():
            ax.bar(range(len(runs)), mb, bottom=bottom, label=mech, color=f"C{i}")
            bottom += mb
    ax.set_xticks(range(len(runs)))
    ax.set_xticklabels([label(r) for r in runs], rotation=60, ha="right", fontsize=6)
    ax.set_ylabel("data moved (MB)")
    ax.grid(True, axis="y", alpha=0.3)
    legend(ax, fontsize=7)
    return save(fig, out, "transfers.png")


# --- Table and page -------------------------------------------------------------------------

def row_of(r, has_reference):
    s = r.get("summary", {})
    moved = r.get("moved", {})
    row = {
        "file": r["file"], "complete": int(r["complete"]), "result": s.get("result", ""),
        "sites": s.get("sites", ""), "max_bond": s.get("max_bond", ""),
        "bonds": " ".join(str(b) for b in s.get("bonds", [])),
        "error_estimate": "%.6e" % s["error_estimate"] if "error_estimate" in s else "",
        "wall_seconds": "%.6f" % s["wall_seconds"] if "wall_seconds" in s else "",
        "seed": s.get("seed", ""), "threads": s.get("threads", ""),
        "bytes_file_read": moved.get("file read", 0), "bytes_file_write": moved.get("file write", 0),
        "bytes_host_copy": moved.get("host copy", 0), "bytes_device_move": moved.get("device move", 0),
        "command_line": r.get("command_line", ""), "mode": r.get("mode", ""),
        "chi": r.get("chi", ""), "tol": r.get("tol", ""), "oversample": r.get("oversample", ""),
    }
    if has_reference:
        row["true_error"] = "%.17e" % r["true_error"] if "true_error" in r else ""
    return row


def write_page(out, title, figures, runs, problems, has_reference, reference):
    columns = COLLECT_COLUMNS + ["mode", "chi", "tol", "oversample"] + (["true_error"] if has_reference else [])
    rows = [row_of(r, has_reference) for r in runs] + [row_of(r, has_reference) for r in problems]
    with open(os.path.join(out, "runs.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=columns)
        w.writeheader()
        w.writerows(rows)
    captions = {
        "error.png": "Error estimate (solid) against χ̄ and the tolerance, median over seeds "
                     "with their range shaded" + ("; dashed: the true relative distance to the "
                                                  "reference" if has_reference else ""),
        "cost.png": "Wall time and peak resident memory of each run",
        "bonds.png": "The result's bond dimension at each cut",
        "sites.png": "Time per site and the estimated error at each cut along the chain",
        "transfers.png": "Bytes moved, by mechanism (/log/transfers)",
    }
    esc = html.escape
    parts = [f"<!DOCTYPE html>\n<html><head><meta charset='utf-8'><title>{esc(title)}</title>",
             "<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse;"
             "font-size:80%}td,th{border:1px solid #ccc;padding:2px 6px}</style></head><body>",
             f"<h1>{esc(title)}</h1>",
             f"<p>{len(runs)} complete run(s), {len(problems)} not plotted.",
             f" Reference for the true error: {esc(reference)}." if has_reference else "", "</p>"]
    for name in figures:
        parts.append(f"<figure><img src='{name}' alt='{name}' width='900'>"
                     f"<figcaption>{esc(captions[name])}</figcaption></figure>")
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
    ap.add_argument("results", nargs="+", help="output files of src-compress apply/compress/truncate")
    ap.add_argument("-o", "--out", required=True, help="folder for index.html, runs.csv and the figures")
    ap.add_argument("--reference", help="FILE.h5[:/group]: the train to measure true errors against")
    ap.add_argument("--title", default="src-compress sweep report")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    runs, problems = [], []
    for path in args.results:
        r = read_run(path)
        (runs if r["complete"] else problems).append(r)
    reference = None
    if args.reference:
        ref_file, ref_group = split_ref(args.reference)
        try:
            reference = load_train(ref_file, ref_group)
        except (OSError, KeyError, ValueError) as e:
            raise SystemExit(f"{args.reference}: cannot read the reference train: {e}")
        for r in runs:
            try:
                r["true_error"] = relative_distance(load_train(r["file"], "/result"), reference)
            except (OSError, KeyError, ValueError) as e:
                raise SystemExit(f"{r['file']}:/result: cannot read the result train: {e}")
    runs.sort(key=lambda r: (MODES.index(r["mode"]), r["chi"], r["tol"], str(r["seed"])))
    figures = [error_figure(runs, args.out, reference is not None), cost_figure(runs, args.out),
               bonds_figure(runs, args.out), sites_figure(runs, args.out),
               transfers_figure(runs, args.out)]
    write_page(args.out, args.title, figures, runs, problems, reference is not None,
               args.reference or "")
    print(f"wrote {os.path.join(args.out, 'index.html')}: {len(runs)} runs, "
          f"{len(problems)} not plotted, {len(figures)} figures")
    return 0


if __name__ == "__main__":
    sys.exit(main())
