"""Upper bounds of the exact C2RF chain (``exact.py``, step 2): weighted-majority games with a
small *committee* of merged trees, each candidate alpha's eta evaluated exactly in integer
arithmetic.

The search is bounded by *work*, not by a clock: a committee of k trees with r weightings over h
patterns costs ``committee_work`` = k h + k r 2^k units (the two loops of ``_committee_best``), and
the search stops before the committee that would take it past its ``work_limit``. So which
committees are tried, and which alpha is returned, is the same on every machine, under any load
and whether or not numba's cache is warm (a clock bound made the first sample of a job differ:
compiling or loading the kernel ate the share). ``WORK_PER_SECOND`` converts a time share into
work at the pace measured on the machine that made the committed records.
"""

from __future__ import annotations

import itertools
import math

import numba
import numpy as np

WORK_PER_SECOND = 4e8  # committee_work units per CPU second: 3.8e8-7.6e8 measured on connect_4, adult,
# magic, coil2000 and waveform_40 (biased samples 0-1, one core beside two jobs), the slowest rounded


@numba.njit(cache=True)
def _committee_best(
    S: np.ndarray,
    v: np.ndarray,
    total: np.ndarray,
    w: np.ndarray,
    members: np.ndarray,
    weights: np.ndarray,
    lam_bar: int,
) -> tuple[int, int]:  # pragma: no cover - numba
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


def committee_work(k: int, weightings: int, patterns: int) -> int:
    """Work units of one ``_committee_best`` call: k per pattern (its cell), k per cell and weighting."""
    return k * patterns + k * weightings * (1 << k)


def exact_eta(S: np.ndarray, v: np.ndarray, w: np.ndarray, lam_bar: int, alpha: np.ndarray) -> float:
    """eta' of alpha (over merged trees) with the model's definition: inf if some free pattern has
    |alpha^T s_k| < 1 (the dead zone of (0b)-(0c)), else |sum_k w_k [alpha^T s_k >= 1] - lambda_bar|."""
    scores = (S.astype(np.float64) * v) @ np.asarray(alpha, dtype=np.float64)
    if np.any(np.abs(scores) < 1.0):
        return float("inf")
    return float(abs(int(w[scores > 0].sum()) - lam_bar))


def committee_search(
    S: np.ndarray,
    v: np.ndarray,
    w: np.ndarray,
    lam_bar: int,
    lower: float,
    upper: float,
    max_committee: int = 5,
    max_weight: int = 5,
    max_weight_large: int = 3,
    work_limit: float = math.inf,
) -> tuple[float, np.ndarray | None]:
    """Best (eta', alpha) over committees of 1..``max_committee`` merged trees (None if none is feasible).

    Committees are tried by size, smallest first. A committee G of size <= 4 with integer weights
    a_g in [1, ``max_weight``] (in [1, ``max_weight_large``] from size 5 on, to keep the number of
    weightings small) gets alpha_g = c K a_g, every other
    tree alpha_g = c, where K = 1 + sum_{g not in G} v_g (more than the others' total vote) and
    c = max(l, 1) (so integer scores != 0 have |score| >= 1). Only candidates with c K max(a) <= u
    are tried, so alpha lies in [l, u]. Each candidate's eta' is exact (``_committee_best``) and the
    returned alpha is re-checked with ``exact_eta``. Stops at eta' = 0 or before the committee that
    would take the work done past ``work_limit`` (``committee_work``; the module docstring).
    """
    q = S.shape[1]
    S8 = np.ascontiguousarray(S, dtype=np.int8)
    v = np.asarray(v, dtype=np.int64)
    w = np.asarray(w, dtype=np.int64)
    total = S8.astype(np.int64) @ v
    scale = max(float(lower), 1.0)
    best_eta, best_alpha = math.inf, None
    vectors: dict[tuple[int, int], np.ndarray] = {}
    work = 0
    for k in range(1, min(max_committee, q) + 1):
        for members in itertools.combinations(range(q), k):
            members = np.array(members, dtype=np.int64)
            K = 1 + int(v.sum() - v[members].sum())
            cap = max_weight if k <= 4 else max_weight_large
            largest = min(cap, math.floor(upper / (scale * K) + 1e-9))
            if largest < 1:
                continue
            key = (k, largest)
            if key not in vectors:
                vectors[key] = _weight_vectors(k, largest)
            work += committee_work(k, len(vectors[key]), len(w))
            if work > work_limit:
                return best_eta, best_alpha
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
