"""The branching priorities of Sec. 4 / Algorithm 1 (Steps 15-20), and how we use them with HiGHS.

The paper gives z_k the priority xi_k = rank of theta_k = |mean(s_k)| (most trees agreeing first)
and lets Gurobi branch on high-priority variables first. HiGHS has no branching priorities and its
callbacks cannot choose branching variables, so we do not claim this rule. What we do instead, and
call a *priority dive* (PD): before HiGHS starts, a depth-first LP dive fixes the z variables in the
paper's priority order (highest xi first), each to its LP value rounded (ties to the majority vote),
doubling the batch after a feasible LP and halving it after an infeasible one; a single variable
whose rounding is infeasible goes to its other value, as a backtrack would. The dive ends with every
z fixed, so its last LP gives a feasible (alpha, z, eta), which is passed to HiGHS with setSolution.
This imitates the first plunge of a branch-and-bound that follows the priorities; it changes HiGHS's
starting incumbent, not its branching.
"""

from __future__ import annotations

import time

import highspy
import numpy as np
from scipy.stats import rankdata

from .heuristic import Start


def priorities(coefficients: np.ndarray) -> np.ndarray:
    """xi_k (1 = lowest) = dense rank of theta_k = |mean(s_k)|, s_k the row with merged trees
    counted v_g times (Algorithm 1, Steps 15-20). Equal theta gives equal priority."""
    theta = np.abs(coefficients.mean(axis=1))
    return rankdata(theta, method="dense").astype(np.int64)


def _lp_relaxation(lp: highspy.HighsLp, time_limit: float) -> highspy.Highs:
    relaxed = highspy.Highs()
    relaxed.setOptionValue("output_flag", False)
    relaxed.setOptionValue("threads", 1)
    relaxed.setOptionValue("time_limit", max(time_limit, 1e-3))
    relaxed.passModel(lp)
    n = lp.num_col_
    relaxed.changeColsIntegrality(
        n, np.arange(n, dtype=np.int32), np.full(n, highspy.HighsVarType.kContinuous)
    )
    return relaxed


def priority_dive(
    lp: highspy.HighsLp,
    q: int,
    xi: np.ndarray,
    majority: np.ndarray,
    w: np.ndarray,
    lam: int,
    time_limit: float,
) -> Start | None:
    """The priority dive described in the module docstring, on the MILP ``lp`` whose columns are
    alpha (q), z (h), eta. ``majority``: 1 where the (weighted) vote is positive. Returns None when
    the time runs out or the dive meets an infeasible LP it cannot repair."""
    deadline = time.monotonic() + time_limit
    h = len(xi)
    relaxed = _lp_relaxation(lp, time_limit)
    order = np.argsort(-xi, kind="stable")

    def solve() -> np.ndarray | None:
        relaxed.setOptionValue("time_limit", max(deadline - time.monotonic(), 1e-3))
        relaxed.run()
        if relaxed.getModelStatus() != highspy.HighsModelStatus.kOptimal:
            return None
        return np.asarray(relaxed.getSolution().col_value)

    def fix(k: np.ndarray, values: np.ndarray) -> None:
        cols = (q + k).astype(np.int32)
        relaxed.changeColsBounds(len(cols), cols, values.astype(np.float64), values.astype(np.float64))

    def release(k: np.ndarray) -> None:
        cols = (q + k).astype(np.int32)
        relaxed.changeColsBounds(len(cols), cols, np.zeros(len(cols)), np.ones(len(cols)))

    x = solve()
    position, batch = 0, max(1, h // 64)
    while x is not None and position < h:
        if time.monotonic() > deadline:
            return None
        chunk = order[position : position + batch]
        value = x[q + chunk]
        rounded = np.where(np.abs(value - 0.5) < 1e-9, majority[chunk], np.round(value))
        fix(chunk, rounded)
        trial = solve()
        if trial is not None:
            x, position, batch = trial, position + len(chunk), 2 * batch
            continue
        if len(chunk) > 1:
            release(chunk)
            batch = max(1, len(chunk) // 2)
            continue
        fix(chunk, 1.0 - rounded)
        x = solve()
        position, batch = position + 1, 1
    if x is None:
        return None
    z = np.round(x[q : q + h]).astype(np.int8)
    return Start(alpha=x[:q].copy(), z=z, eta=abs(float(w @ z) - lam))
