import numpy as np
import pandas as pd
import pytest

from forestrepro.stats import mean_ranks, rank_scores


def test_ranks_of_hand_made_example_with_ties(tiny_scores):
    # d1: 0.9 > 0.8 > 0.7                 -> A 1,   B 2,   C 3
    # d2: C 0.9 best, A = B = 0.6 share 2,3 -> A 2.5, B 2.5, C 1
    # d3: B 0.7 > C 0.6 > A 0.5           -> A 3,   B 1,   C 2
    # d4: B 0.9 best, A = C = 0.8 share 2,3 -> A 2.5, B 1,   C 2.5
    expected = pd.DataFrame(
        {"A": [1.0, 2.5, 3.0, 2.5], "B": [2.0, 2.5, 1.0, 1.0], "C": [3.0, 1.0, 2.0, 2.5]},
        index=["d1", "d2", "d3", "d4"],
    )
    pd.testing.assert_frame_equal(rank_scores(tiny_scores), expected)


def test_lower_is_better_reverses_the_ranks(tiny_scores):
    # With k = 3 the reversed rank is 4 - r, ties included.
    expected = pd.DataFrame(
        {"A": [3.0, 1.5, 1.0, 1.5], "B": [2.0, 1.5, 3.0, 3.0], "C": [1.0, 3.0, 2.0, 1.5]},
        index=["d1", "d2", "d3", "d4"],
    )
    pd.testing.assert_frame_equal(rank_scores(tiny_scores, higher_is_better=False), expected)


def test_mean_ranks_of_hand_made_example(tiny_scores):
    # A (1 + 2.5 + 3 + 2.5)/4 = 2.25, B (2 + 2.5 + 1 + 1)/4 = 1.625, C (3 + 1 + 2 + 2.5)/4 = 2.125
    result = mean_ranks(tiny_scores)
    assert list(result.index) == ["A", "B", "C"]
    np.testing.assert_allclose(result.to_numpy(), [2.25, 1.625, 2.125])
    assert result.sum() == pytest.approx(6.0)  # k(k+1)/2 on average


def test_rows_sum_to_k_times_k_plus_one_over_two(rng):
    scores = pd.DataFrame(rng.integers(0, 4, size=(30, 6)).astype(float))  # many ties
    np.testing.assert_allclose(rank_scores(scores).sum(axis=1), 21.0)


def test_nan_rows_raise_naming_the_data_sets(tiny_scores):
    scores = tiny_scores.copy()
    scores.loc["d2", "B"] = np.nan
    scores.loc["d4", "C"] = np.nan
    with pytest.raises(ValueError, match=r"d2.*d4"):
        rank_scores(scores)
    with pytest.raises(ValueError, match="d2"):
        mean_ranks(scores)


@pytest.mark.parametrize(
    "bad, exc",
    [
        (pd.DataFrame({"A": [1.0, 2.0]}), ValueError),  # one method
        (pd.DataFrame({"A": [], "B": []}, dtype=float), ValueError),  # no data sets
        (pd.DataFrame({"A": [1.0], "B": ["x"]}), TypeError),  # non-numeric
        (np.ones((3, 3)), TypeError),  # not a DataFrame
    ],
)
def test_invalid_tables_are_rejected(bad, exc):
    with pytest.raises(exc):
        rank_scores(bad)


def test_duplicate_method_names_are_rejected():
    scores = pd.DataFrame([[1.0, 2.0]], columns=["A", "A"])
    with pytest.raises(ValueError, match="duplicate"):
        rank_scores(scores)
