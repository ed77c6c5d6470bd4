"""A fitted scanning forest's class vectors of every window of a row, read straight from the row.

Multi-grained scanning (WDF Sec. 1, Fig. 1) classifies every window of every row: on SEMG
7,691 windows per row and on MNIST 1,109, each by 1,000 trees. Cutting the windows out and
calling ``predict_proba`` reads each window's features from a matrix of tens of megabytes and
each node from scikit-learn's 64-byte node records; that traversal is most of a scan's time.
``WindowForest`` gives the same numbers faster:

- window ``w``'s feature ``f`` is ``row[start_w + offset_f]`` (``scanning.window_layout``), so
  the row itself, a few kilobytes, is read in place of the cut window;
- each tree's nodes are packed into 16-byte rows (children, feature or leaf, threshold), four
  to a cache line; a pure leaf holds its class, and only impure leaves keep class fractions
  beside the rows (``pack_tree``); eight windows descend a tree in lockstep so that their
  memory reads overlap. The threshold is stored as the largest float32 not above
  scikit-learn's float64 threshold ``t``: for a float32 feature value ``x``, ``x <= t``
  exactly when ``x <= float32_floor(t)``, so every window reaches the leaf ``tree_.apply``
  gives it;
- trees are summed as ``weighting.weighted_proba`` sums them (Eqs. 5-6, through
  ``weighting.sum_over_tree_chunks``: ``W_k p_k`` added in tree order), so the class
  vectors are bit-for-bit those of ``cascade_members.class_vectors`` on the cut windows
  (``tests/cascade/test_window_forest.py``), whatever ``n_jobs``;
- ``WindowForest.grow`` grows an unweighted forest a chunk of trees at a time and packs each
  chunk as it is grown, so scikit-learn's trees, the larger form, are never all in memory.

Rows must be finite (the scanner's input check): scikit-learn's routing of missing values is
not reproduced.
"""

import numpy as np
from numba import njit

from .weighting import sum_over_tree_chunks

_LEAF = -1
_GROUP = 8
GROWTH_CHUNK_TREES = 50


def float32_floor(threshold):
    """The largest float32 not above each float64 ``threshold``: for float32 ``x``,
    ``x <= threshold`` if and only if ``x <= float32_floor(threshold)``."""
    nearest = np.asarray(threshold, dtype=np.float64).astype(np.float32)
    above = nearest.astype(np.float64) > threshold
    nearest[above] = np.nextafter(nearest[above], np.float32(-np.inf))
    return nearest


def pack_tree(tree, n_classes):
    """A scikit-learn ``Tree`` as ``(ints, floats, leaf_values)``.

    ``ints`` holds a row ``(left, right, feature, threshold bits)`` per node, int32, and
    ``floats`` is the same buffer read as float32, whose column 3 is ``float32_floor`` of the
    threshold. A leaf has ``left == -1`` and, in place of a feature, its class: a pure leaf
    (class fractions one 1 and zeros, as nearly every leaf of a tree grown to pure leaves) holds
    ``-1 - c`` for its class ``c``; any other leaf holds its row in ``leaf_values``, its class
    fractions (``tree.value``, first ``n_classes`` columns, float64). A tree of pure leaves
    packs into 16 bytes a node, against scikit-learn's 64 and 8 per class: a ninth of it with
    MNIST's 10 classes.
    """
    ints = np.empty((tree.node_count, 4), dtype=np.int32)
    ints[:, 0] = tree.children_left
    ints[:, 1] = tree.children_right
    ints[:, 2] = tree.feature
    leaves = np.flatnonzero(tree.children_left == _LEAF)
    fractions = tree.value[leaves, 0, :n_classes]
    pure = (np.count_nonzero(fractions, axis=1) == 1) & (fractions.max(axis=1) == 1.0)
    ints[leaves[pure], 2] = -1 - np.argmax(fractions[pure], axis=1)
    ints[leaves[~pure], 2] = np.arange(np.count_nonzero(~pure))
    floats = ints.view(np.float32)
    floats[:, 3] = float32_floor(tree.threshold)
    return ints, floats, np.ascontiguousarray(fractions[~pure])


@njit(cache=True, nogil=True)
def _add_tree(X, rows, starts, offsets, ints, floats, leaf_values, weight, first, total):
    """``total[i] (+)= weight * leaf_values[leaf(i)]`` for window ``i = r * n_windows + w``
    (window ``w`` of row ``rows[r]``); ``first`` sets instead of adding. A pure leaf adds
    ``weight`` to its class's column alone: the same bits, as ``weight * 1.0 == weight`` and
    adding ``weight * 0.0 = +0.0`` to a sum of non-negative terms leaves it unchanged.

    Windows descend the tree ``_GROUP`` at a time in lockstep, one node each per sweep, so the
    memory reads of different windows overlap; a window goes to column ``x > threshold`` (0:
    left, 1: right) of its node's row.
    """
    n_windows = starts.size
    n_total = rows.size * n_windows
    n_classes = total.shape[1]
    nodes = np.zeros(_GROUP, dtype=np.intp)
    bases = np.zeros(_GROUP, dtype=np.intp)
    flat = X.ravel()
    for group in range(0, n_total, _GROUP):
        size = min(_GROUP, n_total - group)
        for g in range(size):
            r = (group + g) // n_windows
            bases[g] = rows[r] * X.shape[1] + starts[group + g - r * n_windows]
            nodes[g] = 0
        finished = 0
        while finished < size:
            finished = 0
            for g in range(size):
                node = nodes[g]
                if ints[node, 0] == _LEAF:
                    finished += 1
                else:
                    value = flat[bases[g] + offsets[ints[node, 2]]]
                    nodes[g] = ints[node, int(value > floats[node, 3])]
        for g in range(size):
            leaf = ints[nodes[g], 2]
            if leaf < 0:  # pure leaf of class -1 - leaf: weight * one-hot
                if first:
                    total[group + g, :] = 0.0
                    total[group + g, -1 - leaf] = weight
                else:
                    total[group + g, -1 - leaf] += weight
            else:
                for j in range(n_classes):
                    if first:
                        total[group + g, j] = weight * leaf_values[leaf, j]
                    else:
                        total[group + g, j] += weight * leaf_values[leaf, j]


def _pack_trees(estimators, first, n_classes, take_trees):
    """``pack_tree`` of each of ``estimators[first:]``; with ``take_trees`` each is set to None
    in ``estimators`` once packed."""
    packed = []
    for k in range(first, len(estimators)):
        packed.append(pack_tree(estimators[k].tree_, n_classes))
        if take_trees:
            estimators[k] = None
    return packed


class WindowForest:
    """A fitted ``WeightedForestClassifier``'s class vectors of windows, read from the rows.

    Parameters
    ----------
    model : WeightedForestClassifier
        Fitted on windows; its ``n_jobs`` threads sum the chunks of trees.
    n_classes : int
        Columns of the class vectors; the model's classes ``model.classes_`` (codes ``0 ..
        n_classes - 1``) fill theirs and a class the model never saw stays 0.
    take_trees : bool, default=False
        Drop each of the model's trees once packed (``model`` can no longer predict), so
        that after packing memory holds the packed trees alone (``nbytes``).
    """

    def __init__(self, model, n_classes, *, take_trees=False):
        self._hold(
            _pack_trees(model.forest_.estimators_, 0, len(model.classes_), take_trees),
            model.weights_,
            model.classes_,
            model.n_jobs,
            n_classes,
        )

    def _hold(self, trees, weights, columns, n_jobs, n_classes):
        self._trees = trees
        self._weights = np.asarray(weights, dtype=np.float64)
        self._columns = columns
        self._n_jobs = n_jobs
        self.n_classes = n_classes

    @classmethod
    def grow(cls, model, X, y, n_classes, chunk_trees=GROWTH_CHUNK_TREES):
        """``WindowForest(model.fit(X, y), n_classes, take_trees=True)``, grown ``chunk_trees``
        trees at a time, so that memory holds the packed trees and one chunk of scikit-learn's.

        ``model`` is an unfitted, unweighted ``WeightedForestClassifier`` and ``y`` holds
        class codes. Its forest grows with ``warm_start``: scikit-learn draws the seed of every
        tree from the forest's ``random_state`` in order, skipping those of the trees already
        grown, so the trees are those of a single fit, and so are the class vectors
        (``tests/cascade/test_window_forest.py``). A completely random fold forest of MNIST's
        scan peaks at 14.2 GB grown at once and at 3.4 GB in chunks of 50 trees
        (``benchmarks/scan_memory.md``).
        """
        if model.weighting != "none":
            raise ValueError(f"WindowForest.grow grows unweighted forests; got weighting={model.weighting!r}")
        forest = model.unfitted_forest().set_params(warm_start=True)
        n_trees = forest.n_estimators
        trees = []
        for stop in [*range(chunk_trees, n_trees, chunk_trees), n_trees]:
            forest.set_params(n_estimators=stop).fit(X, y)
            trees += _pack_trees(forest.estimators_, len(trees), len(forest.classes_), True)
        grown = cls.__new__(cls)
        grown._hold(trees, np.full(n_trees, 1.0 / n_trees), forest.classes_, model.n_jobs, n_classes)
        return grown

    @property
    def nbytes(self):
        """Bytes held by the packed trees."""
        return sum(ints.nbytes + leaf_values.nbytes for ints, _, leaf_values in self._trees)

    def class_vectors(self, X, rows, starts, offsets):
        """Class vectors of every window of ``X[rows]``, shape ``(rows.size * starts.size,
        n_classes)``, rows outer and windows inner; window ``w`` of a row holds its features
        ``start[w] + offsets``."""
        X = np.ascontiguousarray(X, dtype=np.float32)
        rows = np.ascontiguousarray(rows, dtype=np.intp)
        starts = np.ascontiguousarray(starts, dtype=np.intp)
        offsets = np.ascontiguousarray(offsets, dtype=np.intp)
        n_model_classes = len(self._columns)

        def chunk_sum(start, stop):
            total = np.empty((rows.size * starts.size, n_model_classes))
            for k in range(start, stop):
                _add_tree(X, rows, starts, offsets, *self._trees[k], self._weights[k], k == start, total)
            return total

        result = sum_over_tree_chunks(len(self._trees), chunk_sum, self._n_jobs)
        out = np.zeros((result.shape[0], self.n_classes))
        out[:, self._columns] = result
        return out
