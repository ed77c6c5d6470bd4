"""Nemenyi post-hoc test: critical values, critical difference, pairwise p-values.

Demšar (2006), Sec. 3.2.2: after a significant Friedman test, two of k classifiers compared
over N data sets differ significantly if their average ranks differ by at least the
critical difference

    CD = q_alpha * sqrt( k(k+1) / (6N) ),

where q_alpha is based on the studentized range statistic divided by sqrt(2): the upper
alpha quantile of the studentized range of k independent standard normals (infinite degrees
of freedom), divided by sqrt(2). Demšar tabulates it in Table 5(a); here it is computed with
:data:`scipy.stats.studentized_range`, never copied from a table.

scipy's ``studentized_range`` accepts ``df=numpy.inf``: its documentation states that for
``df`` above 100,000 it switches to the asymptotic (infinite-df) form of the CDF,
``F(x; k, inf) = k * int phi(z) [Phi(x+z) - Phi(z)]^(k-1) dz``. The tests check that the
finite-df quantiles converge to the ``df=inf`` value.

The pairwise test statistic for methods i, j is ``z = (R_i - R_j) / sqrt(k(k+1)/(6N))``;
its Nemenyi p-value is ``P(Q_k > sqrt(2) |z|)`` with Q_k studentized range (k, inf). That
computation is delegated to ``scikit_posthocs.posthoc_nemenyi_friedman``.
"""

from __future__ import annotations

import math
import numbers

import numpy as np
import pandas as pd
from scipy import stats as sps

from .ranks import rank_scores

__all__ = ["nemenyi_q", "nemenyi_cd", "nemenyi_pairwise", "rank_difference_se"]


def _check_k(k: int) -> int:
    if isinstance(k, bool) or not isinstance(k, numbers.Integral):
        raise TypeError(f"k must be an integer, got {k!r}")
    if k < 2:
        raise ValueError(f"need at least k = 2 methods, got k = {k}")
    return int(k)


def _check_alpha(alpha: float) -> float:
    alpha = float(alpha)
    if not 0.0 < alpha < 1.0:
        raise ValueError(f"alpha must lie in (0, 1), got {alpha}")
    return alpha


def rank_difference_se(k: int, n: int) -> float:
    """Standard error ``sqrt(k(k+1)/(6N))`` of a difference of two average ranks.

    The denominator of Demšar's z statistic (Sec. 3.2.2) and the scale factor of the CD.
    """
    k = _check_k(k)
    if isinstance(n, bool) or not isinstance(n, numbers.Integral) or n < 1:
        raise ValueError(f"n (number of data sets) must be a positive integer, got {n!r}")
    return math.sqrt(k * (k + 1) / (6.0 * int(n)))


def nemenyi_q(k: int, alpha: float = 0.05) -> float:
    """Nemenyi critical value ``q_alpha = q(1 - alpha; k, inf) / sqrt(2)``.

    ``q(1 - alpha; k, inf)`` is the ``1 - alpha`` quantile of the studentized range of k
    means with infinite degrees of freedom (Demšar 2006, Table 5(a): 2.728 for k = 5 at
    alpha = 0.05).
    """
    k = _check_k(k)
    alpha = _check_alpha(alpha)
    q = float(sps.studentized_range.ppf(1.0 - alpha, k, np.inf))
    if not math.isfinite(q):
        raise FloatingPointError(f"studentized_range.ppf returned {q} for k={k}, alpha={alpha}")
    return q / math.sqrt(2.0)


def nemenyi_cd(k: int, n: int, alpha: float = 0.05) -> float:
    """Nemenyi critical difference ``CD = q_alpha sqrt(k(k+1)/(6N))`` (Demšar 2006, Sec. 3.2.2).

    Two methods' average ranks are significantly different when they differ by at least CD.
    """
    return nemenyi_q(k, alpha) * rank_difference_se(k, n)


def nemenyi_pairwise(scores: pd.DataFrame, higher_is_better: bool = True) -> pd.DataFrame:
    """Matrix of Nemenyi p-values for all pairs of methods (symmetric, 1 on the diagonal).

    Uses ``scikit_posthocs.posthoc_nemenyi_friedman`` on the within-data-set ranks, i.e. the
    p-value of ``|R_i - R_j| / sqrt(k(k+1)/(6N))`` under the studentized range (k, inf)
    scaled by sqrt(2) -- the same distribution as :func:`nemenyi_cd`, so
    ``p < alpha`` exactly when ``|R_i - R_j| > nemenyi_cd(k, N, alpha)``.

    ``higher_is_better`` only fixes which way the ranks run; the two-sided p-values do not
    depend on it. Missing values raise ``ValueError`` as in :func:`rank_scores`.
    """
    import scikit_posthocs as sp

    ranks = rank_scores(scores, higher_is_better=higher_is_better)
    if ranks.shape[0] < 2:
        raise ValueError(f"the Nemenyi test needs at least 2 data sets, got {ranks.shape[0]}")
    # Ranking the rank matrix again leaves it unchanged, so scikit-posthocs sees our ranks.
    pvalues = sp.posthoc_nemenyi_friedman(ranks.reset_index(drop=True))
    pvalues = pd.DataFrame(
        pvalues.to_numpy(dtype=float), index=list(ranks.columns), columns=list(ranks.columns)
    )
    pvalues.index.name = ranks.columns.name
    pvalues.columns.name = ranks.columns.name
    return pvalues
