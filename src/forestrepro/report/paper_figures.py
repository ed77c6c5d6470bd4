"""The papers' figures, drawn from the per-fold rows of an experiment.

Each kind is one function ``(runs, spec) -> Figure``; ``spec`` is the figure's entry of
``paper.<p>.figures`` (plus ``method_order``). Kinds:

- ``kappa_error_scatter``: one panel per method, a point per pair of trees of the first fold's
  forest on ``dataset`` (κ on x, mean error on y), as the RCRF paper's Fig. 2;
- ``kappa_error_centroids``: the centroid (mean κ, mean error) of every data set and method,
  as the RCRF paper's Fig. 3;
- ``sweep_curve``: ``metric`` (mean ± std over folds) against the swept parameter, one panel
  per data set and one line per method, as the BRF paper's Figs. 4-5;
- ``accuracy_bars``: mean ``metric`` per data set, a bar per method, as the BRF paper's Fig. 3.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from ..io import atomic_path

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
            ax.scatter(points["mean_pairwise_kappa"], points["mean_pairwise_error"], marker=marker, label=method, zorder=2)
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
    ax.set_ylim(max(0.0, float(np.nanmin(means[methods].to_numpy())) - 0.1), 1.0)
    ax.legend(loc="lower right", ncols=len(methods))
    return fig


KINDS = {f.__name__: f for f in (kappa_error_scatter, kappa_error_centroids, sweep_curve, accuracy_bars)}


def draw_figure(runs: pd.DataFrame, spec: dict, stem: str | Path) -> list[Path]:
    """Draw the figure ``spec`` describes from ``runs``; write ``<stem>.png`` and ``.pdf``."""
    if spec["kind"] not in KINDS:
        raise ValueError(f"unknown figure kind {spec['kind']!r}; valid: {sorted(KINDS)}")
    fig = KINDS[spec["kind"]](runs, spec)
    fig.tight_layout()
    written = []
    for suffix, kwargs in ((".png", {"dpi": 150, "metadata": {"Software": None}}), (".pdf", {"metadata": {"CreationDate": None}})):
        path = Path(stem).with_suffix(suffix)
        with atomic_path(path) as tmp:
            fig.savefig(tmp, format=suffix[1:], **kwargs)
        written.append(path)
    return written
