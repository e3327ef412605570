#!/usr/bin/env python3
"""Draws the Tritium / Triton ratio of every bench row in the results
records (bench/results/<script>.json, written by the bench scripts) as one
horizontal bar chart with a line at 1.0, titled with the GPUs and dates.

    python3 bench/plot_results.py [DIR] [--out docs/performance.png]

Throughput rows (GB/s, TFLOP/s) are drawn; the ratios of time rows (first
call, cold compile, host time per launch: Triton's time over Tritium's) are
listed under the chart.  Rows without a ratio are left out, and so are the
rows of one kernel where the bench also has a row for each compiler's best
kernel.  Needs matplotlib.
"""
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from results_page import ORDER, STORE, THROUGHPUT_UNITS, TITLES, load_records  # noqa: E402


def bars(records):
    """[(script, label, ratio)] of the throughput rows in page order, and
    [(label, ratio)] of the other rows with a ratio."""
    drawn, listed = [], []
    scripts = [s for s in ORDER if s in records] + sorted(s for s in records if s not in ORDER)
    for script in scripts:
        rows = records[script]["rows"]
        with_best = {row["work"] for row in rows if row.get("kernel") == "best"}
        for row in rows:
            ratio = row.get("ratio")
            if not ratio:
                continue
            if row["work"] in with_best and row.get("kernel") != "best":
                continue
            label = row["work"]
            if row.get("kernel") and row["kernel"] != "best":
                label += f", {row['kernel']}"
            label = f"{TITLES.get(script, script).split(',')[0]}: {label}"
            if row.get("unit") in THROUGHPUT_UNITS:
                drawn.append((script, label, ratio))
            else:
                listed.append((label, ratio))
    return drawn, listed


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir", nargs="?", default=STORE, help="folder of the records (default bench/results)")
    parser.add_argument("--out", default=os.path.join(os.path.dirname(HERE), "docs", "performance.png"),
                        help="the PNG to write (default docs/performance.png)")
    args = parser.parse_args(argv)
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("plot_results.py needs matplotlib (pip install matplotlib, or apt-get install python3-matplotlib); "
              "nothing drawn", file=sys.stderr)
        return 1
    records = load_records(args.dir)
    drawn, listed = bars(records)
    if not drawn:
        print(f"plot_results.py: no ratios in the records of {args.dir}; nothing drawn", file=sys.stderr)
        return 1

    scripts = list(dict.fromkeys(script for script, _, _ in drawn))
    colors = {script: plt.get_cmap("tab10")(i % 10) for i, script in enumerate(scripts)}
    height = 2.4 + 0.28 * len(drawn) + 0.1 * len(scripts)
    fig, ax = plt.subplots(figsize=(10, height))
    y = list(range(len(drawn)))[::-1]
    ratios = [ratio for _, _, ratio in drawn]
    ax.barh(y, [r - 1.0 for r in ratios], left=1.0, color=[colors[s] for s, _, _ in drawn], height=0.7)
    ax.axvline(1.0, color="black", linewidth=1)
    ax.set_yticks(y)
    ax.set_yticklabels([label for _, label, _ in drawn], fontsize=8)
    low, high = min(ratios + [0.95]), max(ratios + [1.05])
    pad = (high - low) * 0.12
    ax.set_xlim(low - pad, high + pad)
    for yi, r in zip(y, ratios):
        ax.text(r + (pad * 0.08 if r >= 1 else -pad * 0.08), yi, f"{r:.3f}", va="center",
                ha="left" if r >= 1 else "right", fontsize=7)
    ax.set_xlabel("Tritium / Triton throughput (above 1: Tritium faster)")
    handles = [plt.Rectangle((0, 0), 1, 1, color=colors[s]) for s in scripts]
    legend = [f"{TITLES.get(s, s)}: {records[s].get('gpu') or records[s].get('cpu') or 'no GPU'}, "
              f"{records[s].get('date')}" for s in scripts]
    ax.legend(handles, legend, fontsize=7, loc="upper center", bbox_to_anchor=(0.4, -0.05), ncol=2, frameon=False)
    gpus = sorted({records[s].get("gpu") for s in scripts if records[s].get("gpu")})
    dates = sorted(records[s].get("date") for s in scripts if records[s].get("date"))
    when = dates[0] if dates and dates[0] == dates[-1] else (f"{dates[0]} to {dates[-1]}" if dates else "")
    ax.set_title(f"Tritium vs Triton 3.6, the same kernel sources\n{', '.join(gpus) or 'no GPU'}; {when}",
                 fontsize=10)
    if listed:
        fig.text(0.01, 0.005, "Times, Triton's over Tritium's: " + "; ".join(f"{label} {ratio:.2f}x"
                                                                            for label, ratio in listed),
                 fontsize=7, va="bottom", wrap=True)
    fig.tight_layout(rect=(0, 0.03 if listed else 0, 1, 1))
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    fig.savefig(args.out, dpi=120)
    print(f"plot_results.py: {args.out} ({len(drawn)} bars)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
