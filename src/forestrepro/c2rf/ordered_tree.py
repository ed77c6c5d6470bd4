"""Our numpy CART: a fully grown binary tree that scans each node's features in a given order.

Two uses (``instances.tree_votes``). In column order it is one reading of how the C2RF paper's trees break ties (Sec. 5.1: 'the Decision Tree package'):
scikit-learn, and DecisionTree.jl since its port of scikit-learn's splitter, visit the features of
a node in a random order and keep the first best split they meet, so among features whose best
splits are equally good the winner is drawn at random. Implementations that scan the features in
column order and keep the first strictly better split (DecisionTree.jl's ``_split_info_gain``
before that port, R's rpart) give every tie to the feature with the smallest index. On a handful
of labeled points many features split the classes equally well, so the tie rule decides which
feature a tree uses (clean2's column 0, the molecule's integer-coded name, separates the classes
on every row). In a random order drawn at each node (``feature_order="random"``) it is a second
implementation of scikit-learn's tree, which shares no code with it: the same trees in
distribution, though not draw for draw, since the orders come from numpy's generator and not
from scikit-learn's.

Everything else is scikit-learn's ``DecisionTreeClassifier()`` with its defaults: features cast to
float32, split points between consecutive values more than 1e-7 apart (``FEATURE_THRESHOLD``),
the threshold their midpoint (``x <= threshold`` goes left), within a feature the first (lowest)
of equally good thresholds, a node split while it holds both classes and a split point exists,
a leaf's class the majority, the smaller label on a tie. With one feature there are no ties
between features, and the tree is scikit-learn's (a test).
"""

from __future__ import annotations

import numpy as np

FEATURE_THRESHOLD = 1e-7
"""Two feature values closer than this are not split apart (scikit-learn's ``_splitter.pyx``)."""

CRITERIA = ("gini", "entropy")
FEATURE_ORDERS = ("column", "random")


def _impurity(counts: tuple[np.ndarray, np.ndarray], n: np.ndarray, criterion: str) -> np.ndarray:
    """A child's impurity from its class counts, computed as scikit-learn's ``_criterion.pyx``
    computes it (so that equal splits give equal floats): Gini 1 - (c0^2 + c1^2) / n^2, entropy
    -sum c/n log2(c/n) over the classes present."""
    c0, c1 = counts
    if criterion == "gini":
        return 1.0 - (c0 * c0 + c1 * c1) / (n * n)
    entropy = np.zeros_like(n)
    for c in (c0, c1):
        p = np.where(c > 0, c / n, 1.0)
        entropy = entropy - np.where(c > 0, p * (np.log(p) / np.log(2.0)), 0.0)
    return entropy


def best_split(
    X: np.ndarray, y: np.ndarray, criterion: str = "gini", order: np.ndarray | None = None
) -> tuple[int, float] | None:
    """(feature, threshold) of the split of the node (X, y in {0, 1}) that maximises scikit-learn's
    proxy -n_right impurity_right - n_left impurity_left; among equal ones the first feature met
    in ``order`` (default column order), and within it the smallest threshold. None when no
    feature has two values more than ``FEATURE_THRESHOLD`` apart."""
    n = len(y)
    best, chosen = -np.inf, None
    n_left = np.arange(1, n, dtype=np.float64)
    n_right = n - n_left
    for feature in range(X.shape[1]) if order is None else order:
        feature = int(feature)
        order = np.argsort(X[:, feature], kind="stable")
        values, labels = X[order, feature].astype(np.float64), y[order]
        split_points = np.flatnonzero(values[1:] > values[:-1] + FEATURE_THRESHOLD)
        if split_points.size == 0:
            continue
        left_pos = np.cumsum(labels[:-1], dtype=np.float64)
        right_pos = labels.sum() - left_pos
        proxy = -n_right * _impurity(
            (n_right - right_pos, right_pos), n_right, criterion
        ) - n_left * _impurity((n_left - left_pos, left_pos), n_left, criterion)
        i = split_points[np.argmax(proxy[split_points])]
        if proxy[i] > best:
            threshold = values[i] / 2.0 + values[i + 1] / 2.0
            if threshold == values[i + 1]:
                threshold = values[i]
            best, chosen = proxy[i], (feature, float(threshold))
    return chosen


class OrderedTree:
    """A tree grown by ``best_split`` until its leaves are pure or cannot be split.

    ``feature_order="column"`` scans each node's features in column order (ties to the first);
    ``"random"`` in a permutation drawn per node from ``numpy.random.default_rng(random_state)``
    (ties to the first met, as in scikit-learn). ``fit(X, y)`` with y in {0, 1}; ``predict(X)``
    gives 0 or 1. Nodes are stored in arrays (``feature``, ``threshold``, ``left``, ``right``,
    ``value``), -1 marking a leaf.
    """

    def __init__(
        self, criterion: str = "gini", feature_order: str = "column", random_state: int | None = None
    ):
        if criterion not in CRITERIA:
            raise ValueError(f"criterion must be one of {CRITERIA}, got {criterion!r}")
        if feature_order not in FEATURE_ORDERS:
            raise ValueError(f"feature_order must be one of {FEATURE_ORDERS}, got {feature_order!r}")
        self.criterion = criterion
        self.feature_order = feature_order
        self.random_state = random_state

    def fit(self, X: np.ndarray, y: np.ndarray) -> OrderedTree:
        X = np.asarray(X, dtype=np.float32)
        y = np.asarray(y).astype(np.int64)
        if not np.isin(y, (0, 1)).all():
            raise ValueError("OrderedTree: labels must be 0 or 1")
        rng = np.random.default_rng(self.random_state)
        self.feature_, self.threshold_, self.left_, self.right_, self.value_ = [], [], [], [], []
        stack = [(np.arange(len(y)), None, False)]
        while stack:
            rows, parent, is_right = stack.pop()
            node = len(self.value_)
            if parent is not None:
                (self.right_ if is_right else self.left_)[parent] = node
            positives = int(y[rows].sum())
            self.value_.append(int(positives > len(rows) - positives))
            split = None
            if positives not in (0, len(rows)):
                order = rng.permutation(X.shape[1]) if self.feature_order == "random" else None
                split = best_split(X[rows], y[rows], self.criterion, order)
            self.feature_.append(-1 if split is None else split[0])
            self.threshold_.append(np.nan if split is None else split[1])
            self.left_.append(-1)
            self.right_.append(-1)
            if split is not None:
                goes_left = X[rows, split[0]] <= split[1]
                stack.append((rows[~goes_left], node, True))
                stack.append((rows[goes_left], node, False))
        return self

    def predict(self, X: np.ndarray) -> np.ndarray:
        X = np.asarray(X, dtype=np.float32)
        node = np.zeros(len(X), dtype=np.int64)
        feature, threshold = np.asarray(self.feature_), np.asarray(self.threshold_)
        left, right, value = np.asarray(self.left_), np.asarray(self.right_), np.asarray(self.value_)
        inner = feature[node] >= 0
        while inner.any():
            rows = np.flatnonzero(inner)
            at = node[rows]
            goes_left = X[rows, feature[at]] <= threshold[at]
            node[rows] = np.where(goes_left, left[at], right[at])
            inner = feature[node] >= 0
        return value[node]
