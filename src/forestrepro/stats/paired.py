"""Two methods on the same splits: per data set a corrected paired t-test over the splits, and
across data sets the sign test and the Wilcoxon signed-ranks test (Demšar 2006, Sec. 3.1).

Per data set, the differences d_j = a_j - b_j on the J splits both methods ran (matched on
``repeat`` and ``fold``, so on the same training and test rows) are tested with Nadeau and
Bengio's corrected resampled t-test (Machine Learning 52:239-281, 2003, Eq. 17):

    t = mean(d) / sqrt((1/J + n_test/n_train) * s_d^2),   J - 1 degrees of freedom,

because the training parts of repeated random splits overlap, so the plain paired t-test
(the same without the n_test/n_train term) underestimates the variance and finds differences
too often. With ``n_train``/``n_test`` absent from the rows, the plain test is used and the
result says so. Across data sets the per-data-set mean differences are the observations.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from scipy import stats

KEYS = ["dataset", "repeat", "fold"]


def _or_none(value: float) -> float | None:
    """JSON-able: None for NaN."""
    return None if value is None or not np.isfinite(value) else float(value)


def corrected_t_test(diffs: np.ndarray, test_train_ratio: float) -> tuple[float, float]:
    """``(t, two-sided p)`` of Nadeau and Bengio's corrected resampled t-test on ``diffs``
    (``test_train_ratio`` = 0 gives the plain paired t-test); NaN for fewer than 2 splits or
    differences without spread."""
    n = len(diffs)
    if n < 2:
        return math.nan, math.nan
    var = float(np.var(diffs, ddof=1))
    if var == 0.0:
        return math.nan, math.nan
    t = float(np.mean(diffs)) / math.sqrt((1.0 / n + test_train_ratio) * var)
    return t, float(2.0 * stats.t.sf(abs(t), n - 1))


def paired_differences(
    runs: pd.DataFrame, a: str, b: str, metric: str, *, higher_is_better: bool = True, alpha: float = 0.05
) -> dict:
    """``a`` against ``b`` on ``metric``: per data set the mean signed difference (positive:
    ``a`` better), its std, the number of paired splits and the corrected t-test; across
    data sets the wins, losses and ties of the mean differences, the sign test and the
    Wilcoxon signed-ranks test. Data sets where one method has no rows are left out."""
    sign = 1.0 if higher_is_better else -1.0
    rows_a = runs[runs["method"] == a].set_index(KEYS)
    rows_b = runs[runs["method"] == b].set_index(KEYS)
    both = rows_a.index.intersection(rows_b.index)
    per_dataset = {}
    for dataset in sorted(both.get_level_values("dataset").unique()):
        index = [i for i in both if i[0] == dataset]
        diffs = sign * (rows_a.loc[index, metric].to_numpy(float) - rows_b.loc[index, metric].to_numpy(float))
        if {"n_train", "n_test"} <= set(rows_a.columns):
            ratio, test = (
                float((rows_a.loc[index, "n_test"] / rows_a.loc[index, "n_train"]).mean()),
                "corrected",
            )
        else:
            ratio, test = 0.0, "plain"
        t, p = corrected_t_test(diffs, ratio)
        per_dataset[dataset] = {
            "n_splits": len(diffs),
            "mean_diff": float(np.mean(diffs)),
            "std_diff": _or_none(float(np.std(diffs, ddof=1)) if len(diffs) > 1 else math.nan),
            "t": _or_none(t),
            "p": _or_none(p),
            "test": test,
            "significant": bool(p < alpha) if np.isfinite(p) else None,
        }
    means = np.array([d["mean_diff"] for d in per_dataset.values()])
    wins, losses = int((means > 0).sum()), int((means < 0).sum())
    across = {
        "n_datasets": len(means),
        "wins": wins,
        "losses": losses,
        "ties": len(means) - wins - losses,
        "sign_p": _or_none(stats.binomtest(wins, wins + losses).pvalue if wins + losses else math.nan),
        "wilcoxon_p": _or_none(stats.wilcoxon(means).pvalue if wins + losses else math.nan),
    }
    return {"a": a, "b": b, "metric": metric, "alpha": alpha, "per_dataset": per_dataset, "across": across}
