"""SVM, KNN and the textbook random forest: the baselines of the BRF paper's Table 2."""

from __future__ import annotations

import math

from sklearn.neighbors import KNeighborsClassifier
from sklearn.svm import SVC

from ..ensembles.textbook_rf import TextbookRandomForestClassifier
from .base import Method


class SVMRbf(Method):
    """SVM with the RBF kernel exp(-gamma ||x - x'||^2); grid over log2 C and log2 gamma."""

    key = "svm_rbf"
    grid_keys = frozenset({"log2_C", "log2_gamma"})

    def estimator(self, random_state: int) -> SVC:
        return SVC(kernel="rbf", random_state=random_state, **self.params)

    def param_grid(self, n_features: int) -> dict[str, list]:
        grid = {}
        if "log2_C" in self.grid:
            grid["C"] = [2.0**e for e in self.grid["log2_C"]]
        if "log2_gamma" in self.grid:
            grid["gamma"] = [2.0**e for e in self.grid["log2_gamma"]]
        return grid


class KNN(Method):
    """k-nearest neighbours; grid over k."""

    key = "knn"
    grid_keys = frozenset({"n_neighbors"})

    def estimator(self, random_state: int) -> KNeighborsClassifier:
        return KNeighborsClassifier(**self.params)

    def param_grid(self, n_features: int) -> dict[str, list]:
        return {k: list(v) for k, v in self.grid.items()}


def subset_size(n_features: int, offset: float) -> int:
    """The BRF paper's h = round(log2(M) + C) (Sec. 6.1), rounded half up, clipped to [1, M]."""
    return min(n_features, max(1, math.floor(math.log2(n_features) + offset + 0.5)))


class TextbookRF(Method):
    """The textbook random forest; grid over C in k = round(log2(M) + C), or k directly."""

    key = "textbook_rf"
    grid_keys = frozenset({"k_offset", "max_features"})

    def estimator(self, random_state: int) -> TextbookRandomForestClassifier:
        return TextbookRandomForestClassifier(random_state=random_state, **self.params)

    def param_grid(self, n_features: int) -> dict[str, list]:
        grid = {}
        if "k_offset" in self.grid:
            grid["max_features"] = sorted({subset_size(n_features, c) for c in self.grid["k_offset"]})
        if "max_features" in self.grid:
            grid["max_features"] = list(self.grid["max_features"])
        return grid
