"""Lower bounds and cuts of the exact C2RF chain (``exact.py``, steps 4-6): the LP cover bound
by two minimum cuts, the 0-1 model on z alone with the pair implications (dominance and
conflicts), and the realisability LP whose Farkas ray cuts off a sign pattern no alpha realises."""

from __future__ import annotations

import math

import highspy
import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import breadth_first_order, maximum_flow

from .preprocess import Reduction
from .solver import EXACT_GAP, _pair_cuts


def _closure_cut(
    n: int,
    profit_source: np.ndarray,
    profit: np.ndarray,
    sink_nodes: np.ndarray,
    cost: np.ndarray,
    tails: np.ndarray,
    heads: np.ndarray,
    side: bool = False,
) -> tuple[int, np.ndarray | None]:
    """Minimum cut of: source -> profit_source (capacity profit), sink_nodes -> sink (capacity
    cost), tails -> heads (unbounded); n nodes besides source (n) and sink (n + 1). With ``side``,
    also the cut's source side among the n nodes (those the source reaches in the residual
    network of a maximum flow: the maximum weight closure), else None."""
    infinite = int(profit.sum()) + 1
    rows = np.concatenate([np.full(len(profit_source), n), sink_nodes, tails]).astype(np.int32)
    cols = np.concatenate([profit_source, np.full(len(sink_nodes), n + 1), heads]).astype(np.int32)
    caps = np.concatenate([profit, cost, np.full(len(tails), infinite)]).astype(np.int32)
    graph = sp.csr_matrix((caps, (rows, cols)), shape=(n + 2, n + 2))
    graph.sum_duplicates()
    graph.data = np.minimum(graph.data, infinite).astype(np.int32)
    found = maximum_flow(graph, n, n + 1, method="dinic")
    if not side:
        return int(found.flow_value), None
    flow = found.flow.tocsr()
    # residual capacity: what an arc has left, and the flow on the reverse arc (sent back)
    residual = (graph - flow) + flow.T.multiply(flow.T > 0)
    residual.data = (residual.data > 0).astype(np.int8)
    residual.eliminate_zeros()
    reached = np.zeros(n + 2, dtype=bool)
    reached[breadth_first_order(residual, n, directed=True, return_predecessors=False)] = True
    return int(found.flow_value), reached[:n]


def _closure_arcs(reduction: Reduction, lower: float, upper: float) -> tuple[np.ndarray, np.ndarray]:
    """The closure constraints of the 0-1 model's pair rows on the doubled nodes x_k = k (z_k = 1)
    and y_k = h + k (z_k = 0), as arcs tail -> head: "tail in the closure requires head in it"
    (``lp_cover_bound``'s docstring lists them)."""
    h = len(reduction.w)
    x, y = np.arange(h), np.arange(h, 2 * h)
    tails, heads = [], []
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
    return tails, heads


def cover_lp_minimum(reduction: Reduction, lower: float, upper: float) -> tuple[float, np.ndarray]:
    """min w^T z over the LP of ``lp_cover_bound`` and a half-integral z attaining it (entries 0,
    1/2, 1), read off the maximum weight closure: z_k = (x_k + 1 - y_k) / 2."""
    h = len(reduction.w)
    w = np.asarray(reduction.w, dtype=np.int64)
    x, y = np.arange(h), np.arange(h, 2 * h)
    cut, closure = _closure_cut(2 * h, y, w, x, w, *_closure_arcs(reduction, lower, upper), side=True)
    return cut / 2, (closure[x].astype(np.float64) + 1.0 - closure[y]) / 2.0


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
    tails, heads = _closure_arcs(reduction, lower, upper)
    low_cut, _ = _closure_cut(2 * h, y, w, x, w, tails, heads)
    high_cut, _ = _closure_cut(2 * h, x, w, y, w, tails, heads)
    min_count = math.ceil(low_cut / 2)
    max_count = int(w.sum()) - math.ceil(high_cut / 2)
    return float(max(0, min_count - reduction.lam_bar, reduction.lam_bar - max_count))


# ---------------------------------------------------------------------------------------------------
# Step 4: the combinatorial lower bound


def _z_model(
    reduction: Reduction,
    lower: float,
    upper: float,
    cuts: list[tuple[np.ndarray, np.ndarray]],
) -> highspy.HighsLp:
    """min eta' over z in {0,1}^h subject to the dominance and conflict pairs, the no-good ``cuts`` (index array, sign array: sum over z = 1 entries minus over
    z = 0 entries <= ones - 1) and lambda_bar - eta' <= w^T z <= lambda_bar + eta'. Columns: z (h),
    then eta'."""
    h = len(reduction.w)
    blocks, lo, hi = [], [], []
    for cut in _pair_cuts(reduction, lower, upper, True, True):
        n = len(cut.pairs)
        if n:
            blocks.append(
                sp.csr_matrix(
                    (np.tile([cut.c_a, cut.c_b], n), (np.repeat(np.arange(n), 2), cut.pairs.ravel())),
                    shape=(n, h + 1),
                )
            )
            lo.append(np.full(n, cut.lo))
            hi.append(np.full(n, cut.hi))
    for index, sign in cuts:
        blocks.append(
            sp.csr_matrix(
                (np.where(sign > 0, 1.0, -1.0), (np.zeros(len(index), dtype=np.int64), index)),
                shape=(1, h + 1),
            )
        )
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


def combinatorial_bound(
    reduction: Reduction,
    lower: float,
    upper: float,
    *,
    time_limit: float,
    start_z: np.ndarray | None = None,
    cuts: list | None = None,
    threads: int = 1,
    seed: int = 0,
) -> tuple[float, np.ndarray | None, bool]:
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
    for name, value in {
        "output_flag": False,
        "threads": threads,
        "random_seed": seed,
        **EXACT_GAP,
        "time_limit": max(time_limit, 1e-3),
    }.items():
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


def realisability_cut(
    C: np.ndarray,
    z: np.ndarray,
    lower: float,
    upper: float,
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
        support = np.flatnonzero(np.abs(np.asarray(ray)[: len(z)]) > 1e-9)
        if len(support):
            check = _sign_lp(C[support], np.asarray(z)[support], lower, upper)
            check.run()
            if check.getModelStatus() == highspy.HighsModelStatus.kInfeasible:
                index = support
    return None, (index, np.asarray(z)[index].astype(np.int8))


# ---------------------------------------------------------------------------------------------------
# Step 6 and the chain
