"""Cardinality-constrained random forests (Burgard, Pinheiro, Schmidt 2024) on HiGHS.

Modules, one job each: ``instances`` (Sec. 5.1 instances), ``preprocess`` (Props. 3-5,
Algorithm 1), ``model`` (Problem (2) as a HiGHS model), ``cuts`` (per-row big-M, dominance and
conflict cuts), ``heuristic`` (local search over the tree weights), ``priorities`` (Sec. 4's
priorities and our priority dive), ``solver`` (the public ``solve``), ``approaches`` (named
presets), ``experiment`` (one job: one instance, every approach).
"""

from .approaches import APPROACHES, PAPER_COLUMN
from .experiment import run_instance
from .instances import Instance, build_instance
from .solver import Result, majority_vote, solve

__all__ = ["APPROACHES", "PAPER_COLUMN", "Instance", "Result", "build_instance", "majority_vote", "run_instance",
           "solve"]
