"""Compiled search templates shared by the split rules.

Each template takes a criterion as two compiled functions:

- ``node_stat(counts, weight, n_classes, params, buf)``: a per-node constant (e.g. the
  parent's entropy);
- ``score(left, right, w_left, w_right, weight, n_classes, stat, params, buf)``: how good the
  split with those children's weighted class counts is, higher is better.

Candidate features are drawn as scikit-learn's splitter draws them: lazily without
replacement (Fisher-Yates) from the pool, until ``n_eval`` features have been drawn and one
of them was usable; a feature constant at the node is unusable but counts as drawn.  With
``n_eval`` equal to the pool size every feature is tried, in pool order, without randomness.
"""

import numpy as np
from numba import njit

from .._kernel_api import FEATURE_THRESHOLD
from .._rng import rand_int
from .._sort import sort_together

_FT = np.float32(FEATURE_THRESHOLD)


@njit(cache=True, nogil=True, inline="always")
def draw_feature(features, i, n_eval, rng):
    """The ``i``-th drawn feature: swap a random not-yet-drawn feature into place ``i``."""
    n_pool = features.shape[0]
    if n_eval < n_pool:
        j = rand_int(rng, i, n_pool)
        features[i], features[j] = features[j], features[i]
    return features[i]


@njit(cache=True, nogil=True, inline="always")
def keep_drawing(n_drawn, n_usable, n_pool, n_eval):
    return n_drawn < n_pool and (n_drawn < n_eval or n_usable == 0)


@njit(cache=True, nogil=True, inline="always")
def gather_sorted(X, samples, start, end, f, Xf):
    """Gather feature ``f``'s values at the node into ``Xf[start:end]`` and sort them with
    the node's samples; False if the feature is constant at the node (unusable)."""
    for p in range(start, end):
        Xf[p] = X[samples[p], f]
    sort_together(Xf, samples, start, end)
    return Xf[end - 1] > Xf[start] + _FT


@njit(cache=True, nogil=True, inline="always")
def gather(X, samples, start, end, f, Xf):
    """Gather feature ``f``'s values at the node into ``Xf[start:end]``; False if the feature
    is constant at the node (unusable): its largest value is not above its smallest by more
    than ``FEATURE_THRESHOLD``."""
    low = X[samples[start], f]
    high = low
    for p in range(start, end):
        v = X[samples[p], f]
        Xf[p] = v
        low = min(low, v)
        high = max(high, v)
    return high > low + _FT


@njit(cache=True, nogil=True, inline="always")
def next_usable(X, samples, start, end, features, n_drawn, n_usable, n_eval, rng, Xf):
    """Draw features until one is usable at the node or drawing stops (``keep_drawing``):
    ``(f, n_drawn, n_usable)`` with ``f``'s values gathered and sorted in ``Xf[start:end]``
    (``gather_sorted``), or ``f = -1`` when no feature is left to draw."""
    n_pool = features.shape[0]
    while keep_drawing(n_drawn, n_usable, n_pool, n_eval):
        f = draw_feature(features, n_drawn, n_eval, rng)
        n_drawn += 1
        if gather_sorted(X, samples, start, end, f, Xf):
            return f, n_drawn, n_usable + 1
    return -1, n_drawn, n_usable


@njit(cache=True, nogil=True, inline="always")
def separated(low, high):
    """Whether two float32 values ``low <= high`` are two values: ``high`` is above ``low`` by
    more than ``FEATURE_THRESHOLD``."""
    return high > low + _FT


@njit(cache=True, nogil=True, inline="always")
def distinct(Xf, p):
    """Whether a cut between sorted positions ``p - 1`` and ``p`` separates two values."""
    return separated(Xf[p - 1], Xf[p])


@njit(cache=True, nogil=True, inline="always")
def best_threshold(
    score,
    node_stat,
    require_gain,
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
):
    """Best (feature, threshold) over every cut between consecutive distinct values.

    A feature's values at the node are gathered, sorted with the node's samples, and scanned
    once, moving samples from the right child to the left; the threshold is the midpoint of
    the two values around the cut (scikit-learn's ``BestSplitter``).  With ``require_gain``
    the node becomes a leaf unless the best score is positive.
    """
    weight = counts.sum()
    stat = node_stat(counts, weight, n_classes, params, buf)
    left = buf[0]
    right = buf[1]
    best_feature = -1
    best_threshold = 0.0
    best_score = -np.inf
    n_drawn = 0
    n_usable = 0
    while True:
        f, n_drawn, n_usable = next_usable(
            X, samples, start, end, features, n_drawn, n_usable, n_eval, rng, Xf
        )
        if f < 0:
            break
        left[:n_classes] = 0.0
        right[:n_classes] = counts
        w_left = 0.0
        p = start
        while True:
            s = samples[p]
            c = y[s]
            left[c] += w[s]
            right[c] -= w[s]
            w_left += w[s]
            p += 1
            if p == end:
                break
            if not distinct(Xf, p):
                continue
            current = score(left, right, w_left, weight - w_left, weight, n_classes, stat, params, buf)
            if current > best_score:
                best_score = current
                best_feature = f
                best_threshold = Xf[p - 1] / 2.0 + Xf[p] / 2.0
    if require_gain and not best_score > 0.0:
        return -1, 0.0
    return best_feature, best_threshold


@njit(cache=True, nogil=True)
def midpoint(X, samples, start, end, f, of_data, cell_lo, cell_hi):
    """The midpoint cut of feature ``f`` at the node, or NaN if the node's values on ``f``
    are all equal.

    ``of_data``: the midpoint of the node's range of values.  Otherwise the midpoint of the
    node's cell; where that leaves one side empty, the empty half is dropped and the other
    half cut at its midpoint, until the cut separates the node's samples.  This is Biau's
    chain of midpoint cuts with each empty cell merged into its non-empty sibling.
    """
    low = X[samples[start], f]
    high = low
    for p in range(start + 1, end):
        v = X[samples[p], f]
        low = min(low, v)
        high = max(high, v)
    if not high > low:
        return np.nan
    if of_data:
        return low / 2.0 + high / 2.0
    cell_low = cell_lo[f]
    cell_high = cell_hi[f]
    while True:
        t = cell_low / 2.0 + cell_high / 2.0
        if high <= t:
            cell_high = t
        elif low > t:
            cell_low = t
        else:
            return t


@njit(cache=True, nogil=True)
def _left_counts(X, y, w, samples, start, end, f, threshold, n_classes, left):
    left[:n_classes] = 0.0
    w_left = 0.0
    for p in range(start, end):
        s = samples[p]
        if X[s, f] <= threshold:
            left[y[s]] += w[s]
            w_left += w[s]
    return w_left


@njit(cache=True, nogil=True, inline="always")
def best_midpoint(
    score,
    node_stat,
    require_gain,
    of_data,
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
):
    """The candidate feature whose midpoint cut (see ``midpoint``) scores best, cut there;
    a feature constant at the node is unusable."""
    weight = counts.sum()
    stat = node_stat(counts, weight, n_classes, params, buf)
    left = buf[0]
    right = buf[1]
    best_feature = -1
    best_threshold = 0.0
    best_score = -np.inf
    n_pool = features.shape[0]
    n_drawn = 0
    n_usable = 0
    while keep_drawing(n_drawn, n_usable, n_pool, n_eval):
        f = draw_feature(features, n_drawn, n_eval, rng)
        n_drawn += 1
        threshold = midpoint(X, samples, start, end, f, of_data, cell_lo, cell_hi)
        if np.isnan(threshold):
            continue
        w_left = _left_counts(X, y, w, samples, start, end, f, threshold, n_classes, left)
        n_usable += 1
        for c in range(n_classes):
            right[c] = counts[c] - left[c]
        current = score(left, right, w_left, weight - w_left, weight, n_classes, stat, params, buf)
        if current > best_score:
            best_score = current
            best_feature = f
            best_threshold = threshold
    if require_gain and not best_score > 0.0:
        return -1, 0.0
    return best_feature, best_threshold


@njit(cache=True, nogil=True)
def random_midpoint(of_data, X, samples, start, end, cell_lo, cell_hi, features, rng):
    """A feature drawn uniformly among those not constant at the node, cut at its midpoint
    (see ``midpoint``): the purely random split of Biau, Devroye and Lugosi (2008) and Biau
    (2012)."""
    for i in range(features.shape[0]):
        f = draw_feature(features, i, 0, rng)
        threshold = midpoint(X, samples, start, end, f, of_data, cell_lo, cell_hi)
        if not np.isnan(threshold):
            return f, threshold
    return -1, 0.0
