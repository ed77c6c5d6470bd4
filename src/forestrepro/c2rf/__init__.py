"""Cardinality-constrained random forests (Burgard, Pinheiro, Schmidt 2024) on HiGHS.

Modules, one job each: ``instances`` (Sec. 5.1 instances), ``preprocess`` (Props. 3-5,
Algorithm 1), ``model`` (Problem (2) as a HiGHS model), ``cuts`` (per-row big-M, dominance and
conflict cuts), ``heuristic`` (local search over the tree weights), ``priorities`` (Sec. 4's
priorities and our priority dive), ``solver`` (the public ``solve``), ``approaches`` (named
presets), ``experiment`` (one job: one instance, every approach); ``exact`` (our exact chain,
with its bounds in ``committees`` and ``bounds``).
"""

from .._lazy import lazy_exports

__all__ = [
    "APPROACHES",
    "PAPER_COLUMN",
    "Instance",
    "Result",
    "build_instance",
    "majority_vote",
    "run_instance",
    "solve",
]
__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "APPROACHES": "approaches",
        "PAPER_COLUMN": "approaches",
        "run_instance": "experiment",
        "Instance": "instances",
        "build_instance": "instances",
        "Result": "solver",
        "majority_vote": "solver",
        "solve": "solver",
    },
)
