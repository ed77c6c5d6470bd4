"""The clique bound (``c2rf.clique``): a certified bound on the weight of one sign that no
realisable z exceeds, its tables checked by enumeration, and worked examples by hand."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from forestrepro.c2rf.clique import _packings, _subset_max, _tree_masks, clique_bound, clique_weight
from forestrepro.c2rf.exact import solve_exact
from forestrepro.c2rf.preprocess import reduce


def test_subset_max_is_the_best_pattern_within_every_tree_set():
    rng = np.random.default_rng(3)
    q = 5
    masks = rng.choice(np.arange(1, 1 << q), size=12, replace=False).astype(np.int64)
    x = rng.random(12)
    value, arg = _subset_max(masks, x, q)
    for U in range(1 << q):
        inside = [k for k in range(12) if masks[k] & U == masks[k]]
        if not inside:
            assert (value[U], arg[U]) == (-1.0, -1)
        else:
            assert value[U] == max(x[inside]) and x[arg[U]] == value[U] and masks[arg[U]] & U == masks[arg[U]]


def test_packings_are_disjoint_and_violated():
    rng = np.random.default_rng(4)
    q = 6
    masks = rng.choice(np.arange(1, 1 << q), size=20, replace=False).astype(np.int64)
    x = rng.random(20)
    found = _packings(masks, x, q, limit=1000)
    assert found
    for packing in found:
        assert x[packing].sum() > 1
        for a, b in itertools.combinations(packing, 2):
            assert masks[a] & masks[b] == 0


def test_three_disjoint_single_tree_sets_allow_one_negative():
    """Worked example: patterns voting -1 on tree 1, 2 or 3 alone. alpha^T s_1 <= -1 needs
    alpha_1 >= alpha_2 + alpha_3 + 1, so at most one is negative: the weight of the negatives is at
    most 1 (the LP of the pair rows alone allows 1/2 each, 1.5); on the + side, where the three
    sets {2,3}, {1,3}, {1,2} pairwise intersect, all three can be positive: 3."""
    S = np.array([[-1, 1, 1], [1, -1, 1], [1, 1, -1]], dtype=np.int8)
    w = np.ones(3)
    negative, exhausted, _, _ = clique_weight(S, w, -1, time_limit=10)
    assert exhausted and negative == pytest.approx(1.0)
    positive, exhausted, _, _ = clique_weight(S, w, 1, time_limit=10)
    assert exhausted and positive == pytest.approx(3.0)


def test_two_element_sets_of_three_trees_are_bounded_by_the_largest_intersecting_family():
    """Worked example: the -1 sets are all nonempty subsets of 3 trees but the full one. The largest
    intersecting family has 3 sets (a star {1}, {1,2}, {1,3}, or {1,2}, {1,3}, {2,3}); the packings
    {1},{2},{3} and {i},{j,k} give 3 as the LP's optimum too."""
    sets = [s for r in (1, 2) for s in itertools.combinations(range(3), r)]
    S = np.ones((len(sets), 3), dtype=np.int8)
    for k, trees in enumerate(sets):
        S[k, list(trees)] = -1
    weight, exhausted, _, _ = clique_weight(S, np.ones(len(sets)), -1, time_limit=10)
    assert exhausted and weight == pytest.approx(3.0)


def test_clique_weight_bounds_every_realisable_sign_set(tiny_reduced, reduced_z):
    """No realisable z (enumerated with its alpha) puts more weight on either sign than the bound."""
    checked = 0
    for reduction, _, _, feasible in tiny_reduced:
        negative, *_ = clique_weight(reduction.S, reduction.w, -1, time_limit=10)
        positive, *_ = clique_weight(reduction.S, reduction.w, 1, time_limit=10)
        for z in feasible:
            zr = reduced_z(reduction, z)
            assert float(reduction.w @ (1 - zr)) <= negative + 1e-9
            assert float(reduction.w @ zr) <= positive + 1e-9
            checked += 1
    assert checked > 20


def test_clique_bound_is_at_most_the_optimum(tiny_instances, random_votes):
    """On tiny instances (brute force) and on larger ones leaning positive, where lambda lies below
    the reachable counts and the bound is positive (checked against the plain model)."""
    cases = [(R, lam, lo, up, eta) for R, lam, lo, up, eta, *_ in tiny_instances]
    rng = np.random.default_rng(11)
    for index in range(4):
        R = random_votes(rng, 6, 50, lean=0.3)
        lam = [2, 5, 0, 8][index]
        cases.append((R, lam, 1.0, 100.0, solve_exact(R, lam, clique=False, time_limit=60).eta))
    positive = 0
    for R, lam, lower, upper, eta in cases:
        reduction = reduce(R, lam, lower, upper)
        if len(reduction.w) == 0:
            continue
        found = clique_bound(reduction, time_limit=10)
        assert found.bound + reduction.eta_offset <= eta
        positive += found.bound > 0
    assert positive >= 3


def test_tree_masks_refuse_more_trees_than_the_table_holds():
    with pytest.raises(ValueError, match="q <= 22"):
        _tree_masks(np.ones((2, 23), dtype=np.int8), -1)


def test_the_rounds_stop_once_the_bound_meets_the_target():
    """With the optimum's weight as target, the rounds stop at the first certified bound at most it
    (the worked example of three single-tree sets: 1), in no more rounds than without a target."""
    S = np.array([[-1, 1, 1], [1, -1, 1], [1, 1, -1]], dtype=np.int8)
    free_history, target_history = [], []
    clique_weight(S, np.ones(3), -1, time_limit=10, history=free_history)
    weight, _, rounds, _ = clique_weight(S, np.ones(3), -1, time_limit=10, target=1.0, history=target_history)
    assert weight == pytest.approx(1.0) and rounds == len(target_history) <= len(free_history)
    early, _, rounds, _ = clique_weight(S, np.ones(3), -1, time_limit=10, target=3.0)
    assert rounds == 1 and early == pytest.approx(3.0)  # the first LP (no rows) already meets it
