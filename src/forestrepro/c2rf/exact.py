"""An exact solver for C2RF (Problem (2)) that proves optimality with bounds before it calls the MILP.

Ours, not in the paper (issue 21, item 2). It works on the reduced problem of Algorithm 1
(``preprocess.reduce``): free patterns s_k = S[k] * v over the merged trees, point weights w_k,
lambda_bar, and eta = eta_offset + eta' with eta' = |w^T z - lambda_bar|. The steps, each a switch
of ``solve_exact``, stop as soon as the incumbent's eta meets the lower bound:

1. ``preprocess``: Props. 3-5 (always on here; the steps below need the reduced problem).
2. ``committees`` (upper bound): every weighted-majority game with a *committee* of at most
   ``max_committee`` merged trees whose integer weights (scaled by K) outvote all other trees
   together, the other trees breaking the committee's ties (``committee_search``). A committee of
   one tree is a dictator. Each candidate alpha lies in [l, u] and its eta is evaluated exactly,
   in integer arithmetic, with the model's definition (no point in the dead zone (-1, 1)).
3. ``local_search`` (upper bound): ``heuristic.coordinate_search`` from the best committee, then
   ``heuristic.local_search``.
4. ``cover`` (lower bound): the LP relaxation of the 0-1 model of step 5, solved exactly by two
   minimum cuts (``lp_cover_bound``); fast on the largest instances, where step 5 stalls.
5. ``combinatorial`` (lower bound): drop alpha and keep only the pair implications every feasible z
   obeys (dominance and conflicts, ``cuts.py``); the resulting 0-1 model on z alone is solved by
   HiGHS (``combinatorial_bound``, whose docstring has the validity argument).
6. ``realise`` (cuts): if the 0-1 model was solved to optimality, one LP checks whether its optimal
   z is realised by some alpha in [l, u]^q. If so that z is optimal for Problem (2). If not, the LP's
   Farkas ray names an infeasible subsystem, whose sign pattern is cut off (a valid no-good), and the
   0-1 model is solved again (``realisability_cut``). The rounds stop after ``max_cut_rounds``, at
   the bound's time share, or when the pace of the last three rounds cannot close the gap in time.
7. ``milp``: the p-C2RF+ model of ``solver.solve`` (row big-M, dominance, conflicts, integral eta)
   with eta >= the proven bound, started from the incumbent, for the remaining time.

``solve_exact`` returns ``solver.Result`` (an ``ExactResult``, which adds the per-step log);
``solved_by`` names the step whose bound or solution closed the gap: 'preprocessing',
'committees' / 'local_search' (an incumbent with eta' = 0 or meeting an earlier bound), 'cover' or
'combinatorial' (that bound met the incumbent), 'realise' (the 0-1 optimum was realised by an LP,
possibly after cut rounds), 'milp'; without a proof, the last step that ran.

Not built (yet): splitting instances whose lambda_bar falls into a hole between reachable counts
into a dictator and a no-dictator case; such instances go through steps 5-7 like the others.
"""

from __future__ import annotations

import itertools
import math
import time
from dataclasses import dataclass

import highspy
import numba
import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import maximum_flow

from .cuts import row_big_m
from .heuristic import Start, coordinate_search
from .heuristic import local_search as run_local_search
from .model import build_lp
from .preprocess import Reduction, reduce
from .solver import EXACT_GAP, Result, _pair_cuts, _run_highs


@dataclass(frozen=True)
class ExactResult(Result):
    """``Result`` plus ``steps``: one (step, incumbent eta, lower bound, seconds since start) per step
    that ran, in the original eta."""

    steps: tuple = ()


# ---------------------------------------------------------------------------------------------------
# Step 2: committees (upper bound)


@numba.njit(cache=True)
def _committee_best(S: np.ndarray, v: np.ndarray, total: np.ndarray, w: np.ndarray, members: np.ndarray,
                    weights: np.ndarray, lam_bar: int) -> tuple[int, int]:  # pragma: no cover - numba
    """Best (eta', row of ``weights``) over committee weightings; eta' = -1 if none is feasible.

    Integer scores: score_k = K * c_k + rest_k with c_k = sum_{g in committee} v_g a_g s_kg and
    rest_k = sum_{g not in committee} v_g s_kg, |rest_k| < K. So sign(score_k) = sign(c_k) when
    c_k != 0, else sign(rest_k), and score_k = 0 (a dead point) iff c_k = 0 and rest_k = 0.
    Points are grouped by the committee's votes (a cell) and the sign of rest_k.
    """
    k = len(members)
    n_cells = 1 << k
    w_all = np.zeros(n_cells, dtype=np.int64)
    w_pos = np.zeros(n_cells, dtype=np.int64)
    w_zero = np.zeros(n_cells, dtype=np.int64)
    for i in range(S.shape[0]):
        cell = 0
        rest = total[i]
        for c in range(k):
            g = members[c]
            if S[i, g] > 0:
                cell |= 1 << c
            rest -= v[g] * S[i, g]
        w_all[cell] += w[i]
        if rest > 0:
            w_pos[cell] += w[i]
        elif rest == 0:
            w_zero[cell] += w[i]
    best_eta, best_row = -1, -1
    for row in range(weights.shape[0]):
        count = 0
        feasible = True
        for cell in range(n_cells):
            if w_all[cell] == 0:
                continue
            score = 0
            for c in range(k):
                term = v[members[c]] * weights[row, c]
                score += term if (cell >> c) & 1 else -term
            if score > 0:
                count += w_all[cell]
            elif score == 0:
                if w_zero[cell] > 0:
                    feasible = False
                    break
                count += w_pos[cell]
        if feasible:
            eta = abs(count - lam_bar)
            if best_eta < 0 or eta < best_eta:
                best_eta, best_row = eta, row
                if eta == 0:
                    break
    return best_eta, best_row


def _weight_vectors(k: int, largest: int) -> np.ndarray:
    """All a in {1..largest}^k with gcd 1 (a and c a give the same game)."""
    if k == 1:
        return np.ones((1, 1), dtype=np.int64)
    rows = [a for a in itertools.product(range(1, largest + 1), repeat=k) if math.gcd(*a) == 1]
    return np.array(rows, dtype=np.int64)


def exact_eta(S: np.ndarray, v: np.ndarray, w: np.ndarray, lam_bar: int, alpha: np.ndarray) -> float:
    """eta' of alpha (over merged trees) with the model's definition: inf if some free pattern has
    |alpha^T s_k| < 1 (the dead zone of (0b)-(0c)), else |sum_k w_k [alpha^T s_k >= 1] - lambda_bar|."""
    scores = (S.astype(np.float64) * v) @ np.asarray(alpha, dtype=np.float64)
    if np.any(np.abs(scores) < 1.0):
        return float("inf")
    return float(abs(int(w[scores > 0].sum()) - lam_bar))


def committee_search(S: np.ndarray, v: np.ndarray, w: np.ndarray, lam_bar: int, lower: float, upper: float,
                     max_committee: int = 5, max_weight: int = 5, max_weight_large: int = 3,
                     deadline: float = math.inf) -> tuple[float, np.ndarray | None]:
    """Best (eta', alpha) over committees of 1..``max_committee`` merged trees (None if none is feasible).

    Committees are tried by size, smallest first. A committee G of size <= 4 with integer weights
    a_g in [1, ``max_weight``] (in [1, ``max_weight_large``] from size 5 on, to keep the number of
    weightings small) gets alpha_g = c K a_g, every other
    tree alpha_g = c, where K = 1 + sum_{g not in G} v_g (more than the others' total vote) and
    c = max(l, 1) (so integer scores != 0 have |score| >= 1). Only candidates with c K max(a) <= u
    are tried, so alpha lies in [l, u]. Each candidate's eta' is exact (``_committee_best``) and the
    returned alpha is re-checked with ``exact_eta``. Stops at eta' = 0 or at ``deadline``.
    """
    q = S.shape[1]
    S8 = np.ascontiguousarray(S, dtype=np.int8)
    v = np.asarray(v, dtype=np.int64)
    w = np.asarray(w, dtype=np.int64)
    total = S8.astype(np.int64) @ v
    scale = max(float(lower), 1.0)
    best_eta, best_alpha = math.inf, None
    vectors: dict[tuple[int, int], np.ndarray] = {}
    for k in range(1, min(max_committee, q) + 1):
        for members in itertools.combinations(range(q), k):
            if time.monotonic() > deadline:
                return best_eta, best_alpha
            members = np.array(members, dtype=np.int64)
            K = 1 + int(v.sum() - v[members].sum())
            cap = max_weight if k <= 4 else max_weight_large
            largest = min(cap, math.floor(upper / (scale * K) + 1e-9))
            if largest < 1:
                continue
            key = (k, largest)
            if key not in vectors:
                vectors[key] = _weight_vectors(k, largest)
            eta, row = _committee_best(S8, v, total, w, members, vectors[key], int(lam_bar))
            if eta < 0 or eta >= best_eta:
                continue
            alpha = np.full(q, scale)
            alpha[members] = scale * K * vectors[key][row]
            checked = exact_eta(S8, v, w, lam_bar, alpha)
            assert checked == eta, (checked, eta)
            best_eta, best_alpha = float(eta), alpha
            if eta == 0:
                return best_eta, best_alpha
    return best_eta, best_alpha


# ---------------------------------------------------------------------------------------------------
# Step 4a: the LP bound of the 0-1 model by min cuts


def _closure_cut(n: int, profit_source: np.ndarray, profit: np.ndarray, sink_nodes: np.ndarray,
                 cost: np.ndarray, tails: np.ndarray, heads: np.ndarray) -> int:
    """Minimum cut of: source -> profit_source (capacity profit), sink_nodes -> sink (capacity
    cost), tails -> heads (unbounded); n nodes besides source (n) and sink (n + 1)."""
    infinite = int(profit.sum()) + 1
    rows = np.concatenate([np.full(len(profit_source), n), sink_nodes, tails]).astype(np.int32)
    cols = np.concatenate([profit_source, np.full(len(sink_nodes), n + 1), heads]).astype(np.int32)
    caps = np.concatenate([profit, cost, np.full(len(tails), infinite)]).astype(np.int32)
    graph = sp.csr_matrix((caps, (rows, cols)), shape=(n + 2, n + 2))
    graph.sum_duplicates()
    graph.data = np.minimum(graph.data, infinite).astype(np.int32)
    return int(maximum_flow(graph, n, n + 1, method="dinic").flow_value)


def lp_cover_bound(reduction: Reduction, lower: float, upper: float) -> float:
    """The LP relaxation of the 0-1 model of ``combinatorial_bound`` (z in [0, 1]), by two min cuts.

    Every row of that model other than the cardinality rows is z_a >= z_b (dominance),
    z_a + z_b >= 1 or z_a + z_b <= 1 (conflicts): two variables per row, so the LP has half-integral
    optima that a min cut on the doubled graph finds (Hochbaum's 2VPI method). With x_k = z_k and
    y_k = 1 - z_k as separate 0-1 nodes and z = (x + 1 - y) / 2, each row becomes two closure
    constraints (dominance: x_a >= x_b, y_b >= y_a; not both negative: x_a >= y_b, x_b >= y_a; not
    both positive: y_a >= x_b, y_b >= x_a), and min w^T z over the LP is half the minimum cut of the
    closure network with source -> y_k and x_k -> sink of capacity w_k (Picard's maximum weight
    closure); max w^T z is w(all) minus half the cut with the capacities swapped. Since the LP
    contains every feasible z of the 0-1 model, eta' >= ceil(min) - lambda_bar and
    eta' >= lambda_bar - floor(max). Never above ``combinatorial_bound``; it needs no MIP and so
    scales to the largest instances.
    """
    h = len(reduction.w)
    w = np.asarray(reduction.w, dtype=np.int64)
    x, y = np.arange(h), np.arange(h, 2 * h)
    tails, heads = [], []  # "tail in the closure requires head in the closure", i.e. head >= tail
    for cut in _pair_cuts(reduction, lower, upper, True, True):
        a, b = cut.pairs[:, 0], cut.pairs[:, 1]
        if cut.c_b < 0:  # dominance z_a >= z_b
            tails += [x[b], y[a]]
            heads += [x[a], y[b]]
        elif cut.lo >= 1:  # z_a + z_b >= 1
            tails += [y[b], y[a]]
            heads += [x[a], x[b]]
        else:  # z_a + z_b <= 1
            tails += [x[b], x[a]]
            heads += [y[a], y[b]]
    tails = np.concatenate(tails) if tails else np.empty(0, dtype=np.int64)
    heads = np.concatenate(heads) if heads else np.empty(0, dtype=np.int64)
    low_cut = _closure_cut(2 * h, y, w, x, w, tails, heads)
    high_cut = _closure_cut(2 * h, x, w, y, w, tails, heads)
    min_count = math.ceil(low_cut / 2)
    max_count = int(w.sum()) - math.ceil(high_cut / 2)
    return float(max(0, min_count - reduction.lam_bar, reduction.lam_bar - max_count))


# ---------------------------------------------------------------------------------------------------
# Step 4: the combinatorial lower bound


def _z_model(reduction: Reduction, lower: float, upper: float, cuts: list[tuple[np.ndarray, np.ndarray]],
             ) -> highspy.HighsLp:
    """min eta' over z in {0,1}^h subject to the dominance and conflict pairs, the no-good ``cuts``
    (index array, sign array: sum over z = 1 entries minus over z = 0 entries <= ones - 1) and
    lambda_bar - eta' <= w^T z <= lambda_bar + eta'. Columns: z (h), then eta'."""
    h = len(reduction.w)
    blocks, lo, hi = [], [], []
    for cut in _pair_cuts(reduction, lower, upper, True, True):
        n = len(cut.pairs)
        if n:
            blocks.append(sp.csr_matrix((np.tile([cut.c_a, cut.c_b], n), (np.repeat(np.arange(n), 2),
                                                                          cut.pairs.ravel())), shape=(n, h + 1)))
            lo.append(np.full(n, cut.lo))
            hi.append(np.full(n, cut.hi))
    for index, sign in cuts:
        blocks.append(sp.csr_matrix((np.where(sign > 0, 1.0, -1.0), (np.zeros(len(index), dtype=np.int64), index)),
                                    shape=(1, h + 1)))
        lo.append(np.array([-np.inf]))
        hi.append(np.array([float((sign > 0).sum() - 1)]))
    w = np.asarray(reduction.w, dtype=np.float64)
    blocks.append(sp.csr_matrix(np.vstack([np.concatenate([w, [1.0]]), np.concatenate([w, [-1.0]])])))
    lo.append(np.array([reduction.lam_bar, -np.inf], dtype=np.float64))
    hi.append(np.array([np.inf, reduction.lam_bar], dtype=np.float64))
    matrix = sp.vstack(blocks).tocsc()
    matrix.sort_indices()
    lp = highspy.HighsLp()
    lp.num_col_, lp.num_row_ = h + 1, matrix.shape[0]
    lp.col_cost_ = np.concatenate([np.zeros(h), [1.0]])
    lp.col_lower_ = np.zeros(h + 1)
    lp.col_upper_ = np.concatenate([np.ones(h), [float(reduction.eta_bar)]])
    lp.row_lower_, lp.row_upper_ = np.concatenate(lo), np.concatenate(hi)
    lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
    lp.a_matrix_.start_ = matrix.indptr.astype(np.int32)
    lp.a_matrix_.index_ = matrix.indices.astype(np.int32)
    lp.a_matrix_.value_ = matrix.data.astype(np.float64)
    lp.integrality_ = [highspy.HighsVarType.kInteger] * (h + 1)
    return lp


def combinatorial_bound(reduction: Reduction, lower: float, upper: float, *, time_limit: float,
                        start_z: np.ndarray | None = None, cuts: list | None = None, threads: int = 1,
                        seed: int = 0) -> tuple[float, np.ndarray | None, bool]:
    """A lower bound on the reduced eta' from a 0-1 model without alpha: (bound, optimal z or None,
    solved to optimality).

    Validity. Let (alpha, eta', z) be feasible for the reduced Problem (2): l <= alpha_g <= u,
    z_k = 1 iff alpha^T s_k >= 1 and z_k = 0 iff alpha^T s_k <= -1. Write A_k / B_k for the trees
    (counted v_g times) voting -1 / +1 on pattern k. Then z satisfies
    (a) dominance: s_a >= s_b componentwise implies alpha^T s_a >= alpha^T s_b (alpha > 0), so
        z_a >= z_b;
    (b) not both negative: z_a = z_b = 0 needs alpha^T (s_a + s_b) <= -2, i.e.
        2 alpha(A_a & A_b) - 2 alpha(B_a & B_b) >= 2 (trees on which a and b disagree cancel), which
        is impossible when u |A_a & A_b| - l |B_a & B_b| < 1; so z_a + z_b >= 1. For l = 1, u = 100,
        t = 20 this holds exactly when A_a and A_b are disjoint;
    (c) not both positive, symmetrically with B: z_a + z_b <= 1;
    (d) every no-good cut added by ``realisability_cut`` (an infeasible subsystem's sign pattern).
    So z is feasible for this 0-1 model with the same eta' = |w^T z - lambda_bar|, and the model's
    minimum (hence any dual bound HiGHS proves for it) is <= the optimum of Problem (2); adding
    eta_offset gives a bound on the original eta. When lambda_bar is below every count the model
    allows, its minimum is (min w^T z) - lambda_bar, and by (b) the points with z_k = 0 form a family
    of pairwise intersecting sets A_k: min w^T z = w(all) - the heaviest such family (dominance (a)
    is then implied). The pair lists are those of ``cuts.py`` (conflicts implied by a dominance pair
    and another conflict are left out; with (a) present they follow).
    """
    lp = _z_model(reduction, lower, upper, cuts or [])
    highs = highspy.Highs()
    for name, value in {"output_flag": False, "threads": threads, "random_seed": seed, **EXACT_GAP,
                        "time_limit": max(time_limit, 1e-3)}.items():
        highs.setOptionValue(name, value)
    highs.passModel(lp)
    if start_z is not None:
        solution = highspy.HighsSolution()
        eta = abs(float(reduction.w @ start_z) - reduction.lam_bar)
        solution.col_value = np.concatenate([np.asarray(start_z, dtype=np.float64), [eta]])
        solution.value_valid = True
        highs.setSolution(solution)
    highs.run()
    status = highs.getModelStatus()
    if status == highspy.HighsModelStatus.kInfeasible:  # cannot happen without wrong cuts; stay safe
        return 0.0, None, False
    info = highs.getInfo()
    dual = max(float(info.mip_dual_bound), 0.0)
    optimal = status == highspy.HighsModelStatus.kOptimal
    z = None
    if info.primal_solution_status == highspy.SolutionStatus.kSolutionStatusFeasible:
        z = np.round(np.asarray(highs.getSolution().col_value)[:-1]).astype(np.int8)
    # The minimum is an integer >= the dual bound: round up, with a tolerance on the safe side.
    bound = float(math.ceil(dual - 1e-6))
    if z is not None and dual > abs(float(reduction.w @ z) - reduction.lam_bar) - 1 + 1e-6:
        bound = max(bound, abs(float(reduction.w @ z) - reduction.lam_bar))  # integral minimum > eta_z - 1
    return bound, z, optimal


# ---------------------------------------------------------------------------------------------------
# Step 5: realisability LP and no-good cuts


def _sign_lp(C: np.ndarray, z: np.ndarray, lower: float, upper: float) -> highspy.Highs:
    """The LP {alpha in [l, u]^q : C_k alpha >= 1 where z_k = 1, <= -1 where z_k = 0}."""
    h, q = C.shape
    highs = highspy.Highs()
    highs.setOptionValue("output_flag", False)
    highs.setOptionValue("threads", 1)
    highs.setOptionValue("presolve", "off")  # keep the Farkas ray on the original rows
    lp = highspy.HighsLp()
    lp.num_col_, lp.num_row_ = q, h
    lp.col_cost_ = np.zeros(q)
    lp.col_lower_, lp.col_upper_ = np.full(q, float(lower)), np.full(q, float(upper))
    positive = np.asarray(z) > 0
    lp.row_lower_ = np.where(positive, 1.0, -np.inf)
    lp.row_upper_ = np.where(positive, np.inf, -1.0)
    matrix = sp.csc_matrix(C)
    matrix.sort_indices()
    lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
    lp.a_matrix_.start_ = matrix.indptr.astype(np.int32)
    lp.a_matrix_.index_ = matrix.indices.astype(np.int32)
    lp.a_matrix_.value_ = matrix.data.astype(np.float64)
    highs.passModel(lp)
    return highs


def realisability_cut(C: np.ndarray, z: np.ndarray, lower: float, upper: float,
                      ) -> tuple[np.ndarray | None, tuple[np.ndarray, np.ndarray] | None]:
    """(alpha realising z, None) or (None, cut). The cut (index, sign) says: not all points in
    ``index`` take the sign ``sign`` (1 positive, 0 negative) - valid because those rows with those
    signs have no alpha in [l, u]^q (checked by a second LP on the subsystem alone; if that check
    fails the cut is the whole z, still valid). Also (None, None) if HiGHS gives no answer."""
    highs = _sign_lp(C, z, lower, upper)
    highs.run()
    status = highs.getModelStatus()
    if status == highspy.HighsModelStatus.kOptimal:
        alpha = np.asarray(highs.getSolution().col_value)
        scores = C @ alpha
        if np.all(np.where(np.asarray(z) > 0, scores >= 1.0, scores <= -1.0)):
            return alpha, None
        return None, None
    if status != highspy.HighsModelStatus.kInfeasible:
        return None, None
    _, has_ray, ray = highs.getDualRay()
    index = np.arange(len(z))
    if has_ray:
        support = np.flatnonzero(np.abs(np.asarray(ray)[:len(z)]) > 1e-9)
        if len(support):
            check = _sign_lp(C[support], np.asarray(z)[support], lower, upper)
            check.run()
            if check.getModelStatus() == highspy.HighsModelStatus.kInfeasible:
                index = support
    return None, (index, np.asarray(z)[index].astype(np.int8))


# ---------------------------------------------------------------------------------------------------
# Step 6 and the chain


def _final_milp(reduction: Reduction, lower: float, upper: float, bound: float, start: Start | None,
                time_limit: float, threads: int, seed: int) -> tuple[str, np.ndarray | None, float, int]:
    """p-C2RF+'s model (row big-M, dominance, conflicts, integral eta) with eta' >= ``bound``."""
    C = reduction.coefficients
    Mb, Mc = row_big_m(C, lower, upper)
    lp, layout = build_lp(C, reduction.w, reduction.lam_bar, reduction.eta_bar, lower, upper, Mb, Mc,
                          _pair_cuts(reduction, lower, upper, True, True), True)
    col_lower = np.asarray(lp.col_lower_, dtype=np.float64)
    col_lower[-1] = min(float(bound), float(reduction.eta_bar))
    lp.col_lower_ = col_lower
    options = {"output_flag": False, "threads": threads, "random_seed": seed, **EXACT_GAP,
               "time_limit": max(time_limit, 1e-3)}
    if start is not None:
        start = Start(alpha=start.alpha, z=start.z, eta=max(start.eta, float(bound)))
    return _run_highs(lp, layout, start, options)


STEPS = ("committees", "local_search", "cover", "combinatorial", "realise", "milp")


def solve_exact(R: np.ndarray, lam: int, *, time_limit: float = 60.0, lower: float = 1.0, upper: float = 100.0,
                committees: bool = True, local_search: bool = True, cover: bool = True,
                combinatorial: bool = True, realise: bool = True, milp: bool = True, max_committee: int = 5,
                max_weight: int = 5, max_weight_large: int = 3, max_cut_rounds: int = 20,
                committee_share: float = 0.2, bound_share: float = 0.5, threads: int = 1,
                seed: int = 0) -> ExactResult:
    """Solve Problem (2) for votes ``R`` (t x m, +-1) and ``lam`` with the chain of the module
    docstring; each step is a keyword switch. ``time_limit`` bounds the whole call (HiGHS may
    overrun a little). The committees may run until ``committee_share`` of it, the local search for
    a tenth of it, the 0-1 bound and its cut rounds until ``bound_share`` of it has passed.

    The result's eta is recomputed from alpha on the original R (z = [alpha^T r_i > 0]); status is
    'optimal' only when the proven bound meets that eta, otherwise 'time_limit' (or 'no_solution'
    if no step found a feasible alpha).
    """
    started = time.monotonic()
    deadline = started + time_limit
    R = np.asarray(R)
    switches = {"committees": committees, "local_search": local_search, "cover": cover,
                "combinatorial": combinatorial, "realise": realise, "milp": milp, "max_committee": max_committee,
                "max_weight": max_weight, "max_weight_large": max_weight_large, "max_cut_rounds": max_cut_rounds,
                "committee_share": committee_share, "bound_share": bound_share, "lower": lower, "upper": upper,
                "time_limit": time_limit}
    reduction = reduce(R, lam, lower, upper)
    S, v, w, lam_bar = reduction.S, reduction.v, reduction.w, reduction.lam_bar
    C = reduction.coefficients
    h, q = C.shape
    offset = float(reduction.eta_offset)
    steps: list[tuple] = []
    state = {"alpha": None, "eta": math.inf, "bound": 0.0, "by": "none", "nodes": 0}

    def elapsed() -> float:
        return time.monotonic() - started

    def offer(alpha: np.ndarray | None, step: str) -> None:
        if alpha is None:
            return
        alpha = np.asarray(alpha, dtype=np.float64)
        smallest = float(np.abs(C @ alpha).min())
        if 0.999 < smallest < 1.0 and alpha.max() / smallest <= upper:  # a MILP/LP solution within tolerance
            alpha = alpha / smallest
        eta = exact_eta(S, v, w, lam_bar, alpha)
        if eta < state["eta"] and np.all(alpha >= lower - 1e-12) and np.all(alpha <= upper + 1e-12):
            state.update(alpha=np.asarray(alpha, dtype=np.float64), eta=eta)
            if eta <= state["bound"]:
                state["by"] = step

    def raise_bound(bound: float, step: str) -> None:
        if bound > state["bound"]:
            state["bound"] = bound
            if state["bound"] >= state["eta"]:
                state["by"] = step

    def log(step: str) -> None:
        steps.append((step, state["eta"] + offset, state["bound"] + offset, round(elapsed(), 3)))

    def closed() -> bool:
        return state["eta"] <= state["bound"]

    def finish(status: str | None = None) -> ExactResult:
        alpha = None if state["alpha"] is None else reduction.expand(state["alpha"], np.zeros(h))[0]
        z = None if alpha is None else (alpha @ R.astype(np.float64) > 0).astype(np.int8)
        eta = float("nan") if z is None else float(abs(int(z.sum()) - lam))
        bound = state["bound"] + offset
        if status is None:
            status = "optimal" if z is not None and eta <= bound + 1e-9 else ("time_limit" if z is not None
                                                                               else "no_solution")
        if status == "optimal":
            bound = eta
        gap = float("nan") if z is None else (0.0 if eta <= bound + 1e-9 else (eta - bound) / eta)
        by = state["by"] if status == "optimal" else (steps[-1][0] if steps else "none")
        return ExactResult(alpha=alpha, z=z, eta=eta, status=status, best_bound=bound, gap=gap,
                           seconds=elapsed(), nodes=state["nodes"], solved_by=by, start_eta=None,
                           n_binaries=h, switches=switches, steps=tuple(steps))

    if h == 0:  # Prop. 5 fixed every point
        state.update(alpha=np.full(q, float(upper)), eta=0.0, by="preprocessing")
        log("preprocessing")
        return finish()
    log("preprocessing")

    if committees:
        _, alpha = committee_search(S, v, w, lam_bar, lower, upper, max_committee, max_weight, max_weight_large,
                                    started + committee_share * time_limit)
        offer(alpha, "committees")
        log("committees")
        if closed():
            return finish()

    if local_search and time.monotonic() < deadline:
        rng = np.random.default_rng(seed)
        budget = min(0.1 * time_limit, max(deadline - time.monotonic(), 0.0))
        if state["alpha"] is not None:
            alpha, dead, _ = coordinate_search(C, w, lam_bar, lower, upper, state["alpha"], rng,
                                               time.monotonic() + budget / 2)
            if dead == 0:
                offer(alpha, "local_search")
        if not closed():
            start = run_local_search(C, w, lam_bar, lower, upper, seed=seed, time_limit=budget / 2)
            offer(None if start is None else start.alpha, "local_search")
        log("local_search")
        if closed():
            return finish()

    if cover and time.monotonic() < deadline:
        raise_bound(lp_cover_bound(reduction, lower, upper), "cover")
        log("cover")
        if closed():
            return finish()

    cuts: list = []
    if combinatorial and time.monotonic() < deadline:
        bound_deadline = started + bound_share * time_limit
        start_z = None if state["alpha"] is None else (C @ state["alpha"] > 0).astype(np.int8)
        bound, z, optimal = combinatorial_bound(reduction, lower, upper, start_z=start_z, threads=threads,
                                                seed=seed, time_limit=bound_deadline - time.monotonic())
        raise_bound(bound, "combinatorial")
        log("combinatorial")
        rounds, realised = 0, False
        history = [(time.monotonic(), state["bound"])]
        while realise and optimal and z is not None and not closed() and rounds < max_cut_rounds \
                and time.monotonic() < bound_deadline:
            if len(history) > 3:  # stop when the last 3 rounds' pace cannot close the gap in time
                (then, before), (now, latest) = history[-4], history[-1]
                if (latest - before) / max(now - then, 1e-9) * (bound_deadline - now) < state["eta"] - latest:
                    break
            alpha, cut = realisability_cut(C, z, lower, upper)
            if alpha is not None:
                offer(alpha, "realise")
                raise_bound(bound, "realise")
                realised = True
                break
            if cut is None:
                break
            cuts.append(cut)
            rounds += 1
            bound, z, optimal = combinatorial_bound(reduction, lower, upper, cuts=cuts, threads=threads, seed=seed,
                                                    time_limit=bound_deadline - time.monotonic())
            raise_bound(bound, "realise")
            history.append((time.monotonic(), state["bound"]))
        if rounds or realised:
            log(f"realise({rounds} cuts)")
        if closed():
            return finish()

    if milp and time.monotonic() < deadline:
        start = None
        if state["alpha"] is not None:
            z_start = (C @ state["alpha"] > 0).astype(np.int8)
            start = Start(alpha=state["alpha"], z=z_start, eta=state["eta"])
        status, x, bound, nodes = _final_milp(reduction, lower, upper, state["bound"], start,
                                              deadline - time.monotonic(), threads, seed)
        state["nodes"] = nodes
        if x is not None:
            offer(x[:q], "milp")
        if status != "infeasible" and np.isfinite(bound):
            # eta' is an integer; a dual bound within 1e-6 below an integer is rounded down (safe side)
            raise_bound(float(math.ceil(bound - 1e-6)), "milp")
        log("milp")
    return finish()
