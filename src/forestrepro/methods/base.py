"""The interface every method implements."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, ClassVar

import numpy as np
from sklearn.base import BaseEstimator


class MethodConfigError(ValueError):
    """A method's configuration names a parameter or grid entry it does not have."""


class Method(ABC):
    """A method: its fixed parameters, its search grid, and how to build its estimator.

    ``options`` are the paper's per-data-set settings for one job (``paper.<p>.dataset_options``),
    e.g. how to scan an image; a method uses the ones it knows and ignores the rest.
    ``is_estimator`` is False for a method that fits no estimator (a C2RF approach), which only
    the protocols that say so run (``evaluation.base.EvaluationProtocol.takes_estimators``).
    """

    key: ClassVar[str]
    grid_keys: ClassVar[frozenset[str]] = frozenset()
    is_estimator: ClassVar[bool] = True

    def __init__(self, name: str, params: dict[str, Any], grid: dict[str, list], options: dict | None = None):
        unknown = sorted(set(grid) - self.grid_keys)
        if unknown:
            raise MethodConfigError(
                f"method '{name}' ({self.key}): unknown grid entries {unknown}; "
                f"valid: {sorted(self.grid_keys)}"
            )
        self.name = name
        self.params = dict(params)
        self.grid = {k: list(v) for k, v in grid.items()}
        self.options = dict(options or {})
        self.check_params()

    def check_params(self) -> None:
        """Raise ``MethodConfigError`` if the estimator does not take ``params``."""
        try:
            self.estimator(random_state=0)
        except TypeError as err:
            raise MethodConfigError(
                f"method '{self.name}' ({self.key}): bad params {self.params}: {err}"
            ) from err

    @abstractmethod
    def estimator(self, random_state: int) -> BaseEstimator:
        """A fresh, unfitted estimator with the fixed parameters."""

    @abstractmethod
    def param_grid(self, n_features: int) -> dict[str, list]:
        """The estimator parameters to search for data with ``n_features`` features."""

    def describe(self, fitted: BaseEstimator) -> dict[str, float]:
        """Extra numbers of a fitted estimator worth a column in the results (none by default)."""
        return {}

    def fit_predict(
        self, X_train, y_train, X_test, random_state: int, n_jobs: int = 1, shared_seed: int | None = None
    ) -> tuple[np.ndarray, dict[str, float]]:
        """Fit on the training part, predict the test part; return predictions and extras.

        ``shared_seed`` is the same for every method on the split (the protocol's split seed),
        for work that methods may share; the default method has none."""
        fitted = with_jobs(self.estimator(random_state), n_jobs).fit(X_train, y_train)
        return fitted.predict(X_test), self.describe(fitted)


def with_jobs(estimator: BaseEstimator, n_jobs: int) -> BaseEstimator:
    """Set every ``n_jobs`` parameter of ``estimator``, nested ones included (results do not change)."""
    names = [k for k in estimator.get_params() if k == "n_jobs" or k.endswith("__n_jobs")]
    return estimator.set_params(**dict.fromkeys(names, n_jobs)) if names else estimator
