"""A float32 matrix as the rank of each value among its column's distinct values.

``column_codes(X)`` gives ``ColumnCodes``: ``codes[i, j]``, the rank of ``X[i, j]`` among the
distinct values of column ``j`` (0 for the smallest), and those distinct values ascending,
``values[offsets[j]:offsets[j + 1]]``, so ``values[offsets[j] + codes[i, j]] == X[i, j]``.
Codes are ``uint8`` where no column has more than 256 distinct values, else ``uint16`` (else
``int32``), in the memory order of ``X``.

A cascade level's input (class vectors: fractions ``k / n_trees``) has few distinct values per
column; one coding serves every tree grown on the same rows, and a tree's splitter reads codes
(1 or 2 bytes) in place of values and counts them instead of sorting them
(``sklearn_trees``).  Equal values share a code, ``-0.0`` and ``0.0`` included (they compare
equal, so no threshold tells them apart).
"""

from typing import NamedTuple

import numpy as np
from numba import njit

# linear time; sort_together, which calls the recursive introsort, aborted numba here when compiled
# for this caller against its cached code
from ..trees._sort import _radix_sort


class ColumnCodes(NamedTuple):
    """Ranks of a matrix's values within their columns, and each column's distinct values."""

    codes: np.ndarray
    values: np.ndarray
    offsets: np.ndarray

    @property
    def shape(self):
        """The matrix's shape."""
        return self.codes.shape

    def rows(self, rows):
        """The coding of ``X[rows]`` (indices or a boolean mask) in column-major order: those rows'
        codes over the same distinct values. A value no chosen row holds keeps its rank; the
        builder reads only the ranks a node holds, so ``sklearn_trees`` grows the same trees from
        it as from ``column_codes(X[rows])`` (``tests/cascade/test_growth.py``)."""
        rows = np.flatnonzero(rows) if np.asarray(rows).dtype == bool else np.asarray(rows)
        return ColumnCodes(
            np.take(np.asfortranarray(self.codes).T, rows, axis=1).T, self.values, self.offsets
        )


@njit(cache=True, nogil=True)
def _code_columns(X, codes):
    """Fill ``codes`` column by column (each sorted with its rows); the distinct values, ascending
    column after column, and the columns' offsets into them."""
    n_rows, n_columns = X.shape
    offsets = np.empty(n_columns + 1, dtype=np.intp)
    values = np.empty(max(n_rows, 1) * 4, dtype=np.float32)
    column = np.empty(n_rows, dtype=np.float32)
    rows = np.empty(n_rows, dtype=np.intp)
    total = 0
    for j in range(n_columns):
        column[:] = X[:, j]
        rows[:] = np.arange(n_rows)
        _radix_sort(column, rows, 0, n_rows)
        offsets[j] = total
        for r in range(n_rows):
            value = column[r]
            if r == 0 or value != values[total - 1]:
                if total == values.shape[0]:
                    grown = np.empty(2 * total, dtype=np.float32)
                    grown[:total] = values
                    values = grown
                values[total] = value
                total += 1
            codes[rows[r], j] = total - 1 - offsets[j]
    offsets[n_columns] = total
    return values[:total].copy(), offsets


def column_codes(X):
    """The ``ColumnCodes`` of a 2-d float32 array of finite values."""
    X = np.asarray(X)
    if X.dtype != np.float32 or X.ndim != 2 or not np.isfinite(X).all():
        raise ValueError("X must be a 2-d float32 array of finite values")
    order = "F" if np.isfortran(X) else "C"
    codes = np.empty(X.shape, dtype=np.uint16 if X.shape[0] <= 65536 else np.int32, order=order)
    values, offsets = _code_columns(X, codes)
    if np.diff(offsets).max(initial=0) <= 256:
        codes = codes.astype(np.uint8, order=order)
    return ColumnCodes(codes, values, offsets)
