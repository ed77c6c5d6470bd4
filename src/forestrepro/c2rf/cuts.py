"""Tightenings of the C2RF MILP (ours, not in the paper).

- ``row_big_m``: a big-M per row from the row's own extreme values of alpha^T s_k over the box
  l <= alpha <= u, instead of Prop. 1's M = u t + 1 for every row.
- ``dominance_pairs``: if pattern s_a >= s_b componentwise then alpha^T s_a >= alpha^T s_b for every
  alpha > 0, so z_a >= z_b in every feasible point. Only the cover relations (the transitive
  reduction of the order) are returned; the others follow, in the LP relaxation too.
- ``conflict_pairs``: two points that cannot both be negative (z_a + z_b >= 1) or both positive
  (z_a + z_b <= 1) for any alpha in the box. Both negative needs alpha^T (s_a + s_b) <= -2, i.e.
  alpha(A_a & A_b) - alpha(B_a & B_b) >= 1 (A: trees voting -1, B: +1), impossible when
  u |A_a & A_b| - l |B_a & B_b| < 1; for l = 1, u = 100, t = 20 exactly when no tree votes -1 on
  both. Symmetrically for both positive. Only pairs not implied by a dominance cut and a conflict
  of a dominated (resp. dominating) point are returned.
"""

from __future__ import annotations

import numba
import numpy as np


def row_big_m(coefficients: np.ndarray, lower: float, upper: float) -> tuple[np.ndarray, np.ndarray]:
    """(Mb, Mc) with Mb_k = max alpha^T s_k + 1 and Mc_k = 1 - min alpha^T s_k over the box.

    They are the smallest constants for which (0b) with z_k = 1 and (0c) with z_k = 0 are
    redundant, so they cut off nothing (the argument of Prop. 1, row by row).
    """
    positive = np.where(coefficients > 0, coefficients, 0.0).sum(axis=1)
    negative = np.where(coefficients < 0, -coefficients, 0.0).sum(axis=1)
    return upper * positive - lower * negative + 1.0, 1.0 + upper * negative - lower * positive


def paper_big_m(n_rows: int, n_trees: int, upper: float) -> tuple[np.ndarray, np.ndarray]:
    """Prop. 1: M = u t + 1 for every row of (0b) and (0c)."""
    m = np.full(n_rows, upper * n_trees + 1.0)
    return m, m.copy()


def _bitmasks(patterns: np.ndarray) -> np.ndarray:
    """Each row's set of +1 entries as a uint64 bit mask (at most 64 trees)."""
    if patterns.shape[1] > 64:
        raise ValueError("dominance and conflict cuts support at most 64 trees")
    weights = np.left_shift(np.uint64(1), np.arange(patterns.shape[1], dtype=np.uint64))
    return ((patterns > 0).astype(np.uint64) * weights).sum(axis=1, dtype=np.uint64)


@numba.njit(cache=True)
def _covers(
    bits: np.ndarray, order: np.ndarray, popcount: np.ndarray
) -> np.ndarray:  # pragma: no cover - numba
    pairs = []
    for b in range(len(bits)):
        found = []
        for a in order:  # increasing popcount: a minimal superset is met before any larger one
            if popcount[a] <= popcount[b] or (bits[a] & bits[b]) != bits[b]:
                continue
            minimal = True
            for c in found:
                if (bits[a] & bits[c]) == bits[c]:
                    minimal = False
                    break
            if minimal:
                found.append(a)
                pairs.append((a, b))
    out = np.empty((len(pairs), 2), dtype=np.int64)
    for i in range(len(pairs)):
        out[i, 0] = pairs[i][0]
        out[i, 1] = pairs[i][1]
    return out


@numba.njit(cache=True, inline="always")
def _popcount(x: np.uint64) -> int:  # pragma: no cover - numba
    count = 0
    while x:
        x &= x - np.uint64(1)
        count += 1
    return count


@numba.njit(cache=True)
def _conflicts(
    same: np.ndarray,
    other: np.ndarray,
    neighbour_start: np.ndarray,
    neighbour: np.ndarray,
    lower: float,
    upper: float,
) -> np.ndarray:  # pragma: no cover - numba
    """Pairs (a < b) with upper |same_a & same_b| - lower |other_a & other_b| < 1 and no conflict
    between a (b) and a dominance neighbour of the other, ``neighbour`` in CSR form."""
    n = len(same)
    pairs = []
    for a in range(n):
        for b in range(a + 1, n):
            if upper * _popcount(same[a] & same[b]) - lower * _popcount(other[a] & other[b]) >= 1.0:
                continue
            minimal = True
            for x, y in ((a, b), (b, a)):
                for k in range(neighbour_start[x], neighbour_start[x + 1]):
                    c = neighbour[k]
                    if same[c] == same[x] and other[c] == other[x]:
                        continue  # an identical point, not a strictly dominated one
                    if upper * _popcount(same[c] & same[y]) - lower * _popcount(other[c] & other[y]) < 1.0:
                        minimal = False
                        break
                if not minimal:
                    break
            if minimal:
                pairs.append((a, b))
    out = np.empty((len(pairs), 2), dtype=np.int64)
    for i in range(len(pairs)):
        out[i, 0] = pairs[i][0]
        out[i, 1] = pairs[i][1]
    return out


def _csr(sources: np.ndarray, targets: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    order = np.argsort(sources, kind="stable")
    return np.concatenate([[0], np.cumsum(np.bincount(sources, minlength=n))]), targets[order]


def conflict_pairs(
    patterns: np.ndarray, dominance: np.ndarray, lower: float, upper: float, v: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """(pairs that cannot both be negative, pairs that cannot both be positive), rows of
    ``patterns`` (+-1, merged trees counted ``v`` times) indexed as in ``dominance`` (its pairs
    (a, b) mean z_a >= z_b).

    'Not both negative' is closed upwards in the dominance order, so a pair is kept only if no point
    directly below either member conflicts with the other; 'not both positive' likewise with the
    points directly above.
    """
    expanded = np.repeat(patterns, np.ones(patterns.shape[1], dtype=np.int64) if v is None else v, axis=1)
    positive, negative = _bitmasks(expanded), _bitmasks(-expanded)
    n = len(patterns)
    below = _csr(dominance[:, 0], dominance[:, 1], n)
    above = _csr(dominance[:, 1], dominance[:, 0], n)
    not_both_negative = _conflicts(negative, positive, *below, float(lower), float(upper))
    not_both_positive = _conflicts(positive, negative, *above, float(lower), float(upper))
    return not_both_negative, not_both_positive


def dominance_pairs(patterns: np.ndarray) -> np.ndarray:
    """Cover pairs (a, b), a != b, of the componentwise order on the rows of ``patterns`` (+-1).

    For distinct rows: (a, b) is returned iff s_a > s_b and no row c has s_a > s_c > s_b.
    Identical rows are chained by pairs in both directions (z equal), so the output is valid for
    Problem (2) without Prop. 3's merging too.
    """
    bits = _bitmasks(patterns)
    unique, first, inverse = np.unique(bits, return_index=True, return_inverse=True)
    inverse = inverse.reshape(-1)
    popcount = np.array([int(b).bit_count() for b in unique], dtype=np.int64)
    order = np.argsort(popcount, kind="stable")
    covers = _covers(unique, order, popcount)
    pairs = [first[covers]] if len(covers) else []
    duplicate = np.flatnonzero(first[inverse] != np.arange(len(bits)))
    if len(duplicate):
        rep = first[inverse[duplicate]]
        pairs += [np.column_stack([duplicate, rep]), np.column_stack([rep, duplicate])]
    return np.concatenate(pairs).astype(np.int64) if pairs else np.empty((0, 2), dtype=np.int64)
