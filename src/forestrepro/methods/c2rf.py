"""The approaches of the C2RF study (Burgard, Pinheiro, Schmidt 2024, Sec. 5.2) as methods.

An approach is not an estimator: it acts on an instance's vote matrix R and its cardinality
lambda (Problem (2)), so it has no fit/predict (``is_estimator`` is False) and runs only
under the ``c2rf_samples`` protocol. ``params`` are either ``{vote: true}`` (RF, the majority
vote, Sec. 5.2 (a)) or a ``solver`` (``milp``, the default: ``forestrepro.c2rf.solve``;
``exact``: ours, ``forestrepro.c2rf.exact.solve_exact``) and keyword arguments of that solver
(its switches; see ``c2rf.approaches`` and ``c2rf.exact``). The shared setup of the study (lower
and upper bound, time limit) is the protocol's.
"""

from __future__ import annotations

import functools
import inspect
from typing import Any, ClassVar

from ..c2rf.experiment import SOLVERS, solver_function
from .base import Method, MethodConfigError

PROTOCOL_KEYWORDS = ("lower", "upper", "time_limit", "threads", "seed")
"""Solver keywords that come from the protocol, never from an approach."""


@functools.cache
def solver_switches(solver: str) -> frozenset:
    """The keywords an approach of ``solver`` may set (bounds, time limit, threads and seed come
    from the protocol); imports that solver only."""
    return frozenset(
        name
        for name, p in inspect.signature(solver_function(solver)).parameters.items()
        if p.kind is inspect.Parameter.KEYWORD_ONLY and name not in PROTOCOL_KEYWORDS
    )


class C2RFApproach(Method):
    """One approach: the majority vote (``params: {vote: true}``) or a solver with its switches."""

    key: ClassVar[str] = "c2rf_approach"
    is_estimator: ClassVar[bool] = False

    def __init__(self, name: str, params: dict[str, Any], grid: dict[str, list], options: dict | None = None):
        if grid:
            raise MethodConfigError(
                f"method '{name}' ({self.key}): a C2RF approach has no search grid, got {grid}"
            )
        params = dict(params)
        vote = bool(params.pop("vote", False))
        solver = params.get("solver", "milp")
        if solver not in SOLVERS:
            raise MethodConfigError(
                f"method '{name}' ({self.key}): unknown solver {solver!r}; valid: {sorted(SOLVERS)}"
            )
        switches = solver_switches(solver)
        unknown = sorted(set(params) - switches - {"solver"})
        if unknown:
            raise MethodConfigError(
                f"method '{name}' ({self.key}): unknown params {unknown} for solver '{solver}'; valid: "
                f"['vote', 'solver', {', '.join(repr(s) for s in sorted(switches))}]"
            )
        if vote and params:
            raise MethodConfigError(
                f"method '{name}' ({self.key}): 'vote: true' takes no solver or switches, got {sorted(params)}"
            )
        self.solve_kwargs: dict[str, Any] | None = None if vote else params
        super().__init__(name, {"vote": True} if vote else params, grid, options)

    def check_params(self) -> None:
        """Nothing more to check: ``__init__`` checked the switches against the solver's signature."""

    def estimator(self, random_state: int):
        raise MethodConfigError(
            f"method '{self.name}' ({self.key}): a C2RF approach is not an estimator; "
            "it runs under the c2rf_samples protocol"
        )

    def param_grid(self, n_features: int) -> dict[str, list]:
        return {}
