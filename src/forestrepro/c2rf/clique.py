"""The clique bound of the exact C2RF chain: the LP of the 0-1 model on z with clique inequalities
in place of its conflict pairs, by cutting planes (ours, issue 21, item 2).

For a sign sigma (-1: negative, z_k = 0; +1: positive, z_k = 1) let D_k be the merged trees on
which free pattern k votes sigma. If D_a and D_b are disjoint, a and b cannot both take sign sigma
for any alpha > 0: both would need sigma alpha^T s >= 1, yet sigma alpha^T (s_a + s_b) =
2 alpha(D_a & D_b) - 2 alpha(trees voting -sigma on both) <= 0 (alpha(.) counting merged tree g
v_g times; the trees on which a and b disagree cancel). So in a *packing* P (free patterns with
pairwise disjoint D_k) at most one pattern takes sign sigma, and with x_k = [pattern k takes sigma]

    sum_{k in P} x_k <= 1                                          (clique inequality)

holds for every realisable z; so does x_a <= x_b when D_a is a subset of D_b (dominance: b's score
has sign sigma whenever a's has). Hence the weight of the patterns taking sign sigma is at most

    X_sigma = max { w^T x : 0 <= x <= 1, clique inequalities, dominance },

and every realisable z has w^T z >= w(all) - X_(-1) and w^T z <= X_(+1); so
eta' >= max(0, w(all) - floor(X_(-1)) - lambda_bar, lambda_bar - floor(X_(+1))). The pair rows
z_a + z_b >= 1 of ``bounds.combinatorial_bound`` are packings of two, so with every packing this LP
is at least as strong as the LP relaxation of that model's conflict rows (``lp_cover_bound``) on
the side it bounds; on sets that pairwise intersect it can be tight where the pair LP gives half.

There are exponentially many packings, so the LP is solved by cutting planes: start with no rows,
and after each LP add the violated dominance rows and packings whose x* sum exceeds 1, found for
every pattern k by completing {k} greedily with the heaviest pattern that fits into the trees
left (the best partner of k is found exactly, from a table over all 2^q tree sets). Any subset
of the inequalities gives a relaxation, so every round's LP value bounds X_sigma. The value used
is not HiGHS's objective but a certificate recomputed here from the LP's row duals y >= 0 (weak
duality, whatever the LP's tolerances): X_sigma <= y^T rhs + sum_k max(0, w_k - (A^T y)_k).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import highspy
import numpy as np
import scipy.sparse as sp

from .cuts import dominance_pairs
from .preprocess import Reduction

_VIOLATION = 1e-6  # a packing is a cut when its x* sum exceeds 1 by more than this
MAX_TREES = 22
"""The most merged trees the separation handles: it tabulates all 2^q tree sets (64 MB at 22)."""


@dataclass(frozen=True)
class CliqueBound:
    """``bound``: the proven lower bound on the reduced eta'; ``weight``: the certified upper bound
    on the weight of the patterns taking the side's sign; ``exhausted``, ``rounds``, ``rows``: as
    ``clique_weight`` returns them."""

    bound: float
    weight: float
    exhausted: bool
    rounds: int
    rows: int


def _tree_masks(S: np.ndarray, sign: int) -> np.ndarray:
    """Each free pattern's D_k as a bit mask over the merged trees (int64)."""
    q = S.shape[1]
    if q > MAX_TREES:
        raise ValueError(
            f"the clique bound tabulates the 2^q sets of merged trees, q <= {MAX_TREES}; here q = {q}"
        )
    bits = np.left_shift(np.int64(1), np.arange(q, dtype=np.int64))
    return ((np.asarray(S) == sign).astype(np.int64) * bits).sum(axis=1)


def _subset_max(masks: np.ndarray, x: np.ndarray, q: int) -> tuple[np.ndarray, np.ndarray]:
    """For every set U of merged trees (a mask < 2^q): the largest x_k with D_k within U and its k
    (-1 and -1 if none), by q max-passes over the subset lattice (O(q 2^q))."""
    value = np.full(1 << q, -1.0)
    arg = np.full(1 << q, -1, dtype=np.int64)
    order = np.argsort(x, kind="stable")  # ascending: the heaviest pattern of a mask is written last
    value[masks[order]] = x[order]
    arg[masks[order]] = order
    for bit in range(q):
        low = 1 << bit
        v, g = value.reshape(-1, 2, low), arg.reshape(-1, 2, low)
        better = v[:, 0, :] > v[:, 1, :]  # U without the bit beats U with it
        v[:, 1, :] = np.where(better, v[:, 0, :], v[:, 1, :])
        g[:, 1, :] = np.where(better, g[:, 0, :], g[:, 1, :])
    return value, arg


def _packings(masks: np.ndarray, x: np.ndarray, q: int, limit: int) -> list[np.ndarray]:
    """Packings whose x* sum exceeds 1: for every pattern k with x*_k > 0, k and then, while the
    trees left allow, the heaviest pattern whose D fits into them (``_subset_max``): a greedy
    completion that takes the best partner of k exactly. One packing per k, duplicates removed, the
    ``limit`` most violated kept."""
    value, arg = _subset_max(masks, x, q)
    full = (1 << q) - 1
    start = np.flatnonzero(x > _VIOLATION)
    used = masks[start].copy()
    total = x[start].copy()
    members = [start]
    for _ in range(q):
        rest = full ^ used
        best = arg[rest]
        take = (best >= 0) & (value[rest] > _VIOLATION)
        if not take.any():
            break
        chosen = np.where(take, best, -1)
        members.append(chosen)
        total = total + np.where(take, value[rest], 0.0)
        used = np.where(take, used | masks[np.maximum(chosen, 0)], used)
    violated = total > 1 + _VIOLATION
    table, total = np.sort(np.column_stack(members), axis=1)[violated], total[violated]
    table, first = np.unique(table, axis=0, return_index=True)
    table = table[np.argsort(-total[first], kind="stable")[:limit]]
    return [row[row >= 0] for row in table]


class _Rows:
    """The LP's rows as they are added: packing rows sum_{k in P} x_k <= 1 and dominance rows
    x_a - x_b <= 0, kept so that a dual certificate can be recomputed from them."""

    def __init__(self, h: int):
        self.h = h
        self.index: list[np.ndarray] = []
        self.value: list[np.ndarray] = []
        self.rhs: list[float] = []

    def add(self, highs: highspy.Highs, index: list[np.ndarray], value: list[np.ndarray], rhs: float) -> None:
        if not index:
            return
        starts = np.cumsum([0] + [len(i) for i in index[:-1]]).astype(np.int32)
        flat_index, flat_value = np.concatenate(index).astype(np.int32), np.concatenate(value)
        highs.addRows(
            len(index),
            np.full(len(index), -np.inf),
            np.full(len(index), rhs),
            len(flat_index),
            starts,
            flat_index,
            flat_value,
        )
        self.index += index
        self.value += value
        self.rhs += [rhs] * len(index)

    def certificate(self, w: np.ndarray, allowed: np.ndarray, y: np.ndarray) -> float:
        """y^T rhs + sum over allowed k of max(0, w_k - (A^T y)_k): an upper bound on
        max {w^T x : A x <= rhs, 0 <= x <= allowed} for any y >= 0 (weak duality)."""
        if not self.rhs:
            return float(w[allowed].sum())
        lengths = [len(i) for i in self.index]
        matrix = sp.csr_matrix(
            (np.concatenate(self.value), np.concatenate(self.index), np.cumsum([0] + lengths)),
            shape=(len(self.rhs), self.h),
        )
        reduced = w - matrix.T @ y
        return float(y @ np.asarray(self.rhs) + np.maximum(reduced[allowed], 0.0).sum())


def clique_weight(
    S: np.ndarray,
    w: np.ndarray,
    sign: int,
    *,
    time_limit: float,
    dominance: bool = True,
    max_rounds: int = 1000,
    cuts_per_round: int = 2000,
    target: float = -math.inf,
    history: list | None = None,
) -> tuple[float, bool, int, int]:
    """A certified upper bound on the weight of the free patterns that take ``sign`` (-1 or +1),
    by the cutting-plane LP of the module docstring: (bound, exhausted, rounds, rows).

    Each round solves the LP, recomputes the certificate from its duals, and adds at most
    ``cuts_per_round`` packing rows (``_packings``) and as many violated dominance rows (the cover
    pairs of ``cuts.dominance_pairs``, added only once violated: on the largest instances there are
    hundreds of thousands). ``exhausted``: the last LP violates no dominance row and the greedy
    separation found no packing (the clique LP may still be above its optimum: the separation is a
    heuristic). The rounds also stop once the bound is at most ``target`` (the weight that would
    prove the incumbent optimal), or when the pace of the last three rounds cannot bring it there
    in the time left. ``history``, if given, receives (seconds, bound, rows) after every round.
    """
    started = time.monotonic()
    deadline = started + time_limit
    S = np.asarray(S)
    w = np.asarray(w, dtype=np.float64)
    h, q = S.shape
    masks = _tree_masks(S, sign)
    allowed = masks != 0  # D_k empty: k's score has sign -sigma for every alpha, so x_k = 0
    small = large = np.empty(0, dtype=np.int64)
    if dominance:
        order = dominance_pairs(S)  # (a, b): s_a >= s_b componentwise
        if len(order):
            # D_small within D_large: negative side A_a within A_b, positive side B_b within B_a
            small, large = (order[:, 0], order[:, 1]) if sign < 0 else (order[:, 1], order[:, 0])
    added = np.zeros(len(small), dtype=bool)
    highs = highspy.Highs()
    highs.setOptionValue("output_flag", False)
    highs.setOptionValue("threads", 1)
    lp = highspy.HighsLp()
    lp.num_col_, lp.num_row_ = h, 0
    lp.sense_ = highspy.ObjSense.kMaximize
    lp.col_cost_ = w
    lp.col_lower_ = np.zeros(h)
    lp.col_upper_ = allowed.astype(np.float64)
    highs.passModel(lp)
    rows = _Rows(h)
    best = float(w[allowed].sum())
    exhausted, rounds = False, 0
    pace: list[tuple[float, float]] = []
    while rounds < max_rounds and time.monotonic() < deadline:
        highs.setOptionValue("time_limit", max(deadline - time.monotonic(), 1e-3))
        highs.run()
        if highs.getModelStatus() != highspy.HighsModelStatus.kOptimal:
            break
        solution = highs.getSolution()
        x = np.clip(np.asarray(solution.col_value), 0.0, 1.0)
        duals = np.asarray(solution.row_dual)  # any y >= 0 certifies; try both sign conventions
        for y in (np.maximum(duals, 0.0), np.maximum(-duals, 0.0)):
            best = min(best, rows.certificate(w, allowed, y))
        rounds += 1
        now = time.monotonic()
        if history is not None:
            history.append((round(now - started, 2), best, len(rows.rhs)))
        pace.append((now, best))
        if best <= target:
            break
        if len(pace) > 3:  # the last three rounds' pace, extrapolated to the deadline, misses the target
            (then, before), (_, latest) = pace[-4], pace[-1]
            if (before - latest) / max(now - then, 1e-9) * (deadline - now) < latest - target:
                break
        violation = np.where(added, 0.0, x[small] - x[large])
        pairs = np.flatnonzero(violation > _VIOLATION)
        pairs = pairs[np.argsort(-violation[pairs], kind="stable")[:cuts_per_round]]
        packings = _packings(masks, x, q, cuts_per_round)
        if not len(pairs) and not packings:
            exhausted = True
            break
        added[pairs] = True
        pair_index = [np.array([a, b]) for a, b in zip(small[pairs], large[pairs])]
        rows.add(highs, pair_index, [np.array([1.0, -1.0])] * len(pairs), 0.0)
        rows.add(highs, packings, [np.ones(len(p)) for p in packings], 1.0)
    return best, exhausted, rounds, len(rows.rhs)


def clique_bound(
    reduction: Reduction,
    *,
    time_limit: float,
    sides: tuple[int, ...] = (-1, 1),
    incumbent: float = math.inf,
    **options,
) -> CliqueBound:
    """The lower bound on the reduced eta' of the module docstring from the given ``sides`` (-1: the
    fewest positives, useful when lambda_bar lies below the reachable counts; +1: the most), each
    with an equal share of ``time_limit``; a side stops once its bound meets ``incumbent`` (the
    best reduced eta' known) or cannot at its pace. ``options`` go to ``clique_weight``. The fields
    other than ``bound`` are those of the side that gave it."""
    total = float(np.sum(reduction.w))
    started = time.monotonic()
    found = []
    for index, sign in enumerate(sides):
        share = (started + time_limit - time.monotonic()) / (len(sides) - index)
        # the weight at which this side's bound reaches the incumbent
        target = total - reduction.lam_bar - incumbent if sign < 0 else reduction.lam_bar - incumbent
        weight, exhausted, rounds, rows = clique_weight(
            reduction.S, reduction.w, sign, time_limit=share, target=target, **options
        )
        count = math.floor(weight + 1e-7)  # the weight is an integer <= the certified bound
        bound = total - count - reduction.lam_bar if sign < 0 else reduction.lam_bar - count
        found.append(CliqueBound(float(max(bound, 0.0)), weight, exhausted, rounds, rows))
    return max(found, key=lambda result: result.bound)
