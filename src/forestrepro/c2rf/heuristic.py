"""Primal heuristic for C2RF (ours, not in the paper): local search over the tree weights alpha.

For fixed alpha the best z is forced: z_k = 1 where alpha^T s_k >= 1, z_k = 0 where
alpha^T s_k <= -1, and alpha is infeasible if some alpha^T s_k lies in the dead zone (-1, 1)
(constraints (0b)-(0c)). So the problem is a search over alpha in [l, u]^q for
min |sum_k w_k [alpha^T s_k > 0] - lambda| with no point in the dead zone.

``coordinate_search`` moves alpha along single weights and random pairs (one weight up, one down)
to the exactly best point of each line: along a line the count of positives and the set of dead
points are piecewise constant, with breakpoints at the ends of the dead intervals, so one sort gives
every segment (``line_search``). Restarts start from single-tree weightings and from random
multiplicative perturbations of the best alpha. Any solution with eta = 0 is optimal, since eta >= 0
is a valid bound.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Start:
    """A feasible point of the reduced problem: alpha (q,), z (h,) in {0, 1}, eta' = |w^T z - lam_bar|."""

    alpha: np.ndarray
    z: np.ndarray
    eta: float


def evaluate(C: np.ndarray, w: np.ndarray, lam: int, alpha: np.ndarray) -> tuple[float, float]:
    """(weight of points in the dead zone |alpha^T s_k| < 1, |sum of positive weights - lam|)."""
    scores = C @ alpha
    dead = float(w[np.abs(scores) < 1.0].sum())
    return dead, abs(float(w[scores > 0].sum()) - lam)


def _weight_below(values: np.ndarray, weights: np.ndarray, x: np.ndarray, side: str) -> np.ndarray:
    """Sum of ``weights`` over values < x (side 'left') or <= x (side 'right'), for every x."""
    order = np.argsort(values)
    cumulative = np.concatenate([[0.0], np.cumsum(weights[order])])
    return cumulative[np.searchsorted(values[order], x, side=side)]


def line_search(
    C: np.ndarray,
    w: np.ndarray,
    lam: int,
    alpha: np.ndarray,
    direction: np.ndarray,
    lower: float,
    upper: float,
) -> tuple[float, float, float]:
    """Best step x for alpha + x d within the box: minimise (dead weight, |count - lam|), ties broken
    by the smallest |x|. Returns (x, dead, eta), x the midpoint of its segment.

    Along the line the scores are c + a x (c = C alpha, a = C d). Point k is positive for
    c_k + a_k x >= 1, negative for <= -1 and dead in between, so count and dead weight only change
    at the ends of the dead intervals; each segment between them is evaluated at its midpoint.
    """
    with np.errstate(divide="ignore", invalid="ignore"):
        steps = np.where(direction > 0, (upper - alpha) / direction, (lower - alpha) / direction)
        back = np.where(direction > 0, (lower - alpha) / direction, (upper - alpha) / direction)
    moving = direction != 0
    x_hi, x_lo = float(steps[moving].min()), float(back[moving].max())
    c, a = C @ alpha, C @ direction
    still = a == 0
    fixed_count = float(w[still & (c > 0)].sum())
    fixed_dead = float(w[still & (np.abs(c) < 1.0)].sum())
    c, a, wm = c[~still], a[~still], w[~still]
    end_a, end_b = (-1.0 - c) / a, (1.0 - c) / a
    dead_lo, dead_hi = np.minimum(end_a, end_b), np.maximum(end_a, end_b)
    points = np.unique(
        np.concatenate([[x_lo, x_hi, 0.0], dead_lo.clip(x_lo, x_hi), dead_hi.clip(x_lo, x_hi)])
    )
    x = 0.5 * (points[:-1] + points[1:]) if len(points) > 1 else points
    crossing, up = -c / a, a > 0  # positive for x > crossing when a > 0, for x < crossing when a < 0
    count = fixed_count + _weight_below(crossing[up], wm[up], x, "left")
    count += wm[~up].sum() - _weight_below(crossing[~up], wm[~up], x, "right")
    dead = fixed_dead + _weight_below(dead_lo, wm, x, "left") - _weight_below(dead_hi, wm, x, "right")
    eta = np.abs(count - lam)
    best = np.lexsort((np.abs(x), eta, np.round(dead, 9)))[0]
    return float(x[best]), float(dead[best]), float(eta[best])


def coordinate_search(
    C: np.ndarray,
    w: np.ndarray,
    lam: int,
    lower: float,
    upper: float,
    alpha: np.ndarray,
    rng: np.random.Generator,
    deadline: float = np.inf,
    max_sweeps: int = 50,
) -> tuple[np.ndarray, float, float]:
    """Exact line searches until a sweep improves nothing (or ``deadline``, a time.monotonic() value).
    A sweep tries every single weight, then as many random pairs (alpha_i up, alpha_j down)."""
    q = len(alpha)
    alpha = alpha.astype(np.float64).copy()
    dead, eta = evaluate(C, w, lam, alpha)
    eye = np.eye(q)
    for _ in range(max_sweeps):
        improved = False
        pairs = [eye[i] - eye[j] for i, j in rng.integers(q, size=(q, 2)) if i != j]
        for direction in [eye[j] for j in range(q)] + pairs:
            if (dead == 0 and eta == 0) or time.monotonic() > deadline:
                return alpha, dead, eta
            x, new_dead, new_eta = line_search(C, w, lam, alpha, direction, lower, upper)
            if (new_dead, new_eta) <= (dead, eta):
                improved |= (new_dead, new_eta) < (dead, eta)
                alpha, dead, eta = np.clip(alpha + x * direction, lower, upper), new_dead, new_eta
        if not improved:
            break
    return alpha, dead, eta


def _candidate_starts(q: int, lower: float, upper: float) -> list[np.ndarray]:
    """All weights equal (the majority vote), and each tree alone at u with the others at l."""
    dictators = [np.where(np.arange(q) == j, float(upper), float(lower)) for j in range(q)]
    return [np.full(q, float(upper))] + dictators


def local_search(
    C: np.ndarray,
    w: np.ndarray,
    lam: int,
    lower: float,
    upper: float,
    *,
    seed: int = 0,
    time_limit: float = 1.0,
    max_restarts: int = 10,
) -> Start | None:
    """Coordinate search from equal weights (the majority vote) first, so that an eta = 0 solution
    near the majority vote is preferred; then from each single-tree start (``_candidate_starts``),
    best first; then from the best alpha with each weight multiplied by exp(N(0, 0.5^2)). Stops at
    eta = 0, after ``max_restarts`` random restarts or after ``time_limit`` seconds.
    Returns the best feasible point (no point in the dead zone), or None.
    """
    deadline = time.monotonic() + time_limit
    q = C.shape[1]
    rng = np.random.default_rng(seed)
    equal, *dictators = _candidate_starts(q, lower, upper)
    queue = [equal] + sorted(dictators, key=lambda alpha: evaluate(C, w, lam, alpha))
    best = None
    for attempt in range(len(queue) + max_restarts):
        if attempt < len(queue):
            alpha = queue[attempt]
        else:
            base = best[0] if best is not None else equal
            alpha = np.clip(base * np.exp(rng.normal(0.0, 0.5, q)), lower, upper)
        alpha, dead, eta = coordinate_search(C, w, lam, lower, upper, alpha, rng, deadline)
        if dead == 0 and (best is None or eta < best[1]):
            best = (alpha, eta)
        if (best is not None and best[1] == 0) or time.monotonic() > deadline:
            break
    if best is None:
        return None
    alpha = best[0]
    z = (C @ alpha > 0).astype(np.int8)
    return Start(alpha=alpha, z=z, eta=abs(float(w @ z) - lam))
