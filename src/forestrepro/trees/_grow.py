"""The compiled grow loop: the builder's core for compiled split rules.

It takes the rule's kernel and the label view's chooser as first-class numba function values
(see ``_kernel_api``), so it is compiled once, cached on disk, and serves every rule.
"""

import numpy as np
from numba import njit, types

from . import _nodes
from ._borrow import borrow, hold
from ._kernel_api import (
    F32_1D,
    F64_1D,
    F64_2D,
    I32_2D,
    INTP_1D,
    INTP_2D,
    U64_1D,
    X_TYPE,
    SplitKernelType,
    ViewChooserType,
)

STORE_TYPE = types.Tuple(
    (INTP_1D, INTP_1D, INTP_1D, F64_1D, F64_2D, INTP_1D, F64_1D, INTP_1D, INTP_1D, INTP_1D, INTP_1D)
)

GROW_SIG = types.Tuple((STORE_TYPE, INTP_1D))(
    SplitKernelType,  # kernel
    ViewChooserType,  # chooser
    F64_1D,  # chooser_params
    INTP_2D,  # view_maps (n_views, n_classes)
    INTP_1D,  # view_n_classes
    INTP_2D,  # y_views (n_views, n_samples)
    X_TYPE,  # X
    I32_2D,  # codes (see _kernel_api)
    F32_1D,  # code_values
    INTP_1D,  # code_offsets
    INTP_1D,  # y
    F64_1D,  # w
    INTP_1D,  # samples
    INTP_1D,  # features
    types.intp,  # n_eval
    F64_1D,  # params
    types.boolean,  # needs_cell
    F64_1D,  # root_lo
    F64_1D,  # root_hi
    INTP_1D,  # limits: min_samples_split, max_depth, max_leaf_nodes
    types.float64,  # max_error_fraction
    U64_1D,  # rng
    types.intp,  # capacity
)


@njit(GROW_SIG, cache=True, nogil=True)
def grow(
    kernel,
    chooser,
    chooser_params,
    view_maps,
    view_n_classes,
    y_views,
    X,
    codes,
    code_values,
    code_offsets,
    y,
    w,
    samples,
    features,
    n_eval,
    params,
    needs_cell,
    root_lo,
    root_hi,
    limits,
    max_error_fraction,
    rng,
    capacity,
):
    """Grow a tree breadth first with a compiled split kernel; returns the node store.

    The loop reads every array borrowed (``_borrow``): without reference counts for each array
    handed to the kernel, ``_nodes``' steps and their views, at every node."""
    n_classes = view_maps.shape[1]
    owned_store = _nodes.new_store(capacity, n_classes)
    owned_counters = np.zeros(2, dtype=np.intp)
    _nodes.add_root(owned_store, owned_counters, y, w, samples)
    width = max(n_classes, 2)
    scratch = (
        np.empty(X.shape[0], dtype=np.float32),
        np.empty((4, width), dtype=np.float64),
        np.empty((4, X.shape[0] + 1), dtype=np.intp),
        np.empty(width, dtype=np.float64),
        root_lo.copy(),
        root_hi.copy(),
    )
    Xf, buf, ibuf, counts, lo, hi = borrow(scratch)
    store, counters = borrow(owned_store), borrow(owned_counters)
    chooser_params, view_maps, view_n_classes, y_views = borrow(
        (chooser_params, view_maps, view_n_classes, y_views)
    )
    X, codes, code_values, code_offsets = borrow((X, codes, code_values, code_offsets))
    y, w, samples, features, params = borrow((y, w, samples, features, params))
    root_lo, root_hi, limits, rng = borrow((root_lo, root_hi, limits, rng))
    node = 0
    while node < counters[0]:
        value = store[4][node]
        if not _nodes.must_stop(
            value,
            store[6][node],
            store[5][node],
            store[7][node],
            counters[1],
            limits[0],
            limits[1],
            limits[2],
            max_error_fraction,
        ):
            if needs_cell:
                _nodes.node_cell(store, node, root_lo, root_hi, lo, hi)
            view = chooser(value, chooser_params)
            node_counts = _nodes.view_counts(value, view_maps[view], view_n_classes[view], counts)
            feature, threshold = kernel(
                X,
                y_views[view],
                w,
                view_n_classes[view],
                samples,
                store[9][node],
                store[10][node],
                node_counts,
                lo,
                hi,
                features,
                n_eval,
                store[7][node],
                params,
                rng,
                Xf,
                buf,
                ibuf,
                codes,
                code_values,
                code_offsets,
            )
            if feature >= 0:
                _nodes.split_node(store, counters, node, feature, threshold, X, y, w, samples)
        node += 1
    hold(scratch)
    return owned_store, owned_counters
