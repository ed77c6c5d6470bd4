"""The methods of the papers' tables, one class each (benchopt's one-class-per-solver).

A method turns its configuration (``conf/method/*.yaml``: fixed ``params`` and a search
``grid``) into a scikit-learn estimator and the grid that the protocol's inner
cross-validation searches. ``build_method`` looks one up by its ``estimator`` key.
"""

from .base import Method, MethodConfigError
from .baselines import KNN, SVMRbf, TextbookRF
from .cascades import CascadeForest
from .registry import METHODS, build_method

__all__ = ["CascadeForest", "KNN", "METHODS", "Method", "MethodConfigError", "SVMRbf", "TextbookRF", "build_method"]
