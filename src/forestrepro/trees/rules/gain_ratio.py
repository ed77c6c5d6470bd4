"""Information gain ratio (C4.5; Quinlan 1993, Sec. 2.2), the split criterion of the RF and
Biau12 baselines of the BRF paper (Sun et al. 2018, Sec. 5.1).

``GR = IG / SI`` with the information gain ``IG = H(parent) - (N_L/N) H(left) - (N_R/N)
H(right)`` (entropies in bits, see ``entropy``) and the split information
``SI = -(N_L/N) log2(N_L/N) - (N_R/N) log2(N_R/N)``, which is positive for any cut that
leaves both children non-empty.  The rule maximises ``GR`` over all candidate cuts.
"""

import numpy as np
from numba import njit

from .._kernel_api import SPLIT_KERNEL_SIG
from . import _scan
from .entropy import entropy


@njit(cache=True, nogil=True)
def node_stat(counts, weight, n_classes, params, buf):
    return entropy(counts, weight, n_classes)


@njit(cache=True, nogil=True)
def score(left, right, w_left, w_right, weight, n_classes, stat, params, buf):
    p_left = w_left / weight
    p_right = w_right / weight
    gain = stat - p_left * entropy(left, w_left, n_classes) - p_right * entropy(right, w_right, n_classes)
    split_info = -p_left * np.log2(p_left) - p_right * np.log2(p_right)
    return gain / split_info


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
