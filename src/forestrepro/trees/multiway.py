"""Credal trees with multiway splits: every feature read as nominal, one branch per value.

Abellán and Moral's credal trees (2003; the trees of Abellán, Mantas and Castellano's 2017
credal random forest) are ID3 trees: a node split on a nominal feature gets one branch for each
of its values, so a feature is used at most once down a path.  The split maximises the
imprecise information gain with the imprecise Dirichlet model (``rules/iig.py``)

    IIG = H*(K(node)) - sum_v (N_v / N) H*(K(node_v)),

the sum over the values v of the feature (N_v: the node's weight with value v; an empty branch
adds nothing), and a node is a leaf when no drawn feature has IIG > 0 (with ``require_gain``;
without it the feature of largest IIG is taken even where that is not positive, and the tree
grows until its nodes are pure or have one value of every feature).  Features are drawn as
the threshold builder draws them (``rules/_scan.py``): without replacement, until ``n_eval``
were drawn and one of them was usable; a feature with one value at the node is unusable.

Every feature is taken as nominal, its domain the distinct values it takes in the tree's
training data (out-of-bag rows included: their values, never their labels).  That is the
reading for data sets whose features are all nominal (``crf_multiway``, RCRF paper's car,
krkopt, nursery, primary tumor); on a numeric feature it would make a branch per number.

The tree is stored in the binary ``Tree`` of the threshold builder: a split on feature f with
domain d_1 < ... < d_K is the chain of cuts ``x_f <= (d_i + d_{i+1}) / 2``, whose left child is
the branch of d_i and whose right child continues the chain (the last right child is d_K's
branch).  A branch whose value the node's samples lack is an empty leaf holding the node's
class counts (C4.5's rule: an empty branch predicts its parent's majority); a chain whose
remaining values are all absent ends in one such leaf.  A value outside the domain follows the
nearest value of it (the lower on a tie), as the cuts send it.
"""

import numpy as np
from numba import njit

from . import _nodes
from ._rng import new_state
from .builder import grow_inputs
from .rules._scan import distinct, next_usable
from .rules.iig import ZERO_GAIN, max_entropy
from .tree import Tree

_UNLIMITED = np.iinfo(np.intp).max


@njit(cache=True, nogil=True)
def _multiway_gain(y, w, samples, start, end, Xf, n_classes, s, parent_h, weight, counts, scratch):
    """IIG of the multiway split of the node's samples ``samples[start:end]``, sorted by
    their values ``Xf[start:end]`` of the feature."""
    spread = 0.0
    counts[:] = 0.0
    w_value = 0.0
    for p in range(start, end):
        if p > start and distinct(Xf, p):
            spread += w_value * max_entropy(counts, w_value, n_classes, s, scratch)
            counts[:] = 0.0
            w_value = 0.0
        i = samples[p]
        counts[y[i]] += w[i]
        w_value += w[i]
    spread += w_value * max_entropy(counts, w_value, n_classes, s, scratch)
    gain = parent_h - spread / weight
    return 0.0 if abs(gain) < ZERO_GAIN else gain


@njit(cache=True, nogil=True)
def _best_feature(
    X, y, w, samples, start, end, node_counts, weight, features, n_eval, n_classes, s, require_gain, rng, Xf
):
    """The drawn feature of largest IIG at the node (the first drawn on a tie), or -1 if none is
    usable or, with ``require_gain``, none has a positive IIG."""
    counts = np.empty(n_classes)
    scratch = np.empty(n_classes)
    parent_h = max_entropy(node_counts, weight, n_classes, s, scratch)
    best, best_gain = -1, 0.0 if require_gain else -np.inf
    n_drawn = 0
    n_usable = 0
    while True:
        f, n_drawn, n_usable = next_usable(
            X, samples, start, end, features, n_drawn, n_usable, n_eval, rng, Xf
        )
        if f < 0:
            break
        gain = _multiway_gain(y, w, samples, start, end, Xf, n_classes, s, parent_h, weight, counts, scratch)
        if gain > best_gain:
            best, best_gain = f, gain
    return best


@njit(cache=True, nogil=True)
def _cut(store, counters, node, head, feature, threshold, X, y, w, samples):
    """Cut ``node`` at ``X[:, feature] <= threshold`` into two children, either of which may
    be empty; an empty child holds the class counts of the chain's head ``head``."""
    if not _nodes.split_node(store, counters, node, feature, threshold, X, y, w, samples):
        # every sample lies on one side: the other child is empty
        start, end = store[9][node], store[10][node]
        cut = end if X[samples[start], feature] <= threshold else start
        depth = store[7][node] + 1
        store[0][node] = _nodes._add_node(store, counters, node, depth, start, cut, y, w, samples)
        store[1][node] = _nodes._add_node(store, counters, node, depth, cut, end, y, w, samples)
        store[2][node] = feature
        store[3][node] = threshold
        counters[1] += 1
    for child in (store[0][node], store[1][node]):
        if store[5][child] == 0:
            store[4][child][:] = store[4][head]
            store[6][child] = store[6][head]


@njit(cache=True, nogil=True)
def _grow(
    X,
    y,
    w,
    samples,
    pool,
    n_eval,
    n_classes,
    s,
    require_gain,
    domain,
    offsets,
    min_samples_split,
    rng,
    capacity,
):
    store = _nodes.new_store(capacity, n_classes)
    counters = np.zeros(2, dtype=np.intp)
    _nodes.add_root(store, counters, y, w, samples)
    chain_feature = np.full(capacity, -1, dtype=np.intp)
    chain_value = np.zeros(capacity, dtype=np.intp)
    chain_head = np.zeros(capacity, dtype=np.intp)
    features = pool.copy()
    Xf = np.empty(X.shape[0], dtype=np.float32)
    node = 0
    while node < counters[0]:
        f = chain_feature[node]
        if f < 0 and not _nodes.must_stop(
            store[4][node],
            store[6][node],
            store[5][node],
            store[7][node],
            counters[1],
            min_samples_split,
            _UNLIMITED,
            _UNLIMITED,
            0.0,
        ):
            start, end = store[9][node], store[10][node]
            f = _best_feature(
                X,
                y,
                w,
                samples,
                start,
                end,
                store[4][node],
                store[6][node],
                features,
                n_eval,
                n_classes,
                s,
                require_gain,
                rng,
                Xf,
            )
            if f >= 0:
                chain_value[node] = offsets[f]
                chain_head[node] = node
        if f >= 0:
            if counters[0] + 2 > capacity:
                return store, counters, False
            j = chain_value[node]
            _cut(
                store,
                counters,
                node,
                chain_head[node],
                f,
                domain[j] / 2.0 + domain[j + 1] / 2.0,
                X,
                y,
                w,
                samples,
            )
            right = store[1][node]
            if j + 2 < offsets[f + 1] and store[5][right] > 0:
                chain_feature[right] = f
                chain_value[right] = j + 1
                chain_head[right] = chain_head[node]
        node += 1
    return store, counters, True


def feature_domains(X, samples):
    """Each feature's distinct values among ``X[samples]``, concatenated, and the offsets of
    feature f's values ``domain[offsets[f]:offsets[f + 1]]``."""
    values = [np.unique(X[samples, f]) for f in range(X.shape[1])]
    offsets = np.zeros(X.shape[1] + 1, dtype=np.intp)
    offsets[1:] = np.cumsum([v.size for v in values])
    return np.concatenate(values).astype(np.float32), offsets


def build_multiway_tree(
    X, y, n_classes, *, s=1.0, require_gain=True, sample_weight=None, n_eval=None, min_samples_split=2, seed=0
):
    """Grow a multiway credal tree on ``X`` (n_samples, n_features) and labels ``y`` in
        ``[0, n_classes)``; rows of weight 0 are left out of the growth but their values belong to
        the features' domains.  ``n_eval`` features are drawn per node (default: all, in order);
    ``require_gain``: a node is a leaf unless a drawn feature has a positive IIG."""
    X, y, w, samples = grow_inputs(X, y, sample_weight)
    domain, offsets = feature_domains(X, np.arange(X.shape[0]))
    n_features = X.shape[1]
    n_eval = n_features if n_eval is None else int(n_eval)
    pool = np.arange(n_features, dtype=np.intp)
    # a chain makes two nodes per value of its feature; a store too small is doubled and the
    # tree grown again from the same seed (the same tree)
    capacity = 4 * samples.shape[0] + 1
    complete = False
    while not complete:
        store, counters, complete = _grow(
            X,
            y,
            w,
            samples.copy(),
            pool,
            n_eval,
            n_classes,
            float(s),
            bool(require_gain),
            domain,
            offsets,
            int(min_samples_split),
            new_state(seed),
            capacity,
        )
        capacity *= 2
    n = counters[0]
    return Tree(*(array[:n].copy() for array in store[:8]))
