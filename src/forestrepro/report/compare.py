"""Put every regenerated number beside the published one, cell by cell.

A cell agrees with the paper when |regenerated mean - published mean| <= max(f x published std,
a), with f = ``tolerance_std_factor`` (default 2) and a = ``tolerance_abs`` (default 0.02). A table
whose numbers cannot agree within any tolerance (``not_judged``: run times measured with another
solver on another machine) shows the difference and leaves every cell unjudged.
"""

from __future__ import annotations

import numpy as np
import pandas as pd


def summarize_runs(
    runs: pd.DataFrame,
    metric: str,
    ddof: int = 1,
    aggregate: str = "mean",
    min_solved_share: float | None = None,
) -> pd.DataFrame:
    """Mean and standard deviation of ``metric`` over folds and repeats, per (dataset, method),
    with the smallest and largest value (``min``, ``max``).

    ``ddof=1`` is the sample standard deviation (MATLAB's and R's default, which papers of this
    kind usually report); the papers do not say which they used. ``aggregate="median"`` gives
    the median in the ``mean`` column and no std (the C2RF paper's tables). With
    ``min_solved_share``, a cell is missing (NaN) when a smaller share of its rows has ``solved``
    true, as the C2RF paper's Table 2 prints '—' when fewer than 3 of 5 samples were solved (0.6).
    """
    if aggregate not in ("mean", "median"):
        raise ValueError(f"aggregate must be 'mean' or 'median', got {aggregate!r}")
    grouped = runs.groupby(["dataset", "method"])[metric]
    summary = grouped.agg(mean=aggregate, n_folds="count")
    summary["std"] = grouped.std(ddof=ddof) if aggregate == "mean" else float("nan")
    summary["min"], summary["max"] = grouped.min(), grouped.max()
    if min_solved_share is not None:
        solved = runs.groupby(["dataset", "method"])["solved"].mean()
        summary.loc[solved[solved < min_solved_share - 1e-9].index, "mean"] = float("nan")
    return summary[["mean", "std", "n_folds", "min", "max"]]


def compare_cells(
    summary: pd.DataFrame,
    published: pd.DataFrame,
    methods: dict[str, str],
    datasets: dict[str, str],
    *,
    std_factor: float,
    abs_tolerance: float,
    limit: float | None = None,
    judged: bool = True,
) -> pd.DataFrame:
    """One row per (dataset, method) of the table: published and regenerated mean ± std, delta.

    ``methods`` and ``datasets`` map our names to the paper's. A cell without a regenerated
    value keeps NaN there and ``within`` is ``None``. With a ``limit`` (a run-time table whose
    runs stop at a time limit), a published value above it cannot be reached by our runs: the
    cell is ``beyond_limit``, and ``within`` is ``None`` (not compared, not a failure). With
    ``judged`` false, ``within`` is ``None`` in every cell (the difference is still given).
    """
    rows = []
    for dataset, pub_dataset in datasets.items():
        for method, pub_method in methods.items():
            pub = (
                published.loc[(pub_dataset, pub_method)]
                if (pub_dataset, pub_method) in published.index
                else None
            )
            ours = summary.loc[(dataset, method)] if (dataset, method) in summary.index else None
            pub_mean = float(pub["mean"]) if pub is not None else np.nan
            pub_std = float(pub["std"]) if pub is not None else np.nan
            mean = float(ours["mean"]) if ours is not None else np.nan
            std = float(ours["std"]) if ours is not None else np.nan
            tolerance = max(std_factor * np.nan_to_num(pub_std), abs_tolerance)
            delta = mean - pub_mean
            beyond = limit is not None and pub_mean > limit
            within = None if np.isnan(delta) or beyond or not judged else bool(abs(delta) <= tolerance)
            rows.append(
                {
                    "dataset": dataset,
                    "method": method,
                    "paper_dataset": pub_dataset,
                    "paper_method": pub_method,
                    "published_mean": pub_mean,
                    "published_std": pub_std,
                    "mean": mean,
                    "std": std,
                    "n_folds": int(ours["n_folds"]) if ours is not None else 0,
                    "min": float(ours.get("min", np.nan)) if ours is not None else np.nan,
                    "max": float(ours.get("max", np.nan)) if ours is not None else np.nan,
                    "delta": delta,
                    "tolerance": tolerance,
                    "within": within,
                    **({"beyond_limit": beyond} if limit is not None else {}),
                }
            )
    return pd.DataFrame(rows)


TIE_DECIMALS = 12  # a mean is a sum of floats: two methods that tie differ in its last bits


def score_matrix(cells: pd.DataFrame, column: str) -> pd.DataFrame:
    """Data sets x methods matrix of ``column`` (``mean`` or ``published_mean``), rounded to
    ``TIE_DECIMALS`` so that methods whose runs score the same tie exactly in the ranks (RF and
    RCRF on primary_tumor: the same accuracy in every repetition, means apart by 1e-16)."""
    return cells.pivot(index="dataset", columns="method", values=column).round(TIE_DECIMALS)
