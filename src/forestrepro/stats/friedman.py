"""Friedman test and its Iman–Davenport F correction (Demšar 2006, Sec. 3.2.2).

With k methods, N data sets and average ranks ``R_j`` (see :mod:`forestrepro.stats.ranks`),
Demšar gives the Friedman statistic

    chi^2_F = 12N / (k(k+1)) * [ sum_j R_j^2 - k(k+1)^2 / 4 ],

chi-square distributed with k-1 degrees of freedom, and Iman and Davenport's less
conservative

    F_F = (N-1) chi^2_F / ( N(k-1) - chi^2_F ),

F distributed with k-1 and (k-1)(N-1) degrees of freedom.

This is the statistic *as printed by Demšar*, without a correction for ties. It therefore
agrees with :func:`scipy.stats.friedmanchisquare` only on data without ties: scipy divides by
``1 - sum(t^3 - t) / (N k (k^2 - 1))``, which makes its value larger when ties occur.

Degenerate cases (handled exactly, no division by zero):

* every method has the same average rank (e.g. all scores tied on every data set):
  ``chi^2_F = 0``, ``F_F = 0``, both p-values 1;
* every data set ranks the methods identically, without ties: ``chi^2_F`` reaches its
  maximum ``N(k-1)``, the F denominator is zero, and ``F_F = inf`` with p-value 0 (the limit
  of the formula as the agreement becomes perfect).

The rank sums are multiples of 1/2, so the statistic is computed from integers and the
zero-denominator test is exact rather than a floating-point tolerance.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import pandas as pd
from scipy import stats as sps

from .ranks import _doubled_rank_sums, rank_scores

__all__ = ["FriedmanResult", "friedman_test"]


@dataclass(frozen=True, eq=False)
class FriedmanResult:
    """Outcome of :func:`friedman_test`.

    Attributes
    ----------
    k, n
        Number of methods and of data sets.
    mean_ranks
        Average rank ``R_j`` per method (lower is better), in the column order of the input.
    chi2, p_chi2
        Friedman's ``chi^2_F`` and its p-value from chi-square with ``k-1`` dof.
    iman_davenport_f, p_iman_davenport
        Iman–Davenport ``F_F`` (``inf`` when the methods are ranked identically on every data
        set) and its p-value from F(``df1``, ``df2``).
    df1, df2
        ``k-1`` and ``(k-1)(N-1)``.
    """

    k: int
    n: int
    mean_ranks: pd.Series
    chi2: float
    p_chi2: float
    iman_davenport_f: float
    p_iman_davenport: float
    df1: int
    df2: int


def friedman_test(scores: pd.DataFrame, higher_is_better: bool = True) -> FriedmanResult:
    """Friedman test with the Iman–Davenport correction, following Demšar (2006), Sec. 3.2.2.

    Parameters
    ----------
    scores
        Rows = data sets, columns = methods; no missing values (see
        :func:`forestrepro.stats.rank_scores`).
    higher_is_better
        Direction of the scores. The statistics do not depend on it, the reported
        ``mean_ranks`` do.

    Raises
    ------
    ValueError
        On missing values, fewer than 2 methods, or fewer than 2 data sets (with one data
        set the Iman–Davenport statistic has zero denominator degrees of freedom).
    """
    ranks = rank_scores(scores, higher_is_better=higher_is_better)
    n, k = ranks.shape
    if n < 2:
        raise ValueError(f"the Friedman test needs at least 2 data sets, got {n}")

    # Exact arithmetic on T_j = 2 * sum_i r_i^j, so that sum_j R_j^2 = sum_j T_j^2 / (4N^2):
    #   chi^2_F = 3 * [sum_j T_j^2 - N^2 k (k+1)^2] / (N k (k+1))
    #   F_F     = (N-1) * 3 * num / (N^2 k (k^2-1) - 3 * num)
    doubled = _doubled_rank_sums(ranks)
    num = sum(t * t for t in doubled) - n * n * k * (k + 1) ** 2
    if num < 0:  # impossible for genuine ranks (Cauchy–Schwarz); guard against misuse
        raise AssertionError("rank sums inconsistent with within-row ranks")
    chi2_exact = Fraction(3 * num, n * k * (k + 1))
    f_denominator = n * n * k * (k * k - 1) - 3 * num

    df1 = k - 1
    df2 = (k - 1) * (n - 1)
    chi2 = float(chi2_exact)
    p_chi2 = float(sps.chi2.sf(chi2, df1)) if num > 0 else 1.0
    if f_denominator == 0:
        f_value, p_f = math.inf, 0.0
    else:
        f_value = float(Fraction((n - 1) * 3 * num, f_denominator))
        p_f = float(sps.f.sf(f_value, df1, df2)) if num > 0 else 1.0

    mean = ranks.mean(axis=0)
    mean.name = "mean_rank"
    return FriedmanResult(
        k=k,
        n=n,
        mean_ranks=mean,
        chi2=chi2,
        p_chi2=p_chi2,
        iman_davenport_f=f_value,
        p_iman_davenport=p_f,
        df1=df1,
        df2=df2,
    )
