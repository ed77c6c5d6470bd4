"""Greedy empirical-error split: the threshold cut with the fewest misclassified training
points, the rule of the inconsistency example of Biau, Devroye and Lugosi (2008), which the
BRF paper reuses in Sec. 5.2 ("each node is split by minimizing the empirical probability
error ... grown until every tree node cell contains just one data point").

A child's empirical error is its weight outside its majority class, ``N_L - max_c n_{L,c}``;
a cut is scored by ``max_c n_{L,c} + max_c n_{R,c}``, the weight it classifies correctly
(the node's weight minus its error).  Every cut between consecutive distinct values of the
candidate features is scanned, as in ``_scan.best_threshold``, at the midpoint of the two
values.  A node is cut even when no cut lowers its error (growth stops only at pure nodes or
``min_samples_split``), so ties are the rule rather than the exception: the cut is drawn
uniformly among all cuts of minimal error (reservoir sampling over the scan).  Taking the
first one found instead would peel one point at a time off the node's lowest values, grow
trees of depth ~n and favour the lowest-index feature.
"""

from dataclasses import dataclass

import numpy as np
from numba import njit

from .._kernel_api import FEATURE_THRESHOLD, SPLIT_KERNEL_SIG
from .._rng import rand_int
from .._sort import sort_together
from . import _scan
from .base import CompiledSplitRule

_FT = np.float32(FEATURE_THRESHOLD)


@njit(cache=True, nogil=True)
def correct_weight(left, right, n_classes):
    """``max_c n_{L,c} + max_c n_{R,c}``: the weight a cut classifies correctly."""
    best_left = 0.0
    best_right = 0.0
    for c in range(n_classes):
        best_left = max(best_left, left[c])
        best_right = max(best_right, right[c])
    return best_left + best_right


@njit(SPLIT_KERNEL_SIG, cache=True, nogil=True)
def empirical_error_kernel(
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
    left = buf[0]
    right = buf[1]
    best_feature = -1
    best_threshold = 0.0
    best_score = -np.inf
    n_best = 0
    n_pool = features.shape[0]
    n_drawn = 0
    n_usable = 0
    while _scan.keep_drawing(n_drawn, n_usable, n_pool, n_eval):
        f = _scan.draw_feature(features, n_drawn, n_eval, rng)
        n_drawn += 1
        for p in range(start, end):
            Xf[p] = X[samples[p], f]
        sort_together(Xf, samples, start, end)
        if Xf[end - 1] <= Xf[start] + _FT:
            continue
        n_usable += 1
        left[:n_classes] = 0.0
        right[:n_classes] = counts
        p = start
        while True:
            s = samples[p]
            left[y[s]] += w[s]
            right[y[s]] -= w[s]
            p += 1
            if p == end:
                break
            if Xf[p] <= Xf[p - 1] + _FT:
                continue
            current = correct_weight(left, right, n_classes)
            if current > best_score:
                best_score = current
                n_best = 0
            if current == best_score:
                n_best += 1
                if rand_int(rng, 0, n_best) == 0:
                    best_feature = f
                    best_threshold = Xf[p - 1] / 2.0 + Xf[p] / 2.0
    return best_feature, best_threshold


@dataclass(frozen=True)
class EmpiricalError(CompiledSplitRule):
    """Best threshold by empirical (training) misclassification error, ties drawn
    uniformly."""

    @property
    def kernel(self):
        return empirical_error_kernel
