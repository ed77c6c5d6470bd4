"""The approaches of the C2RF study (Burgard, Pinheiro, Schmidt 2024, Sec. 5.2) as methods.

An approach is not an estimator: it acts on an instance's vote matrix R and its cardinality
lambda (Problem (2)), so it has no fit/predict (``is_estimator`` is False) and runs only
under the ``c2rf_samples`` protocol. ``params`` are either ``{vote: true}`` (RF, the majority
vote, Sec. 5.2 (a)) or a ``solver`` (``milp``, the default: ``forestrepro.c2rf.solve``;
``exact``: ours, ``forestrepro.c2rf.exact.solve_exact``) and keyword arguments of that solver
(its switches; see ``c2rf.approaches`` and ``c2rf.exact``). The shared setup of the study (lower
and upper bound, time limit) is the protocol's.

Any approach may also set how the instance's 20 trees are grown (``criterion``, ``max_features``,
``with_replacement``, ``subset_fraction``, ``split_ties``: readings of Sec. 5.1's 'Decision Tree
package', ``c2rf.instances.tree_votes``), and the vote ``tie: negative | positive`` (how RF, Sec. 5.2 (a),
counts 10 against 10; ``c2rf.solver.majority_vote``). Unset, each keeps its default, so an
approach that sets none builds the same instances as before the options existed.
"""

from __future__ import annotations

import functools
import inspect
from typing import Any, ClassVar

from .._validation import StrOptions, check_value
from ..c2rf.experiment import SOLVERS, solver_function
from ..c2rf.instances import TREE_OPTIONS, check_tree_options
from ..c2rf.solver import TIES
from .base import Method, MethodConfigError

PROTOCOL_KEYWORDS = ("lower", "upper", "time_limit", "threads", "seed")
"""Solver keywords that come from the protocol, never from an approach."""

FOREST_OPTIONS: dict[str, list] = {**TREE_OPTIONS, "tie": [StrOptions(set(TIES))]}
"""How the trees are grown and their vote counted (``run_instance``'s keywords of those names),
with their constraints (scikit-learn's ``_parameter_constraints`` form)."""


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
        forest = {key: params.pop(key) for key in list(params) if key in FOREST_OPTIONS}
        try:
            for key, value in forest.items():
                check_value(key, value, FOREST_OPTIONS[key])
            check_tree_options(**{key: value for key, value in forest.items() if key in TREE_OPTIONS})
        except ValueError as err:
            raise MethodConfigError(f"method '{name}' ({self.key}): {err}") from err
        if "tie" in forest and not vote:
            raise MethodConfigError(
                f"method '{name}' ({self.key}): 'tie' counts the majority vote's ties and needs 'vote: true'"
            )
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
                f"['vote', 'solver', {', '.join(repr(s) for s in sorted(set(switches) | set(FOREST_OPTIONS)))}]"
            )
        if vote and params:
            raise MethodConfigError(
                f"method '{name}' ({self.key}): 'vote: true' takes no solver or switches, got {sorted(params)}"
            )
        self.solve_kwargs: dict[str, Any] | None = None if vote else params
        self.forest_options: dict[str, Any] = forest
        super().__init__(name, {**({"vote": True} if vote else params), **forest}, grid, options)

    def check_params(self) -> None:
        """Nothing more to check: ``__init__`` checked the switches against the solver's signature
        and the forest options against ``FOREST_OPTIONS``."""

    def estimator(self, random_state: int):
        raise MethodConfigError(
            f"method '{self.name}' ({self.key}): a C2RF approach is not an estimator; "
            "it runs under the c2rf_samples protocol"
        )

    def param_grid(self, n_features: int) -> dict[str, list]:
        return {}
