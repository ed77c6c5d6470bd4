"""The exact chain (``c2rf.exact``): every step's bound <= the optimum <= every step's incumbent, and
``solve_exact`` reaches the brute-force / plain-model optimum with every step switched on or off."""

from __future__ import annotations

import itertools

import highspy
import numpy as np
import pytest
import scipy.sparse as sp

from forestrepro.c2rf import exact
from forestrepro.c2rf.bounds import (
    _z_model,
    combinatorial_bound,
    cover_lp_minimum,
    lp_cover_bound,
    realisability_cut,
)
from forestrepro.c2rf.committees import committee_search, committee_work, exact_eta
from forestrepro.c2rf.exact import ExactResult, solve_exact
from forestrepro.c2rf.preprocess import reduce
from forestrepro.c2rf.solver import Result, solve

SWITCH_SETS = [
    {},
    {"committees": False},
    {"local_search": False},
    {"relative_search": False},
    {"local_search": False, "relative_search": False},
    {"committees": False, "local_search": False},
    {"cover": False},
    {"clique": False},
    {"cover": False, "clique": False, "combinatorial": False},
    {"combinatorial": False},
    {"realise": False},
    {"committees": False, "local_search": False, "cover": False, "combinatorial": False},
    {"committees": False, "local_search": False, "cover": False},
    {"milp": False, "max_cut_rounds": 200},
]


def check_solution(result, R, lam, lower, upper):
    """alpha in the box, no point in the dead zone, z = [alpha^T r > 0], eta = |sum z - lambda|."""
    assert np.all(result.alpha >= lower - 1e-9) and np.all(result.alpha <= upper + 1e-9)
    scores = result.alpha @ R
    assert np.all(np.abs(scores) >= 1 - 1e-9)
    assert np.array_equal(result.z, (scores > 0).astype(np.int8))
    assert result.eta == abs(int(result.z.sum()) - lam)


@pytest.fixture(scope="module")
def medium_instances(random_votes):
    """(R, lambda, plain-model optimum) on instances too big for enumeration: t = 7, m = 60, votes
    leaning positive so that small lambdas fall below every reachable count (eta* > 0)."""
    rng = np.random.default_rng(7)
    cases = []
    for index in range(6):
        R = random_votes(rng, 7, 60, lean=0.25 if index % 2 else 0.0)
        R[-1] = R[0]
        lam = [0, 5, 30, 12, 55, 20][index]
        plain = solve(R, lam, preprocess=False, time_limit=60)
        assert plain.status == "optimal"
        cases.append((R, lam, plain.eta))
    assert any(eta > 0 for *_, eta in cases)
    return cases


def test_committees_are_feasible_and_no_better_than_optimum(tiny_instances, medium_instances):
    cases = [(R, lam, lo, up, eta) for R, lam, lo, up, eta, *_ in tiny_instances]
    cases += [(R, lam, 1.0, 100.0, eta) for R, lam, eta in medium_instances]
    found = 0
    for R, lam, lower, upper, eta in cases:
        reduction = reduce(R, lam, lower, upper)
        if len(reduction.w) == 0:
            continue
        value, alpha = committee_search(
            reduction.S, reduction.v, reduction.w, reduction.lam_bar, lower, upper
        )
        if alpha is None:
            continue
        found += 1
        assert np.all(alpha >= lower) and np.all(alpha <= upper)
        assert value == exact_eta(reduction.S, reduction.v, reduction.w, reduction.lam_bar, alpha)
        full = reduction.expand(alpha, np.zeros(len(reduction.w)))[0]
        scores = full @ R
        assert np.all(np.abs(scores) >= 1)
        assert abs(int((scores > 0).sum()) - lam) == value + reduction.eta_offset >= eta
    assert found >= len(cases) // 2


def test_committee_work_counts_both_loops():
    # 3 trees over 10 patterns (3 each), 4 weightings of their 2^3 cells (3 each)
    assert committee_work(3, 4, 10) == 3 * 10 + 3 * 4 * 8


def test_committees_stop_at_their_work_limit(medium_instances):
    """The search stops before the committee that would pass the limit: with no work allowed it
    tries nothing; with exactly the work of all single trees it tries those and no pair."""
    R, lam, _ = medium_instances[1]
    r = reduce(R, lam, 1.0, 100.0)
    assert committee_search(r.S, r.v, r.w, r.lam_bar, 1.0, 100.0, work_limit=0) == (float("inf"), None)
    singles = sum(
        committee_work(1, 1, len(r.w)) for g in range(r.S.shape[1]) if 1 + r.v.sum() - r.v[g] <= 100
    )
    limited = committee_search(r.S, r.v, r.w, r.lam_bar, 1.0, 100.0, work_limit=singles)
    dictators = committee_search(r.S, r.v, r.w, r.lam_bar, 1.0, 100.0, max_committee=1)
    assert limited[0] == dictators[0] and np.array_equal(limited[1], dictators[1])
    pair = committee_search(r.S, r.v, r.w, r.lam_bar, 1.0, 100.0, work_limit=singles + 1)
    assert pair[0] == dictators[0]  # the next committee (a pair) would pass the limit


def test_the_committees_answer_does_not_depend_on_the_clock(medium_instances, monkeypatch):
    """A machine so slow that every clock share is gone at once (each reading of the clock 5 s
    later than the last) gets the same committees, hence the same alpha, as this one."""
    normal = [solve_exact(R, lam, time_limit=10) for R, lam, _ in medium_instances]
    by_committees = [i for i, result in enumerate(normal) if result.solved_by == "committees"]
    assert by_committees

    class SlowClock:
        now = 0.0

        @classmethod
        def monotonic(cls) -> float:
            cls.now += 5.0
            return cls.now

    monkeypatch.setattr(exact, "time", SlowClock)
    for i in by_committees:
        R, lam, _ = medium_instances[i]
        slow = solve_exact(R, lam, time_limit=10)
        assert slow.solved_by == "committees"
        assert np.array_equal(slow.alpha, normal[i].alpha)


def test_exact_eta_rejects_dead_points():
    S = np.array([[1, -1], [1, 1]], dtype=np.int8)
    v, w = np.ones(2, dtype=np.int64), np.array([3, 1])
    assert exact_eta(S, v, w, 2, np.array([1.0, 1.0])) == float("inf")  # first score is 0
    assert exact_eta(S, v, w, 2, np.array([3.0, 1.0])) == 2.0  # both positive: |4 - 2|


def test_combinatorial_bound_is_at_most_the_optimum(tiny_instances, medium_instances):
    cases = [(R, lam, lo, up, eta) for R, lam, lo, up, eta, *_ in tiny_instances]
    cases += [(R, lam, 1.0, 100.0, eta) for R, lam, eta in medium_instances]
    for R, lam, lower, upper, eta in cases:
        reduction = reduce(R, lam, lower, upper)
        if len(reduction.w) == 0:
            continue
        bound, z, optimal = combinatorial_bound(reduction, lower, upper, time_limit=30)
        assert optimal and bound + reduction.eta_offset <= eta
        assert bound == abs(float(reduction.w @ z) - reduction.lam_bar)


def test_lp_cover_bound_is_the_lp_of_the_0_1_model(tiny_instances, medium_instances):
    """The min-cut LP bound is <= the 0-1 bound <= the optimum, and equals HiGHS's LP relaxation of
    the 0-1 model (rounded up: eta' is an integer)."""
    cases = [(R, lam, lo, up, eta) for R, lam, lo, up, eta, *_ in tiny_instances]
    cases += [(R, lam, 1.0, 100.0, eta) for R, lam, eta in medium_instances]
    for R, lam, lower, upper, eta in cases:
        reduction = reduce(R, lam, lower, upper)
        if len(reduction.w) == 0:
            continue
        cover = lp_cover_bound(reduction, lower, upper)
        bound, _, optimal = combinatorial_bound(reduction, lower, upper, time_limit=30)
        assert optimal and cover <= bound and cover + reduction.eta_offset <= eta
        lp = _z_model(reduction, lower, upper, [])
        relaxed = highspy.Highs()
        relaxed.setOptionValue("output_flag", False)
        relaxed.passModel(lp)
        n = lp.num_col_
        relaxed.changeColsIntegrality(
            n, np.arange(n, dtype=np.int32), np.full(n, highspy.HighsVarType.kContinuous)
        )
        relaxed.run()
        assert cover == max(0, np.ceil(relaxed.getInfo().objective_function_value - 1e-7))


def test_cover_lp_minimum_is_half_integral_feasible_and_the_lps_minimum(tiny_instances, medium_instances):
    """The half-integral z read off the closure satisfies every pair row, and w^T z is the minimum
    of w^T z over their LP (HiGHS, the rows of the 0-1 model but its cardinality rows)."""
    cases = [(R, lam, lo, up) for R, lam, lo, up, *_ in tiny_instances]
    cases += [(R, lam, 1.0, 100.0) for R, lam, _ in medium_instances]
    halves = 0
    for R, lam, lower, upper in cases:
        reduction = reduce(R, lam, lower, upper)
        h = len(reduction.w)
        if h == 0:
            continue
        value, z = cover_lp_minimum(reduction, lower, upper)
        assert set(np.unique(z)) <= {0.0, 0.5, 1.0} and float(reduction.w @ z) == value
        halves += int((z == 0.5).sum())
        lp = _z_model(reduction, lower, upper, [])
        a = lp.a_matrix_
        matrix = sp.csc_matrix((a.value_, a.index_, a.start_), shape=(lp.num_row_, lp.num_col_))
        pairs = matrix[: lp.num_row_ - 2, :h]
        activity = pairs @ z
        assert np.all(activity >= np.asarray(lp.row_lower_)[:-2] - 1e-9)
        assert np.all(activity <= np.asarray(lp.row_upper_)[:-2] + 1e-9)
        if pairs.shape[0] == 0:
            assert value == 0.0  # no row: z = 0
            continue
        relaxed = highspy.Highs()
        relaxed.setOptionValue("output_flag", False)
        relaxed.passModel(
            _pair_lp(pairs, np.asarray(lp.row_lower_)[:-2], np.asarray(lp.row_upper_)[:-2], reduction.w)
        )
        relaxed.run()
        assert value == pytest.approx(relaxed.getInfo().objective_function_value, abs=1e-7)
    assert halves > 0  # some LP optimum is fractional, so the test sees the 1/2 entries


def _pair_lp(matrix, lower, upper, w) -> highspy.HighsLp:
    """min w^T z over z in [0, 1]^h subject to lower <= matrix z <= upper."""
    matrix = sp.csc_matrix(matrix)
    matrix.sort_indices()
    lp = highspy.HighsLp()
    lp.num_col_, lp.num_row_ = matrix.shape[1], matrix.shape[0]
    lp.col_cost_ = np.asarray(w, dtype=np.float64)
    lp.col_lower_, lp.col_upper_ = np.zeros(matrix.shape[1]), np.ones(matrix.shape[1])
    lp.row_lower_, lp.row_upper_ = lower, upper
    lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
    lp.a_matrix_.start_ = matrix.indptr.astype(np.int32)
    lp.a_matrix_.index_ = matrix.indices.astype(np.int32)
    lp.a_matrix_.value_ = matrix.data.astype(np.float64)
    return lp


def test_combinatorial_model_keeps_every_feasible_z(tiny_reduced, reduced_z):
    """Every realisable z, with its own eta', satisfies every row of the 0-1 model (step 4's validity)."""
    pair_rows = 0
    for reduction, lower, upper, feasible in tiny_reduced:
        lp = _z_model(reduction, lower, upper, [])
        a = lp.a_matrix_
        matrix = sp.csc_matrix((a.value_, a.index_, a.start_), shape=(lp.num_row_, lp.num_col_))
        pair_rows += lp.num_row_ - 2  # the rows besides the two cardinality rows
        for z in feasible:
            zr = reduced_z(reduction, z)
            x = np.concatenate([zr, [abs(float(reduction.w @ zr) - reduction.lam_bar)]])
            activity = matrix @ x
            assert np.all(activity >= np.asarray(lp.row_lower_) - 1e-9)
            assert np.all(activity <= np.asarray(lp.row_upper_) + 1e-9)
    assert pair_rows > 0


def test_realisability_cuts_keep_every_feasible_z(tiny_instances, reduced_z):
    """Cuts from non-realisable sign patterns never cut off a realisable z; realisable z give alpha."""
    for R, lam, lower, upper, _, _, feasible in tiny_instances:
        reduction = reduce(R, lam, lower, upper)
        h = len(reduction.w)
        if h == 0 or h > 10:
            continue
        C = reduction.coefficients
        realisable = {tuple(reduced_z(reduction, z)) for z in feasible}
        for bits in itertools.product((0, 1), repeat=h):
            z = np.array(bits, dtype=np.int8)
            alpha, cut = realisability_cut(C, z, lower, upper)
            if alpha is not None:
                assert tuple(z) in realisable
                scores = C @ alpha
                assert np.all(np.where(z > 0, scores >= 1, scores <= -1))
                continue
            assert cut is not None and tuple(z) not in realisable
            index, sign = cut
            assert np.array_equal(sign, z[index])
            for good in realisable:
                good = np.array(good)
                assert np.sum(good[index] == sign) <= len(index) - 1


@pytest.mark.parametrize(
    "switches", SWITCH_SETS, ids=lambda s: ",".join(f"{k}={v}" for k, v in s.items()) or "all"
)
def test_solve_exact_reaches_brute_force_optimum(switches, tiny_instances):
    for R, lam, lower, upper, eta, *_ in tiny_instances:
        result = solve_exact(R, lam, lower=lower, upper=upper, time_limit=30, **switches)
        assert isinstance(result, ExactResult) and isinstance(result, Result)
        assert result.status == "optimal", (switches, result)
        assert result.eta == eta and result.best_bound == eta and result.gap == 0.0
        check_solution(result, R, lam, lower, upper)
        for step, incumbent, bound, _ in result.steps:
            assert bound <= eta <= incumbent, (step, result.steps)


@pytest.mark.parametrize(
    "switches", SWITCH_SETS, ids=lambda s: ",".join(f"{k}={v}" for k, v in s.items()) or "all"
)
def test_solve_exact_matches_plain_model(switches, medium_instances):
    for R, lam, eta in medium_instances:
        result = solve_exact(R, lam, time_limit=60, **switches)
        for step, incumbent, bound, _ in result.steps:
            assert bound <= eta <= incumbent, (step, result.steps)
        if switches.get("milp", True):
            assert result.status == "optimal" and result.eta == eta
        if result.status == "optimal":
            assert result.eta == eta and result.best_bound == eta
        if result.alpha is not None:
            check_solution(result, R, lam, 1.0, 100.0)


@pytest.mark.parametrize("lam", [0, 2, 4])
@pytest.mark.parametrize("vote", [-1, 1])
def test_every_point_fixed_is_proven_at_once(vote, lam):
    """Prop. 5 fixes every point when all trees agree on it; eta = |positives - lambda| is then the
    same for every alpha, so it is proven optimal by the preprocessing (found on ann_thyroid's simple
    random samples 1 and 4, where the chain reported bound 0 for eta 166)."""
    R = np.full((3, 4), vote)
    expected = abs((4 if vote > 0 else 0) - lam)
    result = solve_exact(R, lam, time_limit=5)
    assert (result.status, result.eta, result.best_bound, result.solved_by) == (
        "optimal",
        expected,
        expected,
        "preprocessing",
    )
    assert result.gap == 0.0
