"""The credal random forest written again from its description: a second implementation of CRF.

The RCRF paper (Guan, Pang and Liang 2019, Sec. 4) compares its forest with the credal random
forest (CRF) of Abellán, Mantas and Castellano (2017), run in our pipeline as method ``crf``
(``conf/method/crf.yaml``: our tree builder with the IIG rule). ``PlainCredalRF`` grows the same
model in one self-contained module (numpy and scikit-learn's base classes only) that imports
nothing of our trees, forests or other extensions, under the same reading of every choice:

- credal set (Abellán and Moral 2003, the imprecise Dirichlet model): at a node with class
  counts ``n_c`` over the K classes of the training data, ``N = sum_c n_c`` and the IDM
  parameter ``s`` (1, as in those papers),
  ``K(n) = {p : sum_c p_c = 1, n_c / (N + s) <= p_c <= (n_c + s) / (N + s)}``;
- upper entropy: ``H*(n) = max_{p in K(n)} -sum_c p_c log2 p_c``, reached by Abellán and
  Moral's algorithm, the mass s added to the smallest counts until they are level: the level
  L with ``sum_c max(0, L - n_c) = s``, then ``p*_c = max(n_c, L) / (N + s)``. With the counts
  sorted, ``n_(1) <= ... <= n_(K)``, ``L = min_j (s + n_(1) + ... + n_(j)) / j`` (the level of
  the j lowest counts is lowest at the j that fills just them). For s = 1 and integer counts
  this adds ``1/k`` to each of the k classes of least count;
- imprecise information gain of a cut sending counts ``l`` left and ``r = n - l`` right:
  ``IIG = H*(n) - (|l| / N) H*(l) - (|r| / N) H*(r)`` (bits, ``|l| = sum_c l_c``);
- cuts (binary thresholds of the raw numeric features, as Weka's RandomTree cuts a numeric
  attribute, the base tree of CRF): for each candidate feature, every midpoint
  ``t = (v_i + v_(i+1)) / 2`` of two consecutive distinct values ``v_i < v_(i+1)`` of the
  node's rows; rows with ``x <= t`` go left;
- candidates: ``m = int(log2 M) + 1`` features (the size of Mantas et al. 2019 and of the
  authors' Weka CredalRandomForest; ``max_features``) drawn at every node without
  replacement; where none of them varies on the node's rows, more are drawn until one does, as
  scikit-learn's forests do (a constant feature offers no cut; Weka's RandomTree, CRF's base
  tree, draws on past it too, and further, past features of no positive gain). The candidates are the drawn features that vary, and the cut of largest
  IIG among them is taken (ties: the feature drawn first, then the lowest threshold);
- stopping (Abellán and Moral's rule): a node is a leaf where no candidate cut has a positive
  IIG (``IIG > ROUNDING``), in particular where it is pure (its upper entropy only grows in its
  children) or none of its features varies;
- bagging (Breiman): each tree grows on n rows drawn with replacement from the n training rows,
  a row drawn k times counted k times (its class counts weigh it k);
- prediction: a leaf predicts its largest class count (ties: the class listed first), the
  forest the class with most tree votes (ties: the class listed first); ``predict_proba`` is
  the share of the trees voting for each class, and ``oob_decision_function_`` the same over
  the trees whose bootstrap sample left the row out (NaN where none did).

Each tree's draws follow scikit-learn's forests: its seed is drawn from ``random_state``
(``randint(2**31 - 1)``), its bootstrap rows (``randint(0, n, n)``, scikit-learn's) and then its
nodes' feature draws (depth first, left child first) from one generator of that seed. Our crf
draws the same bootstrap samples (scikit-learn's) but its feature draws from generators of its
own, so the two forests' trees differ, not their distribution.
Where it gives our crf's number and not the paper's, our number is what this reading of CRF
gives on these data, not an artefact of our tree builder (conf/paper/rcrf.yaml, experiments
``independent_crf`` and ``independent_crf_diversity``).

It passes scikit-learn's estimator checks with none waived (``fit`` takes no sample weights, so
the sample-weight checks that scikit-learn waives for its own forest are not run).
"""

from __future__ import annotations

import math
from numbers import Integral, Real

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, _fit_context
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

ROUNDING = 1e-12
"""Bits of IIG that count as none: a cut whose IIG is 0 but computed as a rounding error above
it is no cut (``IIG > 0``, Abellán and Moral's rule, up to rounding)."""


def upper_entropy(counts, s: float = 1.0) -> np.ndarray:
    """``H*`` in bits of the IDM credal set of each row of ``counts`` (shape (..., K)): the
    entropy of ``p*_c = max(n_c, L) / (N + s)``, L the level of the smallest counts raised by
    the mass s (``L = min_j (s + n_(1) + ... + n_(j)) / j`` over the sorted counts)."""
    counts = np.asarray(counts, dtype=np.float64)
    ascending = np.sort(counts, axis=-1)
    level = ((s + np.cumsum(ascending, axis=-1)) / np.arange(1, counts.shape[-1] + 1)).min(axis=-1)
    p = np.maximum(counts, level[..., None]) / (counts.sum(axis=-1) + s)[..., None]
    return -np.sum(p * np.log2(np.where(p > 0.0, p, 1.0)), axis=-1)


def imprecise_gains(values, classes, weights, n_classes: int, s: float = 1.0):
    """``(columns, thresholds, IIG)`` of every binary cut of each column of ``values`` (the
    node's rows by its candidate features), by column, then threshold ascending: the midpoints
    of a column's consecutive distinct values and ``H*(n) - |l|/N H*(l) - |r|/N H*(r)`` of each,
    with ``weights`` the rows' multiplicities and ``classes`` their class indices."""
    values = np.asarray(values)
    n, m = values.shape
    order = np.argsort(values, axis=0, kind="stable")
    ordered = np.take_along_axis(values, order, axis=0)
    # running class counts down each column's sorted rows: below[i, j] = counts of its first i + 1
    below = np.zeros((n, m, n_classes))
    below[np.arange(n)[:, None], np.arange(m), classes[order]] = weights[order]
    below = np.cumsum(below, axis=0)
    column, last = np.nonzero((ordered[1:] > ordered[:-1]).T)
    total = below[-1, 0]
    left = below[last, column]
    right = total - left
    # one H* call for the node and both sides of every cut: [n, l_1.., r_1..]
    entropy = upper_entropy(np.vstack((total, left, right)), s)
    n_cuts = left.shape[0]
    size = total.sum()
    gains = (
        entropy[0]
        - left.sum(axis=1) / size * entropy[1 : n_cuts + 1]
        - right.sum(axis=1) / size * entropy[n_cuts + 1 :]
    )
    low = ordered[last, column].astype(np.float64)
    return column, (low + ordered[last + 1, column]) / 2.0, gains


def best_cut(X, rows, classes, weights, features, n_classes: int, s: float = 1.0):
    """``(feature, threshold, IIG)`` of the cut of largest IIG of the node's ``rows`` over the
    candidate ``features`` (ties: the feature listed first, then the lowest threshold), or
    ``(-1, nan, -inf)`` when there is none or none of them varies there."""
    if not len(features):
        return -1, math.nan, -math.inf
    column, thresholds, gains = imprecise_gains(
        X[np.ix_(rows, features)], classes[rows], weights[rows], n_classes, s
    )
    if not gains.shape[0]:
        return -1, math.nan, -math.inf
    i = int(np.argmax(gains))
    return int(features[column[i]]), float(thresholds[i]), float(gains[i])


def drawn_candidates(order, varies, m: int) -> np.ndarray:
    """The candidates of a node whose features are drawn in ``order``: the first ``m`` drawn, or
    more up to the first that varies (``varies``: a mask over the features) where none of those
    does; of them, the ones that vary, in drawn order (empty where no feature varies)."""
    varying = np.flatnonzero(varies[order])
    if not varying.shape[0]:
        return varying
    drawn = order[: max(m, int(varying[0]) + 1)]
    return drawn[varies[drawn]]


def grow_tree(X, classes, weights, n_classes: int, n_candidates: int, s: float, draws):
    """One credal tree on the rows of positive ``weights`` (multiplicities): arrays (feature,
    threshold, left child, right child, leaf class) of its nodes, root first; a leaf has
    feature -1. ``draws`` (a ``RandomState``) orders the features at each node
    (``drawn_candidates``)."""
    feature, threshold, left, right, leaf_class = [-1], [math.nan], [-1], [-1], [0]
    pending = [(0, np.flatnonzero(weights > 0))]
    while pending:
        node, rows = pending.pop()
        counts = np.bincount(classes[rows], weights=weights[rows], minlength=n_classes)
        leaf_class[node] = int(np.argmax(counts))
        if np.count_nonzero(counts) < 2:
            continue
        candidates = drawn_candidates(
            draws.permutation(X.shape[1]), np.ptp(X[rows], axis=0) > 0, n_candidates
        )
        j, t, gain = best_cut(X, rows, classes, weights, candidates, n_classes, s)
        if gain <= ROUNDING:
            continue
        goes_left = X[rows, j] <= t
        children = len(feature), len(feature) + 1
        feature[node], threshold[node] = j, t
        left[node], right[node] = children
        for column, blank in ((feature, -1), (threshold, math.nan), (left, -1), (right, -1), (leaf_class, 0)):
            column.extend((blank, blank))
        # the right child is pushed first, so the left one is grown (and draws) first
        pending.append((children[1], rows[~goes_left]))
        pending.append((children[0], rows[goes_left]))
    return (
        np.array(feature, dtype=np.intp),
        np.array(threshold, dtype=np.float64),
        np.array(left, dtype=np.intp),
        np.array(right, dtype=np.intp),
        np.array(leaf_class, dtype=np.intp),
    )


def tree_votes(X, feature, threshold, left, right, leaf_class) -> np.ndarray:
    """The class index each row's leaf predicts (``x <= threshold`` goes left)."""
    node = np.zeros(X.shape[0], dtype=np.intp)
    inner = np.flatnonzero(feature[node] >= 0)
    while inner.shape[0]:
        at = node[inner]
        goes_left = X[inner, feature[at]] <= threshold[at]
        node[inner] = np.where(goes_left, left[at], right[at])
        inner = inner[feature[node[inner]] >= 0]
    return leaf_class[node]


def candidates_per_node(n_features: int, max_features) -> int:
    """``m``: ``int(log2 M) + 1`` for "log2+1", else ``max_features`` itself; at most M."""
    m = int(math.log2(n_features)) + 1 if max_features == "log2+1" else int(max_features)
    return min(n_features, m)


class PlainCredalRF(ClassifierMixin, BaseEstimator):
    """The credal random forest (Abellán, Mantas and Castellano 2017) as the RCRF paper's Sec. 4
    runs it, written again on its own (see the module).

    Parameters
    ----------
    n_estimators : int, default=100
        L, the number of trees (Sec. 4.3).
    max_features : "log2+1" or int, default="log2+1"
        m, the features drawn at every node: ``int(log2 M) + 1`` for "log2+1"; at most M.
    s : float, default=1.0
        The IDM parameter of the upper entropy.
    oob_score : bool, default=False
        Compute ``oob_decision_function_`` and ``oob_score_`` (the out-of-bag vote).
    random_state : int, RandomState or None, default=None
        Seeds each tree's bootstrap sample and feature draws.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    trees_ : list of tuple of ndarray
        Each tree's (feature, threshold, left, right, leaf class) node arrays, root first.
    bootstrap_counts_ : list of ndarray of int
        How many times each training row was drawn into each tree's bootstrap sample.
    oob_decision_function_ : ndarray of shape (n_samples, n_classes)
        The share of a row's out-of-bag trees voting for each class (NaN: never out of bag).
    oob_score_ : float
        Out-of-bag accuracy over the rows that were out of bag at least once.
    """

    _parameter_constraints: dict = {
        "n_estimators": [Interval(Integral, 1, None, closed="left")],
        "max_features": [StrOptions({"log2+1"}), Interval(Integral, 1, None, closed="left")],
        "s": [Interval(Real, 0, None, closed="neither")],
        "oob_score": ["boolean"],
        "random_state": ["random_state"],
    }

    def __init__(self, n_estimators=100, *, max_features="log2+1", s=1.0, oob_score=False, random_state=None):
        self.n_estimators = n_estimators
        self.max_features = max_features
        self.s = s
        self.oob_score = oob_score
        self.random_state = random_state

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Grow the trees, each on its bootstrap sample, and their out-of-bag vote if asked."""
        X, y = validate_data(self, X, y, dtype=np.float32)
        check_classification_targets(y)
        self.classes_, codes = np.unique(y, return_inverse=True)
        n, n_features = X.shape
        n_classes = len(self.classes_)
        m = candidates_per_node(n_features, self.max_features)
        seeds = check_random_state(self.random_state).randint(np.iinfo(np.int32).max, size=self.n_estimators)
        self.trees_ = []
        self.bootstrap_counts_ = []
        for seed in seeds:
            draws = np.random.RandomState(seed)
            counts = np.bincount(draws.randint(0, n, n), minlength=n)
            self.bootstrap_counts_.append(counts)
            self.trees_.append(
                grow_tree(X, codes, counts.astype(np.float64), n_classes, m, float(self.s), draws)
            )
        if self.oob_score:
            votes = np.zeros((n, n_classes))
            for tree, counts in zip(self.trees_, self.bootstrap_counts_, strict=True):
                out = np.flatnonzero(counts == 0)
                votes[out, tree_votes(X[out], *tree)] += 1.0
            total = votes.sum(axis=1, keepdims=True)
            with np.errstate(invalid="ignore", divide="ignore"):
                self.oob_decision_function_ = votes / total
            scored = total[:, 0] > 0
            self.oob_score_ = float(np.mean(np.argmax(votes[scored], axis=1) == codes[scored]))
        return self

    def tree_predictions(self, X) -> np.ndarray:
        """Each tree's predicted class as an index into ``classes_``, shape (n_trees, n_samples)."""
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float32, reset=False)
        return np.array([tree_votes(X, *tree) for tree in self.trees_], dtype=np.intp).reshape(
            len(self.trees_), X.shape[0]
        )

    def predict_proba(self, X):
        """The share of the trees voting for each class."""
        predictions = self.tree_predictions(X)
        votes = np.zeros((predictions.shape[1], len(self.classes_)))
        for row in predictions:
            votes[np.arange(predictions.shape[1]), row] += 1.0
        return votes / predictions.shape[0]

    def predict(self, X):
        """The class with most tree votes (ties: the class listed first)."""
        proba = self.predict_proba(X)
        return self.classes_[np.argmax(proba, axis=1)]
