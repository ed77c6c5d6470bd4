"""Gini index (CART; Breiman, Friedman, Olshen and Stone 1984, Sec. 4.3).

Impurity of a node with weighted class counts ``n_c`` and weight ``N``:
``G = 1 - sum_c (n_c / N)**2``.  A split is scored by scikit-learn's proxy
``-N_R G_R - N_L G_L``, which differs from the impurity decrease ``N G - N_L G_L - N_R G_R``
only by a constant of the node, so both pick the same split (and the same split as
``DecisionTreeClassifier(criterion="gini")``).
"""

import numpy as np
from numba import njit

from .._kernel_api import SPLIT_KERNEL_SIG
from . import _scan


@njit(cache=True, nogil=True)
def node_stat(counts, weight, n_classes, params, buf):
    return 0.0


@njit(cache=True, nogil=True, inline="always")
def proxy(sq_left, sq_right, w_left, w_right):
    """``-N_R G_R - N_L G_L`` from the children's sums of squared class counts."""
    gini_left = 1.0 - sq_left / (w_left * w_left)
    gini_right = 1.0 - sq_right / (w_right * w_right)
    return -w_right * gini_right - w_left * gini_left


@njit(cache=True, nogil=True)
def score(left, right, w_left, w_right, weight, n_classes, stat, params, buf):
    sq_left = 0.0
    sq_right = 0.0
    for c in range(n_classes):
        sq_left += left[c] * left[c]
        sq_right += right[c] * right[c]
    return proxy(sq_left, sq_right, w_left, w_right)


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


INTEGER_RADIX_MIN = 64
"""Nodes of this many samples or more are sorted by radix sort in ``best_threshold_integer_kernel``
(``_sort.RADIX_MIN`` in the other kernels, whose order of equal values decides sums of
non-integer weights)."""

_WEIGHT_SHIFT = 32


@njit(SPLIT_KERNEL_SIG, cache=True, nogil=True)
def best_threshold_integer_kernel(
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
    """``best_threshold_kernel`` for integer sample weights (``builder.integer_weights``): the
    same cut, faster.

    Each sample's label and weight are packed into one integer, sorted along with a feature's
    values, so the scan reads them in order instead of looking them up; the sums of squared
    class counts are updated as each sample moves left (O(1) per candidate cut instead of
    ``score``'s O(n_classes)).  With integer weights of total below ``2**26`` every count, sum
    and sum of squares is an exact integer in float64, whatever the order of summation and of
    equal values, so each candidate's score is ``score``'s to the last bit, and features are
    drawn as ``best_threshold_kernel`` draws them: the cut is the same.
    """
    weight = counts.sum()
    n = end - start
    labels = np.empty(n, dtype=np.intp)
    for p in range(start, end):
        s = samples[p]
        labels[p - start] = y[s] | (np.intp(w[s]) << _WEIGHT_SHIFT)
    packed = np.empty(n, dtype=np.intp)
    sq_total = 0.0
    for c in range(n_classes):
        sq_total += counts[c] * counts[c]
    left = buf[0]
    low_bits = (np.intp(1) << _WEIGHT_SHIFT) - 1
    best_feature = -1
    best_threshold = 0.0
    best_score = -np.inf
    n_drawn = 0
    n_usable = 0
    while True:
        f, n_drawn, n_usable = _scan.next_usable_labels(
            X,
            samples,
            start,
            end,
            features,
            n_drawn,
            n_usable,
            n_eval,
            rng,
            Xf,
            labels,
            packed,
            INTEGER_RADIX_MIN,
        )
        if f < 0:
            break
        left[:n_classes] = 0.0
        sq_left = 0.0
        sq_right = sq_total
        w_left = 0.0
        i = 0
        while True:
            c = packed[i] & low_bits
            ws = float(packed[i] >> _WEIGHT_SHIFT)
            before = left[c]
            sq_left += ws * (2.0 * before + ws)
            sq_right -= ws * (2.0 * (counts[c] - before) - ws)
            left[c] = before + ws
            w_left += ws
            i += 1
            if i == n:
                break
            p = start + i
            if not _scan.distinct(Xf, p):
                continue
            current = proxy(sq_left, sq_right, w_left, weight - w_left)
            if current > best_score:
                best_score = current
                best_feature = f
                best_threshold = Xf[p - 1] / 2.0 + Xf[p] / 2.0
    return best_feature, best_threshold


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
