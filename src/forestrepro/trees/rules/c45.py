"""C4.5's use of the gain ratio on numeric features (Quinlan 1993, Sec. 2.2; Release 8:
Quinlan 1996, "Improved use of continuous attributes in C4.5", JAIR 4, Secs. 2-3).

The BRF paper's RF "uses the information gain ratio" (Sec. 6.1) and says no more. Read
literally (``BestThreshold("gain_ratio")``), a node takes the cut of largest gain ratio
over every cut of every candidate feature; a cut that splits off one row has a tiny split
information and often wins, so trees grow into long chains. C4.5, where the gain ratio comes
from, uses it differently. At a node of ``N`` (weighted) rows and ``k`` classes:

1. Admissible cuts leave at least ``m = min(25, max(MINOBJS, 0.1 N / k))`` rows on each side
   (``MINOBJS = 2``, C4.5's ``-m`` default).
2. Each candidate feature takes its admissible cut of largest information gain
   ``IG = H(parent) - (N_L/N) H(left) - (N_R/N) H(right)`` (not of largest gain ratio), and
   that gain is charged ``log2(T) / N`` for the ``T`` admissible cuts it was chosen among
   (Release 8's MDL penalty).
3. Among the features with an admissible cut, the average charged gain ``G`` is taken; the
   node is cut on the feature of largest gain ratio ``IG' / SI`` (``SI`` the split
   information of its cut) among those whose charged gain ``IG'`` is at least ``G - 1e-3``
   and positive (C4.5's ``Epsilon``). If no feature qualifies, the node is a leaf.

What differs from C4.5 itself: the cut is at the midpoint of the two values around it
(scikit-learn's and the other rules' threshold; C4.5 takes the lower value), trees are not
pruned (a forest's trees are grown out), and there are no missing values to weigh.
"""

from dataclasses import dataclass

import numpy as np
from numba import njit

from .._kernel_api import SPLIT_KERNEL_SIG
from . import _scan
from .base import CompiledSplitRule
from .entropy import entropy

EPSILON = 1e-3
"""C4.5's ``Epsilon``: a charged gain this far below the average still qualifies."""


@njit(cache=True, nogil=True)
def min_split(weight, n_classes, min_objs):
    """Rows each side of an admissible cut: ``0.1 N / k`` clipped to ``[MINOBJS, 25]``."""
    return min(25.0, max(min_objs, 0.1 * weight / n_classes))


@njit(SPLIT_KERNEL_SIG, cache=True, nogil=True)
def c45_kernel(
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
    weight = counts.sum()
    parent = entropy(counts, weight, n_classes)
    least = min_split(weight, n_classes, params[0])
    left = buf[0]
    right = buf[1]
    n_pool = features.shape[0]
    chosen = np.full(n_pool, -1, dtype=np.intp)
    charged = np.empty(n_pool)
    split_info = np.empty(n_pool)
    threshold = np.empty(n_pool)
    n_drawn = 0
    n_usable = 0
    while True:
        f, n_drawn, n_usable = _scan.next_usable(
            X, samples, start, end, features, n_drawn, n_usable, n_eval, rng, Xf
        )
        if f < 0:
            break
        left[:n_classes] = 0.0
        right[:n_classes] = counts
        w_left = 0.0
        tries = 0
        best_gain = -np.inf
        p = start
        while True:
            s = samples[p]
            left[y[s]] += w[s]
            right[y[s]] -= w[s]
            w_left += w[s]
            p += 1
            if p == end:
                break
            if not _scan.distinct(Xf, p) or w_left < least or weight - w_left < least:
                continue
            tries += 1
            p_left = w_left / weight
            p_right = 1.0 - p_left
            gain = (
                parent
                - p_left * entropy(left, w_left, n_classes)
                - p_right * entropy(right, weight - w_left, n_classes)
            )
            if gain > best_gain:
                best_gain = gain
                split_info[n_drawn - 1] = -p_left * np.log2(p_left) - p_right * np.log2(p_right)
                threshold[n_drawn - 1] = Xf[p - 1] / 2.0 + Xf[p] / 2.0
        if tries > 0:
            chosen[n_drawn - 1] = f
            charged[n_drawn - 1] = best_gain - np.log2(tries) / weight
    n_possible = 0
    average = 0.0
    for i in range(n_drawn):
        if chosen[i] >= 0:
            n_possible += 1
            average += charged[i]
    if n_possible == 0:
        return -1, 0.0
    average /= n_possible
    best = -1
    best_ratio = -np.inf
    for i in range(n_drawn):
        if chosen[i] >= 0 and charged[i] > 0.0 and charged[i] >= average - EPSILON:
            ratio = charged[i] / split_info[i]
            if ratio > best_ratio:
                best_ratio = ratio
                best = i
    if best < 0:
        return -1, 0.0
    return chosen[best], threshold[best]


@dataclass(frozen=True)
class C45Threshold(CompiledSplitRule):
    """C4.5 Release 8's gain-ratio split (module docstring); ``min_objs`` is ``MINOBJS``."""

    min_objs: float = 2.0

    @property
    def kernel(self):
        return c45_kernel

    def params(self):
        return np.array([self.min_objs, 0.0])
