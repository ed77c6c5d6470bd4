"""The two forests the RCRF paper compares with (Guan, Pang and Liang 2019, Sec. 4).

``CredalForestClassifier``: the credal random forest (CRF) of Abellán, Mantas and
Castellano (2017, Knowledge-Based Systems 134).  Bagged credal trees: at each node
``int(log2 M) + 1`` features are drawn at random, the split maximises the imprecise
information gain (IIG, ``trees.rules.iig``) with the imprecise Dirichlet model, s = 1, and the
node becomes a leaf when no candidate has a positive IIG; majority vote.

- Subset size: ``int(log2 M) + 1``, the size the same authors give for their forests
  (Mantas, Castellano, Moral-García and Abellán 2019, Soft Computing 23, note: "the integer
  part of log2(number of features) + 1") and the default of their Weka ``CredalRandomForest``
  (``(int) Utils.log2(numAttributes) + 1``; Weka's count includes the class attribute, which
  changes the size only when M + 1 is a power of two, e.g. ecoli's M = 7: 4 instead of 3).
- Numeric features: binary splits at thresholds on the raw values (``discretize=None``,
  default).  The abstract says CRF's tree is "the base classifier of the Random Forest ...
  modified using that new criterion", i.e. Weka's ``RandomTree`` (the base tree of Weka's
  ``RandomForest``, which cuts numeric attributes in two at the best midpoint) with IIG for
  its criterion; the paper's method section could not be read here.  The same group's
  nominal-only credal trees (their Weka ``CredalRandomForest`` for imprecise
  classification enables ``NOMINAL_ATTRIBUTES`` alone, one branch per value) need numeric
  features discretised first; ``discretize="mdl"`` does that with Fayyad and Irani's (1993)
  MDLP on each tree's own bootstrap sample (labels of out-of-bag rows never shape the cut
  points) and cuts the bins with binary IIG splits, mapped back to raw cut points (the
  builder has no multiway splits, so a feature can be reused down a path).  The RCRF
  paper's numbers side with raw thresholds: its CRF is within 0.15 accuracy points of its
  RF on letter, pendigits, segment, texture and mfeat-fac/fou/kar/zer (Table 2), while MDLP
  bins lose a further 0.6 points on letter and 13 on krkopt against raw thresholds on the
  test split of ``benchmarks/rcrf.py``.

Two more readings of a CRF the RCRF paper does not describe, one switch each:

- ``stop="pure"``: the cut of largest IIG is taken even where it is not positive and the tree
  grows until its nodes are pure, as an RF tree with IIG put in place of Gini would (the
  paper's forests were all written in Matlab by its authors, Sec. 4.1); the default
  ``"no_gain"`` is Abellán and Moral's rule, a leaf where no candidate has IIG > 0.
- ``splits="multiway"``: Abellán and Moral's (2003) credal trees are ID3 trees, one branch per
  value of a nominal feature, each feature used at most once down a path
  (``trees/multiway.py``); every feature is then read as nominal, so it is for data sets whose
  features all are (car, krkopt, nursery, primary tumor).

``BreimanForestClassifier``: RF as the RCRF paper runs it (Breiman 2001): Gini, m = log2 M
features per node (``max(1, int(log2 M))``), fully grown trees, majority vote.  The paper's
"m = log2(M)" does not say how it is rounded; ``max_features="log2+1"`` gives Breiman's own
``F = int(log2 M + 1)`` (Breiman 2001, Sec. 5), which is ``int(log2 M) + 1``, CRF's size.  It is our
builder, not scikit-learn's ``RandomForestClassifier``: the three forests then share the
bootstrap samples, feature draws and threshold scan and differ only in the rule the paper
varies, and scikit-learn's forest averages probabilities instead of voting.
"""

from __future__ import annotations

import dataclasses

import numpy as np
from numba import njit
from sklearn.utils import check_random_state

from .._validation import COUNT, REAL, StrOptions, check_params, resolve_count
from ..trees.estimator import PluggableTreeClassifier
from ..trees.multiway import build_multiway_tree
from ..trees.rules.best_threshold import BestThreshold
from ._base import ALWAYS_BAGGED, BaggedForest, TreePredictionsMixin, base_arguments

_MAX_SEED = np.iinfo(np.int32).max
_FOREST_CONSTRAINTS = {k: v for k, v in BaggedForest._parameter_constraints.items() if k not in ALWAYS_BAGGED}


def _features_per_node(max_features, n_features):
    """``int(log2 M) + 1`` for "log2+1" (Breiman 2001, Sec. 5: ``F = int(log2 M + 1)``); any
    other ``max_features`` is passed to the tree as it is."""
    if max_features == "log2+1":
        return int(np.log2(n_features)) + 1
    return max_features


@njit(cache=True, nogil=True)
def _entropy(counts, total):
    """Shannon entropy in bits of class counts summing to ``total``."""
    h = 0.0
    for c in counts:
        if c > 0.0:
            h -= c / total * np.log2(c / total)
    return h


@njit(cache=True, nogil=True)
def _best_cut(counts, lo, hi, xlogx, left, right):
    """The cut ``lo < cut < hi`` of groups ``counts[lo:hi]`` of least class entropy
    ``E = (|S1| Ent(S1) + |S2| Ent(S2)) / |S|``, scanned with ``|S| Ent(S) = t log t -
    sum_c n_c log n_c`` on the table ``xlogx[i] = i log2 i`` (integer counts)."""
    n_classes = counts.shape[1]
    left[:] = 0.0
    right[:] = 0.0
    for g in range(lo, hi):
        right += counts[g]
    n = right.sum()
    n_left = 0
    sum_left = 0.0
    sum_right = 0.0
    for c in range(n_classes):
        sum_right += xlogx[np.intp(right[c])]
    best, best_split = -1, np.inf
    for cut in range(lo + 1, hi):
        for c in range(n_classes):
            moved = counts[cut - 1, c]
            if moved > 0.0:
                sum_left += xlogx[np.intp(left[c] + moved)] - xlogx[np.intp(left[c])]
                sum_right += xlogx[np.intp(right[c] - moved)] - xlogx[np.intp(right[c])]
                left[c] += moved
                right[c] -= moved
                n_left += np.intp(moved)
        split = (xlogx[n_left] - sum_left + xlogx[np.intp(n) - n_left] - sum_right) / n
        if split < best_split:
            best, best_split = cut, split
    return best, best_split


@njit(cache=True, nogil=True)
def _mdlp(counts, values):
    """The MDLP recursion of ``mdl_cut_points`` on integer class counts ``counts``
    (n_values, n_classes) of the sorted distinct ``values``; unsorted cut points."""
    n_values, n_classes = counts.shape
    total = np.intp(counts.sum())
    xlogx = np.zeros(total + 1)
    for i in range(2, total + 1):
        xlogx[i] = i * np.log2(i)
    left = np.empty(n_classes)
    right = np.empty(n_classes)
    cuts = np.empty(max(n_values - 1, 0))
    n_cuts = 0
    ranges = np.empty((n_values + 1, 2), dtype=np.intp)
    ranges[0, 0], ranges[0, 1] = 0, n_values
    n_ranges = 1
    while n_ranges > 0:
        n_ranges -= 1
        lo, hi = ranges[n_ranges, 0], ranges[n_ranges, 1]
        if hi - lo < 2:
            continue
        best, best_split = _best_cut(counts, lo, hi, xlogx, left, right)
        whole = counts[lo:hi].sum(axis=0)
        s1 = counts[lo:best].sum(axis=0)
        s2 = whole - s1
        n = whole.sum()
        entropy = _entropy(whole, n)
        k, k1, k2 = np.count_nonzero(whole), np.count_nonzero(s1), np.count_nonzero(s2)
        delta = np.log2(3.0**k - 2.0) - (
            k * entropy - k1 * _entropy(s1, s1.sum()) - k2 * _entropy(s2, s2.sum())
        )
        if entropy - best_split > (np.log2(n - 1.0) + delta) / n:
            cuts[n_cuts] = values[best - 1] / 2.0 + values[best] / 2.0
            n_cuts += 1
            ranges[n_ranges, 0], ranges[n_ranges, 1] = lo, best
            ranges[n_ranges + 1, 0], ranges[n_ranges + 1, 1] = best, hi
            n_ranges += 2
    return cuts[:n_cuts]


def mdl_cut_points(x, y, w, n_classes):
    """Cut points of feature values ``x`` by Fayyad and Irani's MDLP (IJCAI 1993).

    Over the samples of positive integer weight ``w`` (bootstrap multiplicities) with labels
    ``y``: the cut ``T`` between two consecutive distinct values minimising the class entropy
    ``E(T; S) = |S1|/|S| Ent(S1) + |S2|/|S| Ent(S2)`` is kept iff
    ``Gain(T; S) > log2(N - 1) / N + Delta(T; S) / N`` with
    ``Delta = log2(3**k - 2) - (k Ent(S) - k1 Ent(S1) - k2 Ent(S2))`` (k, k1, k2: classes
    present in S, S1, S2), and S1, S2 are cut again.  Returns the sorted cut points, each the
    midpoint of its two values (ties of E go to the lowest cut).
    """
    inbag = w > 0
    if np.any(w[inbag] != np.round(w[inbag])):
        raise ValueError("MDLP needs integer sample weights (multiplicities)")
    values, group = np.unique(x[inbag].astype(np.float64), return_inverse=True)
    counts = np.bincount(
        group * n_classes + y[inbag], weights=w[inbag], minlength=values.size * n_classes
    ).reshape(values.size, n_classes)
    return np.sort(_mdlp(counts, values))


def bin_codes(X, cut_points):
    """Bin codes of ``X``: ``code = #cuts < x``, so ``x <= cuts[k]`` iff ``code <= k``."""
    return np.column_stack(
        [np.searchsorted(cuts, X[:, f].astype(np.float64), side="left") for f, cuts in enumerate(cut_points)]
    ).astype(np.float32)


def raw_thresholds(tree, cut_points):
    """``tree`` grown on bin codes, its thresholds moved to the raw cut points: a code
    threshold ``k + 1/2`` (or any value in ``(k, k + 1)``) becomes ``cuts[k]``."""
    threshold = tree.threshold.copy()
    for node in tree.split_nodes:
        threshold[node] = cut_points[tree.feature[node]][int(np.floor(threshold[node]))]
    return dataclasses.replace(tree, threshold=threshold)


class CredalTree(PluggableTreeClassifier):
    """A credal tree of the CRF: IIG splits on raw values, or on MDLP bins of its bootstrap
    sample (``discretize="mdl"``, ``cut_points_`` then holds each feature's cut points)."""

    def __init__(self, split_rule="iig", *, max_features=None, discretize=None, random_state=None):
        super().__init__(split_rule, max_features=max_features, random_state=random_state)
        self.discretize = discretize

    def _fit_encoded(self, X, y_encoded, sample_weight, codes=None):
        if self.discretize is None:
            return super()._fit_encoded(X, y_encoded, sample_weight, codes)
        n_classes = len(self.classes_)
        self.cut_points_ = [
            mdl_cut_points(X[:, f], y_encoded, sample_weight, n_classes) for f in range(X.shape[1])
        ]
        super()._fit_encoded(bin_codes(X, self.cut_points_), y_encoded, sample_weight)  # not X's codes
        self.tree_ = raw_thresholds(self.tree_, self.cut_points_)
        return self


@dataclasses.dataclass(frozen=True)
class IIGUntilPure(BestThreshold):
    """The cut of largest IIG, taken even where it is not positive (``stop="pure"``)."""

    criterion: str = "iig"

    def params(self):
        return np.array([self.s, 1.0])


class MultiwayCredalTree(PluggableTreeClassifier):
    """A credal tree with one branch per value of its split feature, every feature read as
    nominal (``trees/multiway.py``); ``discretize="mdl"`` makes each Fayyad-Irani bin of the
    tree's sample a value.  ``stop`` as for ``CredalForestClassifier``."""

    _parameter_constraints = {
        "s": [REAL],
        "stop": [StrOptions({"no_gain", "pure"})],
        "max_features": COUNT,
        "discretize": [None, StrOptions({"mdl"})],
        "random_state": ["random_state"],
    }

    def __init__(self, s=1.0, *, stop="no_gain", max_features=None, discretize=None, random_state=None):
        self.s = s
        self.stop = stop
        self.max_features = max_features
        self.discretize = discretize
        self.random_state = random_state

    def _fit_encoded(self, X, y_encoded, sample_weight, codes=None):
        check_params(self)
        n_classes = len(self.classes_)
        if self.discretize is not None:
            self.cut_points_ = [
                mdl_cut_points(X[:, f], y_encoded, sample_weight, n_classes) for f in range(X.shape[1])
            ]
            X = bin_codes(X, self.cut_points_)
        self.tree_ = build_multiway_tree(
            X,
            y_encoded,
            n_classes,
            s=self.s,
            require_gain=self.stop == "no_gain",
            sample_weight=sample_weight,
            n_eval=resolve_count(self.max_features, X.shape[1], "max_features"),
            seed=check_random_state(self.random_state).randint(_MAX_SEED),
        )
        if self.discretize is not None:
            self.tree_ = raw_thresholds(self.tree_, self.cut_points_)
        self.features_ = np.arange(X.shape[1])
        return self


class CredalForestClassifier(TreePredictionsMixin, BaggedForest):
    """CRF (Abellán, Mantas and Castellano 2017): bagged credal trees, majority vote.

    The parameters every bagged forest shares (``bootstrap``, ``max_samples``, ``voting``,
    ``oob_score``, ``n_jobs``, ``random_state``) are those of
    [`BaggedForest`][forestrepro.ensembles._base.BaggedForest]; ``voting`` defaults to
    "hard" (majority vote), and every tree grows on a bootstrap sample of all ``n`` rows.

    Parameters
    ----------
    n_estimators : int, default=100
        The number of trees.
    max_features : "log2+1", "log2", "sqrt", int, float or None, default="log2+1"
        Features drawn at each node; "log2+1" is ``int(log2 M) + 1``.
    s : float, default=1.0
        The IDM parameter of the IIG.
    discretize : {None, "mdl"}, default=None
        Split raw values, or Fayyad-Irani bins of each tree's bootstrap sample.
    splits : {"threshold", "multiway"}, default="threshold"
        Cut a feature in two at a threshold, or into one branch per value (every feature
        read as nominal).
    stop : {"no_gain", "pure"}, default="no_gain"
        A node is a leaf where no candidate has a positive IIG, or only when it is pure (the
        cut of largest IIG is taken even where it is not positive).
    """

    _parameter_constraints: dict[str, list] = {
        **_FOREST_CONSTRAINTS,
        "max_features": [*COUNT, StrOptions({"log2+1"})],
        "s": [REAL],
        "discretize": [None, StrOptions({"mdl"})],
        "splits": [StrOptions({"threshold", "multiway"})],
        "stop": [StrOptions({"no_gain", "pure"})],
    }

    def __init__(
        self,
        n_estimators=100,
        *,
        max_features="log2+1",
        s=1.0,
        discretize=None,
        splits="threshold",
        stop="no_gain",
        voting="hard",
        oob_score=False,
        n_jobs=None,
        random_state=None,
    ):
        super().__init__(**base_arguments(BaggedForest, locals()))
        self.max_features = max_features
        self.s = s
        self.discretize = discretize
        self.splits = splits
        self.stop = stop

    def _make_tree(self, seed):
        max_features = _features_per_node(self.max_features, self.n_features_in_)
        if self.splits == "multiway":
            return MultiwayCredalTree(
                self.s,
                stop=self.stop,
                max_features=max_features,
                discretize=self.discretize,
                random_state=seed,
            )
        return CredalTree(
            BestThreshold("iig", s=self.s) if self.stop == "no_gain" else IIGUntilPure(s=self.s),
            max_features=max_features,
            discretize=self.discretize,
            random_state=seed,
        )


class BreimanForestClassifier(TreePredictionsMixin, BaggedForest):
    """RF of the RCRF paper: bagged fully grown Gini trees, m features per node, majority vote.

    The parameters every bagged forest shares (``bootstrap``, ``max_samples``, ``voting``,
    ``oob_score``, ``n_jobs``, ``random_state``) are those of
    [`BaggedForest`][forestrepro.ensembles._base.BaggedForest]; ``voting`` defaults to
    "hard" (majority vote), and every tree grows on a bootstrap sample of all ``n`` rows.

    Parameters
    ----------
    n_estimators : int, default=100
        The number of trees.
    max_features : "log2", "log2+1", "sqrt", int, float or None, default="log2"
        m, the features drawn at each node (``max(1, int(log2 M))`` for "log2",
        ``int(log2 M) + 1`` for "log2+1").
    """

    _parameter_constraints: dict[str, list] = {
        **_FOREST_CONSTRAINTS,
        "max_features": [*COUNT, StrOptions({"log2+1"})],
    }

    def __init__(
        self,
        n_estimators=100,
        *,
        max_features="log2",
        voting="hard",
        oob_score=False,
        n_jobs=None,
        random_state=None,
    ):
        super().__init__(**base_arguments(BaggedForest, locals()))
        self.max_features = max_features

    def _make_tree(self, seed):
        max_features = _features_per_node(self.max_features, self.n_features_in_)
        return PluggableTreeClassifier("gini", max_features=max_features, random_state=seed)
