"""The BRF paper's own method written again from its text: a second implementation of BRF.

Banzhaf random forests (Sun et al. 2018, Secs. 4.1-4.5, 6.1) run in our pipeline as method
``brf`` (``ensembles/brf.py``: ``BanzhafForestClassifier`` on our tree builder, the game in
``trees/banzhaf.py`` and ``trees/rules/banzhaf_*.py``). ``PlainBanzhafRF`` grows the same model
in one self-contained module (numpy, compiled by numba) that imports nothing of our trees,
forests or other extensions, under the same reading of every choice (brf's defaults,
``conf/method/brf.yaml``: variant brf, 2 bins of the node's cell, argmax, hard vote,
coalitions of at most 3):

- bootstrap (Sec. 4.3, "randomly sampling D_n for n times with replacement"): each tree grows on
  n rows drawn with replacement from the n training rows, a row drawn k times counted k times;
- subspace (Sec. 4.3, "before the decision tree construction, randomly sample a subspace of
  h = round(log2(M) + C) features"): h features drawn once per tree, without replacement; every
  node plays the game among them. "round" is half up (MATLAB's), and h is clipped to ``[1, M]``:
  neither is in the paper;
- cells and cuts (Sec. 4.2, "the midpoint value of the 'best' feature is selected as the split
  point"; Sec. 5, the cells of Biau 2012): the root's cell is the range of the tree's rows on
  each feature (Sec. 5.1 has ``[0, 1]^h``; the data range is our reading), a child's cell is
  its parent's cut at the threshold. A feature's cut at a node is the midpoint of the node's
  cell on it; where that leaves all the node's rows on one side, the empty half is dropped and
  the rest halved again until the cut separates them (not in the paper: the paper's midpoint
  could leave a child empty). A feature whose node values are all equal cannot be cut and is
  not a player;
- root (Sec. 4.2, "for the root node, the 'best' feature is selected by the criterion of the
  information gain ratio"): the feature whose midpoint cut has the largest gain ratio
  ``IG / SI`` (C4.5's, in bits), ties to the first feature of the subspace (not in the paper);
- every other node (Secs. 4.2, 4.4, Algorithm 1): the players are the features of the subspace
  that vary at the node. Each is made binary by its own midpoint cut, two bins ``x <= t`` and
  ``x > t`` (the paper does not say how it discretises; two bins make ``I(f_i; y)`` the
  information gain of the cut the tree would make). ``f_j`` is interdependent with ``f_i`` when
  ``I(f_i; y) <= I(f_i; y | f_j)`` (Eq. 4 and the sentence after it, as printed; plug-in
  estimates from the node's rows, in bits; "<=" inclusive, up to ``1e-9`` bits of rounding).
  ``f_i`` wins a coalition S of other players when at least half of S is interdependent with
  it (Eq. 3, sigma >= tau = 1/2; the empty coalition has no sigma and is never won). The
  Banzhaf index ``beta_i`` (Sec. 4.4) is the number of won coalitions among the non-empty ones
  of at most ``max_coalition`` (varpi) members over their number; ``max_coalition=None`` gives
  Eq. (1), won coalitions over all ``2**(n-1)`` coalitions. Coalitions are counted by size s
  and the number k of interdependent members, ``C(a, k) C(b, s - k)`` with ``2k >= s`` for
  ``a`` interdependent and ``b`` other players;
- choice (Algorithm 1, "choose the best feature with max zeta_i"; zeta = beta / sum beta,
  Eq. 2, has beta's order): the largest beta; ties, common since beta depends only on how many
  partners a player has, are broken uniformly at random (not in the paper). A node with one
  player is cut on it;
- stopping (Sec. 4.3, "the percentage of incorrect points or a minimal number of samples at a
  node", no values given; Sec. 4.2, "only one data point in each tree node"): a node is cut
  until it is pure, or until none of its h features varies among its rows;
- prediction (Sec. 4.5): a leaf predicts its rows' most frequent class (ties: the class listed
  first), the forest the class with most tree votes (ties: the class listed first, not in the
  paper); ``predict_proba`` gives the share of the trees voting for each class.

Each tree's draws follow scikit-learn's forests: its seed is drawn from ``random_state``
(``randint(2**31 - 1)``), then its bootstrap rows, its subspace and the seed of its tie-breaks
from one generator of that seed (our brf draws them from generators of its own, so the two
forests' trees differ, not their distribution). Where it gives our brf's number and not the
paper's, our number is what this reading of the paper's BRF gives on these folds, not an
artefact of our tree builder (conf/paper/brf.yaml, experiment ``independent_brf``).
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

ROUNDING = 1e-9
"""Bits by which ``I(f_i; y | f_j)`` may fall short of ``I(f_i; y)`` and still count as Eq. 4's
"<=" (equal informations computed by different sums)."""


@njit(cache=True)
def _binomial(n, k):
    """``C(n, k)`` as a float (0 outside ``0 <= k <= n``)."""
    if k < 0 or k > n:
        return 0.0
    out = 1.0
    for i in range(1, k + 1):
        out = out * (n - k + i) / i
    return out


@njit(cache=True)
def banzhaf_index(n_partners, n_others, max_coalition):
    """``beta`` of a player with ``n_partners`` interdependent players among its ``n_others``
    others: won coalitions (at least half of the members interdependent, Eq. 3) among the
    non-empty coalitions of at most ``max_coalition`` members, over their number (Sec. 4.4);
    ``max_coalition < 0``: over all ``2**n_others`` coalitions, the empty one included (Eq. 1)."""
    a = n_partners
    b = n_others - a
    largest = n_others if max_coalition < 0 else min(max_coalition, n_others)
    won = 0.0
    coalitions = 0.0
    for s in range(1, largest + 1):
        coalitions += _binomial(n_others, s)
        for k in range(0, s + 1):
            if 2 * k >= s:
                won += _binomial(a, k) * _binomial(b, s - k)
    if max_coalition < 0:
        coalitions = 2.0**n_others
    return won / coalitions if coalitions > 0.0 else 0.0


@njit(cache=True)
def _plogp_ratio(joint, total, a, b):
    """``joint / total * log2(joint * total / (a * b))``, 0 for an empty cell."""
    if joint <= 0.0:
        return 0.0
    return joint / total * np.log2(joint * total / (a * b))


@njit(cache=True)
def mutual_information(x, y, n_classes):
    """Plug-in ``I(x; y)`` in bits of binary ``x`` and labels ``y`` in ``[0, n_classes)``:
    ``sum p(x, y) log2 p(x, y) / (p(x) p(y))``."""
    table = np.zeros((2, n_classes))
    for r in range(x.shape[0]):
        table[x[r], y[r]] += 1.0
    total = float(x.shape[0])
    px = table.sum(axis=1)
    py = table.sum(axis=0)
    out = 0.0
    for u in range(2):
        for c in range(n_classes):
            out += _plogp_ratio(table[u, c], total, px[u], py[c])
    return out


@njit(cache=True)
def conditional_information(x, z, y, n_classes):
    """Plug-in ``(I(x; y | z), I(z; y | x))`` in bits of binary ``x``, ``z`` and labels ``y``:
    ``I(x; y | z) = sum p(x, y, z) log2 p(z) p(x, y, z) / (p(x, z) p(y, z))`` (Eq. 4)."""
    table = np.zeros((2, 2, n_classes))
    for r in range(x.shape[0]):
        table[x[r], z[r], y[r]] += 1.0
    total = float(x.shape[0])
    xz = np.zeros((2, 2))
    xy = np.zeros((2, n_classes))
    zy = np.zeros((2, n_classes))
    for u in range(2):
        for v in range(2):
            for c in range(n_classes):
                xz[u, v] += table[u, v, c]
                xy[u, c] += table[u, v, c]
                zy[v, c] += table[u, v, c]
    px = xz.sum(axis=1)
    pz = xz.sum(axis=0)
    x_given_z = 0.0
    z_given_x = 0.0
    for u in range(2):
        for v in range(2):
            for c in range(n_classes):
                joint = table[u, v, c]
                if joint > 0.0:
                    x_given_z += joint / total * np.log2(joint * pz[v] / (xz[u, v] * zy[v, c]))
                    z_given_x += joint / total * np.log2(joint * px[u] / (xz[u, v] * xy[u, c]))
    return x_given_z, z_given_x


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
def gain_ratio(left, right):
    """Information gain over split information, in bits, of the cut that sends class counts
    ``left`` one way and ``right`` the other (both sides non-empty)."""
    n_left = left.sum()
    n_right = right.sum()
    n = n_left + n_right
    p_left = n_left / n
    p_right = n_right / n
    gain = _entropy(left + right, n) - p_left * _entropy(left, n_left) - p_right * _entropy(right, n_right)
    return gain / (-p_left * np.log2(p_left) - p_right * np.log2(p_right))


@njit(cache=True)
def cell_midpoint(low, high, cell_low, cell_high):
    """The cut of values spanning ``[low, high]`` (``low < high``) in the cell
    ``[cell_low, cell_high]``: its midpoint, the empty half dropped until the cut separates."""
    while True:
        t = cell_low / 2.0 + cell_high / 2.0
        if high <= t:
            cell_high = t
        elif low > t:
            cell_low = t
        else:
            return t


@njit(cache=True)
def node_choices(values, classes, n_classes, members, lo, hi, at_root, max_coalition):
    """The features a node may be cut on and their cuts: ``(positions, thresholds)``, positions
    in the subspace (rows of ``values``). At the root the one of largest gain ratio (the first
    on ties); elsewhere every player of largest Banzhaf index; empty when no feature varies.

    ``values[j, r]``: subspace feature j of the tree's row r; ``members``: the node's rows;
    ``lo, hi``: the node's cell."""
    h = values.shape[0]
    players = np.empty(h, dtype=np.int64)
    cuts = np.empty(h)
    n_players = 0
    for j in range(h):
        low = values[j, members[0]]
        high = low
        for r in members:
            low = min(low, values[j, r])
            high = max(high, values[j, r])
        if high > low:
            players[n_players] = j
            cuts[n_players] = cell_midpoint(low, high, lo[j], hi[j])
            n_players += 1
    players = players[:n_players]
    cuts = cuts[:n_players]
    if n_players <= 1:
        return players, cuts
    if at_root:
        best = 0
        best_score = -np.inf
        for p in range(n_players):
            left = np.zeros(n_classes)
            right = np.zeros(n_classes)
            for r in members:
                if values[players[p], r] <= cuts[p]:
                    left[classes[r]] += 1.0
                else:
                    right[classes[r]] += 1.0
            score = gain_ratio(left, right)
            if score > best_score:
                best_score = score
                best = p
        return players[best : best + 1], cuts[best : best + 1]
    # the game: labels renumbered over the classes present, each player's two bins
    present = np.zeros(n_classes, dtype=np.int64)
    for r in members:
        present[classes[r]] = 1
    code = np.cumsum(present) - 1
    labels = np.empty(members.shape[0], dtype=np.int64)
    bins = np.empty((n_players, members.shape[0]), dtype=np.int64)
    for i in range(members.shape[0]):
        labels[i] = code[classes[members[i]]]
        for p in range(n_players):
            bins[p, i] = 1 if values[players[p], members[i]] > cuts[p] else 0
    k = int(present.sum())
    mi = np.empty(n_players)
    for p in range(n_players):
        mi[p] = mutual_information(bins[p], labels, k)
    partners = np.zeros(n_players, dtype=np.int64)
    for p in range(n_players):
        for q in range(p + 1, n_players):
            p_given_q, q_given_p = conditional_information(bins[p], bins[q], labels, k)
            if mi[p] <= p_given_q + ROUNDING:
                partners[p] += 1
            if mi[q] <= q_given_p + ROUNDING:
                partners[q] += 1
    beta = np.empty(n_players)
    for p in range(n_players):
        beta[p] = banzhaf_index(partners[p], n_players - 1, max_coalition)
    best = beta.max()
    tied = np.flatnonzero(beta == best)
    return players[tied], cuts[tied]


@njit(cache=True)
def grow_tree(X, codes, n_classes, rows, features, max_coalition, seed):
    """One tree on the training rows ``rows`` (repeats count) within the subspace ``features``:
    arrays (feature, threshold, left child, right child, leaf class) of its nodes, root first.
    ``seed`` seeds the draws that break ties between players."""
    np.random.seed(seed)
    n = rows.shape[0]
    h = features.shape[0]
    values = np.empty((h, n))
    for j in range(h):
        for i in range(n):
            values[j, i] = X[rows[i], features[j]]
    classes = codes[rows]
    capacity = 2 * n + 1
    feature = np.full(capacity, -1, dtype=np.int64)
    threshold = np.zeros(capacity)
    left = np.full(capacity, -1, dtype=np.int64)
    right = np.full(capacity, -1, dtype=np.int64)
    leaf_class = np.zeros(capacity, dtype=np.int64)
    lo = np.empty(h)
    hi = np.empty(h)
    for j in range(h):
        lo[j] = values[j].min()
        hi[j] = values[j].max()
    pending = [(0, np.arange(n), lo, hi)]
    n_nodes = 1
    while len(pending) > 0:
        node, members, lo, hi = pending.pop()
        counts = np.zeros(n_classes, dtype=np.int64)
        for r in members:
            counts[classes[r]] += 1
        leaf_class[node] = np.argmax(counts)
        if counts.max() == members.shape[0]:
            continue
        positions, cuts = node_choices(values, classes, n_classes, members, lo, hi, node == 0, max_coalition)
        if positions.shape[0] == 0:
            continue
        pick = 0 if positions.shape[0] == 1 else np.random.randint(0, positions.shape[0])
        j = positions[pick]
        t = cuts[pick]
        goes_left = values[j, members] <= t
        feature[node] = features[j]
        threshold[node] = t
        left[node] = n_nodes
        right[node] = n_nodes + 1
        lo_left, hi_left = lo.copy(), hi.copy()
        hi_left[j] = min(hi_left[j], t)
        lo_right, hi_right = lo.copy(), hi.copy()
        lo_right[j] = max(lo_right[j], t)
        pending.append((n_nodes, members[goes_left], lo_left, hi_left))
        pending.append((n_nodes + 1, members[~goes_left], lo_right, hi_right))
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


class PlainBanzhafRF(ClassifierMixin, BaseEstimator):
    """The BRF paper's Banzhaf random forest (Secs. 4.2-4.5), written again on its own (see the
    module).

    Parameters
    ----------
    n_estimators : int, default=100
        ``ntree``, the number of trees (Sec. 6.1).
    h_offset : float, default=0.0
        C of the features drawn per tree, ``h = round(log2(M) + C)`` (halves up), at least 1
        and at most M.
    max_coalition : int or None, default=3
        The bound varpi on a coalition's members (Sec. 4.4); None: Eq. (1), all coalitions.
    bootstrap : bool, default=True
        Grow each tree on a bootstrap sample (the paper's); False: on the training rows.
    random_state : int, RandomState or None, default=None
        Seeds each tree's bootstrap sample, subspace and tie-breaks.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    subspaces_ : list of ndarray of int
        Each tree's h features, ascending.
    """

    _parameter_constraints: dict = {
        "n_estimators": [Interval(Integral, 1, None, closed="left")],
        "h_offset": [Interval(Real, None, None, closed="neither")],
        "max_coalition": [Interval(Integral, 1, None, closed="left"), None],
        "bootstrap": ["boolean"],
        "random_state": ["random_state"],
    }

    def __init__(self, n_estimators=100, *, h_offset=0.0, max_coalition=3, bootstrap=True, random_state=None):
        self.n_estimators = n_estimators
        self.h_offset = h_offset
        self.max_coalition = max_coalition
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
        bound = -1 if self.max_coalition is None else int(self.max_coalition)
        seeds = check_random_state(self.random_state).randint(np.iinfo(np.int32).max, size=self.n_estimators)
        self.subspaces_ = []
        self.trees_ = []
        for seed in seeds:
            draws = np.random.RandomState(seed)
            rows = draws.randint(0, n, n) if self.bootstrap else np.arange(n)
            features = np.sort(draws.choice(n_features, h, replace=False))
            tie_seed = draws.randint(np.iinfo(np.int32).max)
            self.subspaces_.append(features)
            self.trees_.append(
                grow_tree(X, codes.astype(np.int64), len(self.classes_), rows, features, bound, tie_seed)
            )
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
