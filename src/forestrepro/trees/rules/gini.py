"""Gini index (CART; Breiman, Friedman, Olshen and Stone 1984, Sec. 4.3).

Impurity of a node with weighted class counts ``n_c`` and weight ``N``:
``G = 1 - sum_c (n_c / N)**2``.  A split is scored by scikit-learn's proxy
``-N_R G_R - N_L G_L``, which differs from the impurity decrease ``N G - N_L G_L - N_R G_R``
only by a constant of the node, so both pick the same split (and the same split as
``DecisionTreeClassifier(criterion="gini")``).
"""

from numba import njit

from .._kernel_api import SPLIT_KERNEL_SIG
from . import _scan


@njit(cache=True, nogil=True)
def node_stat(counts, weight, n_classes, params, buf):
    return 0.0


@njit(cache=True, nogil=True)
def score(left, right, w_left, w_right, weight, n_classes, stat, params, buf):
    sq_left = 0.0
    sq_right = 0.0
    for c in range(n_classes):
        sq_left += left[c] * left[c]
        sq_right += right[c] * right[c]
    gini_left = 1.0 - sq_left / (w_left * w_left)
    gini_right = 1.0 - sq_right / (w_right * w_right)
    return -w_right * gini_right - w_left * gini_left


@njit(SPLIT_KERNEL_SIG, cache=True, nogil=True)
def best_threshold_kernel(
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
):
    return _scan.best_threshold(
        score,
        node_stat,
        False,
        X,
        y,
        w,
        n_classes,
        samples,
        start,
        end,
        counts,
        features,
        n_eval,
        params,
        rng,
        Xf,
        buf,
    )


@njit(SPLIT_KERNEL_SIG, cache=True, nogil=True)
def midpoint_kernel(
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
):
    return _scan.best_midpoint(
        score,
        node_stat,
        False,
        params[1] > 0.0,
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
        params,
        rng,
        buf,
    )
