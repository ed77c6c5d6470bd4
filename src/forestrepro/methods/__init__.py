"""The methods of the papers' tables, one class each (benchopt's one-class-per-solver).

A method turns its configuration (``conf/method/*.yaml``: fixed ``params`` and a search
``grid``) into a scikit-learn estimator and the grid that the protocol's inner
cross-validation searches. ``build_method`` looks one up by its ``estimator`` key.
"""

from .._lazy import lazy_exports

__all__ = [
    "KNN",
    "METHODS",
    "CascadeForest",
    "Method",
    "MethodConfigError",
    "SVMRbf",
    "TextbookRF",
    "build_method",
]
__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "Method": "base",
        "MethodConfigError": "base",
        "KNN": "baselines",
        "SVMRbf": "baselines",
        "TextbookRF": "baselines",
        "CascadeForest": "cascades",
        "METHODS": "registry",
        "build_method": "registry",
    },
)
