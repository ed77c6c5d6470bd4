"""Parameter checks of every estimator: scikit-learn's ``_parameter_constraints``, read by one helper.

Each estimator declares its parameters' constraints as scikit-learn's own estimators do
(``sklearn/ensemble/_forest.py``: a dict from parameter name to a list of constraints from
``sklearn.utils._param_validation``, any one of which a value must satisfy).
``check_params(estimator)`` checks them, before any data is touched, and raises
``InvalidParameterError`` (a ``ValueError`` and a ``TypeError``, as scikit-learn's) with a
short message naming the parameter: ``h must be None or an int >= 1, got 0``. Two rules
differ from scikit-learn's: a bool is never a number (``n_estimators=True`` is refused, as
before), and the message is the project's one line. ``check_value`` checks a single value
(for functions such as ``cascade.members.member_templates``); ``resolve_count`` turns
scikit-learn's ``max_features`` convention into a count.
"""

from __future__ import annotations

import numbers
from numbers import Integral, Real

import numpy as np
from sklearn.utils._param_validation import (
    HasMethods,
    Interval,
    InvalidParameterError,
    Options,
    RealNotInt,
    StrOptions,
    make_constraint,
)

__all__ = [
    "COUNT",
    "FRACTION",
    "HasMethods",
    "Interval",
    "InvalidParameterError",
    "REAL",
    "RealNotInt",
    "StrOptions",
    "at_least",
    "check_params",
    "check_value",
    "resolve_count",
]


def at_least(low: int) -> Interval:
    """An int of at least ``low``."""
    return Interval(Integral, low, None, closed="left")


FRACTION = Interval(RealNotInt, 0.0, 1.0, closed="right")
"""A float in (0, 1]."""

REAL = Interval(Real, None, None, closed="neither")
"""Any real number (not a bool)."""

COUNT = [None, StrOptions({"sqrt", "log2"}), at_least(1), FRACTION]
"""scikit-learn's ``max_features`` convention (see ``resolve_count``)."""


def _describe(constraint) -> str:
    if constraint is None:
        return "None"
    if isinstance(constraint, Options):
        return f"one of {tuple(sorted(constraint.options, key=str))}"
    if isinstance(constraint, Interval):
        if constraint.type is Integral and constraint.right is None and constraint.closed in ("left", "both"):
            return f"an int >= {constraint.left}"
        if constraint.left is None and constraint.right is None:
            return "a real number"
        return str(constraint)
    if constraint == "boolean":
        return "a bool"
    if constraint == "random_state":
        return "an int, a RandomState or None"
    if isinstance(constraint, type):
        return f"an instance of {constraint.__name__}"
    return str(make_constraint(constraint))


def _satisfies(value, constraint) -> bool:
    if isinstance(constraint, Interval) and isinstance(value, (bool, np.bool_)):
        return False  # a bool is not a number here
    return make_constraint(constraint).is_satisfied_by(value)


def check_value(name: str, value, constraints: list | str) -> None:
    """Raise ``InvalidParameterError`` unless ``value`` satisfies one of ``constraints``
    (``"no_validation"``: any value, as in scikit-learn)."""
    if constraints == "no_validation":
        return
    if not any(_satisfies(value, constraint) for constraint in constraints):
        described = " or ".join(_describe(constraint) for constraint in constraints)
        raise InvalidParameterError(f"{name} must be {described}, got {value!r}")


def check_params(estimator) -> None:
    """Check each parameter of ``estimator`` against its ``_parameter_constraints``."""
    for name, constraints in type(estimator)._parameter_constraints.items():
        check_value(name, getattr(estimator, name), constraints)


def resolve_count(value, n, name):
    """scikit-learn's ``max_features`` convention for a count out of ``n``: None (all),
    "sqrt", "log2", an int, or a fraction in (0, 1]; at least 1."""
    if value is None:
        return n
    if isinstance(value, bool):
        raise ValueError(f"{name} must not be a bool, got {value!r}")
    if value == "sqrt":
        return max(1, int(np.sqrt(n)))
    if value == "log2":
        return max(1, int(np.log2(n)))
    if isinstance(value, numbers.Integral) and 1 <= value:
        return min(int(value), n)
    if isinstance(value, numbers.Real) and 0.0 < value <= 1.0:
        return max(1, int(value * n))
    raise ValueError(f"{name} must be None, 'sqrt', 'log2', an int >= 1 or a float in (0, 1], got {value!r}")
