"""The relative search of the exact chain (step 3b, ``c2rf/relative_search.py``) against brute force."""

from __future__ import annotations

import numpy as np
import pytest

from forestrepro.c2rf.committees import committee_search, exact_eta
from forestrepro.c2rf.heuristic import coordinate_search, evaluate
from forestrepro.c2rf.preprocess import reduce
from forestrepro.c2rf.relative_search import relative_search


def _reduced(R, lam, lower, upper):
    reduction = reduce(R, lam, lower, upper)
    return reduction, reduction.coefficients, reduction.w, reduction.lam_bar


def test_relative_search_is_feasible_never_worse_and_never_below_the_optimum(tiny_instances):
    """From the committees' alpha and from random points of the box: the result lies in the box,
    is no worse than its start, and its eta' is the exact count's; feasible results are no better
    than the brute-force optimum (eta* - eta_offset on the reduced problem)."""
    rng = np.random.default_rng(3)
    checked = 0
    for R, lam, lower, upper, eta_star, *_ in tiny_instances:
        reduction, C, w, lam_bar = _reduced(R, lam, lower, upper)
        if not len(w):
            continue
        S, v = reduction.S, reduction.v
        _, committee = committee_search(S, v, w, lam_bar, lower, upper)
        starts = [rng.uniform(lower, upper, C.shape[1]) for _ in range(5)]
        for start in ([committee] if committee is not None else []) + starts:
            scaled = start * (upper / start.max())
            alpha, dead, eta = relative_search(C, w, lam_bar, lower, upper, start, np.random.default_rng(0))
            assert np.all(alpha >= lower) and np.all(alpha <= upper)
            assert (dead, eta) <= evaluate(C, w, lam_bar, scaled)
            assert (dead, eta) == evaluate(C, w, lam_bar, alpha)
            if dead == 0:
                assert eta == exact_eta(S, v, w, lam_bar, alpha)
                assert eta + reduction.eta_offset >= eta_star
                checked += 1
    assert checked > 10


def test_scaling_keeps_the_count_and_lifts_edge_points_off_the_dead_zone():
    """A dictator alpha = (3, 1, 1) puts pattern (+, -, -) at score exactly 1, the edge of the dead
    zone; scaled to max alpha = 100 its score is 100/3 and the count is unchanged (no move taken)."""
    R = np.array([[1, 1, -1], [-1, 1, 1], [-1, -1, 1]])  # trees x points
    C, w = R.T.astype(np.float64), np.ones(3)
    start = np.array([3.0, 1.0, 1.0])
    assert list(C @ start) == [1.0, 3.0, -1.0]
    lam = 2  # the dictator's count: eta' = 0 at once
    alpha, dead, eta = relative_search(C, w, lam, 1.0, 100.0, start, np.random.default_rng(0))
    assert (dead, eta) == (0.0, 0.0)
    assert np.allclose(alpha, start * 100 / 3) and np.allclose(C @ alpha, [100 / 3, 100, -100 / 3])


def test_relative_search_leaves_the_dead_zone_edge_where_coordinate_moves_are_stuck(random_votes):
    """An instance (found by a search over 3,000 seeded random ones) where the committees' alpha
    misses lambda_bar by one and single-weight and pair moves from it cannot reach it, while the
    relative moves reach eta' = 0 (connect_4's simple random sample 1 is such a case at full size)."""
    rng = np.random.default_rng(2865)
    t, m = int(rng.integers(4, 8)), int(rng.integers(10, 40))
    R = random_votes(rng, t, m, 0.0)
    lam = int(rng.integers(0, m + 1))
    reduction, C, w, lam_bar = _reduced(R, lam, 1.0, 100.0)
    eta0, committee = committee_search(reduction.S, reduction.v, w, lam_bar, 1.0, 100.0)
    assert eta0 == 1
    _, dead, eta = coordinate_search(C, w, lam_bar, 1.0, 100.0, committee, np.random.default_rng(0))
    assert (dead, eta) != (0.0, 0.0)
    alpha, dead, eta = relative_search(C, w, lam_bar, 1.0, 100.0, committee, np.random.default_rng(0))
    assert (dead, eta) == (0.0, 0.0)
    assert exact_eta(reduction.S, reduction.v, w, lam_bar, alpha) == 0


@pytest.mark.parametrize("alpha", [[0.5, 2.0], [1.0, 101.0]])
def test_relative_search_rejects_a_start_outside_the_box(alpha):
    C, w = np.array([[1.0, -1.0], [1.0, 1.0]]), np.ones(2)
    with pytest.raises(ValueError, match="relative_search needs"):
        relative_search(C, w, 1, 1.0, 100.0, np.array(alpha), np.random.default_rng(0))
