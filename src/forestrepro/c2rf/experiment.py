"""One job of the C2RF study: one data set, one sampling scheme, one sample, every approach.

Accuracy (8) and MCC (9) are computed on the unlabeled points (Sec. 5.3); the paper prints MCC
'in percentage', i.e. (MCC + 1) / 2 x 100 (``mcc_pct``).
"""

from __future__ import annotations

import importlib
import time

import numpy as np

from .instances import build_instance
from .preprocess import unique_patterns
from .solver import Result, majority_vote

SOLVERS = {"milp": ("solver", "solve"), "exact": ("exact", "solve_exact")}
"""An approach's ``solver`` (module, function): ``milp`` (``solver.solve``, Problem (2) on HiGHS
with the approach's switches; the default) or ``exact`` (``exact.solve_exact``, our chain of
bounds that proves optimality before it calls the MILP)."""


def solver_function(name: str):
    """The function of solver ``name`` (a key of ``SOLVERS``), imported when first asked for: a
    job imports only the solver its approach uses, so its run record depends on that solver's
    code alone (``record/provenance.py``), and a change to the exact chain leaves the records of
    the MILP approaches current."""
    module, function = SOLVERS[name]
    return getattr(importlib.import_module(f".{module}", __package__), function)


def solve_approach(R: np.ndarray, lam: int, **kwargs) -> Result:
    """Solve Problem (2) with the approach's ``solver`` (one of ``SOLVERS``, default ``milp``),
    passing it the other keywords."""
    return solver_function(kwargs.pop("solver", "milp"))(R, lam, **kwargs)


def accuracy(y: np.ndarray, z: np.ndarray) -> float:
    """Eq. (8): (TP + TN) / m."""
    return float(np.mean(np.asarray(y) == np.asarray(z)))


def mcc(y: np.ndarray, z: np.ndarray) -> float:
    """Eq. (9); 0 when a factor of the denominator is 0 (one class predicted or present)."""
    y, z = np.asarray(y).astype(bool), np.asarray(z).astype(bool)
    tp, tn = float(np.sum(y & z)), float(np.sum(~y & ~z))
    fp, fn = float(np.sum(~y & z)), float(np.sum(y & ~z))
    denominator = (tp + fp) * (tp + fn) * (tn + fp) * (tn + fn)
    return 0.0 if denominator == 0 else float((tp * tn - fp * fn) / np.sqrt(denominator))


def _scores(y: np.ndarray, z: np.ndarray | None) -> dict:
    if z is None:
        return {"accuracy": float("nan"), "mcc": float("nan"), "mcc_pct": float("nan")}
    value = mcc(y, z)
    return {"accuracy": accuracy(y, z), "mcc": value, "mcc_pct": (value + 1.0) / 2.0 * 100.0}


def run_instance(
    X: np.ndarray,
    y: np.ndarray,
    *,
    sampling: str,
    seed: int,
    approaches: dict[str, dict | None],
    time_limit: float,
    bias: str = "inclusion",
    drop_duplicates: bool = True,
    subset_fraction: float = 0.2,
    tie: str = "negative",
    **tree_options,
) -> list[dict]:
    """Build the instance (Sec. 5.1 / Appendix A) and run every approach on it; one row per approach.

    ``approaches`` maps a name to keyword arguments of its solver, or to None for the majority vote
    (RF), e.g. ``approaches.APPROACHES``; the key ``solver`` picks one of ``SOLVERS`` (default
    ``milp``). ``time_limit`` applies to each solve unless its kwargs set one.
    RF's ``seconds`` is the time to grow the trees and vote. Nothing raises on a time-out or an
    infeasible model: the row records the status (metrics are nan when no solution was found).
    ``solved`` is True for an optimal status within the time limit (Sec. 5.3: t > 7200 s counts as
    not solved; a solve ends within max(5 %, 5 s) of its limit, ``highs_run``).

    Parameters
    ----------
    X : array-like of shape (n, d)
        Features.
    y : array-like of shape (n,)
        Binary labels, 1 the positive class.
    sampling : {"biased", "srs"}
        How the labeled points are drawn (``build_instance``).
    seed : int
        The instance's seed.
    approaches : dict
        Approach name to solver keyword arguments (``solver`` names one of ``SOLVERS``), or None
        for the majority vote.
    time_limit : float
        Seconds per solve.
    bias : str, default="inclusion"
        The reading of the biased sampling.
    drop_duplicates : bool, default=True
        Drop repeated rows first.
    subset_fraction : float, default=0.2
        The share of the labeled points each tree is grown on (Sec. 5.1: 20 %).
    tie : {"negative", "positive"}, default="negative"
        How the majority vote (RF, Sec. 5.2 (a)) counts a tie (``solver.majority_vote``).
    **tree_options
        How the 20 trees are grown: ``criterion``, ``max_features``, ``with_replacement``,
        ``split_ties``, ``tree_code`` (Sec. 5.1; readings of DecisionTree.jl's defaults and a
        second tree code, see ``instances.tree_votes``); the defaults are our first reading.

    Returns
    -------
    list of dict
        One row per approach: accuracy, MCC, eta, status, times and the instance's sizes.
    """
    started = time.monotonic()
    instance = build_instance(
        X,
        y,
        sampling=sampling,
        seed=seed,
        bias=bias,
        drop_duplicates=drop_duplicates,
        subset_fraction=subset_fraction,
        **tree_options,
    )
    build_seconds = time.monotonic() - started
    common = {
        "sampling": sampling,
        "seed": seed,
        "bias": bias,
        "lam": instance.lam,
        "m": instance.R.shape[1],
        "n_rows": instance.n_rows,
        "n_labeled": len(instance.labeled),
        "n_unique_patterns": len(unique_patterns(instance.R)[1]),
    }
    rows = []
    for name, kwargs in approaches.items():
        if kwargs is None:
            begin = time.monotonic()
            z = majority_vote(instance.R, tie=tie)
            seconds = build_seconds + time.monotonic() - begin
            rows.append(
                {
                    "approach": name,
                    **common,
                    **_scores(instance.y_unlabeled, z),
                    "eta": float(abs(int(z.sum()) - instance.lam)),
                    "status": "majority_vote",
                    "best_bound": float("nan"),
                    "gap": float("nan"),
                    "seconds": seconds,
                    "nodes": 0,
                    "solved_by": "vote",
                    "start_eta": float("nan"),
                    "n_binaries": 0,
                    "solved": True,
                    "switches": {},
                }
            )
            continue
        kwargs = {"time_limit": time_limit, "seed": seed, **kwargs}
        result = solve_approach(instance.R, instance.lam, **kwargs)
        rows.append(
            {
                "approach": name,
                **common,
                **_scores(instance.y_unlabeled, result.z),
                "eta": result.eta,
                "status": result.status,
                "best_bound": result.best_bound,
                "gap": result.gap,
                "seconds": result.seconds,
                "nodes": result.nodes,
                "solved_by": result.solved_by,
                "start_eta": float("nan") if result.start_eta is None else result.start_eta,
                "n_binaries": result.n_binaries,
                "solved": result.status == "optimal" and result.seconds <= kwargs["time_limit"],
                "switches": result.switches,
            }
        )
    return rows
