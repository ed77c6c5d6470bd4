import dataclasses
import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps

from forestrepro.stats import FriedmanResult, friedman_test


def test_demsar_worked_example(demsar_table6):
    # Demšar (2006), Sec. 3.2.2, on Table 6: average ranks 3.143, 2.000, 2.893, 1.964,
    # chi^2_F = 9.28 and F_F = 3.69 with (3, 39) degrees of freedom.
    # By hand, from the rank sums 44, 28, 40.5, 27.5 over N = 14:
    #   sum R_j^2 = (44^2 + 28^2 + 40.5^2 + 27.5^2) / 14^2 = 5116.5 / 196 = 26.10459
    #   chi^2_F  = 12*14/(4*5) * (26.10459 - 4*25/4) = 8.4 * 1.10459 = 9.2786
    #   F_F      = 13 * 9.2786 / (14*3 - 9.2786) = 3.6863
    result = friedman_test(demsar_table6)
    assert isinstance(result, FriedmanResult)
    assert (result.k, result.n, result.df1, result.df2) == (4, 14, 3, 39)
    np.testing.assert_allclose(result.mean_ranks.to_numpy(), [3.143, 2.000, 2.893, 1.964], atol=5e-4)
    assert list(result.mean_ranks.index) == ["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"]
    assert result.chi2 == pytest.approx(9.28, abs=5e-3)
    assert result.iman_davenport_f == pytest.approx(3.69, abs=5e-3)
    assert result.chi2 == pytest.approx(8.4 * (5116.5 / 196 - 25), rel=1e-12)
    # Demšar compares F_F with the alpha = 0.05 critical value of F(3, 39), 2.85, and rejects.
    assert sps.f.isf(0.05, 3, 39) == pytest.approx(2.85, abs=5e-3)
    assert result.p_iman_davenport < 0.05
    assert result.p_chi2 == pytest.approx(sps.chi2.sf(result.chi2, 3))
    assert result.p_iman_davenport == pytest.approx(sps.f.sf(result.iman_davenport_f, 3, 39))


def test_demsar_table_with_the_printed_tie(demsar_printed):
    # Keeping the rounded tie on 'voting' (0.975 = 0.975) gives C4.5+cf and C4.5+m+cf rank
    # 2.5 each there: rank sums 44, 28, 41, 27, so by hand
    #   sum R_j^2 = (1936 + 784 + 1681 + 729) / 196 = 5130 / 196
    #   chi^2_F = 8.4 * (5130/196 - 25) = 9.857142...,  F_F = 13 chi^2 / (42 - chi^2) = 3.98667
    result = friedman_test(demsar_printed)
    np.testing.assert_allclose(result.mean_ranks.to_numpy(), np.array([44, 28, 41, 27]) / 14)
    assert result.chi2 == pytest.approx(8.4 * (5130 / 196 - 25), rel=1e-12)
    assert result.iman_davenport_f == pytest.approx(13 * 9.857142857 / (42 - 9.857142857), rel=1e-8)
    # scipy applies a tie correction Demšar's formula does not, so it reports more.
    assert sps.friedmanchisquare(*demsar_printed.to_numpy().T).statistic > result.chi2 + 1.0


def test_tiny_hand_example(tiny_scores):
    # Mean ranks 2.25, 1.625, 2.125 (test_stats_ranks): sum R^2 = 12.21875, k(k+1)^2/4 = 12
    #   chi^2_F = 12*4/(3*4) * 0.21875 = 0.875
    #   F_F = 3 * 0.875 / (4*2 - 0.875) = 2.625 / 7.125 = 0.368421...
    result = friedman_test(tiny_scores)
    assert result.chi2 == pytest.approx(0.875, rel=1e-12)
    assert result.iman_davenport_f == pytest.approx(2.625 / 7.125, rel=1e-12)
    assert (result.df1, result.df2) == (2, 6)


@pytest.mark.parametrize("n, k", [(5, 3), (14, 4), (15, 5), (30, 7)])
def test_chi2_matches_scipy_without_ties(rng, n, k):
    scores = pd.DataFrame(rng.normal(size=(n, k)))  # continuous: no ties
    result = friedman_test(scores)
    expected = sps.friedmanchisquare(*scores.to_numpy().T)
    assert result.chi2 == pytest.approx(expected.statistic, rel=1e-10)
    assert result.p_chi2 == pytest.approx(expected.pvalue, rel=1e-8)


def test_direction_changes_ranks_not_statistics(rng):
    scores = pd.DataFrame(rng.normal(size=(10, 4)), columns=list("ABCD"))
    up, down = friedman_test(scores), friedman_test(scores, higher_is_better=False)
    assert up.chi2 == pytest.approx(down.chi2)
    assert up.iman_davenport_f == pytest.approx(down.iman_davenport_f)
    np.testing.assert_allclose(up.mean_ranks + down.mean_ranks, 5.0)


def test_degenerate_all_ranks_equal():
    # Every score tied on every data set: chi^2_F = 0, F_F = 0, nothing significant.
    result = friedman_test(pd.DataFrame(np.ones((6, 4)), columns=list("ABCD")))
    assert result.chi2 == 0.0
    assert result.iman_davenport_f == 0.0
    assert result.p_chi2 == 1.0 and result.p_iman_davenport == 1.0
    np.testing.assert_allclose(result.mean_ranks, 2.5)


def test_degenerate_balanced_ranks_without_ties():
    # Each method is first, second and third once: all R_j = 2, chi^2_F = 0.
    scores = pd.DataFrame([[3, 2, 1], [1, 3, 2], [2, 1, 3]], columns=list("ABC"), dtype=float)
    result = friedman_test(scores)
    assert result.chi2 == 0.0 and result.iman_davenport_f == 0.0
    assert result.p_iman_davenport == 1.0


def test_degenerate_perfect_agreement_gives_infinite_f():
    # Same order on every data set: chi^2_F = N(k-1), the F denominator vanishes.
    scores = pd.DataFrame([[3.0, 2.0, 1.0]] * 5, columns=list("ABC"))
    result = friedman_test(scores)
    assert result.chi2 == pytest.approx(5 * 2)
    assert math.isinf(result.iman_davenport_f) and result.iman_davenport_f > 0
    assert result.p_iman_davenport == 0.0
    assert result.p_chi2 == pytest.approx(sps.chi2.sf(10.0, 2))


def test_needs_two_data_sets():
    with pytest.raises(ValueError, match="at least 2 data sets"):
        friedman_test(pd.DataFrame([[1.0, 2.0, 3.0]]))


def test_nan_is_rejected(tiny_scores):
    tiny_scores.loc["d3", "A"] = np.nan
    with pytest.raises(ValueError, match="d3"):
        friedman_test(tiny_scores)


def test_result_is_frozen(tiny_scores):
    result = friedman_test(tiny_scores)
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.chi2 = 0.0  # type: ignore[misc]
