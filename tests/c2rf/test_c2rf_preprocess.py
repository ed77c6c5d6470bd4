"""Props. 3-5 and Algorithm 1's preprocessing on a hand-made R (worked numbers in the comments)."""

from __future__ import annotations

import numpy as np
import pytest

from forestrepro.c2rf.preprocess import fixed_classes, identity, merge_trees, reduce, unique_patterns
from forestrepro.c2rf.solver import solve

# 4 trees (rows) x 6 points (columns). Tree 4 repeats tree 1 (Prop. 4). Points 2, 3 and 6 share the
# pattern (1, 1, -1, 1) (Prop. 3). Point 1 is voted +1 by every tree, point 4 -1 by every tree (Prop. 5).
R = np.array(
    [
        [1, 1, 1, -1, -1, 1],
        [1, 1, 1, -1, 1, 1],
        [1, -1, -1, -1, -1, -1],
        [1, 1, 1, -1, -1, 1],
    ]
)


def test_prop3_distinct_points_with_weights():
    patterns, w, inverse = unique_patterns(R)
    # lexicographic: (-1,-1,-1,-1) point 4; (-1,1,-1,-1) point 5; (1,1,-1,1) points 2,3,6; (1,1,1,1) point 1
    assert patterns.tolist() == [[-1, -1, -1, -1], [-1, 1, -1, -1], [1, 1, -1, 1], [1, 1, 1, 1]]
    assert w.tolist() == [1, 1, 3, 1]
    assert inverse.tolist() == [3, 2, 2, 0, 1, 2]
    assert np.array_equal(patterns[inverse].T, R)


def test_prop4_identical_trees_merged():
    patterns, _, _ = unique_patterns(R)
    group, v = merge_trees(patterns)
    assert group.tolist() == [0, 1, 2, 0]  # trees 1 and 4 share a weight
    assert v.tolist() == [2, 1, 1]


def test_prop5_fixing_with_paper_bounds():
    patterns, _, _ = unique_patterns(R)
    # l = 1, u = 100: phi_i = -100|A_i| + |B_i|, phi'_i = -|A_i| + 100|B_i|.
    # (1,1,-1,1): phi = -100 + 3 = -97 < 1, phi' = -1 + 300 = 299 > -1: free.
    # (1,1,1,1): phi = 4 >= 1: z = 1.  (-1,-1,-1,-1): phi' = -4 <= -1: z = 0.
    assert fixed_classes(patterns, 1.0, 100.0).tolist() == [-1, 0, 0, 1]


def test_prop5_fixing_with_narrow_bounds():
    patterns, _, _ = unique_patterns(R)
    # l = 1, u = 2: (1,1,-1,1): phi = -2*1 + 1*3 = 1 >= 1, so z = 1 (three votes >= 3 beat one <= 2);
    # (-1,1,-1,-1): phi' = -1*3 + 2*1 = -1 <= -1, so z = 0.
    assert fixed_classes(patterns, 1.0, 2.0).tolist() == [-1, -1, 1, 1]


def test_algorithm1_lambda_update_and_reduced_rows():
    reduction = reduce(R, 2, 1.0, 100.0)
    # beta = 1 (point 1), gamma = 1 (point 4): lambda_bar = max(0, 2 - 1) = 1,
    # eta_bar = max(1, 6 - 1 - 1 - 1) = 3.
    assert (reduction.lam_bar, reduction.eta_bar, reduction.eta_offset) == (1, 3, 0)
    assert reduction.w.tolist() == [1, 3]
    # free rows over merged trees (1&4, 2, 3), coefficients s_k = S_k * v with v = (2, 1, 1)
    assert reduction.coefficients.tolist() == [[-2, 1, -1], [2, 1, -1]]


def test_algorithm1_lambda_below_fixed_positives():
    reduction = reduce(R, 0, 1.0, 100.0)
    # beta = 1 > lambda = 0: lambda_bar = 0 and the original eta = eta' + (beta - lambda) = eta' + 1
    assert (reduction.lam_bar, reduction.eta_offset) == (0, 1)
    assert (
        solve(R, 0, preprocess=True, time_limit=10).eta
        == solve(R, 0, preprocess=False, time_limit=10).eta
        == 1
    )


def test_expand_maps_back_to_points_and_trees():
    reduction = reduce(R, 2, 1.0, 100.0)
    alpha, z = reduction.expand(np.array([5.0, 1.0, 1.0]), np.array([0, 1]))
    assert alpha.tolist() == [5.0, 1.0, 1.0, 5.0]
    assert z.tolist() == [1, 1, 1, 0, 0, 1]


def test_identity_is_problem_2_as_printed():
    reduction = identity(R, 2)
    assert reduction.S.shape == (6, 4) and reduction.w.tolist() == [1] * 6 and reduction.eta_bar == 4


@pytest.mark.parametrize("lam", [0, 1, 2, 3, 4, 5, 6])
def test_reduction_keeps_the_optimum(lam):
    # lambda = 4 needs points 1, 2, 3, 6 positive and 4, 5 negative: alpha = (1, 1, 1, 1) scores 2 on
    # (1,1,-1,1) and -2 on (-1,1,-1,-1), so eta* = 0 there.
    plain = solve(R, lam, preprocess=False, time_limit=10)
    reduced = solve(R, lam, preprocess=True, time_limit=10)
    assert plain.status == reduced.status == "optimal"
    assert plain.eta == reduced.eta
    if lam == 4:
        assert plain.eta == 0
