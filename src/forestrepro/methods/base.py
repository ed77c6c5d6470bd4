"""The interface every method implements."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, ClassVar

from sklearn.base import BaseEstimator


class MethodConfigError(ValueError):
    """A method's configuration names a parameter or grid entry it does not have."""


class Method(ABC):
    """A method: its fixed parameters, its search grid, and how to build its estimator."""

    key: ClassVar[str]
    grid_keys: ClassVar[frozenset[str]] = frozenset()

    def __init__(self, name: str, params: dict[str, Any], grid: dict[str, list]):
        unknown = sorted(set(grid) - self.grid_keys)
        if unknown:
            raise MethodConfigError(
                f"method '{name}' ({self.key}): unknown grid entries {unknown}; "
                f"valid: {sorted(self.grid_keys)}"
            )
        self.name = name
        self.params = dict(params)
        self.grid = {k: list(v) for k, v in grid.items()}
        try:
            self.estimator(random_state=0)
        except TypeError as err:
            raise MethodConfigError(f"method '{name}' ({self.key}): bad params {params}: {err}") from err

    @abstractmethod
    def estimator(self, random_state: int) -> BaseEstimator:
        """A fresh, unfitted estimator with the fixed parameters."""

    @abstractmethod
    def param_grid(self, n_features: int) -> dict[str, list]:
        """The estimator parameters to search for data with ``n_features`` features."""
