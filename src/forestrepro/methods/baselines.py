"""SVM, KNN and the textbook random forest: the baselines of the BRF paper's Table 2."""

from __future__ import annotations

import atexit
import math
import os
import shutil
import tempfile
from itertools import count

from sklearn.neighbors import KNeighborsClassifier

from ..ensembles.textbook_rf import TextbookRandomForestClassifier
from ..kernel_svm import GridRBFSVC
from .base import Method

_CACHES = count()


class SVMRbf(Method):
    """SVM with the RBF kernel exp(-gamma ||x - x'||^2); grid over log2 C and log2 gamma.

    The estimator fits every C of the grid on one kernel per gamma and keeps the fits in a
    directory of this process, shared with its search workers and removed when it exits
    (``kernel_svm.GridRBFSVC``): the same model as ``SVC(kernel="rbf")``, fitted once per gamma.
    """

    key = "svm_rbf"
    grid_keys = frozenset({"log2_C", "log2_gamma"})

    def __init__(self, *args, **kwargs):
        # Named now, made by the first fit that keeps something (joblib.Memory), so planning
        # creates nothing.
        self.cache_dir = os.path.join(tempfile.gettempdir(), f"forestrepro-svm-{os.getpid()}-{next(_CACHES)}")
        atexit.register(shutil.rmtree, self.cache_dir, ignore_errors=True)
        super().__init__(*args, **kwargs)

    def estimator(self, random_state: int) -> GridRBFSVC:
        C_grid = tuple(2.0**e for e in self.grid.get("log2_C", []))
        return GridRBFSVC(
            C_grid=C_grid,
            memory=self.cache_dir if len(C_grid) > 1 else None,
            random_state=random_state,
            **self.params,
        )

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
