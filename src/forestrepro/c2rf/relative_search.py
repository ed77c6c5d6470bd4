"""Local search along directions relative to alpha, from a rescaled incumbent (ours, not in the paper).

Step 3b of the exact chain (``exact.solve_exact``). A committee's alpha (``committees.py``) puts
points on the edge of the dead zone: its integer scores make |alpha^T s_k| = 1 for some free
patterns, so any move along one weight or a pair of weights (``heuristic.coordinate_search``) that
lowers such a score drops the point into (-1, 1), and the search is stuck at a count that is not
lambda_bar even where lambda_bar is reachable (connect_4's simple random sample 1: eta' = 1 at the
committee, 0 after 19 moves here).

Two changes get out of it. Scaling alpha by u / max(alpha) >= 1 keeps every sign (the count) and
multiplies every |alpha^T s_k| by the same factor, so edge points get slack. Moves then follow
d = N(0, 1) * alpha on a random subset of trees (each in with one probability drawn from
U(0.1, 1) per move): a relative change of the weights, which keeps large and small weights in
proportion, where a unit coordinate step is too small for a weight near u and too large for one
near l. Each move goes to the exactly best point of its line (``heuristic.line_search``); a move is
taken when it lowers (dead weight, eta') or keeps it with a nonzero step (a plateau move).
"""

from __future__ import annotations

import time

import numpy as np

from .heuristic import evaluate, line_search


def relative_search(
    C: np.ndarray,
    w: np.ndarray,
    lam: int,
    lower: float,
    upper: float,
    alpha: np.ndarray,
    rng: np.random.Generator,
    max_tries: int = 400,
    deadline: float = np.inf,
) -> tuple[np.ndarray, float, float]:
    """(alpha, dead weight, eta') after ``max_tries`` relative moves from ``alpha * u / max(alpha)``
    (the module docstring), or fewer where eta' = 0 with no dead point or at ``deadline`` (a
    time.monotonic() value). ``alpha`` must lie in [l, u]^q with l > 0; the result does too."""
    alpha = np.asarray(alpha, dtype=np.float64)
    if np.any(alpha < lower) or np.any(alpha > upper) or lower <= 0:
        raise ValueError(
            f"relative_search needs 0 < lower <= alpha <= upper; got alpha in "
            f"[{alpha.min()}, {alpha.max()}], bounds [{lower}, {upper}]"
        )
    alpha = np.clip(alpha * (upper / alpha.max()), lower, upper)
    dead, eta = evaluate(C, w, lam, alpha)
    q = len(alpha)
    for _ in range(max_tries):
        if (dead == 0 and eta == 0) or time.monotonic() > deadline:
            break
        subset = rng.random(q) < rng.uniform(0.1, 1.0)
        if not subset.any():
            continue
        direction = np.where(subset, rng.normal(size=q) * alpha, 0.0)
        x, new_dead, new_eta = line_search(C, w, lam, alpha, direction, lower, upper)
        if (new_dead, new_eta) < (dead, eta) or ((new_dead, new_eta) == (dead, eta) and x != 0):
            alpha = np.clip(alpha + x * direction, lower, upper)
            dead, eta = new_dead, new_eta
    return alpha, dead, eta
