"""The C2RF paper's figures (Burgard, Pinheiro, Schmidt 2024), from the per-sample run rows.

- ``runtime_ecdf`` (Fig. 1): the performance profile gamma_s(sigma) = |{p : t_{p,s} <= sigma}| / |P|
  of Sec. 5.3 for every approach, over all (instance, sample) problems; a problem counts only
  when the approach solved it (optimal within the time limit);
- ``paired_difference_box`` (Figs. 2-3): box plots of the differences (10),
  AC_a - AC_b and MCC_a - MCC_b, one point per (instance, sample) solved by both.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

LINE_STYLES = ("-", "--", "-.", ":")


def runtime_ecdf(runs: pd.DataFrame, spec: dict) -> Figure:
    """Fig. 1: share of problems solved within sigma seconds, against sigma (log scale); one line
    per approach, named by ``spec["labels"]`` where it names it, in its own colour and dash so
    that approaches with the same curve stay apart, the legend beside the axes."""
    labels = spec.get("labels", {})
    fig = Figure(figsize=(9.5, 4.5))
    ax = fig.subplots()
    limit = float(runs["time_limit"].max())
    low = max(
        1e-3, float(runs.loc[runs["solved"].astype(bool), "seconds"].min()) if runs["solved"].any() else 1e-3
    )
    for index, method in enumerate(spec["method_order"]):
        part = runs[runs["method"] == method]
        if part.empty:
            continue
        times = np.sort(np.where(part["solved"].astype(bool), part["seconds"], np.inf))
        share = np.arange(1, len(times) + 1) / len(times)
        finite = np.isfinite(times)
        x = np.concatenate([[low], times[finite], [limit]])
        y = np.concatenate([[0.0], share[finite], [share[finite][-1] if finite.any() else 0.0]])
        # each approach's own count: a partial run may have solved some instances only
        ax.step(
            x,
            y,
            where="post",
            ls=LINE_STYLES[index % len(LINE_STYLES)],
            label=f"{labels.get(method, method)} ({finite.sum()} of {len(times)} solved)",
        )
    ax.axvline(limit, color="0.6", ls=":", lw=1, label=f"time limit {limit:g} s")
    ax.set_xscale("log")
    ax.set_ylim(0, 1.02)
    ax.set_xlabel("σ, seconds")
    ax.set_ylabel("γ(σ), share of problems solved")
    ax.legend(loc="center left", bbox_to_anchor=(1.01, 0.5), fontsize="small")
    ax.set_title(f"{runs[['dataset', 'repeat']].drop_duplicates().shape[0]} problems")
    return fig


def paired_differences(runs: pd.DataFrame, a: str, b: str, metric: str) -> pd.Series:
    """``metric`` of ``a`` minus that of ``b`` per (data set, sample); pairs missing either are left out."""
    wide = runs[runs["method"].isin([a, b])].pivot_table(
        index=["dataset", "repeat"], columns="method", values=metric, aggfunc="first"
    )
    if a not in wide or b not in wide:
        return pd.Series(dtype=float)
    return (wide[a] - wide[b]).dropna()


def paired_difference_box(runs: pd.DataFrame, spec: dict) -> Figure:
    """Figs. 2-3: box plots of AC_a - AC_b (left) and MCC_a - MCC_b (right), Eq. (10)."""
    a, b = spec["methods"]
    fig = Figure(figsize=(8, 4))
    axes = fig.subplots(1, 2)
    rng = np.random.default_rng(0)  # horizontal jitter of the points only
    for ax, metric, label in zip(axes, ("accuracy", "mcc"), ("AC", "MCC")):
        diff = paired_differences(runs, a, b, metric)
        if len(diff):
            ax.boxplot([diff.to_numpy()], widths=0.5)
            ax.scatter(1 + rng.uniform(-0.12, 0.12, len(diff)), diff, s=8, alpha=0.5, color="k")
            ax.set_title(f"{label}: > 0 in {np.mean(diff > 0):.0%} of {len(diff)}")
        else:
            ax.set_title(f"{label}: no sample solved by both")
        ax.axhline(0.0, color="0.5", lw=0.8)
        ax.set_xticks([])
        ax.set_ylabel(f"difference of {label}")
    fig.suptitle(f"{a} minus {b}, per (instance, sample)")
    return fig
