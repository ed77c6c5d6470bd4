"""Information gain (ID3; Quinlan 1986): entropy ``H = -sum_c p_c log2 p_c`` of the class
frequencies ``p_c = n_c / N``.

Gain of a split: ``IG = H(parent) - (N_L/N) H(left) - (N_R/N) H(right)``.  Splits are scored
by scikit-learn's proxy ``-N_R H_R - N_L H_L`` (``N * IG`` minus a node constant), so this
rule picks the split of ``DecisionTreeClassifier(criterion="entropy")``.
"""

import numpy as np
from numba import njit

from .._kernel_api import SPLIT_KERNEL_SIG
from . import _scan


@njit(cache=True, nogil=True)
def entropy(counts, weight, n_classes):
    """``-sum_c (n_c/N) log2 (n_c/N)``, in bits."""
    h = 0.0
    for c in range(n_classes):
        if counts[c] > 0.0:
            p = counts[c] / weight
            h -= p * np.log2(p)
    return h


@njit(cache=True, nogil=True)
def node_stat(counts, weight, n_classes, params, buf):
    return 0.0


@njit(cache=True, nogil=True)
def score(left, right, w_left, w_right, weight, n_classes, stat, params, buf):
    return -w_right * entropy(right, w_right, n_classes) - w_left * entropy(left, w_left, n_classes)


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
    ibuf,
    codes,
    code_values,
    code_offsets,
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
    ibuf,
    codes,
    code_values,
    code_offsets,
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
