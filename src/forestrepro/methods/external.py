"""Any scikit-learn classifier as a method, named by its import path: the extension recipe.

A method whose ``estimator`` key is ``"package.module:ClassName"`` (a colon) is built by
:class:`External`: the class is imported, ``params`` are passed to it, each ``grid`` entry is one
of its parameters searched by the protocol's inner cross-validation, and ``random_state`` is
passed when the class takes one (seeds derive from the job as for every method). So a new method
is one estimator class and one ``conf/method/<name>.yaml`` (``docs/pages/extending.md``).

A run record hashes the files of ``forestrepro`` its job imported (``record/provenance.py``): a
class kept under ``src/forestrepro/`` (e.g. ``forestrepro.extensions``) is part of the record's
code digest, so editing it reruns its jobs; a class from another package is recorded by name only.
"""

from __future__ import annotations

from importlib import import_module

from sklearn.base import BaseEstimator, is_classifier

from .base import Method, MethodConfigError


def import_estimator(path: str) -> type:
    """The class ``"package.module:ClassName"`` names, or ``MethodConfigError`` saying why not."""
    module_name, _, class_name = path.partition(":")
    try:
        cls = getattr(import_module(module_name), class_name)
    except (ImportError, AttributeError) as err:
        raise MethodConfigError(
            f"estimator '{path}': cannot import {class_name} from {module_name}: {err}"
        ) from err
    if not (isinstance(cls, type) and issubclass(cls, BaseEstimator) and is_classifier(cls())):
        raise MethodConfigError(f"estimator '{path}' is not a scikit-learn classifier class")
    return cls


class External(Method):
    """A scikit-learn classifier named by ``estimator: "package.module:ClassName"``."""

    key = "external"

    def __init__(self, name, params, grid, options=None, *, path: str):
        self.cls = import_estimator(path)
        self.key = path
        self.grid_keys = frozenset(self.cls().get_params(deep=False))
        super().__init__(name, params, grid, options)

    def estimator(self, random_state: int) -> BaseEstimator:
        seeded = {"random_state": random_state} if "random_state" in self.grid_keys else {}
        return self.cls(**self.params, **seeded)

    def param_grid(self, n_features: int) -> dict[str, list]:
        return {k: list(v) for k, v in self.grid.items()}
