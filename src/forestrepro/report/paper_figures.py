"""The papers' figures, drawn from the per-fold rows of an experiment.

Each kind is one function ``(runs, spec) -> Figure``; ``spec`` is the figure's entry of
``paper.<p>.figures`` (plus ``method_order``). Kinds:

- ``kappa_error_scatter``: one panel per method, a point per pair of trees of the first fold's
  forest on ``dataset`` (κ on x, mean error on y), as the RCRF paper's Fig. 2;
- ``kappa_error_centroids``: the centroid (mean κ, mean error) of every data set and method,
  as the RCRF paper's Fig. 3;
- ``sweep_curve``: ``metric`` (mean ± std over folds) against the swept parameter, one panel
  per data set and one line per method, as the BRF paper's Figs. 4-5;
- ``accuracy_bars``: mean ``metric`` per data set, a bar per method, as the BRF paper's Fig. 3;
- ``runtime_ecdf`` and ``paired_difference_box``: the C2RF paper's Figs. 1-3 (``c2rf_figures``);
- ``learning_curve``: ``metric`` (default ``error``, mean ± std over repeats) against the
  training size ``n_train`` (log scale unless ``log_x: false``), one line per method and one
  panel per data set, with the verdicts of the figure's ``claims`` printed below it, as the
  BRF paper's Sec. 5.2 consistency example (its Fig. 2 draws only the distribution);
- ``bayes_matrix`` and ``time_accuracy``: which forest, every method of one experiment against
  the plain ``baselines`` (``ranking``): the pairwise Bayesian signed-rank probabilities, whose
  claims are each variant's verdict against the best baseline, and accuracy against fit time
  with the Pareto front.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from ..io import atomic_path, write_text_atomic
from .c2rf_figures import paired_difference_box, runtime_ecdf
from .claims import evaluate_curve_claim
from .ranking import bayes_matrix, bayes_matrix_claims, time_accuracy

MARKERS = "osD^v<>ph*"


def kappa_error_scatter(runs: pd.DataFrame, spec: dict) -> Figure:
    rows = runs[(runs["dataset"] == spec["dataset"]) & runs["pairs_kappa"].notna()]
    methods = [m for m in spec["method_order"] if m in set(rows["method"])]
    fig = Figure(figsize=(4 * max(1, len(methods)), 3.6))
    axes = fig.subplots(1, max(1, len(methods)), sharex=True, sharey=True, squeeze=False)[0]
    for ax, method in zip(axes, methods):
        row = rows[rows["method"] == method].iloc[0]
        kappa, error = np.asarray(row["pairs_kappa"], float), np.asarray(row["pairs_error"], float)
        ax.scatter(kappa, error, s=3, alpha=0.4)
        ax.scatter([np.nanmean(kappa)], [np.mean(error)], marker="x", color="k", s=60, label="centroid")
        ax.set_title(f"{method} ({len(kappa)} pairs)")
        ax.set_xlabel("κ between the two trees")
    axes[0].set_ylabel("mean error of the two trees")
    axes[0].legend(loc="best")
    fig.suptitle(f"κ-error diagram, {spec['dataset']}")
    return fig


def kappa_error_centroids(runs: pd.DataFrame, spec: dict) -> Figure:
    centroids = runs.groupby(["dataset", "method"])[["mean_pairwise_kappa", "mean_pairwise_error"]].mean()
    fig = Figure(figsize=(7, 5.5))
    ax = fig.subplots()
    for dataset, group in centroids.groupby(level="dataset"):
        ax.plot(group["mean_pairwise_kappa"], group["mean_pairwise_error"], color="0.8", lw=0.8, zorder=1)
    for marker, method in zip(MARKERS, spec["method_order"]):
        if method in centroids.index.get_level_values("method"):
            points = centroids.xs(method, level="method")
            ax.scatter(
                points["mean_pairwise_kappa"],
                points["mean_pairwise_error"],
                marker=marker,
                label=method,
                zorder=2,
            )
    ax.set_xlabel("mean pairwise κ (lower: more diverse trees)")
    ax.set_ylabel("mean pairwise error")
    ax.legend(loc="best")
    ax.set_title("κ-error centroids, one point per data set and method")
    return fig


def sweep_curve(runs: pd.DataFrame, spec: dict) -> Figure:
    metric = spec.get("metric", "accuracy")
    datasets = [d for d in spec.get("datasets", sorted(set(runs["dataset"]))) if d in set(runs["dataset"])]
    fig = Figure(figsize=(4.2 * max(1, len(datasets)), 3.6))
    axes = fig.subplots(1, max(1, len(datasets)), squeeze=False)[0]
    for ax, dataset in zip(axes, datasets):
        for marker, method in zip(MARKERS, spec["method_order"]):
            part = runs[(runs["dataset"] == dataset) & (runs["method"] == method)]
            if part.empty:
                continue
            curve = part.groupby("sweep_value")[metric].agg(["mean", "std"]).sort_index()
            ax.errorbar(curve.index, curve["mean"], yerr=curve["std"], marker=marker, capsize=2, label=method)
        ax.set_title(dataset)
        ax.set_xlabel(spec.get("x_label", "swept parameter"))
        if spec.get("log_x"):
            ax.set_xscale("log")
    axes[0].set_ylabel(metric)
    axes[0].legend(loc="best")
    return fig


def accuracy_bars(runs: pd.DataFrame, spec: dict) -> Figure:
    """Mean ``metric`` per data set, one bar per method (the BRF paper's Fig. 3)."""
    metric = spec.get("metric", "accuracy")
    means = runs.groupby(["dataset", "method"])[metric].mean().unstack("method")
    methods = [m for m in spec["method_order"] if m in means]
    fig = Figure(figsize=(max(6, 0.9 * len(means)), 4))
    ax = fig.subplots()
    width = 0.8 / max(1, len(methods))
    x = np.arange(len(means))
    for i, method in enumerate(methods):
        ax.bar(x + i * width, means[method], width, label=method)
    ax.set_xticks(x + width * (len(methods) - 1) / 2, means.index, rotation=45, ha="right")
    ax.set_ylabel(metric)
    values = means[methods].to_numpy(dtype=float)
    if not np.isfinite(values).any():  # a partial run: none of the figure's methods has finished
        ax.text(
            0.5, 0.5, "no finished run of these methods yet", ha="center", va="center", transform=ax.transAxes
        )
        return fig
    ax.set_ylim(max(0.0, float(np.nanmin(values)) - 0.1), 1.0)
    ax.legend(loc="lower right", ncols=len(methods))
    return fig


def learning_curve(runs: pd.DataFrame, spec: dict) -> Figure:
    """``metric`` against ``n_train``, one line per method (mean ± std over repeats)."""
    metric = spec.get("metric", "error")
    datasets = [d for d in spec.get("datasets", sorted(set(runs["dataset"]))) if d in set(runs["dataset"])]
    claims = [evaluate_curve_claim(c, runs, metric) for c in spec.get("claims", [])]
    n_panels = max(1, len(datasets))
    width = max(7.0, 4.6 * n_panels)
    lines = [
        textwrap.fill(
            f"{c['claim']}: {c['ours']} ({c['ours_evidence']})", int(width * 15), subsequent_indent="    "
        )
        for c in claims
    ]
    text_height = 0.14 * sum(line.count("\n") + 1 for line in lines)
    fig = Figure(figsize=(width, 3.8 + text_height))
    grid = fig.add_gridspec(
        2 if claims else 1, n_panels, height_ratios=[3.8, text_height] if claims else None
    )
    axes = [fig.add_subplot(grid[0, i]) for i in range(n_panels)]
    for ax, dataset in zip(axes, datasets):
        for marker, method in zip(MARKERS, spec["method_order"]):
            part = runs[(runs["dataset"] == dataset) & (runs["method"] == method)]
            if part.empty:
                continue
            curve = part.groupby("n_train")[metric].agg(["mean", "std"]).sort_index()
            ax.errorbar(
                curve.index,
                curve["mean"],
                yerr=curve["std"].fillna(0.0),
                marker=marker,
                capsize=2,
                label=method,
            )
        ax.set_title(dataset)
        ax.set_xlabel(spec.get("x_label", "training size n"))
        if spec.get("log_x", True):
            ax.set_xscale("log")
        if spec.get("log_y", False):
            ax.set_yscale("log")
        ax.grid(True, which="major", alpha=0.3)
    axes[0].set_ylabel(metric)
    axes[0].legend(loc="best")
    if claims:
        text = fig.add_subplot(grid[1, :])
        text.axis("off")
        text.text(
            0.0,
            1.0,
            "\n".join(lines),
            fontsize=7,
            va="top",
            ha="left",
            transform=text.transAxes,
            in_layout=False,
        )
    return fig


KINDS = {
    f.__name__: f
    for f in (
        kappa_error_scatter,
        kappa_error_centroids,
        sweep_curve,
        accuracy_bars,
        runtime_ecdf,
        paired_difference_box,
        learning_curve,
        bayes_matrix,
        time_accuracy,
    )
}


# (metric, x) of the curves a figure kind's claims are judged on
CURVE_AXES = {"sweep_curve": lambda spec: (spec.get("metric", "accuracy"), "sweep_value")}
CURVE_AXES = {
    kind: CURVE_AXES.get(kind, lambda spec: (spec.get("metric", "error"), "n_train")) for kind in KINDS
}


# figure kinds whose claims come from the figure's own data, not from configured curve claims
VERDICT_CLAIMS = {"bayes_matrix": bayes_matrix_claims}


def draw_figure(runs: pd.DataFrame, spec: dict, stem: str | Path) -> list[Path]:
    """Draw the figure ``spec`` describes from ``runs``; write ``<stem>.png`` and ``.pdf`` (returned),
    and ``<stem>.claims.json``: the verdicts of the figure's curve ``claims``, or of a
    ``VERDICT_CLAIMS`` kind's own (a list, maybe empty), for the report's claims table."""
    if spec["kind"] not in KINDS:
        raise ValueError(f"unknown figure kind {spec['kind']!r}; valid: {sorted(KINDS)}")
    fig = KINDS[spec["kind"]](runs, spec)
    fig.tight_layout()
    if spec["kind"] in VERDICT_CLAIMS:
        claims = VERDICT_CLAIMS[spec["kind"]](runs, spec)
    else:
        claims = [
            evaluate_curve_claim(c, runs, *CURVE_AXES[spec["kind"]](spec)) for c in spec.get("claims", [])
        ]
    claims_path = Path(stem).with_suffix(".claims.json")
    write_text_atomic(claims_path, json.dumps(claims, indent=2, sort_keys=True) + "\n")
    written = []
    for suffix, kwargs in (
        (".png", {"dpi": 150, "metadata": {"Software": None}}),
        (".pdf", {"metadata": {"CreationDate": None}}),
    ):
        path = Path(stem).with_suffix(suffix)
        with atomic_path(path) as tmp:
            fig.savefig(tmp, format=suffix[1:], **kwargs)
        written.append(path)
    return written
