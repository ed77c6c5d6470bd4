"""The BRF paper's RF written again from its text: a second implementation of its gain-ratio RF.

The BRF paper (Sun et al. 2018) runs "Breiman's random forests (RFs)" as follows (Sec. 6.1):
"For RFs and Biau12, we employed the information gain ratio as the splitting criterion to grow
each binary tree of the forests. [...] For all the random forests algorithms, we empirically set
ntree = 100. At the same time, to construct the decision trees, h = round(log2(M) + C) features
were randomly selected [...]. For all the forests, SVMs and KNNs, 5-fold cross-validation was
applied to select the parameters." Sec. 4.3 adds that "for the original random forests, the
information gain ratio is employed to traverse each possible split point at each candidate
feature". Table 2's RF is our tree builder with the split rule
``trees.rules.best_threshold.BestThreshold("gain_ratio")`` (``ensembles/brf.py``:
``GainRatioForestClassifier``, ``conf/method/rf_gr.yaml``). ``PlainGainRatioRF`` grows the same
model in one self-contained module (numpy, compiled by numba) that imports nothing of our tree or
forest code, nor of ``plain_biau12``, under the same reading of every choice:

- bootstrap (Sec. 4.3 for BRF, "randomly sampling D_n for n times with replacement"; Sec. 6.1
  for RF says only that RF is Breiman's): each tree grows on n rows drawn with replacement from
  the n training rows, a row drawn k times counted k times;
- subspace (Sec. 6.1, "to construct the decision trees, h = round(log2(M) + C) features were
  randomly selected", read with Sec. 4.3's "before the decision tree construction, randomly
  sample a subspace" and Sec. 6.3's "h which controls the size of feature subsets for each
  tree"): h features drawn once per tree, without replacement; every node of the tree tries all
  h. "round" is half up (MATLAB's), and h is clipped to ``[1, M]``: neither is in the paper;
- candidate cuts (Sec. 4.3, "each possible split point"): at a node, every cut between two
  consecutive distinct values of a feature among the node's rows, the threshold their midpoint
  (rows with ``x <= t`` go left): the midpoint is not in the paper. Two float32 values closer
  than ``1e-7`` are one value (scikit-learn's ``FEATURE_THRESHOLD``): not in the paper;
- criterion (Sec. 6.1, "information gain ratio"; C4.5's, Quinlan 1993): ``GR = IG / SI`` with
  ``IG = H(node) - (n_L/n) H(left) - (n_R/n) H(right)``, ``H`` the entropy in bits of the class
  frequencies, and the split information ``SI = H(n_L/n, n_R/n)``. The node takes the cut of
  largest GR over all cuts of all h features: the paper's words read literally, without C4.5's
  guards (a gain at least the average gain, a least number of rows on each side), which the paper does
  not name;
- ties (not in the paper): the first best cut in the order of the features' indices, then of
  the thresholds, wins (a later cut must score strictly higher);
- stopping (not in the paper for RF; Sec. 4.3 gives BRF's, "the percentage of incorrect points
  or a minimal number of samples at a node", without values): a node is cut until it is pure,
  or until none of its h features takes two distinct values among its rows; a cut of gain ratio
  0 is still made (the largest GR is taken whatever its value);
- prediction (Sec. 4.5, for BRF): a leaf predicts its rows' most frequent class (ties: the class
  listed first), the forest the class with most tree votes (ties: the class listed first, not in
  the paper); ``predict_proba`` gives the share of the trees voting for each class.

Each tree's draws follow scikit-learn's forests: its seed is drawn from ``random_state``
(``randint(2**31 - 1)``), then its bootstrap rows and its subspace from one generator of that
seed (our rf_gr draws them from two, so the two forests' trees differ, not their distribution).
Where it gives our rf_gr's number and not the paper's, our number is what this reading of the
paper's RF gives on these folds, not an artefact of our tree builder (conf/paper/brf.yaml,
experiment ``independent_rf_gr``).
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

SAME_VALUE = np.float32(1e-7)
"""Two float32 values closer than this are one value, with no cut between them."""


@njit(cache=True)
def _entropy(counts, total):
    """Entropy in bits of class counts summing to ``total`` (> 0)."""
    h = 0.0
    for c in range(counts.shape[0]):
        if counts[c] > 0.0:
            p = counts[c] / total
            h -= p * np.log2(p)
    return h


@njit(cache=True)
def _gain_ratio(left, right, n_left, n_right, node_entropy):
    """``gain_ratio`` given the two sides' sizes and the node's entropy."""
    n = n_left + n_right
    p_left = n_left / n
    p_right = n_right / n
    gain = node_entropy - p_left * _entropy(left, n_left) - p_right * _entropy(right, n_right)
    split_info = -p_left * np.log2(p_left) - p_right * np.log2(p_right)
    return gain / split_info


@njit(cache=True)
def gain_ratio(left, right):
    """The gain ratio of the cut that sends class counts ``left`` one way and ``right`` the other
    (both sides non-empty): information gain over split information, in bits."""
    n_left = left.sum()
    n_right = right.sum()
    return _gain_ratio(left, right, n_left, n_right, _entropy(left + right, n_left + n_right))


@njit(cache=True)
def best_cut(values, classes, n_classes, order):
    """The cut of largest gain ratio over every cut of every feature at a node: (j, threshold)
    for the feature of row ``j`` of ``values``, or (-1, 0.0) when no feature takes two distinct
    values. ``values[j, i]`` is feature j of the tree's row i, ``order[j]`` the node's rows sorted
    by feature j."""
    best_j = -1
    best_threshold = 0.0
    best_score = -np.inf
    total = np.zeros(n_classes)
    for i in order[0]:
        total[classes[i]] += 1.0
    n = float(order.shape[1])
    node_entropy = _entropy(total, n)
    left = np.empty(n_classes)
    right = np.empty(n_classes)
    for j in range(order.shape[0]):
        left[:] = 0.0
        right[:] = total
        for p in range(1, order.shape[1]):
            below, above = order[j, p - 1], order[j, p]
            left[classes[below]] += 1.0
            right[classes[below]] -= 1.0
            if not values[j, above] > values[j, below] + SAME_VALUE:
                continue
            score = _gain_ratio(left, right, float(p), n - p, node_entropy)
            if score > best_score:
                best_score = score
                best_j = j
                best_threshold = values[j, below] / 2.0 + values[j, above] / 2.0
    return best_j, best_threshold


@njit(cache=True)
def grow_tree(X, codes, n_classes, rows, features):
    """One tree on the training rows ``rows`` (repeats count), trying ``features`` at every node:
    arrays (feature, threshold, left child, right child, leaf class) of its nodes, root first.

    The tree's rows are sorted by each feature once; a node's sorted lists are split from its
    parent's, keeping their order."""
    n = rows.shape[0]
    values = np.empty((features.shape[0], n), dtype=np.float32)
    for j in range(features.shape[0]):
        for i in range(n):
            values[j, i] = X[rows[i], features[j]]
    classes = codes[rows]
    order = np.empty((features.shape[0], n), dtype=np.int64)
    for j in range(features.shape[0]):
        order[j] = np.argsort(values[j], kind="mergesort")
    capacity = 2 * n + 1
    feature = np.full(capacity, -1, dtype=np.int64)
    threshold = np.zeros(capacity)
    left = np.full(capacity, -1, dtype=np.int64)
    right = np.full(capacity, -1, dtype=np.int64)
    leaf_class = np.zeros(capacity, dtype=np.int64)
    goes_left = np.zeros(n, dtype=np.bool_)
    pending = [(0, order)]
    n_nodes = 1
    while len(pending) > 0:
        node, order = pending.pop()
        counts = np.zeros(n_classes, dtype=np.int64)
        for i in order[0]:
            counts[classes[i]] += 1
        leaf_class[node] = np.argmax(counts)
        if counts.max() == order.shape[1]:
            continue
        j, t = best_cut(values, classes, n_classes, order)
        if j < 0:
            continue
        n_left = 0
        for i in order[0]:
            goes_left[i] = values[j, i] <= t
            n_left += goes_left[i]
        order_left = np.empty((order.shape[0], n_left), dtype=np.int64)
        order_right = np.empty((order.shape[0], order.shape[1] - n_left), dtype=np.int64)
        for k in range(order.shape[0]):
            a, b = 0, 0
            for i in order[k]:
                if goes_left[i]:
                    order_left[k, a] = i
                    a += 1
                else:
                    order_right[k, b] = i
                    b += 1
        feature[node] = features[j]
        threshold[node] = t
        left[node] = n_nodes
        right[node] = n_nodes + 1
        pending.append((n_nodes, order_left))
        pending.append((n_nodes + 1, order_right))
        n_nodes += 2
    return feature[:n_nodes], threshold[:n_nodes], left[:n_nodes], right[:n_nodes], leaf_class[:n_nodes]


@njit(cache=True)
def _tree_votes(X, feature, threshold, left, right, leaf_class):
    """The class index each row's leaf predicts."""
    out = np.empty(X.shape[0], dtype=np.int64)
    for r in range(X.shape[0]):
        node = 0
        while feature[node] >= 0:
            node = left[node] if X[r, feature[node]] <= threshold[node] else right[node]
        out[r] = leaf_class[node]
    return out


def subspace_size(n_features: int, h_offset: float) -> int:
    """``h = round(log2(M) + C)``, rounded half up and clipped to ``[1, M]``."""
    return min(n_features, max(1, math.floor(math.log2(n_features) + h_offset + 0.5)))


class PlainGainRatioRF(ClassifierMixin, BaseEstimator):
    """The BRF paper's RF (Sec. 6.1), written again on its own (see the module).

    Parameters
    ----------
    n_estimators : int, default=100
        ``ntree``, the number of trees.
    h_offset : float, default=0.0
        C of the features drawn per tree, ``h = round(log2(M) + C)`` (halves up), at least 1
        and at most M.
    bootstrap : bool, default=True
        Grow each tree on a bootstrap sample (the paper's); False: on the training rows.
    random_state : int, RandomState or None, default=None
        Seeds each tree's bootstrap sample and subspace.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    subspaces_ : list of ndarray of int
        Each tree's h features, ascending.
    """

    _parameter_constraints: dict = {
        "n_estimators": [Interval(Integral, 1, None, closed="left")],
        "h_offset": [Interval(Real, None, None, closed="neither")],
        "bootstrap": ["boolean"],
        "random_state": ["random_state"],
    }

    def __init__(self, n_estimators=100, *, h_offset=0.0, bootstrap=True, random_state=None):
        self.n_estimators = n_estimators
        self.h_offset = h_offset
        self.bootstrap = bootstrap
        self.random_state = random_state

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Grow the trees, each on its bootstrap sample and subspace."""
        X, y = validate_data(self, X, y, dtype=np.float32)
        check_classification_targets(y)
        self.classes_, codes = np.unique(y, return_inverse=True)
        n, n_features = X.shape
        h = subspace_size(n_features, self.h_offset)
        seeds = check_random_state(self.random_state).randint(np.iinfo(np.int32).max, size=self.n_estimators)
        self.subspaces_ = []
        self.trees_ = []
        for seed in seeds:
            draws = np.random.RandomState(seed)
            rows = draws.randint(0, n, n) if self.bootstrap else np.arange(n)
            features = np.sort(draws.choice(n_features, h, replace=False))
            self.subspaces_.append(features)
            self.trees_.append(grow_tree(X, codes.astype(np.int64), len(self.classes_), rows, features))
        return self

    def predict_proba(self, X):
        """The share of the trees voting for each class."""
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float32, reset=False)
        votes = np.zeros((X.shape[0], len(self.classes_)))
        for tree in self.trees_:
            votes[np.arange(X.shape[0]), _tree_votes(X, *tree)] += 1.0
        return votes / len(self.trees_)

    def predict(self, X):
        """The class with most tree votes (ties: the class listed first)."""
        proba = self.predict_proba(X)
        return self.classes_[np.argmax(proba, axis=1)]
