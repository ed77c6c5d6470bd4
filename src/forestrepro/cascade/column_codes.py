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


class ColumnCodes(NamedTuple):
    """Ranks of a matrix's values within their columns, and each column's distinct values."""

    codes: np.ndarray
    values: np.ndarray
    offsets: np.ndarray

    @property
    def shape(self):
        """The matrix's shape."""
        return self.codes.shape


@njit(cache=True, nogil=True)
def _distinct_values(X):
    """Each column's distinct values, ascending, one after the other; the columns' offsets."""
    n_rows, n_columns = X.shape
    offsets = np.empty(n_columns + 1, dtype=np.intp)
    values = np.empty(max(n_rows, 1) * 4, dtype=np.float32)
    total = 0
    for j in range(n_columns):
        column = np.sort(X[:, j])
        offsets[j] = total
        for r in range(n_rows):
            if r > 0 and column[r] == column[r - 1]:
                continue
            if total == values.shape[0]:
                grown = np.empty(2 * total, dtype=np.float32)
                grown[:total] = values
                values = grown
            values[total] = column[r]
            total += 1
    offsets[n_columns] = total
    return values[:total].copy(), offsets


@njit(cache=True, nogil=True)
def _fill_codes(X, values, offsets, codes):
    """``codes[i, j]``: the position of ``X[i, j]`` among column ``j``'s distinct values."""
    for j in range(X.shape[1]):
        distinct = values[offsets[j] : offsets[j + 1]]
        for i in range(X.shape[0]):
            codes[i, j] = np.searchsorted(distinct, X[i, j])


def column_codes(X):
    """The ``ColumnCodes`` of a 2-d float32 array of finite values."""
    X = np.asarray(X)
    if X.dtype != np.float32 or X.ndim != 2 or not np.isfinite(X).all():
        raise ValueError("X must be a 2-d float32 array of finite values")
    values, offsets = _distinct_values(X)
    most = int(np.diff(offsets).max(initial=0))
    dtype = np.uint8 if most <= 256 else np.uint16 if most <= 65536 else np.int32
    codes = np.empty(X.shape, dtype=dtype, order="F" if np.isfortran(X) else "C")
    _fill_codes(X, values, offsets, codes)
    return ColumnCodes(codes, values, offsets)
