"""Grow one classification tree with a pluggable split rule.

``build_tree`` prepares the tree's data once (float32 C-ordered X, integer labels, sample
weights, the samples of non-zero weight, the label views, the root cell) and grows the tree
breadth first, either entirely in compiled code (``CompiledSplitRule``, see ``_grow``) or
with a Python loop over nodes that calls ``PythonSplitRule.split`` and the same compiled
steps (``_nodes``).  Where every sample weight is an integer (``integer_weights``: bootstrap
multiplicities, or none) a compiled rule runs its ``integer_weight_kernel``, which chooses the
same cuts faster, and reads ``X`` also coded by column (``tree_codes``; a forest codes its ``X``
once for all its trees).  Stopping rules are in ``StoppingRules``.
"""

from dataclasses import dataclass

import numpy as np

from . import _nodes
from ._grow import grow
from ._rng import new_state
from .rules.base import CompiledSplitRule, NodeView, PythonSplitRule
from .rules.label_view import OriginalLabels
from .tree import Tree
from .tree_codes import NO_CODES, TreeCodes, tree_codes

_UNLIMITED = np.iinfo(np.intp).max


@dataclass(frozen=True)
class StoppingRules:
    """A node becomes a leaf when it has fewer than ``min_samples_split`` samples, is at
    depth ``max_depth``, the tree already has ``max_leaf_nodes`` leaves (the k_n of the BRF
    consistency theorem; the tree has ``max_leaf_nodes - 1`` cuts), the node is pure, or the
    weighted fraction of its points outside its majority class is below
    ``max_error_fraction`` (BRF paper, Sec. 4.3).  ``None`` means no limit."""

    min_samples_split: int = 2
    max_depth: int | None = None
    max_leaf_nodes: int | None = None
    max_error_fraction: float = 0.0

    def limits(self):
        return np.array(
            [
                self.min_samples_split,
                _UNLIMITED if self.max_depth is None else self.max_depth,
                _UNLIMITED if self.max_leaf_nodes is None else self.max_leaf_nodes,
            ],
            dtype=np.intp,
        )


def data_cell(X, samples):
    """The data range of ``X[samples]`` per feature: the root cell of unscaled data."""
    rows = X[samples]
    return rows.min(axis=0).astype(np.float64), rows.max(axis=0).astype(np.float64)


def unit_cell(n_features):
    """``[0, 1]**d``: the root cell of data scaled to the unit cube (BRF paper, Sec. 5.1)."""
    return np.zeros(n_features), np.ones(n_features)


def _check_inside(X, samples, lo, hi):
    low, high = data_cell(X, samples)
    if np.any(low < lo) or np.any(high > hi):
        raise ValueError(
            "training data lie outside the root cell; scale them into it "
            "(e.g. to [0, 1]) or use the data range as root cell"
        )


def grow_inputs(X, y, sample_weight):
    """What a grow loop takes: float32 C-ordered writable ``X``, integer labels, float64 sample
    weights (ones by default) and the samples of non-zero weight."""
    X = np.ascontiguousarray(X, dtype=np.float32)
    if not X.flags.writeable:
        X = X.copy()
    y = np.ascontiguousarray(y, dtype=np.intp)
    w = np.ones(X.shape[0]) if sample_weight is None else np.array(sample_weight, dtype=np.float64)
    return X, y, w, np.flatnonzero(w > 0).astype(np.intp)


INTEGER_TOTAL = 2**26
"""Integer sample weights of a smaller total keep every weighted count and every sum of squared
counts an exact integer in float64 (below ``2**52``)."""


def integer_weights(w):
    """Whether every weight is an integer and their total below ``INTEGER_TOTAL``: sums of the
    weights (and of squared counts) are then exact, the same in any order of summation."""
    return bool(np.all(w == np.floor(w))) and w.sum() < INTEGER_TOTAL


def _checked_codes(codes, X):
    """``codes`` if they are ``tree_codes`` of an array of ``X``'s shape, else a ValueError."""
    if codes is None:
        return tree_codes(X)
    if not (
        isinstance(codes, TreeCodes)
        and codes.shape == X.shape
        and codes.codes.dtype == np.int32
        and codes.codes.flags.c_contiguous
    ):
        raise ValueError("codes must be tree_codes(X) of the X the tree is grown on")
    return codes


ORIGINAL_LABELS = OriginalLabels()
"""The default label view: every node scored on the original labels."""


def build_tree(
    X,
    y,
    n_classes,
    rule,
    *,
    sample_weight=None,
    stopping=StoppingRules(),
    features=None,
    n_eval=None,
    root_cell=None,
    label_view=ORIGINAL_LABELS,
    seed=0,
    codes=None,
):
    """Grow a tree on ``X`` (n_samples, n_features) and labels ``y`` in ``[0, n_classes)``.

    ``features`` is the tree's feature pool (default: all; a random subspace of the BRF
    paper is a pool drawn per tree); at each node ``n_eval`` of them are drawn at random
    (default: all of them, in order, no randomness).  ``root_cell`` is ``(lo, hi)``, by
    default the data range (computed only for rules that need cells).  Samples of weight 0
    are left out.  ``seed`` seeds the tree's generator.  ``codes`` is ``tree_codes(X)`` if made
    already (made here where the rule's ``integer_weight_kernel`` runs, by default).
    """
    if not isinstance(rule, (CompiledSplitRule, PythonSplitRule)):
        raise TypeError(
            f"split rule must be a CompiledSplitRule or PythonSplitRule, got {type(rule).__name__}"
        )
    X, y, w, samples = grow_inputs(X, y, sample_weight)
    pool = np.arange(X.shape[1], dtype=np.intp) if features is None else np.array(features, dtype=np.intp)
    n_eval = pool.shape[0] if n_eval is None else int(n_eval)
    maps = np.ascontiguousarray(label_view.maps(n_classes), dtype=np.intp)
    view_n_classes = maps.max(axis=1) + 1
    y_views = np.ascontiguousarray(maps[:, y])
    if root_cell is None:
        root_cell = data_cell(X, samples) if rule.needs_cell else unit_cell(X.shape[1])
    lo, hi = (np.array(bound, dtype=np.float64) for bound in root_cell)
    if rule.needs_cell:
        _check_inside(X, samples, lo, hi)
    capacity = max(2 * samples.shape[0] - 1, 1)
    if stopping.max_leaf_nodes is not None:
        capacity = min(capacity, 2 * stopping.max_leaf_nodes - 1)
    rng = new_state(seed)
    if isinstance(rule, CompiledSplitRule):
        if integer_weights(w):
            kernel = rule.integer_weight_kernel
            codes = _checked_codes(codes, X) if kernel is not rule.kernel else NO_CODES
        else:
            kernel, codes = rule.kernel, NO_CODES
        store, counters = grow(
            kernel,
            label_view.chooser,
            label_view.chooser_params(),
            maps,
            view_n_classes,
            y_views,
            X,
            *codes,
            y,
            w,
            samples,
            pool,
            n_eval,
            rule.params(),
            rule.needs_cell,
            lo,
            hi,
            stopping.limits(),
            float(stopping.max_error_fraction),
            rng,
            capacity,
        )
    else:
        store, counters = _grow_python(
            rule,
            label_view,
            maps,
            view_n_classes,
            y_views,
            X,
            y,
            w,
            samples,
            pool,
            n_eval,
            lo,
            hi,
            stopping,
            seed,
            capacity,
        )
    n = counters[0]
    return Tree(*(array[:n].copy() for array in store[:8]))


def _grow_python(
    rule,
    label_view,
    maps,
    view_n_classes,
    y_views,
    X,
    y,
    w,
    samples,
    pool,
    n_eval,
    root_lo,
    root_hi,
    stopping,
    seed,
    capacity,
):
    """The grow loop of ``_grow.grow`` with ``rule.split`` called from Python per node."""
    store = _nodes.new_store(capacity, maps.shape[1])
    counters = np.zeros(2, dtype=np.intp)
    _nodes.add_root(store, counters, y, w, samples)
    limits = stopping.limits()
    counts = np.empty(max(maps.shape[1], 2))
    lo, hi = root_lo.copy(), root_hi.copy()
    chooser_params = label_view.chooser_params()
    generator = np.random.default_rng(seed)
    node = 0
    while node < counters[0]:
        if not _nodes.must_stop(
            store[4][node],
            store[6][node],
            store[5][node],
            store[7][node],
            counters[1],
            limits[0],
            limits[1],
            limits[2],
            float(stopping.max_error_fraction),
        ):
            if rule.needs_cell:
                _nodes.node_cell(store, node, root_lo, root_hi, lo, hi)
            view = label_view.chooser(store[4][node], chooser_params)
            node_counts = _nodes.view_counts(store[4][node], maps[view], view_n_classes[view], counts)
            split = rule.split(
                NodeView(
                    X=X,
                    y=y_views[view],
                    w=w,
                    n_classes=int(view_n_classes[view]),
                    samples=samples[store[9][node] : store[10][node]],
                    counts=node_counts.copy(),
                    cell_lo=lo.copy(),
                    cell_hi=hi.copy(),
                    features=pool,
                    n_eval=n_eval,
                    depth=int(store[7][node]),
                    rng=generator,
                )
            )
            if split is not None:
                feature, threshold = split
                _nodes.split_node(store, counters, node, int(feature), float(threshold), X, y, w, samples)
        node += 1
    return store, counters
