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
   in integer arithmetic, with the model's definition (no point in the dead zone (-1, 1)). Bounded
   by work, not by the clock, so its alpha is the same on every machine.
3. ``local_search`` (upper bound): ``heuristic.coordinate_search`` from the best committee, then
   ``heuristic.local_search``.
3b. ``relative_search`` (upper bound): from the incumbent scaled to max(alpha) = u, exact line
   searches along random directions relative to alpha (``relative_search.py``), which get
   committees' alphas off the edge of the dead zone.
4. ``cover`` (lower bound): the LP relaxation of the 0-1 model of step 5, solved exactly by two
   minimum cuts (``lp_cover_bound``); fast on the largest instances, where step 5 stalls.
4b. ``clique`` (lower bound): the LP of that model with clique inequalities (packings of patterns
   whose trees voting one sign are pairwise disjoint) and dominance rows, by cutting planes, on the
   side of lambda_bar where the incumbent's count lies (``clique.clique_bound``); it reaches the
   optimum on most instances the cover LP leaves open, in seconds where step 5 takes tens. Skipped
   above ``clique.MAX_TREES`` merged trees (it tabulates all 2^q sets of them).
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

Step 2 lives in ``committees.py``, steps 4 and 5-6 in ``bounds.py``, step 4b in ``clique.py``; this
module holds the chain.
``solve_exact`` returns ``solver.Result`` (an ``ExactResult``, which adds the per-step log);
``solved_by`` names the step whose bound or solution closed the gap: 'preprocessing',
'committees' / 'local_search' / 'relative_search' (an incumbent with eta' = 0 or meeting an earlier bound), 'cover',
'clique' or 'combinatorial' (that bound met the incumbent), 'realise' (the 0-1 optimum was realised by an LP,
possibly after cut rounds), 'milp'; without a proof, the last step that ran.

Not built (yet): splitting instances whose lambda_bar falls into a hole between reachable counts
into a dictator and a no-dictator case; such instances go through steps 5-7 like the others.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np

from .bounds import combinatorial_bound, lp_cover_bound, realisability_cut
from .clique import MAX_TREES, clique_bound
from .committees import WORK_PER_SECOND, committee_search, exact_eta
from .cuts import row_big_m
from .heuristic import Start, coordinate_search
from .heuristic import local_search as run_local_search
from .highs_run import grace, ready
from .model import build_lp
from .preprocess import Reduction, reduce
from .relative_search import relative_search as run_relative_search
from .solver import EXACT_GAP, Result, _pair_cuts, _run_highs, check_weight_bounds, equal_weights


@dataclass(frozen=True)
class ExactResult(Result):
    """``Result`` plus ``steps``: one (step, incumbent eta, lower bound, seconds since start) per step
    that ran, in the original eta."""

    steps: tuple = ()


# ---------------------------------------------------------------------------------------------------
# Step 2: committees (upper bound)


def _final_milp(
    reduction: Reduction,
    lower: float,
    upper: float,
    bound: float,
    start: Start | None,
    time_limit: float,
    threads: int,
    seed: int,
    stop_at: float,
) -> tuple[str, np.ndarray | None, float, int]:
    """p-C2RF+'s model (row big-M, dominance, conflicts, integral eta) with eta' >= ``bound``;
    HiGHS is stopped at the ``time.monotonic()`` instant ``stop_at`` (``solver._run_highs``)."""
    C = reduction.coefficients
    Mb, Mc = row_big_m(C, lower, upper)
    lp, layout = build_lp(
        C,
        reduction.w,
        reduction.lam_bar,
        reduction.eta_bar,
        lower,
        upper,
        Mb,
        Mc,
        _pair_cuts(reduction, lower, upper, True, True),
        True,
    )
    col_lower = np.asarray(lp.col_lower_, dtype=np.float64)
    col_lower[-1] = min(float(bound), float(reduction.eta_bar))
    lp.col_lower_ = col_lower
    options = {
        "output_flag": True,  # to the job's log (highs_run), not stdout
        "log_to_console": False,
        "threads": threads,
        "random_seed": seed,
        **EXACT_GAP,
        "time_limit": max(time_limit, 1e-3),
    }
    if start is not None:
        start = Start(alpha=start.alpha, z=start.z, eta=max(start.eta, float(bound)))
    return _run_highs(lp, layout, start, options, stop_at)


STEPS = ("committees", "local_search", "cover", "clique", "combinatorial", "realise", "milp")


def solve_exact(
    R: np.ndarray,
    lam: int,
    *,
    time_limit: float = 60.0,
    lower: float = 1.0,
    upper: float = 100.0,
    committees: bool = True,
    local_search: bool = True,
    relative_search: bool = True,
    cover: bool = True,
    clique: bool = True,
    combinatorial: bool = True,
    realise: bool = True,
    milp: bool = True,
    max_committee: int = 5,
    max_weight: int = 5,
    max_weight_large: int = 3,
    max_cut_rounds: int = 20,
    committee_share: float = 0.2,
    clique_share: float = 0.6,
    bound_share: float = 0.7,
    threads: int = 1,
    seed: int = 0,
) -> ExactResult:
    """Solve Problem (2) for votes ``R`` (t x m, +-1) and ``lam`` with the chain of the module
    docstring; each step is a keyword switch. ``time_limit`` bounds the whole call (HiGHS may
    overrun a little). The committees may do the work of ``committee_share`` of it
    (``committees.WORK_PER_SECOND``: work, not time, so their alpha does not depend on the machine
    or its load); the local search runs for a tenth of it, the relative search for at most 400
    moves or a twentieth of it, the clique LP until ``clique_share`` of
    it, the 0-1 bound and its cut rounds until ``bound_share`` of it has passed. Those steps stop at
    the clock: where one is stopped, the result may differ on a slower or busier machine (the
    record's ``steps`` and ``seconds`` show it).

    The result's eta is recomputed from alpha on the original R (z = [alpha^T r_i > 0]); status is
    'optimal' only when the proven bound meets that eta, otherwise 'time_limit' (or 'no_solution'
    if no step found a feasible alpha).
    """
    ready()  # the HiGHS process starts before the clock
    started = time.monotonic()
    deadline = started + time_limit
    R = np.asarray(R)
    switches = {
        "committees": committees,
        "local_search": local_search,
        "relative_search": relative_search,
        "cover": cover,
        "clique": clique,
        "combinatorial": combinatorial,
        "realise": realise,
        "milp": milp,
        "max_committee": max_committee,
        "max_weight": max_weight,
        "max_weight_large": max_weight_large,
        "max_cut_rounds": max_cut_rounds,
        "committee_share": committee_share,
        "clique_share": clique_share,
        "bound_share": bound_share,
        "lower": lower,
        "upper": upper,
        "time_limit": time_limit,
    }
    check_weight_bounds(lower, upper)
    if lower == upper:
        return equal_weights(R, lam, lower, switches, started)
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
            status = (
                "optimal"
                if z is not None and eta <= bound + 1e-9
                else ("time_limit" if z is not None else "no_solution")
            )
        if status == "optimal":
            bound = eta
        gap = float("nan") if z is None else (0.0 if eta <= bound + 1e-9 else (eta - bound) / eta)
        by = state["by"] if status == "optimal" else (steps[-1][0] if steps else "none")
        return ExactResult(
            alpha=alpha,
            z=z,
            eta=eta,
            status=status,
            best_bound=bound,
            gap=gap,
            seconds=elapsed(),
            nodes=state["nodes"],
            solved_by=by,
            start_eta=None,
            n_binaries=h,
            switches=switches,
            steps=tuple(steps),
        )

    if h == 0:  # Prop. 5 fixed every point: the empty sum makes eta' = lam_bar for every alpha
        state.update(
            alpha=np.full(q, float(upper)), eta=float(lam_bar), bound=float(lam_bar), by="preprocessing"
        )
        log("preprocessing")
        return finish()
    log("preprocessing")

    if committees:
        _, alpha = committee_search(
            S,
            v,
            w,
            lam_bar,
            lower,
            upper,
            max_committee,
            max_weight,
            max_weight_large,
            committee_share * time_limit * WORK_PER_SECOND,
        )
        offer(alpha, "committees")
        log("committees")
        if closed():
            return finish()

    if local_search and time.monotonic() < deadline:
        rng = np.random.default_rng(seed)
        budget = min(0.1 * time_limit, max(deadline - time.monotonic(), 0.0))
        if state["alpha"] is not None:
            alpha, dead, _ = coordinate_search(
                C, w, lam_bar, lower, upper, state["alpha"], rng, time.monotonic() + budget / 2
            )
            if dead == 0:
                offer(alpha, "local_search")
        if not closed():
            start = run_local_search(C, w, lam_bar, lower, upper, seed=seed, time_limit=budget / 2)
            offer(None if start is None else start.alpha, "local_search")
        log("local_search")
        if closed():
            return finish()

    if relative_search and state["alpha"] is not None and time.monotonic() < deadline:
        alpha, dead, _ = run_relative_search(
            C,
            w,
            lam_bar,
            lower,
            upper,
            state["alpha"],
            np.random.default_rng(seed),
            deadline=time.monotonic() + 0.05 * time_limit,
        )
        if dead == 0:
            offer(alpha, "relative_search")
        log("relative_search")
        if closed():
            return finish()

    if cover and time.monotonic() < deadline:
        raise_bound(lp_cover_bound(reduction, lower, upper), "cover")
        log("cover")
        if closed():
            return finish()

    clique_deadline = started + clique_share * time_limit
    if clique and q <= MAX_TREES and time.monotonic() < clique_deadline:
        # The bound is valid from either side; it can only be positive from the side of lambda_bar
        # where the optimum's count lies, most likely the incumbent's (a hole may put it across).
        sides = (-1, 1)
        if state["alpha"] is not None:
            count = float(w @ (C @ state["alpha"] > 0))
            sides = (-1,) if count > lam_bar else (1,)
        found = clique_bound(
            reduction, time_limit=clique_deadline - time.monotonic(), sides=sides, incumbent=state["eta"]
        )
        raise_bound(found.bound, "clique")
        log("clique")
        if closed():
            return finish()

    cuts: list = []
    if combinatorial and time.monotonic() < deadline:
        bound_deadline = started + bound_share * time_limit
        start_z = None if state["alpha"] is None else (C @ state["alpha"] > 0).astype(np.int8)
        bound, z, optimal = combinatorial_bound(
            reduction,
            lower,
            upper,
            start_z=start_z,
            threads=threads,
            seed=seed,
            time_limit=bound_deadline - time.monotonic(),
        )
        raise_bound(bound, "combinatorial")
        log("combinatorial")
        rounds, realised = 0, False
        history = [(time.monotonic(), state["bound"])]
        while (
            realise
            and optimal
            and z is not None
            and not closed()
            and rounds < max_cut_rounds
            and time.monotonic() < bound_deadline
        ):
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
            bound, z, optimal = combinatorial_bound(
                reduction,
                lower,
                upper,
                cuts=cuts,
                threads=threads,
                seed=seed,
                time_limit=bound_deadline - time.monotonic(),
            )
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
        status, x, bound, nodes = _final_milp(
            reduction,
            lower,
            upper,
            state["bound"],
            start,
            deadline - time.monotonic(),
            threads,
            seed,
            deadline + grace(time_limit),
        )
        state["nodes"] = nodes
        if x is not None:
            offer(x[:q], "milp")
        if status != "infeasible" and np.isfinite(bound):
            # eta' is an integer; a dual bound within 1e-6 below an integer is rounded down (safe side)
            raise_bound(float(math.ceil(bound - 1e-6)), "milp")
        log("milp")
    return finish()
