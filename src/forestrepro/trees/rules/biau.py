"""Biau12's split: strong and weak features (Biau 2012, as the BRF paper runs it, Sun et al.
2018, Sec. 6.1).

The paper: "we first evaluated the importance of each candidate feature by using the
information gain ratio to compute the candidate split point (i.e. the midpoint value of
each feature) based on the training data set, then the tree nodes in Biau12 were expanded
by selecting a fixed number of random candidate features (without replacement).  If the
selected features were all weak ones, then chose one at random and splitted at the midpoint
value.  If more than one strong features were selected, chose one at random and cutted at
the midpoint value."  Our reading:

- *importance* (``feature_scores``): once, on the training set, every feature's gain ratio
  of its midpoint cut at the root cell (Biau12), or its Banzhaf power index over all
  features at the root (Biau12V, Sec. 6.2; discretised as in ``banzhaf_rule``);
- *strong features* (``strong_features``): the ``n_strong`` most important ones (the paper
  gives no number; Biau's model has a fixed set of ``S`` strong features); ties broken at
  random;
- *at a node* (``StrongWeakMidpoint``): ``n_eval`` candidates are drawn without replacement
  from the tree's pool (the builder's draw: a feature constant at the node counts as drawn
  but cannot be cut; drawing goes on until one can); among the cuttable candidates one
  strong feature is chosen uniformly if any was drawn, else one weak feature uniformly;
  it is cut at its midpoint (``_scan.midpoint``, cell or data range).  One strong candidate
  is "chosen" as well: the paper's "more than one" reads as "at least one", as in Biau.
"""

from dataclasses import dataclass
from typing import ClassVar

import numpy as np
from numba import njit

from ..._validation import StrOptions, check_params, check_value
from .._kernel_api import SPLIT_KERNEL_SIG
from .._rng import rand_int
from ..banzhaf import MAX_PLAYERS_EQ1
from . import _scan, gain_ratio
from .banzhaf_node import node_range, node_scores
from .banzhaf_rule import BANZHAF_OPTIONS
from .base import CompiledSplitRule

IMPORTANCES = ("gain_ratio", "banzhaf")


@njit(SPLIT_KERNEL_SIG, cache=True, nogil=True)
def strong_weak_kernel(
    X,
    y,
    w,
    n_classes,
    samples,
    start,
    end,
    counts,
    cell_lo,
    cell_hi,
    features,
    n_eval,
    depth,
    params,
    rng,
    Xf,
    buf,
    ibuf,
    codes,
    code_values,
    code_offsets,
):
    """``params = [of data, strong mask of features 0, 1, ...]``.  Uniform choice among the
    strong (else weak) cuttable candidates by reservoir sampling: the ``k``-th one found
    replaces the current choice with probability ``1/k``."""
    of_data = params[0] > 0.0
    n_pool = features.shape[0]
    n_drawn = 0
    n_strong = 0
    n_weak = 0
    strong_f = -1
    strong_t = 0.0
    weak_f = -1
    weak_t = 0.0
    while _scan.keep_drawing(n_drawn, n_strong + n_weak, n_pool, n_eval):
        f = _scan.draw_feature(features, n_drawn, n_eval, rng)
        n_drawn += 1
        t = _scan.midpoint(X, samples, start, end, f, of_data, cell_lo, cell_hi)
        if np.isnan(t):
            continue
        if f + 1 < params.shape[0] and params[f + 1] > 0.0:
            n_strong += 1
            if rand_int(rng, 0, n_strong) == 0:
                strong_f = f
                strong_t = t
        else:
            n_weak += 1
            if rand_int(rng, 0, n_weak) == 0:
                weak_f = f
                weak_t = t
    if n_strong > 0:
        return strong_f, strong_t
    return weak_f, weak_t


@dataclass(frozen=True)
class StrongWeakMidpoint(CompiledSplitRule):
    """Biau12's node rule; ``strong``: indices of the strong features; ``of``: "cell" or
    "data" (the midpoint's range)."""

    _parameter_constraints: ClassVar[dict[str, list]] = {"of": BANZHAF_OPTIONS["of"]}

    strong: tuple[int, ...] = ()
    of: str = "cell"

    def __post_init__(self):
        check_params(self)
        if any(int(f) < 0 for f in self.strong):
            raise ValueError("strong feature indices must be non-negative")

    @property
    def needs_cell(self):
        return self.of == "cell"

    @property
    def kernel(self):
        return strong_weak_kernel

    def params(self):
        mask = np.zeros(1 + (max(self.strong) + 1 if self.strong else 0))
        mask[0] = float(self.of == "data")
        mask[1 + np.asarray(self.strong, dtype=np.intp)] = 1.0
        return mask


@njit(cache=True, nogil=True)
def _gain_ratio_scores(X, y, w, n_classes, of_data, cell_lo, cell_hi, out):
    """Gain ratio of each feature's midpoint cut on all samples; -inf if constant."""
    n, d = X.shape
    samples = np.arange(n)
    counts = np.zeros(n_classes)
    for s in range(n):
        counts[y[s]] += w[s]
    weight = counts.sum()
    buf = np.zeros((4, max(n_classes, 2)))
    params = np.zeros(2)
    stat = gain_ratio.node_stat(counts, weight, n_classes, params, buf)
    left = np.empty(n_classes)
    right = np.empty(n_classes)
    for f in range(d):
        t = _scan.midpoint(X, samples, 0, n, f, of_data, cell_lo, cell_hi)
        if np.isnan(t):
            out[f] = -np.inf
            continue
        left[:] = 0.0
        w_left = 0.0
        for s in range(n):
            if X[s, f] <= t:
                left[y[s]] += w[s]
                w_left += w[s]
        for c in range(n_classes):
            right[c] = counts[c] - left[c]
        out[f] = gain_ratio.score(left, right, w_left, weight - w_left, weight, n_classes, stat, params, buf)


@njit(cache=True, nogil=True)
def _banzhaf_scores(X, y, w, n_classes, of_data, cell_lo, cell_hi, n_bins, max_coalition, out):
    """Banzhaf index of each feature in the game of all non-constant features on all
    samples (Eqs. 1-4, ``banzhaf_rule.node_scores``); -inf if constant."""
    n, d = X.shape
    samples = np.arange(n)
    counts = np.zeros(n_classes)
    for s in range(n):
        counts[y[s]] += w[s]
    players = np.empty(d, dtype=np.intp)
    bounds = np.empty((d, 2))
    n_players = 0
    for f in range(d):
        out[f] = -np.inf
        if node_range(X, samples, 0, n, f, of_data, cell_lo, cell_hi, bounds[n_players]):
            players[n_players] = f
            n_players += 1
    beta = np.empty(n_players)
    node_scores(
        X,
        y,
        w,
        n_classes,
        samples,
        0,
        n,
        counts,
        players[:n_players],
        bounds[:n_players],
        n_bins,
        max_coalition,
        True,
        False,  # Eq. 4 as printed
        beta,
    )
    for u in range(n_players):
        out[players[u]] = beta[u]


def feature_scores(X, y, importance="gain_ratio", *, root_cell=None, of="cell", n_bins=2, max_coalition=3):
    """Importance of every feature on the training set ``X`` (float32), ``y`` (integer
    labels): the gain ratio of its midpoint cut at the root cell ("gain_ratio", Biau12) or
    its Banzhaf index among all features (``n_bins``, ``max_coalition``: see
    ``BanzhafMidpoint``; "banzhaf", Biau12V).  ``root_cell``: ``(lo, hi)``, default the
    data range.  Constant features score ``-inf``."""
    check_value("importance", importance, [StrOptions(set(IMPORTANCES))])
    check_value("of", of, BANZHAF_OPTIONS["of"])
    X = np.ascontiguousarray(X, dtype=np.float32)
    _, labels = np.unique(y, return_inverse=True)
    labels = labels.astype(np.intp)
    n_classes = int(labels.max()) + 1 if labels.size else 1
    w = np.ones(X.shape[0])
    if root_cell is None:
        root_cell = (X.min(axis=0), X.max(axis=0))
    lo, hi = (np.asarray(bound, dtype=np.float64) for bound in root_cell)
    out = np.empty(X.shape[1])
    if importance == "gain_ratio":
        _gain_ratio_scores(X, labels, w, n_classes, of == "data", lo, hi, out)
    else:
        for name, value in (("n_bins", n_bins), ("max_coalition", max_coalition)):
            check_value(name, value, BANZHAF_OPTIONS[name])
        if max_coalition is None and X.shape[1] > MAX_PLAYERS_EQ1:
            raise ValueError(
                f"Eq. (1) handles at most {MAX_PLAYERS_EQ1} features; bound the coalitions with max_coalition"
            )
        _banzhaf_scores(
            X,
            labels,
            w,
            n_classes,
            of == "data",
            lo,
            hi,
            int(n_bins),
            -1 if max_coalition is None else int(max_coalition),
            out,
        )
    return out


def strong_features(scores, n_strong, random_state):
    """Indices (ascending) of the ``n_strong`` highest ``scores``; ties at the cut-off go
    to a uniformly random subset (``random_state``: a ``numpy.random.RandomState``)."""
    scores = np.asarray(scores, dtype=np.float64)
    shuffled = random_state.permutation(scores.shape[0])
    order = shuffled[np.argsort(-scores[shuffled], kind="stable")]
    return tuple(int(f) for f in np.sort(order[:n_strong]))
