"""Paired tests of two methods on the same splits (stats/paired.py), checked by hand."""

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from forestrepro.stats.paired import corrected_t_test, paired_differences


def test_corrected_t_by_hand_and_plain_t_is_scipys_paired_t():
    d = np.array([1.0, 2.0, 3.0, 2.0])  # mean 2, sample variance 2/3
    t, p = corrected_t_test(d, 0.25)
    expected = 2.0 / math.sqrt((1 / 4 + 0.25) * (2 / 3))  # Nadeau-Bengio: (1/J + n2/n1) s^2
    assert t == pytest.approx(expected)
    assert p == pytest.approx(2 * stats.t.sf(expected, 3))
    a, b = np.array([0.9, 0.8, 0.85, 0.7]), np.array([0.8, 0.82, 0.8, 0.6])
    plain_t, plain_p = corrected_t_test(a - b, 0.0)
    ref = stats.ttest_rel(a, b)
    assert plain_t == pytest.approx(ref.statistic) and plain_p == pytest.approx(ref.pvalue)
    assert all(math.isnan(v) for v in corrected_t_test(np.array([1.0]), 0.25))  # one split: no test
    assert all(math.isnan(v) for v in corrected_t_test(np.array([1.0, 1.0]), 0.25))  # no spread


def _rows(method, dataset, values, n_train=80, n_test=20):
    return [
        {
            "method": method,
            "dataset": dataset,
            "repeat": r,
            "fold": 0,
            "acc": v,
            "n_train": n_train,
            "n_test": n_test,
        }
        for r, v in enumerate(values)
    ]


def test_paired_differences_match_splits_and_count_wins_across_data_sets():
    runs = pd.DataFrame(
        _rows("a", "x", [90, 92, 91])
        + _rows("b", "x", [88, 91, 89])  # a better by 2, 1, 2
        + _rows("a", "y", [70])
        + _rows("b", "y", [75])  # one split: a worse, untestable
        + _rows("a", "z", [60, 60])
        + _rows("b", "z", [60, 60, 61])  # b's third split has no partner
    )
    result = paired_differences(runs, "a", "b", "acc")
    x, y, z = (result["per_dataset"][k] for k in "xyz")
    assert x["n_splits"] == 3 and x["mean_diff"] == pytest.approx(5 / 3)
    t = (5 / 3) / math.sqrt((1 / 3 + 0.25) * np.var([2, 1, 2], ddof=1))
    assert x["t"] == pytest.approx(t) and x["test"] == "corrected"
    assert y == {
        "n_splits": 1,
        "mean_diff": -5.0,
        "std_diff": None,
        "t": None,
        "p": None,
        "test": "corrected",
        "significant": None,
    }
    assert z["n_splits"] == 2 and z["mean_diff"] == 0 and z["p"] is None
    across = result["across"]
    assert (across["wins"], across["losses"], across["ties"]) == (1, 1, 1)
    assert across["sign_p"] == pytest.approx(1.0)  # 1 win of 2 non-ties: P = 1 (two-sided binomial)
    assert across["wilcoxon_p"] == pytest.approx(stats.wilcoxon([5 / 3, -5.0, 0.0]).pvalue)
    lower = paired_differences(runs, "a", "b", "acc", higher_is_better=False)  # error-like metric
    assert lower["per_dataset"]["x"]["mean_diff"] == pytest.approx(-5 / 3)
