"""Within-data-set ranks of competing methods (Demšar 2006, Sec. 3.2.2).

Demšar ranks "the algorithms for each data set separately, the best performing algorithm
getting the rank of 1, the second best rank 2, ...; in case of ties average ranks are
assigned". With ``r_i^j`` the rank of the j-th of k algorithms on the i-th of N data sets,
the average rank of algorithm j is ``R_j = (1/N) * sum_i r_i^j`` -- the quantity every
statistic in this package (Friedman, Iman–Davenport, Nemenyi, Holm) is built on.

Score tables follow one convention throughout ``forestrepro.stats``: a ``pandas.DataFrame``
whose rows are data sets (the index names them) and whose columns are methods.

Ties are exact equality of the values given. Published tables are compared at their printed
precision, so round computed scores to that precision first (``scores.round(4)``) when the
goal is to reproduce a paper's ranks; two floats that differ in the 16th digit are not tied.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

__all__ = ["rank_scores", "mean_ranks", "validate_scores"]


def validate_scores(scores: pd.DataFrame) -> pd.DataFrame:
    """Check a data-sets x methods score table and return it as floats.

    Raises ``TypeError`` for a non-DataFrame or non-numeric columns and ``ValueError`` for
    fewer than two methods, no data sets, duplicate method names, or missing values. The
    ``ValueError`` for missing values names every incomplete data set: this module never
    drops rows itself, the caller decides what to drop.
    """
    if not isinstance(scores, pd.DataFrame):
        raise TypeError(f"scores must be a pandas DataFrame, got {type(scores).__name__}")
    if scores.shape[1] < 2:
        raise ValueError(f"need at least 2 methods (columns), got {scores.shape[1]}")
    if scores.shape[0] < 1:
        raise ValueError("need at least 1 data set (row), got an empty table")
    if not scores.columns.is_unique:
        dup = scores.columns[scores.columns.duplicated()].unique().tolist()
        raise ValueError(f"duplicate method names (columns): {dup}")
    non_numeric = [c for c in scores.columns if not pd.api.types.is_numeric_dtype(scores[c])]
    if non_numeric:
        raise TypeError(f"non-numeric score columns: {non_numeric}")
    values = scores.astype(float)
    incomplete = values.isna().any(axis=1)
    if incomplete.any():
        names = [str(name) for name in values.index[incomplete]]
        raise ValueError(f"missing scores (NaN) for data set(s) {names}; drop or impute them before ranking")
    return values


def rank_scores(scores: pd.DataFrame, higher_is_better: bool = True) -> pd.DataFrame:
    """Rank the methods within each data set: best = 1, ties share the average rank.

    Parameters
    ----------
    scores
        Rows = data sets, columns = methods.
    higher_is_better
        ``True`` for accuracy-like scores, ``False`` for errors, run times, ...

    Returns
    -------
    pandas.DataFrame
        Same index and columns as ``scores``; the ranks ``r_i^j`` of Demšar (2006), Sec. 3.2.2.
        Every row sums to ``k(k+1)/2``.

    Raises
    ------
    ValueError
        If any data set has a missing score (the message names the data sets), or the table
        has fewer than two methods or no data sets.
    """
    values = validate_scores(scores)
    ranks = values.rank(axis=1, ascending=not higher_is_better, method="average")
    return ranks.astype(float)


def mean_ranks(scores: pd.DataFrame, higher_is_better: bool = True) -> pd.Series:
    """Average rank ``R_j = (1/N) sum_i r_i^j`` of every method over the N data sets.

    Demšar (2006), Sec. 3.2.2. Lower is better. The result is indexed by method in the
    column order of ``scores`` and named ``"mean_rank"``.
    """
    ranks = rank_scores(scores, higher_is_better=higher_is_better)
    result = ranks.mean(axis=0)
    result.name = "mean_rank"
    return result


def _doubled_rank_sums(ranks: pd.DataFrame) -> np.ndarray:
    """Twice each method's rank sum, as exact Python integers.

    Average ranks are multiples of 1/2, so ``2 * sum_i r_i^j`` is an integer; working with it
    keeps the Friedman statistic and its degenerate cases free of rounding error.
    """
    doubled = np.rint(2.0 * ranks.to_numpy()).astype(np.int64)
    return np.array([int(v) for v in doubled.sum(axis=0)], dtype=object)
