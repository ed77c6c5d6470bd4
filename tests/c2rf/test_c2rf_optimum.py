"""Every approach, cut and heuristic reaches the brute-force optimum on small instances."""

from __future__ import annotations

import numpy as np
import pytest

from forestrepro.c2rf.approaches import APPROACHES
from forestrepro.c2rf.cuts import conflict_pairs, dominance_pairs, paper_big_m, row_big_m
from forestrepro.c2rf.experiment import solve_approach
from forestrepro.c2rf.heuristic import local_search
from forestrepro.c2rf.model import build_lp
from forestrepro.c2rf.preprocess import identity, reduce
from forestrepro.c2rf.priorities import priorities, priority_dive
from forestrepro.c2rf.solver import solve

SWITCHES = [
    {"preprocess": False},
    {"preprocess": False, "big_m": "row"},
    {"preprocess": False, "dominance": True},
    {"preprocess": False, "dominance": True, "conflicts": True},
    {"preprocess": True, "conflicts": True},
    {"preprocess": False, "integral_eta": True},
    {"preprocess": False, "local_search": True},
    {"preprocess": False, "priority_dive": True},
    {"preprocess": True, "big_m": "row", "dominance": True},
    {"preprocess": True, "highs_options": {"mip_heuristic_run_feasibility_jump": False}},
]


def check_solution(result, R, lam, lower, upper):
    """alpha in the box, no point in the dead zone, z = [alpha^T r > 0], eta = |sum z - lambda|."""
    assert np.all(result.alpha >= lower - 1e-9) and np.all(result.alpha <= upper + 1e-9)
    scores = result.alpha @ R
    assert np.all(np.abs(scores) >= 1 - 1e-6)
    assert np.array_equal(result.z, (scores > 0).astype(np.int8))
    assert result.eta == abs(int(result.z.sum()) - lam)


@pytest.mark.parametrize("name", [n for n, kwargs in APPROACHES.items() if kwargs is not None])
def test_presets_reach_brute_force_optimum(name, tiny_instances):
    for R, lam, lower, upper, eta, *_ in tiny_instances:
        result = solve_approach(R, lam, lower=lower, upper=upper, time_limit=30, **APPROACHES[name])
        assert result.status == "optimal", (name, result)
        assert result.eta == eta and result.best_bound == eta and result.gap == 0.0
        check_solution(result, R, lam, lower, upper)


@pytest.mark.parametrize("switches", SWITCHES, ids=lambda s: ",".join(f"{k}={v}" for k, v in s.items()))
def test_switches_reach_brute_force_optimum(switches, tiny_instances):
    for R, lam, lower, upper, eta, *_ in tiny_instances:
        result = solve(R, lam, lower=lower, upper=upper, time_limit=30, **switches)
        assert result.status == "optimal" and result.eta == eta
        check_solution(result, R, lam, lower, upper)


def test_pair_cuts_keep_every_feasible_z(tiny_instances):
    """Dominance and conflict cuts hold for every z some alpha realises, so they cut off no optimum."""
    for R, _, lower, upper, _, optima, feasible in tiny_instances:
        assert all(any(np.array_equal(z, f) for f in feasible) for z in optima)
        order = dominance_pairs(R.T)
        not_negative, not_positive = conflict_pairs(R.T, order, lower, upper)
        assert len(order) and len(not_negative) + len(not_positive)
        for z in feasible:
            assert np.all(z[order[:, 0]] >= z[order[:, 1]])
            assert np.all(z[not_negative].sum(axis=1) >= 1)
            assert np.all(z[not_positive].sum(axis=1) <= 1)


def test_conflict_pairs_hand_made():
    S = np.array([[1, 1, -1], [-1, 1, 1], [-1, -1, 1], [1, -1, -1]])
    # -1 votes: A_0 = {3}, A_1 = {1}, A_2 = {1, 2}, A_3 = {2, 3}; dominance: 0 > 3 and 1 > 2.
    # Not both negative when A_a and A_b are disjoint: (0,1), (0,2), (1,3); (0,1) follows from
    # (3,1) and z_0 >= z_3, so the minimal pairs are (0,2) and (1,3).
    # Not both positive when B_a and B_b are disjoint (B_0 = {1,2}, B_1 = {2,3}, B_2 = {3}, B_3 = {1}):
    # (0,2), (1,3), (2,3); (2,3) follows from (1,3) and z_1 >= z_2.
    order = dominance_pairs(S)
    not_negative, not_positive = conflict_pairs(S, order, 1.0, 100.0)
    assert {tuple(p) for p in order.tolist()} == {(0, 3), (1, 2)}
    assert not_negative.tolist() == [[0, 2], [1, 3]] and not_positive.tolist() == [[0, 2], [1, 3]]
    # with u = 1.5, one shared -1 vote cannot outweigh one shared +1 vote by 1: 1.5 * 1 - 1 * 1 < 1
    S2 = np.array([[-1, 1, 1], [-1, 1, -1]])
    none = np.empty((0, 2), dtype=np.int64)
    assert conflict_pairs(S2, none, 1.0, 1.5)[0].tolist() == [[0, 1]]
    assert conflict_pairs(S2, none, 1.0, 100.0)[0].tolist() == []


def test_dominance_pairs_are_the_transitive_reduction():
    S = np.array([[-1, -1, -1], [1, -1, -1], [1, 1, -1], [1, 1, 1], [-1, 1, -1], [1, -1, -1]])
    # rows 1 and 5 are equal (chained both ways); covers: 1>0, 4>0, 2>1, 2>4, 3>2
    pairs = {tuple(p) for p in dominance_pairs(S).tolist()}
    assert pairs == {(1, 0), (4, 0), (2, 1), (2, 4), (3, 2), (5, 1), (1, 5)}


def test_row_big_m_is_the_extreme_score_plus_one():
    coefficients = np.array([[2.0, 1.0, -1.0], [-2.0, -1.0, -1.0]])
    Mb, Mc = row_big_m(coefficients, 1.0, 100.0)
    # row 1: max = 100*3 - 1*1 = 299, min = 1*3 - 100*1 = -97; row 2: max = -4, min = -400
    assert Mb.tolist() == [300.0, -3.0] and Mc.tolist() == [98.0, 401.0]
    assert np.all(Mb <= paper_big_m(2, 4, 100.0)[0]) and np.all(Mc <= paper_big_m(2, 4, 100.0)[1])


def test_heuristics_give_feasible_points_no_better_than_optimum(tiny_instances):
    for R, lam, lower, upper, eta, *_ in tiny_instances:
        for reduction in (identity(R, lam), reduce(R, lam, lower, upper)):
            C = reduction.coefficients
            if len(C) == 0:
                continue
            offset = reduction.eta_offset
            start = local_search(C, reduction.w, reduction.lam_bar, lower, upper, seed=0, time_limit=5)
            Mb, Mc = row_big_m(C, lower, upper)
            lp, _ = build_lp(C, reduction.w, reduction.lam_bar, reduction.eta_bar, lower, upper, Mb, Mc)
            majority = (C.sum(axis=1) > 0).astype(float)
            dive = priority_dive(lp, C.shape[1], priorities(C), majority, reduction.w, reduction.lam_bar, 5)
            for point in (start, dive):
                assert point is not None
                scores = C @ point.alpha
                assert np.all(np.abs(scores) >= 1 - 1e-6)
                assert np.array_equal(point.z, (scores > 0).astype(np.int8))
                assert point.eta + offset >= eta


def test_priorities_rank_agreement():
    C = np.array([[1, 1, 1, 1], [1, -1, 1, 1], [1, -1, -1, 1], [-1, -1, -1, -1], [1, -1, 1, -1]], dtype=float)
    # theta = |mean| = 1, 0.5, 0, 1, 0 -> dense ranks 3, 2, 1, 3, 1
    assert priorities(C).tolist() == [3, 2, 1, 3, 1]
