"""The node store of a growing tree and the compiled steps shared by both grow loops.

Nodes are numbered in the order they are made and grown in that order (breadth first), so a
budget of ``k`` leaves gives the balanced tree of the BRF consistency theorem
(``2**ceil(log2 k)`` cells when every node can be cut).  A node's samples are the range
``samples[start:end]`` of one permutation array; its cell is not stored but rebuilt from its
ancestors' cuts when a rule needs it.

The store is the tuple ``(left, right, feature, threshold, value, n_samples, weight, depth,
parent, start, end)`` plus ``counters = [n_nodes, n_leaves]``; ``value`` holds the weighted
class counts of the original classes.
"""

import numpy as np
from numba import njit

LEAF = -1


@njit(cache=True, nogil=True)
def new_store(capacity, n_classes):
    """An empty store for at most ``capacity`` nodes (filled as nodes are added)."""
    return (
        np.empty(capacity, dtype=np.intp),
        np.empty(capacity, dtype=np.intp),
        np.empty(capacity, dtype=np.intp),
        np.empty(capacity, dtype=np.float64),
        np.empty((capacity, n_classes), dtype=np.float64),
        np.empty(capacity, dtype=np.intp),
        np.empty(capacity, dtype=np.float64),
        np.empty(capacity, dtype=np.intp),
        np.empty(capacity, dtype=np.intp),
        np.empty(capacity, dtype=np.intp),
        np.empty(capacity, dtype=np.intp),
    )


@njit(cache=True, nogil=True)
def _add_node(store, counters, parent, depth, start, end, y, w, samples):
    node = counters[0]
    counters[0] += 1
    store[0][node] = LEAF
    store[1][node] = LEAF
    store[2][node] = LEAF
    store[3][node] = 0.0
    value = store[4][node]
    value[:] = 0.0
    weight = 0.0
    for p in range(start, end):
        s = samples[p]
        value[y[s]] += w[s]
        weight += w[s]
    store[5][node] = end - start
    store[6][node] = weight
    store[7][node] = depth
    store[8][node] = parent
    store[9][node] = start
    store[10][node] = end
    return node


@njit(cache=True, nogil=True)
def add_root(store, counters, y, w, samples):
    """Make node 0 with every sample."""
    _add_node(store, counters, LEAF, 0, 0, samples.shape[0], y, w, samples)
    counters[1] = 1


@njit(cache=True, nogil=True)
def must_stop(
    value,
    weight,
    n_samples,
    depth,
    n_leaves,
    min_samples_split,
    max_depth,
    max_leaf_nodes,
    max_error_fraction,
):
    """Stopping rules of a node of class counts ``value`` (``store[4][node]``), weight, samples and
    depth in a tree of ``n_leaves`` leaves: fewer than ``min_samples_split`` samples, depth
    ``max_depth``, the leaf budget ``max_leaf_nodes`` (k_n) spent, a pure node, or a fraction of
    points outside the node's majority class below ``max_error_fraction`` (BRF paper, Sec. 4.3).
    (It takes the node's fields, not the store: numba counts a reference for each of the store's
    arrays on every call.)"""
    if n_samples < min_samples_split or depth >= max_depth:
        return True
    if n_leaves >= max_leaf_nodes:
        return True
    majority = value.max()
    if majority >= weight:
        return True
    return (weight - majority) / weight < max_error_fraction


@njit(cache=True, nogil=True)
def node_cell(store, node, root_lo, root_hi, lo, hi):
    """Fill ``lo, hi`` with the cell of ``node``: the root cell cut by its ancestors."""
    lo[:] = root_lo
    hi[:] = root_hi
    left, feature, threshold, parent = store[0], store[2], store[3], store[8]
    child = node
    up = parent[child]
    while up != LEAF:
        f = feature[up]
        t = threshold[up]
        if left[up] == child:
            hi[f] = min(hi[f], t)
        else:
            lo[f] = max(lo[f], t)
        child = up
        up = parent[child]


@njit(cache=True, nogil=True)
def view_counts(value, class_map, n_view_classes, out):
    """Class counts of a node under a label view (``class_map[c]`` = view class of ``c``)."""
    out[:n_view_classes] = 0.0
    for c in range(value.shape[0]):
        out[class_map[c]] += value[c]
    return out[:n_view_classes]


@njit(cache=True, nogil=True)
def split_node(store, counters, node, feature, threshold, X, y, w, samples):
    """Cut ``node`` at ``X[:, feature] <= threshold`` into two new nodes.

    Returns False, leaving the node a leaf, when the cut does not separate its samples."""
    start = store[9][node]
    end = store[10][node]
    lo = start
    hi = end
    while lo < hi:
        if X[samples[lo], feature] <= threshold:
            lo += 1
        else:
            hi -= 1
            samples[lo], samples[hi] = samples[hi], samples[lo]
    if lo == start or lo == end:
        return False
    depth = store[7][node] + 1
    store[0][node] = _add_node(store, counters, node, depth, start, lo, y, w, samples)
    store[1][node] = _add_node(store, counters, node, depth, lo, end, y, w, samples)
    store[2][node] = feature
    store[3][node] = threshold
    counters[1] += 1
    return True
