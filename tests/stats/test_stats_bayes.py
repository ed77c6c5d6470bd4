"""Per-claim tests across data sets (stats/bayes.py): Wilcoxon and the Bayesian signed-rank test
of Benavoli, Corani, Demšar and Zaffalon (JMLR 2017), checked against definitions by hand."""

import dataclasses
import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from forestrepro.stats import ClaimTest, pairwise_claim
from forestrepro.stats.bayes import VERDICTS, signed_rank_posterior


def _table(a, b, names=None):
    names = names or [f"d{i}" for i in range(len(a))]
    return pd.DataFrame({"A": a, "B": b}, index=names, dtype=float)


def _brute_force(z, rope, prior_strength, nsamples, rng):
    """Independent Monte Carlo of the test: Dirichlet weights on (0, z_1, ..., z_N), a loop over
    every pair (i, j) of the Walsh sums z_i + z_j, and the fraction of draws each region wins
    (the data below keep every sum off the ROPE's edges and off exact ties)."""
    points = [0.0, *z]
    weights = rng.dirichlet([prior_strength] + [1.0] * len(z), nsamples)
    theta = np.zeros((nsamples, 3))  # a better, equivalent, b better
    for i, zi in enumerate(points):
        for j, zj in enumerate(points):
            region = 0 if zi + zj > 2 * rope else 2 if zi + zj < -2 * rope else 1
            theta[:, region] += weights[:, i] * weights[:, j]
    return np.bincount(theta.argmax(axis=1), minlength=3) / nsamples


def test_differences_far_above_the_rope_on_many_data_sets_generalise(rng):
    b = rng.uniform(0.6, 0.9, 25)
    a = b + 0.05 + rng.uniform(-0.01, 0.01, 25)  # a better by 4 to 6 points everywhere
    result = pairwise_claim(_table(a, b), "A", "B", rope=0.01)
    assert isinstance(result, ClaimTest)
    assert result.n == 25 and result.rope == 0.01
    assert result.mean_difference == pytest.approx(np.mean(a - b))
    assert result.p_a_better > 0.999 and result.p_b_better == 0.0
    assert result.verdict == "generalises" and result.generalises
    assert result.wilcoxon_statistic == 25 * 26 / 2  # every difference positive: R+ = N(N+1)/2
    assert result.wilcoxon_p < 1e-6
    reversed_claim = pairwise_claim(_table(a, b), "B", "A", rope=0.01)
    assert reversed_claim.verdict == "reversed" and not reversed_claim.generalises


def test_differences_within_the_rope_are_equivalent_exactly():
    # Every Walsh sum z_i + z_j (and the prior's pseudo-observation at 0) lies inside (-2r, 2r),
    # so theta_eq = 1 in every draw and P(equivalent) = 1 exactly.
    z = np.array([0.004, -0.003, 0.002, 0.0, -0.001, 0.0045, -0.002, 0.003])
    b = np.full(len(z), 0.8)
    result = pairwise_claim(_table(b + z, b), "A", "B", rope=0.01)
    assert (result.p_a_better, result.p_equivalent, result.p_b_better) == (0.0, 1.0, 0.0)
    assert result.verdict == "equivalent"


def test_one_data_set_matches_the_closed_form():
    # N = 1: weights (w0, w1) = (w0, 1 - w0) with w0 ~ Beta(s, 1), P(w0 < t) = t^s.
    # z1 > 2r: theta_a = 1 - w0^2 (pairs (0, z1), (z1, 0), (z1, z1)), theta_eq = w0^2
    #          -> P(a better) = P(w0 < 2^-1/2) = 2^(-s/2).
    # r < z1 < 2r: theta_a = w1^2 (only (z1, z1)), theta_eq = 1 - w1^2
    #          -> P(a better) = P(w1 > 2^-1/2) = (1 - 2^-1/2)^s, as w1 ~ Beta(1, s).
    # Monte Carlo error of 50,000 draws: at most 0.0023; tolerance 0.01.
    for s in (0.5, 1.0):
        far = signed_rank_posterior(np.array([0.05]), 0.01, prior_strength=s)
        assert far[0] == pytest.approx(2 ** (-s / 2), abs=0.01)
        assert far[2] == 0.0 and sum(far) == pytest.approx(1.0)
        near = signed_rank_posterior(np.array([0.015]), 0.01, prior_strength=s)
        assert near[0] == pytest.approx((1 - 2**-0.5) ** s, abs=0.01)
        assert near[2] == 0.0
    inside = signed_rank_posterior(np.array([0.005]), 0.01)
    assert inside == (0.0, 1.0, 0.0)
    one = pairwise_claim(_table([0.85], [0.80]), "A", "B")  # 0.84 < 0.95: one data set proves nothing
    assert one.verdict == "inconclusive" and one.p_a_better == pytest.approx(2**-0.25, abs=0.01)


@pytest.mark.parametrize(
    "z, rope",
    [
        ([0.015, -0.004, 0.03], 0.01),  # all three regions have mass
        ([0.025, -0.018], 0.01),
        ([0.3, -0.7, 0.45], 0.1),
    ],
)
def test_small_cases_agree_with_a_brute_force_monte_carlo(z, rope):
    expected = _brute_force(z, rope, 0.5, 40_000, np.random.default_rng(17))
    got = signed_rank_posterior(np.array(z), rope, nsamples=50_000, seed=3)
    # Two independent estimates, each with standard error <= 0.0025: 0.015 is > 4 sigma.
    assert got == pytest.approx(tuple(expected), abs=0.015)


def test_wilcoxon_is_scipys_one_sided_zsplit_test_and_demsars_table_2(demsar_printed):
    # Demšar (2006), Table 2: AUC of C4.5+m against C4.5 on 14 data sets, R+ = 93, R- = 12
    # (two zero differences, their ranks split evenly). In thousandths, so that the
    # differences are exact and equal |d| share their rank as in the paper.
    milli = (demsar_printed * 1000).round()
    result = pairwise_claim(milli, "C4.5+m", "C4.5", rope=10.0)
    assert result.wilcoxon_statistic == 93.0
    ref = stats.wilcoxon(milli["C4.5+m"], milli["C4.5"], zero_method="zsplit", alternative="greater")
    assert result.wilcoxon_p == pytest.approx(ref.pvalue)
    assert result.wilcoxon_p < 0.05  # Demšar: T = min(93, 12) = 12 <= 21, significant at 0.05

    # A hand example: d = 2, 5, -1, 3, 0 -> ranks of |d| 3, 5, 2, 4, 1; R+ = 3 + 5 + 4 + 1/2.
    a, b = [80, 75, 60, 90, 70], [78, 70, 61, 87, 70]
    mine = pairwise_claim(_table(a, b), "A", "B", rope=1.0)
    assert mine.wilcoxon_statistic == 12.5
    ref = stats.wilcoxon(np.subtract(a, b), zero_method="zsplit", alternative="greater")
    assert mine.wilcoxon_p == pytest.approx(ref.pvalue)


def test_lower_is_better_flips_the_direction():
    a, b = [80, 75, 60, 90, 70], [78, 70, 61, 87, 70]  # read as errors: a is worse
    errors = pairwise_claim(_table(a, b), "A", "B", rope=1.0, higher_is_better=False)
    swapped = pairwise_claim(_table(a, b), "B", "A", rope=1.0)  # b better as accuracies
    assert errors.mean_difference == swapped.mean_difference == pytest.approx(-1.8)
    assert errors.wilcoxon_statistic == 15 - 12.5  # R+ of b - a = N(N+1)/2 - 12.5
    ref = stats.wilcoxon(np.subtract(b, a), zero_method="zsplit", alternative="greater")
    assert errors.wilcoxon_p == pytest.approx(ref.pvalue)
    assert (errors.p_a_better, errors.p_equivalent, errors.p_b_better) == (
        swapped.p_a_better,
        swapped.p_equivalent,
        swapped.p_b_better,
    )


def test_swapping_the_methods_mirrors_the_probabilities_exactly(rng):
    b = rng.uniform(0.6, 0.9, 12)
    a = b + rng.normal(0.006, 0.012, 12)  # straddles the ROPE: all three regions matter
    scores = _table(a, b)
    ab = pairwise_claim(scores, "A", "B", rope=0.01, seed=5)
    ba = pairwise_claim(scores, "B", "A", rope=0.01, seed=5)
    assert ab.p_a_better == ba.p_b_better and ab.p_b_better == ba.p_a_better
    assert ab.p_equivalent == ba.p_equivalent
    assert ab.mean_difference == -ba.mean_difference
    assert ab.wilcoxon_statistic + ba.wilcoxon_statistic == 12 * 13 / 2


def test_probabilities_sum_to_one_and_identical_methods_split_evenly(rng):
    for n, shift, rope in [(4, 0.0, 0.01), (10, 0.01, 0.01), (30, -0.004, 0.002), (7, 0.02, 0.0)]:
        b = rng.uniform(0.6, 0.9, n)
        p = signed_rank_posterior(b + rng.normal(shift, 0.01, n) - b, rope, nsamples=20_000)
        assert sum(p) == pytest.approx(1.0, abs=1e-12) and all(0.0 <= v <= 1.0 for v in p)
    # rope = 0 and no differences at all: every Walsh sum is on the edge, theta_a = theta_b in
    # every draw, and the tie is split (baycomp's argmax gives the first region instead).
    same = pairwise_claim(_table([0.8, 0.9, 0.7], [0.8, 0.9, 0.7]), "A", "B", rope=0.0)
    assert (same.p_a_better, same.p_equivalent, same.p_b_better) == (0.5, 0.0, 0.5)
    assert same.verdict == "inconclusive" and same.wilcoxon_p == 1.0


def test_the_rope_is_in_score_units():
    a = np.array([0.812, 0.775, 0.903, 0.688, 0.731, 0.850])
    b = np.array([0.801, 0.779, 0.881, 0.691, 0.716, 0.846])
    fraction = pairwise_claim(_table(a, b), "A", "B", rope=0.01)
    percent = pairwise_claim(_table(a * 100, b * 100), "A", "B", rope=1.0)
    wrong = pairwise_claim(_table(a * 100, b * 100), "A", "B", rope=0.01)  # 0.01 of a point
    probs = lambda r: (r.p_a_better, r.p_equivalent, r.p_b_better)
    assert probs(fraction) == pytest.approx(probs(percent), abs=1e-12)
    assert wrong.p_equivalent < 0.01 < fraction.p_equivalent


def test_same_seed_same_result_other_seed_other_draws(rng):
    b = rng.uniform(0.6, 0.9, 9)
    scores = _table(b + rng.normal(0.008, 0.01, 9), b)
    first = pairwise_claim(scores, "A", "B", seed=11)
    again = pairwise_claim(scores.copy(), "A", "B", seed=11)
    assert first == again and repr(first) == repr(again)
    other = pairwise_claim(scores, "A", "B", seed=12)
    assert (other.p_a_better, other.p_equivalent) != (first.p_a_better, first.p_equivalent)
    assert other.p_a_better == pytest.approx(first.p_a_better, abs=0.02)  # Monte Carlo noise only
    assert first.verdict in VERDICTS
    with pytest.raises(dataclasses.FrozenInstanceError):
        first.verdict = "generalises"


def test_missing_scores_raise_naming_the_data_set_other_columns_ignored():
    scores = pd.DataFrame(
        {"A": [0.8, np.nan, 0.7, 0.9], "B": [0.7, 0.6, np.inf, 0.8], "C": [np.nan] * 4},
        index=["iris", "wine", "glass", "vowel"],
    )
    with pytest.raises(ValueError, match=r"\['wine', 'glass'\]"):
        pairwise_claim(scores, "A", "B")
    kept = pairwise_claim(scores.loc[["iris", "vowel"]], "A", "B")  # column C's NaNs do not matter
    assert kept.n == 2
    dropped = pairwise_claim(scores[["A", "B"]].replace(np.inf, np.nan).dropna(), "A", "B")
    assert dropped == kept


def test_bad_arguments_are_refused():
    scores = _table([0.8, 0.7], [0.7, 0.6])
    with pytest.raises(KeyError, match="'Z'"):
        pairwise_claim(scores, "A", "Z")
    with pytest.raises(ValueError, match="different"):
        pairwise_claim(scores, "A", "A")
    with pytest.raises(ValueError, match="rope"):
        pairwise_claim(scores, "A", "B", rope=-0.01)
    with pytest.raises(ValueError, match="threshold"):
        pairwise_claim(scores, "A", "B", threshold=0.5)
    with pytest.raises(ValueError, match="nsamples"):
        pairwise_claim(scores, "A", "B", nsamples=0)
    with pytest.raises(ValueError, match="seed"):
        pairwise_claim(scores, "A", "B", seed=-1)
    with pytest.raises(ValueError, match="data set"):
        pairwise_claim(scores.iloc[:0], "A", "B")
    with pytest.raises(TypeError):
        pairwise_claim(scores.to_numpy(), "A", "B")
    assert math.isclose(pairwise_claim(scores, "A", "B", threshold=1.0).mean_difference, 0.1)
