"""Plots as inline PNG data URIs, so report.html is one file that opens offline."""
from __future__ import annotations

import base64
import io
from typing import Any

import matplotlib
import numpy as np

matplotlib.use("Agg")  # no display: the report is written by a CLI, often on a server
import matplotlib.pyplot as plt  # noqa: E402

COLORS = {"label_model": "#1f6feb", "majority_vote": "#d97706"}
NAMES = {"label_model": "LabelModel", "majority_vote": "majority vote"}


def data_uri(fig: plt.Figure) -> str:
    buffer = io.BytesIO()
    # no Software metadata: the page must hold no URL at all, not even inside an image
    fig.savefig(buffer, format="png", dpi=96, bbox_inches="tight", metadata={"Software": None})
    plt.close(fig)
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


def reliability_diagram(calibration: dict[str, dict[str, Any]], title: str) -> str:
    """Observed BOUND frequency against mean P(BOUND) per bin; marker area follows the bin's row count."""
    fig, ax = plt.subplots(figsize=(4.2, 4.2))
    ax.plot([0, 1], [0, 1], color="#999", linestyle="--", linewidth=1, label="perfect calibration")
    for method, cal in calibration.items():
        bins = cal["bins"]
        ax.plot([b["mean_p"] for b in bins], [b["freq"] for b in bins], marker="o", color=COLORS[method],
                label=f"{NAMES[method]} (ECE {cal['ece']:.3f})" if cal["ece"] is not None else NAMES[method])
        ax.scatter([b["mean_p"] for b in bins], [b["freq"] for b in bins], s=[8 + 4 * b["n"] ** 0.5 for b in bins],
                   color=COLORS[method], alpha=0.35)
    ax.set(xlim=(0, 1), ylim=(0, 1), xlabel="mean predicted P(BOUND) in bin", ylabel="observed fraction BOUND",
           title=title)
    ax.legend(loc="upper left", fontsize=8)
    return data_uri(fig)


def bar_chart(labels: list[str], values: list[float], title: str, xlabel: str) -> str:
    """Horizontal bars, first label on top."""
    fig, ax = plt.subplots(figsize=(5.5, 0.3 * len(labels) + 1.0))
    ax.barh(range(len(labels)), values, color="#1f6feb")
    ax.set_yticks(range(len(labels)), labels, fontsize=8)
    ax.invert_yaxis()
    ax.set(title=title, xlabel=xlabel)
    return data_uri(fig)


def histogram(counts: list[int], title: str, xlabel: str) -> str:
    fig, ax = plt.subplots(figsize=(5.0, 3.0))
    top = max(counts, default=0)
    ax.hist(counts, bins=range(0, top + 2), color="#1f6feb", align="left", rwidth=0.85)
    ax.set(title=title, xlabel=xlabel, ylabel="passages")
    return data_uri(fig)


def p_bound_histogram(p_bound: dict[str, Any]) -> str:
    """Candidates per bin of P(BOUND), LabelModel and majority vote side by side."""
    fig, ax = plt.subplots(figsize=(5.5, 3.2))
    width = 0.045
    lows = [lo for lo, _ in p_bound["bins"]]
    for shift, method in ((0.005, "label_model"), (0.05, "majority_vote")):
        ax.bar([lo + shift for lo in lows], p_bound[method], width=width, align="edge", color=COLORS[method],
               label=NAMES[method])
    ax.set(xlim=(0, 1), title="P(BOUND) of all candidates", xlabel="P(BOUND) bin", ylabel="candidates")
    ax.legend(fontsize=8)
    return data_uri(fig)


def agreement_heatmap(names: list[str], agreement: list[list[float | None]]) -> str:
    """Pairwise LF agreement where both vote; blank where two LFs never vote on the same candidate."""
    values = np.array([[np.nan if v is None else v for v in row] for row in agreement], dtype=float)
    size = 2.0 + 0.22 * len(names)
    fig, ax = plt.subplots(figsize=(size + 1.2, size))
    image = ax.imshow(values, vmin=0, vmax=1, cmap="RdYlGn")
    ax.set_xticks(range(len(names)), names, rotation=90, fontsize=7)
    ax.set_yticks(range(len(names)), names, fontsize=7)
    ax.set_title("LF agreement where both vote")
    fig.colorbar(image, ax=ax, fraction=0.046, pad=0.04)
    return data_uri(fig)


def report_plots(figures: dict[str, Any]) -> dict[str, str]:
    """Every plot of the page, keyed by name."""
    plots = {f"reliability_{name}": reliability_diagram(section["calibration"], f"Reliability on gold {name}")
             for name, section in figures["gold_sets"].items() if section["calibration"]["label_model"]["n"]}
    plots["p_bound"] = p_bound_histogram(figures["agreement"]["p_bound"])
    if figures["agreement"]["lfs"]:
        plots["lf_agreement"] = agreement_heatmap(figures["agreement"]["lfs"], figures["agreement"]["agreement"])
    regs = figures["registers"]
    top = regs["attributes"]["top"]
    if top:
        plots["attributes"] = bar_chart([t["label"] for t in top], [t["share"] for t in top],
                                        "Register labels: top attribute classes", "share of occupied slot cells")
    plots["labels_per_passage"] = histogram(regs["labels_per_passage"]["counts"], "Labels per passage",
                                            "register labels set in the passage")
    if regs["slot_occupancy"]:
        plots["slot_occupancy"] = bar_chart([f"slot {k}" for k in range(len(regs["slot_occupancy"]))],
                                            regs["slot_occupancy"], "Slot occupancy", "fraction of tokens")
    return plots
