"""A grown tree: flat node arrays and compiled prediction."""

from dataclasses import dataclass

import numpy as np
from numba import njit

from ._nodes import LEAF


@njit(cache=True, nogil=True)
def _apply(children_left, children_right, feature, threshold, X):
    out = np.empty(X.shape[0], dtype=np.intp)
    for i in range(X.shape[0]):
        node = 0
        while children_left[node] != LEAF:
            if X[i, feature[node]] <= threshold[node]:
                node = children_left[node]
            else:
                node = children_right[node]
        out[i] = node
    return out


@dataclass(frozen=True, eq=False)
class Tree:
    """Node ``i`` is a leaf when ``children_left[i] == -1``; otherwise samples with
    ``X[:, feature[i]] <= threshold[i]`` go to ``children_left[i]``.  ``value[i]`` holds the
    weighted counts of the original classes at node ``i``."""

    children_left: np.ndarray
    children_right: np.ndarray
    feature: np.ndarray
    threshold: np.ndarray
    value: np.ndarray
    n_node_samples: np.ndarray
    weighted_n_node_samples: np.ndarray
    depth: np.ndarray

    @property
    def node_count(self):
        return self.children_left.shape[0]

    @property
    def n_leaves(self):
        return int(np.count_nonzero(self.children_left == LEAF))

    @property
    def split_nodes(self):
        """Indices of the nodes that are cut (not leaves)."""
        return np.flatnonzero(self.children_left != LEAF)

    @property
    def max_depth(self):
        return int(self.depth.max())

    def apply(self, X):
        """Leaf index of each row of ``X`` (float32)."""
        return _apply(self.children_left, self.children_right, self.feature, self.threshold, X)

    def predict_proba(self, X):
        """Class frequencies of the leaf of each row of ``X`` (float32)."""
        leaves = self.apply(X)
        return self.value[leaves] / self.weighted_n_node_samples[leaves, None]
