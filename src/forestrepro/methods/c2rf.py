"""The approaches of the C2RF study (Burgard, Pinheiro, Schmidt 2024, Sec. 5.2) as methods.

An approach is not an estimator: it acts on an instance's vote matrix R and its cardinality
lambda (Problem (2)), so it has no fit/predict (``is_estimator`` is False) and runs only
under the ``c2rf_samples`` protocol. ``params`` are either ``{vote: true}`` (RF, the majority vote, Sec. 5.2 (a)) or
keyword arguments of ``forestrepro.c2rf.solve`` (its switches; see ``c2rf.approaches``).
The shared setup of the study (lower and upper bound, time limit) is the protocol's.
"""

from __future__ import annotations

import inspect
from typing import Any, ClassVar

from ..c2rf import solve
from .base import Method, MethodConfigError

SOLVE_SWITCHES = frozenset(
    name
    for name, p in inspect.signature(solve).parameters.items()
    if p.kind is inspect.Parameter.KEYWORD_ONLY
    and name not in ("lower", "upper", "time_limit", "threads", "seed")
)
"""``solve`` keywords an approach may set (bounds, time limit, threads and seed come from the protocol)."""


class C2RFApproach(Method):
    """One approach: the majority vote (``params: {vote: true}``) or a set of ``solve`` switches."""

    key: ClassVar[str] = "c2rf_approach"
    is_estimator: ClassVar[bool] = False

    def __init__(self, name: str, params: dict[str, Any], grid: dict[str, list], options: dict | None = None):
        if grid:
            raise MethodConfigError(
                f"method '{name}' ({self.key}): a C2RF approach has no search grid, got {grid}"
            )
        params = dict(params)
        vote = bool(params.pop("vote", False))
        unknown = sorted(set(params) - SOLVE_SWITCHES)
        if unknown:
            raise MethodConfigError(
                f"method '{name}' ({self.key}): unknown params {unknown}; valid: ['vote', {', '.join(repr(s) for s in sorted(SOLVE_SWITCHES))}]"
            )
        if vote and params:
            raise MethodConfigError(
                f"method '{name}' ({self.key}): 'vote: true' takes no solve switches, got {sorted(params)}"
            )
        self.solve_kwargs: dict[str, Any] | None = None if vote else params
        super().__init__(name, {"vote": True} if vote else params, grid, options)

    def check_params(self) -> None:
        """Nothing more to check: ``__init__`` checked the switches against ``solve``."""

    def estimator(self, random_state: int):
        raise MethodConfigError(
            f"method '{self.name}' ({self.key}): a C2RF approach is not an estimator; "
            "it runs under the c2rf_samples protocol"
        )

    def param_grid(self, n_features: int) -> dict[str, list]:
        return {}
