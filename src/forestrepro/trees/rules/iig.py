"""Imprecise information gain (IIG) with the imprecise Dirichlet model (IDM), the split
criterion of credal decision trees (Abellán and Moral 2003) and of the credal random forest
(Abellán, Mantas and Castellano 2017) compared in the RCRF paper.

With weighted class counts ``n_c``, ``N = sum_c n_c`` and the IDM parameter ``s`` (1 here,
as in those papers) the credal set of a node is
``K = {p : sum_c p_c = 1, n_c/(N+s) <= p_c <= (n_c+s)/(N+s)}``.  ``H*(K)``, its maximum
entropy, is reached by spreading the mass ``s`` over the smallest counts ("water filling",
Abellán and Moral's algorithm): raise the lowest counts to a common level ``L`` such that
``sum_c max(0, L - n_c) = s``; then ``p*_c = max(n_c, L)/(N+s)``.  For integer counts and
``s = 1`` this adds ``1/k`` to each of the ``k`` classes of minimal count.  No optimiser.

``IIG = H*(K(parent)) - (N_L/N) H*(K(left)) - (N_R/N) H*(K(right))`` (bits); a node is cut
only where the best cut has ``IIG > 0`` (Abellán and Moral's stopping rule), else it is a
leaf.  ``params[0]`` is ``s``.  In the best-threshold kernel, ``params[1] = 1`` drops that rule:
the cut of largest IIG is taken even where it is not positive, and the tree grows until its
nodes are pure (a reading of the RCRF paper's CRF, ``stop="pure"`` of ``ensembles/credal.py``).
"""

import numpy as np
from numba import njit

from .._kernel_api import SPLIT_KERNEL_SIG
from . import _scan


@njit(cache=True, nogil=True)
def max_entropy(counts, weight, n_classes, s, scratch):
    """``H*(K)`` in bits of the IDM credal set of ``counts`` (``scratch``: n_classes floats)."""
    for c in range(n_classes):
        v = counts[c]
        j = c
        while j > 0 and scratch[j - 1] > v:
            scratch[j] = scratch[j - 1]
            j -= 1
        scratch[j] = v
    below = 0.0
    level = 0.0
    for k in range(n_classes):
        below += scratch[k]
        level = (s + below) / (k + 1)
        if k + 1 == n_classes or level <= scratch[k + 1]:
            break
    total = weight + s
    h = 0.0
    for c in range(n_classes):
        p = max(counts[c], level) / total
        if p > 0.0:
            h -= p * np.log2(p)
    return h


@njit(cache=True, nogil=True)
def node_stat(counts, weight, n_classes, params, buf):
    return max_entropy(counts, weight, n_classes, params[0], buf[2])


# IIG is a difference of entropies of a few bits; below this it is rounding error, and a
# zero gain computed as +1e-16 must not split a node (e.g. counts (2, 1) -> (1, 0) + (1, 1)).
ZERO_GAIN = 1e-12


@njit(cache=True, nogil=True)
def score(left, right, w_left, w_right, weight, n_classes, stat, params, buf):
    s = params[0]
    gain = (
        stat
        - w_left / weight * max_entropy(left, w_left, n_classes, s, buf[2])
        - w_right / weight * max_entropy(right, w_right, n_classes, s, buf[2])
    )
    return 0.0 if abs(gain) < ZERO_GAIN else gain


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
        params[1] == 0.0,
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
        True,
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
