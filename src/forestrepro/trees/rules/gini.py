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
from .._rng import rand_int
from .._sort import sort_together
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


INTEGER_RADIX_MIN = 64
"""Nodes of this many samples or more are sorted by radix sort in ``best_threshold_integer_kernel``
(``_sort.RADIX_MIN`` in the other kernels, whose order of equal values decides sums of
non-integer weights)."""

COUNTING_RATIO = 4
"""``best_threshold_integer_kernel`` counts a feature's codes at a node where its column has at
most this many times as many distinct values as the node has samples, else sorts the node's
values."""

_WEIGHT_SHIFT = 32
_LOW_BITS = (1 << _WEIGHT_SHIFT) - 1


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
    ibuf,
    codes,
    code_values,
    code_offsets,
):
    """``best_threshold_kernel`` for integer sample weights (``builder.integer_weights``): the
    same cut, faster.

    Each sample's label and weight are packed into one integer (``ibuf[0]``, in the node's order)
    and put in the order of a feature's values (``ibuf[1]``), so the scan reads them in order
    instead of looking them up, and the node's samples stay in place.  Where the feature's column
    has at most ``COUNTING_RATIO`` times as many distinct values as the node has samples, the
    order comes from a counting sort of the samples' codes (``_kernel_api``; O(n + distinct
    values): ``ibuf[2]`` holds the node's codes, ``ibuf[3]`` their counts), and ``Xf`` is filled
    from the codes' values; else the values are gathered from ``X`` and sorted (radix sort from
    ``INTEGER_RADIX_MIN`` values on).  Either way ``Xf[start:end]`` holds the node's values in
    ascending order and the scan below visits the same cuts as ``_scan.best_threshold``.  The
    sums of squared class counts are updated as each sample moves left (O(1) per candidate cut
    instead of ``score``'s O(n_classes)).  With integer weights of total below ``2**26`` every
    count, sum and sum of squares is an exact integer in float64, whatever the order of summation
    and of equal values, so each candidate's score is ``score``'s to the last bit, and features are
    drawn as ``_scan.next_usable`` draws them: the cut is the same.

    The draw, gather and sort are written out here rather than called as inlined helpers: numba
    counts a reference (two atomic operations) for every array handed to an inlined call, which
    per drawn feature cost more than the counting sort.
    """
    weight = counts.sum()
    n = end - start
    for p in range(start, end):
        s = samples[p]
        ibuf[0, p - start] = y[s] | (np.intp(w[s]) << _WEIGHT_SHIFT)
    sq_total = 0.0
    for c in range(n_classes):
        sq_total += counts[c] * counts[c]
    left = buf[0]
    best_feature = -1
    best_threshold = 0.0
    best_score = -np.inf
    n_pool = features.shape[0]
    n_drawn = 0
    n_usable = 0
    while _scan.keep_drawing(n_drawn, n_usable, n_pool, n_eval):
        # draw as _scan.draw_feature
        if n_eval < n_pool:
            j = rand_int(rng, n_drawn, n_pool)
            features[n_drawn], features[j] = features[j], features[n_drawn]
        f = features[n_drawn]
        n_drawn += 1
        first = code_offsets[f]
        n_codes = code_offsets[f + 1] - first
        if n_codes <= COUNTING_RATIO * n:
            # counting sort of the node's codes
            for code in range(n_codes):
                ibuf[3, code] = 0
            lowest = n_codes
            highest = -1
            for i in range(n):
                code = np.intp(codes[samples[start + i], f])
                ibuf[2, i] = code
                ibuf[3, code] += 1
                lowest = min(lowest, code)
                highest = max(highest, code)
            if not _scan.separated(code_values[first + lowest], code_values[first + highest]):
                continue  # constant at the node (as _scan.gather)
            position = start
            for code in range(lowest, highest + 1):
                size = ibuf[3, code]
                ibuf[3, code] = position - start
                value = code_values[first + code]
                for p in range(position, position + size):
                    Xf[p] = value
                position += size
            for i in range(n):
                code = ibuf[2, i]
                q = ibuf[3, code]
                ibuf[3, code] = q + 1
                ibuf[1, q] = ibuf[0, i]
        else:
            if not _scan.gather(X, samples, start, end, f, Xf):
                continue
            for i in range(n):
                ibuf[1, i] = ibuf[0, i]
            sort_together(Xf[start:end], ibuf[1], 0, n, INTEGER_RADIX_MIN)
        n_usable += 1
        left[:n_classes] = 0.0
        sq_left = 0.0
        sq_right = sq_total
        w_left = 0.0
        i = 0
        while True:
            c = ibuf[1, i] & _LOW_BITS
            ws = float(ibuf[1, i] >> _WEIGHT_SHIFT)
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
