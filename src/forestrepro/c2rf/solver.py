"""``solve``: C2RF (Problem (2)) on HiGHS, with every speed-up a keyword switch.

Switches (all off gives Problem (2) as printed, Sec. 5.2 (b)):

- ``preprocess``: Algorithm 1's preprocessing (Props. 3-5 with the lambda update);
- ``priority_dive``: our HiGHS stand-in for the branching priorities of Sec. 4 (``priorities.py``);
- ``local_search``: the primal heuristic of ``heuristic.py``;
- ``big_m``: ``"paper"`` (Prop. 1, M = u t + 1) or ``"row"`` (per-row big-M, ``cuts.row_big_m``);
- ``dominance``: dominance cuts z_a >= z_b on the transitive reduction (``cuts.dominance_pairs``);
- ``conflicts``: pairs that cannot both be negative / positive (``cuts.conflict_pairs``);
- ``integral_eta``: declare eta integer (every optimal eta is an integer);
- ``highs_options``: any further HiGHS options, e.g. ``{"mip_heuristic_effort": 0.3}``.


Starts found by the heuristics are passed to HiGHS with ``setSolution``. A start with eta = 0 is
optimal (eta >= 0), and HiGHS is then not called. A time-out or an infeasible model is a status.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import highspy
import numpy as np

from .cuts import conflict_pairs, dominance_pairs, paper_big_m, row_big_m
from .heuristic import Start
from .heuristic import local_search as run_local_search
from .highs_run import grace, ready, run_mip
from .model import Layout, PairCuts, build_lp, start_vector
from .preprocess import Reduction, identity, reduce
from .priorities import priorities
from .priorities import priority_dive as run_priority_dive

# Every optimal eta is an integer and eta is recomputed from alpha, so a bound within 1 of the
# incumbent proves optimality; no relative tolerance (HiGHS's default 1e-4 would accept eta = 5000
# against a bound of 4999.6 but also 15000 against 14998.6).
EXACT_GAP = {"mip_rel_gap": 0.0, "mip_abs_gap": 1.0 - 1e-6}
HEURISTIC_SHARE = 0.1  # at most this share of the time limit goes to local search and dive (each)


@dataclass(frozen=True)
class Result:
    """Outcome of ``solve``.

    ``alpha`` (t,) tree weights and ``z`` (m,) predictions (1 where alpha^T r_i > 0), None without a
    solution; ``eta``: |sum z - lambda| of that solution (nan without one); ``status``: 'optimal',
    'time_limit', 'infeasible', ...; ``best_bound``: proven lower bound on eta; ``gap``:
    (eta - bound) / eta (0 when eta = 0, nan without a solution); ``seconds``: wall time of the whole
    call; ``nodes``: HiGHS branch-and-bound nodes; ``solved_by``: 'highs', 'heuristic' (a start with
    eta = 0) or 'preprocessing' (no free variable left); ``start_eta``: eta of the best start passed
    to HiGHS (None if none); ``n_binaries``: binaries of the MILP; ``switches``: the keyword switches.
    """

    alpha: np.ndarray | None
    z: np.ndarray | None
    eta: float
    status: str
    best_bound: float
    gap: float
    seconds: float
    nodes: int
    solved_by: str
    start_eta: float | None
    n_binaries: int
    switches: dict = field(default_factory=dict)


def check_weight_bounds(lower: float, upper: float) -> None:
    """Problem (2)'s tree weights lie in [lower, upper]: an empty interval is an error naming both
    (every approach would otherwise answer something of its own, a weight below the bound)."""
    if not lower <= upper:
        raise ValueError(f"tree weight bounds: lower ({lower}) must not exceed upper ({upper})")


def equal_weights(R: np.ndarray, lam: int, weight: float, switches: dict, started: float) -> Result:
    """The answer of every approach when lower == upper: each tree weighs ``weight``, the one
    feasible alpha, so z is the weighted vote of equal weights (the majority vote for a positive
    weight, a tie negative) and its eta is optimal; ``solved_by`` 'bounds'."""
    alpha = np.full(R.shape[0], float(weight))
    z = (alpha @ R.astype(np.float64) > 0).astype(np.int8)
    eta = float(abs(int(z.sum()) - lam))
    return Result(
        alpha=alpha,
        z=z,
        eta=eta,
        status="optimal",
        best_bound=eta,
        gap=0.0,
        seconds=time.monotonic() - started,
        nodes=0,
        solved_by="bounds",
        start_eta=None,
        n_binaries=0,
        switches=switches,
    )


TIES = ("negative", "positive")
"""How ``majority_vote`` counts a tie (as many +1 as -1 votes; t = 20 trees can tie)."""


def majority_vote(R: np.ndarray, tie: str = "negative") -> np.ndarray:
    """RF (Sec. 5.2 (a)): 1 where more trees vote +1 than -1.

    Sec. 5.2 (a) says only 'majority vote', and with t = 20 trees (Sec. 5.1) 10 against 10 can
    happen, so a tie is an option: ``"negative"`` (the default: alpha^T r = 0 is not > 0, the sign
    rule of Problem (2)) or ``"positive"`` (alpha^T r >= 0).

    Parameters
    ----------
    R : array-like of shape (t, m)
        The trees' votes (+1 or -1) on the unlabeled points.
    tie : {"negative", "positive"}, default="negative"
        The class of a point with as many +1 as -1 votes.

    Returns
    -------
    z : ndarray of shape (m,)
        The predictions, 0 or 1 (int8).
    """
    if tie not in TIES:
        raise ValueError(f"tie must be one of {TIES}, got {tie!r}")
    total = np.asarray(R).sum(axis=0)
    return (total >= 0 if tie == "positive" else total > 0).astype(np.int8)


def _pair_cuts(
    reduction: Reduction, lower: float, upper: float, dominance: bool, conflicts: bool
) -> tuple[PairCuts, ...]:
    """The rows of the dominance and conflict cuts. Conflicts implied by a dominance cut and another
    conflict are left out, so without ``dominance`` they are still valid but weaker."""
    if not (dominance or conflicts):
        return ()
    order = dominance_pairs(reduction.S)
    cuts = [PairCuts(order, 1.0, -1.0, 0.0, np.inf)] if dominance else []
    if conflicts:
        not_negative, not_positive = conflict_pairs(reduction.S, order, lower, upper, reduction.v)
        cuts += [
            PairCuts(not_negative, 1.0, 1.0, 1.0, np.inf),
            PairCuts(not_positive, 1.0, 1.0, -np.inf, 1.0),
        ]
    return tuple(cuts)


def _run_highs(
    lp: highspy.HighsLp, layout: Layout, start: Start | None, options: dict, stop_at: float
) -> tuple[str, np.ndarray | None, float, int]:
    """Solve the MILP from ``start``: (status, column values or None, dual bound, nodes).

    HiGHS checks its time limit only between steps of its search (a 600 s limit once ended after
    3,510 s on connect_4), so the solve runs under ``highs_run.run_mip``'s watchdog, which stops it
    at the ``time.monotonic()`` instant ``stop_at`` and keeps its incumbent and bound.
    """
    vector = None if start is None else start_vector(layout, start.alpha, start.z, start.eta)
    status, x, bound, nodes, _ = run_mip(lp, options, vector, stop_at)
    return status, x, bound, nodes


def solve(
    R: np.ndarray,
    lam: int,
    *,
    lower: float = 1.0,
    upper: float = 100.0,
    preprocess: bool = True,
    priority_dive: bool = False,
    local_search: bool = False,
    big_m: str = "paper",
    dominance: bool = False,
    conflicts: bool = False,
    integral_eta: bool = False,
    time_limit: float = 7200.0,
    threads: int = 1,
    seed: int = 0,
    highs_options: dict | None = None,
) -> Result:
    """Solve C2RF for votes ``R`` (t x m, entries +-1) and cardinality ``lam`` (Problem (2)).

    Defaults: l = 1, u = 100 (Sec. 5.2), eta_bar from (1) (updated as in Algorithm 1 when
    preprocessing). ``time_limit`` bounds the whole call. See the module docstring for the switches.

    Parameters
    ----------
    R : array-like of shape (t, m)
        The trees' votes (+1 or -1) on the m unlabeled points.
    lam : int
        lambda, the number of positives among the unlabeled points.
    lower : float, default=1.0
        l, the lower bound of a tree weight.
    upper : float, default=100.0
        u, the upper bound of a tree weight.
    preprocess : bool, default=True
        Algorithm 1's preprocessing (Props. 3-5).
    priority_dive : bool, default=False
        Our HiGHS stand-in for Sec. 4's branching priorities: a start from the priority order.
    local_search : bool, default=False
        A start from the local search over the tree weights (``heuristic.py``).
    big_m : {"paper", "row"}, default="paper"
        Prop. 1's M = u t + 1, or a big-M per row (``cuts.row_big_m``).
    dominance : bool, default=False
        Add the dominance cuts z_a >= z_b.
    conflicts : bool, default=False
        Add the conflict cuts (pairs that cannot both be negative, or both positive).
    integral_eta : bool, default=False
        Declare eta integer.
    time_limit : float, default=7200.0
        Seconds for the whole call.
    threads : int, default=1
        HiGHS threads.
    seed : int, default=0
        HiGHS's random seed.
    highs_options : dict or None, default=None
        Further HiGHS options.

    Returns
    -------
    Result
        Tree weights ``alpha``, predictions ``z``, eta, the status, bound, gap and time.
    """
    ready()  # the HiGHS process starts before the clock
    started = time.monotonic()
    R = np.asarray(R)
    if big_m not in ("paper", "row"):
        raise ValueError(f"big_m must be 'paper' or 'row', got {big_m!r}")
    switches = dict(
        preprocess=preprocess,
        priority_dive=priority_dive,
        local_search=local_search,
        big_m=big_m,
        dominance=dominance,
        conflicts=conflicts,
        integral_eta=integral_eta,
        lower=lower,
        upper=upper,
        time_limit=time_limit,
        highs_options=dict(highs_options or {}),
    )
    check_weight_bounds(lower, upper)
    if lower == upper:
        return equal_weights(R, lam, lower, switches, started)
    reduction = reduce(R, lam, lower, upper) if preprocess else identity(R, lam)
    C = reduction.coefficients
    h, q = C.shape
    offset = float(reduction.eta_offset)

    def finish(
        alpha: np.ndarray | None,
        status: str,
        bound: float,
        nodes: int = 0,
        solved_by: str = "highs",
        start_eta: float | None = None,
    ) -> Result:
        """Predictions and eta from alpha on the original R; bound and gap in the original eta."""
        z = None if alpha is None else (alpha @ R.astype(np.float64) > 0).astype(np.int8)
        eta = float("nan") if z is None else float(abs(int(z.sum()) - lam))
        if status == "optimal":
            bound = eta
        elif bound != float("inf"):  # eta' >= 0 holds even before HiGHS has a bound
            bound = max(bound, 0.0) + offset
        gap = float("nan") if z is None else (0.0 if eta <= bound + 1e-9 else (eta - bound) / eta)
        return Result(
            alpha=alpha,
            z=z,
            eta=eta,
            status=status,
            best_bound=bound,
            gap=gap,
            seconds=time.monotonic() - started,
            nodes=nodes,
            solved_by=solved_by,
            start_eta=start_eta,
            n_binaries=h,
            switches=switches,
        )

    if h == 0:  # Prop. 5 fixed every point: any alpha in the box is optimal
        return finish(
            reduction.expand(np.full(q, float(upper)), np.zeros(0))[0],
            "optimal",
            0.0,
            solved_by="preprocessing",
        )
    budget = HEURISTIC_SHARE * time_limit
    starts = []
    if local_search:
        start = run_local_search(
            C, reduction.w, reduction.lam_bar, lower, upper, seed=seed, time_limit=budget
        )
        if start is not None and start.eta == 0:  # eta' >= 0 is a valid bound: optimal
            return finish(
                reduction.expand(start.alpha, start.z)[0],
                "optimal",
                0.0,
                solved_by="heuristic",
                start_eta=offset,
            )
        starts += [start] if start is not None else []
    Mb, Mc = row_big_m(C, lower, upper) if big_m == "row" else paper_big_m(h, R.shape[0], upper)
    lp, layout = build_lp(
        C,
        reduction.w,
        reduction.lam_bar,
        reduction.eta_bar,
        lower,
        upper,
        Mb,
        Mc,
        _pair_cuts(reduction, lower, upper, dominance, conflicts),
        integral_eta,
    )
    if priority_dive:
        majority = (C.sum(axis=1) > 0).astype(np.float64)
        start = run_priority_dive(lp, q, priorities(C), majority, reduction.w, reduction.lam_bar, budget)
        starts += [start] if start is not None else []
    best = min(starts, key=lambda s: s.eta) if starts else None
    options = {
        "output_flag": True,  # the log reaches the job's log through highs_run, not stdout
        "log_to_console": False,
        "threads": threads,
        "random_seed": seed,
        **EXACT_GAP,
        "time_limit": max(time_limit - (time.monotonic() - started), 1e-3),
        **(highs_options or {}),
    }
    stop_at = started + time_limit + grace(time_limit)
    status, x, bound, nodes = _run_highs(lp, layout, best, options, stop_at)
    alpha = None if x is None else reduction.expand(x[:q], np.round(x[q : q + h]))[0]
    return finish(alpha, status, bound, nodes, start_eta=None if best is None else best.eta + offset)
