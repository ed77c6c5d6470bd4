"""Biau12 written again from the BRF paper's text: a second implementation of its Biau12 baseline.

The BRF paper (Sun et al. 2018, Sec. 6.1) runs Biau's (2012) forest as follows: "we first
evaluated the importance of each candidate feature by using the information gain ratio to
compute the candidate split point (i.e. the midpoint value of each feature) based on the training
data set, then the tree nodes in Biau12 were expanded by selecting a fixed number of random
candidate features (without replacement). If the selected features were all weak ones, then chose
one at random and splitted at the midpoint value. If more than one strong features were selected,
chose one at random and cutted at the midpoint value." Table 2's Biau12 is our tree builder with
the split rule ``trees.rules.biau.StrongWeakMidpoint`` (``ensembles/biau.py``). ``PlainBiau12``
grows the same model in one self-contained module that imports nothing of our tree code:

- importance: each feature's gain ratio (information gain over split information, C4.5) of the
  cut at the midpoint of its training range; the ``int(sqrt(M))`` highest are strong (ties at the
  cut-off broken at random);
- each tree grows on a bootstrap sample of the training rows until its nodes are pure or hold one
  row; at a node, ``h = round(log2(M) + C)`` features are drawn without replacement (a feature
  constant at the node cannot be cut, and drawing goes on past h until one can); one drawn strong
  feature is chosen at random if any was drawn, else one weak one, and cut at the midpoint of the
  node's cell (the root cell is the training range; where the midpoint leaves every row of the
  node on one side, that half of the cell is taken and halved again, until the cut separates the
  rows); the children's cells are the two sides of the cut;
- a leaf predicts its rows' most frequent class, the forest the class with most tree votes (ties:
  the class listed first).

Where it gives our Biau12's number and not the paper's, our number is what this reading of
Biau12 gives on these folds, not an artefact of our tree builder (conf/paper/brf.yaml, cause test
``independent_within``).
"""

from __future__ import annotations

import math
from numbers import Integral, Real

import numpy as np
from numba import njit
from sklearn.base import BaseEstimator, ClassifierMixin, _fit_context
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import Interval
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data


def _entropy(counts: np.ndarray) -> np.ndarray:
    """Entropy in bits of each row of class counts."""
    total = counts.sum(axis=-1, keepdims=True)
    p = np.divide(counts, total, out=np.zeros_like(counts, dtype=np.float64), where=total > 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(p > 0, -p * np.log2(p), 0.0)
    return terms.sum(axis=-1)


def gain_ratios(X: np.ndarray, codes: np.ndarray, n_classes: int) -> np.ndarray:
    """Each feature's gain ratio of the cut at the midpoint of its range; -inf where constant."""
    low, high = X.min(axis=0).astype(np.float64), X.max(axis=0).astype(np.float64)
    cut = low / 2.0 + high / 2.0
    onehot = np.eye(n_classes)[codes]  # (n, n_classes)
    left_mask = X <= cut  # (n, M)
    left = left_mask.T.astype(np.float64) @ onehot  # (M, n_classes)
    right = onehot.sum(axis=0) - left
    n = X.shape[0]
    p_left = left.sum(axis=1) / n
    p_right = 1.0 - p_left
    gain = _entropy(onehot.sum(axis=0)) - p_left * _entropy(left) - p_right * _entropy(right)
    split_info = _entropy(np.stack([p_left, p_right], axis=1))
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = gain / split_info
    return np.where(high > low, ratio, -np.inf)


@njit(cache=True)
def _node_cell(f, node, parent, feature, threshold, is_left, root_low, root_high):
    """The bounds of ``node``'s cell on feature ``f``: the root's, narrowed by every ancestor's cut on f."""
    low = root_low[f]
    high = root_high[f]
    child = node
    while parent[child] >= 0:
        up = parent[child]
        if feature[up] == f:
            if is_left[child]:
                high = min(high, threshold[up])
            else:
                low = max(low, threshold[up])
        child = up
    return low, high


@njit(cache=True)
def _grow(X, codes, n_classes, strong, h, root_low, root_high, seed):
    """One tree on a bootstrap sample: arrays (feature, threshold, left, right, leaf class)."""
    np.random.seed(seed)
    n, n_features = X.shape
    rows = np.random.randint(0, n, n)
    capacity = 2 * n + 1
    feature = np.full(capacity, -1, dtype=np.int64)
    threshold = np.zeros(capacity)
    left = np.full(capacity, -1, dtype=np.int64)
    right = np.full(capacity, -1, dtype=np.int64)
    leaf_class = np.zeros(capacity, dtype=np.int64)
    parent = np.full(capacity, -1, dtype=np.int64)
    is_left = np.zeros(capacity, dtype=np.bool_)
    pool = np.arange(n_features)
    # depth-first: (node, start, end) of rows[start:end]
    stack = np.empty((capacity, 3), dtype=np.int64)
    stack[0, 0], stack[0, 1], stack[0, 2] = 0, 0, n
    top = 1
    n_nodes = 1
    counts = np.zeros(n_classes, dtype=np.int64)
    while top > 0:
        top -= 1
        node, start, end = stack[top, 0], stack[top, 1], stack[top, 2]
        counts[:] = 0
        for i in range(start, end):
            counts[codes[rows[i]]] += 1
        leaf_class[node] = np.argmax(counts)
        if end - start < 2 or counts.max() == end - start:
            continue
        # draw features without replacement (partial Fisher-Yates over the pool)
        drawn = 0
        usable = 0
        n_strong = 0
        n_weak = 0
        strong_f, weak_f = -1, -1
        strong_t, weak_t = 0.0, 0.0
        while drawn < n_features and (drawn < h or usable == 0):
            j = np.random.randint(drawn, n_features)
            f = pool[j]
            pool[j] = pool[drawn]
            pool[drawn] = f
            drawn += 1
            low = X[rows[start], f]
            high = low
            for i in range(start + 1, end):
                v = X[rows[i], f]
                low = min(low, v)
                high = max(high, v)
            if not high > low:
                continue
            usable += 1
            cell_low, cell_high = _node_cell(
                f, node, parent, feature, threshold, is_left, root_low, root_high
            )
            while True:
                t = cell_low / 2.0 + cell_high / 2.0
                if high <= t:
                    cell_high = t
                elif low > t:
                    cell_low = t
                else:
                    break
            if strong[f]:
                n_strong += 1
                if np.random.randint(0, n_strong) == 0:
                    strong_f, strong_t = f, t
            else:
                n_weak += 1
                if np.random.randint(0, n_weak) == 0:
                    weak_f, weak_t = f, t
        if usable == 0:
            continue
        f, t = weak_f, weak_t
        if n_strong > 0:
            f, t = strong_f, strong_t
        # rows with X[:, f] <= t first
        i, k = start, end - 1
        while i <= k:
            if X[rows[i], f] <= t:
                i += 1
            else:
                swap = rows[i]
                rows[i] = rows[k]
                rows[k] = swap
                k -= 1
        feature[node] = f
        threshold[node] = t
        for child in (n_nodes, n_nodes + 1):
            parent[child] = node
            is_left[child] = child == n_nodes
            stack[top, 0] = child
            stack[top, 1] = start if child == n_nodes else i
            stack[top, 2] = i if child == n_nodes else end
            top += 1
        left[node] = n_nodes
        right[node] = n_nodes + 1
        n_nodes += 2
    return feature[:n_nodes], threshold[:n_nodes], left[:n_nodes], right[:n_nodes], leaf_class[:n_nodes]


@njit(cache=True)
def _predict(X, feature, threshold, left, right, leaf_class):
    """The leaf class of each row."""
    out = np.empty(X.shape[0], dtype=np.int64)
    for r in range(X.shape[0]):
        node = 0
        while feature[node] >= 0:
            node = left[node] if X[r, feature[node]] <= threshold[node] else right[node]
        out[r] = leaf_class[node]
    return out


class PlainBiau12(ClassifierMixin, BaseEstimator):
    """Biau12 as the BRF paper describes it (Sec. 6.1), written again on its own (see the module).

    Parameters
    ----------
    n_estimators : int, default=100
        The number of trees.
    h_offset : float, default=0.0
        C of the features drawn per node, h = round(log2(M) + C) (halves up), at least 1 and at
        most M.
    random_state : int, RandomState or None, default=None
        Seeds the strong features' tie-break and each tree's draws.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    strong_features_ : ndarray of int
        Indices of the strong features, ascending.
    """

    _parameter_constraints: dict = {
        "n_estimators": [Interval(Integral, 1, None, closed="left")],
        "h_offset": [Interval(Real, None, None, closed="neither")],
        "random_state": ["random_state"],
    }

    def __init__(self, n_estimators=100, *, h_offset=0.0, random_state=None):
        self.n_estimators = n_estimators
        self.h_offset = h_offset
        self.random_state = random_state

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Score the features, choose the strong ones, grow the trees."""
        X, y = validate_data(self, X, y, dtype=np.float32)
        check_classification_targets(y)
        self.classes_, codes = np.unique(y, return_inverse=True)
        n_features = X.shape[1]
        random_state = check_random_state(self.random_state)
        scores = gain_ratios(X, codes, len(self.classes_))
        n_strong = max(1, int(math.sqrt(n_features)))
        tie_break = random_state.random_sample(n_features)
        order = np.lexsort((tie_break, -scores))
        strong = np.zeros(n_features, dtype=np.bool_)
        strong[order[:n_strong]] = True
        self.strong_features_ = np.flatnonzero(strong)
        h = min(n_features, max(1, math.floor(math.log2(n_features) + self.h_offset + 0.5)))
        root_low, root_high = X.min(axis=0).astype(np.float64), X.max(axis=0).astype(np.float64)
        seeds = random_state.randint(0, 2**31 - 1, self.n_estimators)
        self.trees_ = [
            _grow(X, codes.astype(np.int64), len(self.classes_), strong, h, root_low, root_high, int(seed))
            for seed in seeds
        ]
        return self

    def predict_proba(self, X):
        """The share of the trees voting for each class."""
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float32, reset=False)
        votes = np.zeros((X.shape[0], len(self.classes_)))
        for tree in self.trees_:
            votes[np.arange(X.shape[0]), _predict(X, *tree)] += 1.0
        return votes / len(self.trees_)

    def predict(self, X):
        """The class with most tree votes (ties: the class listed first)."""
        proba = self.predict_proba(X)
        return self.classes_[np.argmax(proba, axis=1)]
