#!/usr/bin/env python3
"""Error against time from scripts/bench_methods.sh's table (case, method, seconds, error; tab
separated): one panel per case, a colour per method, circles for src-compress, squares for quimb.

    plot_methods.py TABLE.tsv FIGURE.png
"""
import collections
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

# The same method in both tools gets the same colour.
ORDER = ["src", "src-oversample", "sdc", "sdc-oversample", "sdcr", "sdcr-oversample", "fit"]


def method_of(name):
    """'src-compress sdc --oversample' -> 'sdc-oversample'; 'quimb fit' -> 'fit'."""
    tool, _, rest = name.partition(" ")
    if "--fit" in rest:
        return "fit"
    return rest.replace(" --oversample", "-oversample").strip()


def main():
    cases = collections.OrderedDict()
    for line in open(sys.argv[1]):
        case, name, seconds, error = line.rstrip("\n").split("\t")
        cases.setdefault(case, []).append((name, float(seconds), float(error)))
    fig, axes = plt.subplots(1, len(cases), figsize=(5 * len(cases), 4.3), squeeze=False)
    for ax, (case, rows) in zip(axes[0], cases.items()):
        for name, seconds, error in rows:
            m = method_of(name)
            colour = "C%d" % (ORDER.index(m) if m in ORDER else 9)
            ours = name.startswith("src-compress")
            ax.loglog(seconds, error, "o" if ours else "s", color=colour, markersize=8 if ours else 7,
                      markerfacecolor=colour if ours else "none", label=("" if ours else "quimb ") + m)
        ax.set_title(case, fontsize=9)
        ax.set_xlabel("seconds")
        ax.set_ylabel("relative error (distance to the reference)")
        ax.grid(True, which="both", alpha=0.3)
    handles, labels = axes[0][-1].get_legend_handles_labels()
    axes[0][-1].legend(handles, labels, fontsize=7, loc="best", title="filled: src-compress", title_fontsize=7)
    fig.tight_layout()
    fig.savefig(sys.argv[2], dpi=110)
    print("figure: " + sys.argv[2])


if __name__ == "__main__":
    main()
