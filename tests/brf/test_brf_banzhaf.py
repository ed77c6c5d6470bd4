"""The Banzhaf power index: closed-form counting against brute-force enumeration of
coalitions, the paper's worked example (Sec. 4.2) and its M_2 formula (Sec. 4.4)."""

import itertools
from math import comb

import numpy as np
import pytest
from banzhaf_reference import banzhaf_index, normalize

from forestrepro.trees.banzhaf import won_coalitions


def brute_force(interdependent, max_coalition):
    """Eq. (1) / Sec. 4.4 by enumerating every coalition S of the other features: S is won
    when at least half of it is interdependent with i (Eq. 3), never when empty."""
    n = interdependent.shape[0]
    beta = np.zeros(n)
    for i in range(n):
        others = [j for j in range(n) if j != i]
        won = counted = 0
        for size in range(n):
            if max_coalition is not None and not 1 <= size <= max_coalition:
                continue
            for coalition in itertools.combinations(others, size):
                counted += 1
                k = sum(bool(interdependent[i, j]) for j in coalition)
                won += size > 0 and 2 * k >= size
        denominator = 2 ** (n - 1) if max_coalition is None else counted
        beta[i] = won / denominator if denominator else 0.0
    return beta


@pytest.mark.parametrize("max_coalition", [None, 1, 2, 3, 4, 5, 20])
def test_closed_form_equals_brute_force(max_coalition):
    rng = np.random.default_rng(0 if max_coalition is None else max_coalition)
    for _ in range(60):
        n = int(rng.integers(1, 10))
        interdependent = rng.random((n, n)) < rng.random()
        np.testing.assert_array_equal(
            banzhaf_index(interdependent, max_coalition), brute_force(interdependent, max_coalition)
        )


def test_worked_example_three_eighths():
    # Sec. 4.2: players f1..f4; f4 wins {f2}, {f2, f3}, {f1, f2}: only f2 is
    # interdependent with f4, so beta_f4 = 3 / 2**3.
    interdependent = np.zeros((4, 4), dtype=bool)
    interdependent[3, 1] = True
    assert banzhaf_index(interdependent)[3] == 3 / 8
    assert won_coalitions(1, 3, 3, np.empty(4), np.empty(4)) == 3


def test_count_by_size_matches_the_sum_over_k():
    # sum_s W_s with W_s = sum_{k >= ceil(s/2)} C(a, k) C(n-1-a, s-k), exact integers
    for n_others in (5, 12, 30):
        for a in range(n_others + 1):
            for bound in (1, 2, 3, 5, n_others):
                expected = sum(
                    comb(a, k) * comb(n_others - a, s - k)
                    for s in range(1, bound + 1)
                    for k in range((s + 1) // 2, s + 1)
                )
                scratch = np.empty((2, n_others + 1))
                assert won_coalitions(a, n_others, bound, scratch[0], scratch[1]) == expected


def test_paper_m2_formula_counts_the_feature_itself():
    # Sec. 4.4: M_2 = C(M_1, 2) + C(M_1, 1) C(n - M_1, 1) with n the node's features.
    # The worked example (n = 4, M_1 = 1) has 2 won pairs, {f2, f3} and {f1, f2}.
    n, m1 = 4, 1
    paper = comb(m1, 2) + comb(m1, 1) * comb(n - m1, 1)
    right = comb(m1, 2) + comb(m1, 1) * comb(n - 1 - m1, 1)
    scratch = np.empty((2, n))
    two_member = won_coalitions(m1, n - 1, 2, scratch[0], scratch[1]) - won_coalitions(
        m1, n - 1, 1, scratch[0], scratch[1]
    )
    assert (paper, right, two_member) == (3, 2, 2)


def test_index_strictly_increases_with_interdependent_partners():
    # beta depends on a feature only through its number a of partners, increasingly, so
    # the coalition bound never changes which feature has the largest index.
    n = 9
    for bound in (None, 1, 3, 5):
        interdependent = np.tri(n, n, -1, dtype=bool)  # feature i has i partners
        beta = banzhaf_index(interdependent, bound)
        assert np.all(np.diff(beta) > 0)


def test_normalize():
    beta = np.array([0.5, 0.25, 0.25])
    np.testing.assert_allclose(normalize(beta), [0.5, 0.25, 0.25])
    np.testing.assert_allclose(normalize(np.zeros(4)), np.full(4, 0.25))
    zeta = normalize(banzhaf_index(np.random.default_rng(1).random((6, 6)) < 0.5, 3))
    assert zeta.sum() == pytest.approx(1.0)


def test_input_checks():
    with pytest.raises(ValueError, match="square"):
        banzhaf_index(np.zeros((2, 3), dtype=bool))
    with pytest.raises(TypeError, match="boolean"):
        banzhaf_index(np.zeros((2, 2)))
    with pytest.raises(ValueError, match=">= 1"):
        banzhaf_index(np.zeros((2, 2), dtype=bool), 0)
    with pytest.raises(ValueError, match="max_coalition"):
        banzhaf_index(np.zeros((1025, 1025), dtype=bool))
    assert banzhaf_index(np.zeros((1025, 1025), dtype=bool), 3).shape == (1025,)
    assert banzhaf_index(np.zeros((0, 0), dtype=bool)).shape == (0,)
