"""``X`` coded by column as the tree builder's kernels read it.

``tree_codes(X)`` gives ``TreeCodes``: ``codes[i, j]`` (int32, C order), the rank of ``X[i, j]``
among the distinct values of column ``j`` (0 for the smallest), and those distinct values
ascending, ``values[offsets[j]:offsets[j + 1]]``, so ``values[offsets[j] + codes[i, j]] ==
X[i, j]``. Equal values share a code, ``-0.0`` and ``0.0`` included (they compare equal, so no
threshold tells them apart).

The integer-weight Gini kernel puts a node's samples in the order of a feature by counting their
codes where the feature's column has few distinct values for the node's samples (letter: 16
columns of 16 values); a forest codes its ``X`` once for all its trees. The ranks and values are
those of ``cascade.column_codes`` (``tests/trees/test_tree_codes.py``), which codes a cascade
level's input in 1 or 2 bytes in ``X``'s memory order; this coder writes the kernels' int32 C
order directly and keeps a column's distinct values in its sorted copy, appending them once per
column (letter's training rows: about 1.7 ms against that coder's 4.5).
"""

from typing import NamedTuple

import numpy as np
from numba import njit

from ._sort import _radix_sort


class TreeCodes(NamedTuple):
    """Ranks of a matrix's values within their columns (int32, C order), and each column's
    distinct values ascending with the columns' offsets into them."""

    codes: np.ndarray
    values: np.ndarray
    offsets: np.ndarray

    @property
    def shape(self):
        """The coded matrix's shape."""
        return self.codes.shape


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
        offsets[j] = total
        if n_rows == 0:
            continue
        column[:] = X[:, j]
        rows[:] = np.arange(n_rows)
        _radix_sort(column, rows, 0, n_rows)
        # the sorted column's distinct values, moved to its front (values grows once per column:
        # an array variable reassigned in the loop over rows cost numba a reference count per row)
        n_distinct = 0
        for r in range(n_rows):
            value = column[r]
            if r == 0 or value != column[n_distinct - 1]:
                column[n_distinct] = value
                n_distinct += 1
            codes[rows[r], j] = n_distinct - 1
        if total + n_distinct > values.shape[0]:
            grown = np.empty(max(2 * values.shape[0], total + n_distinct), dtype=np.float32)
            grown[:total] = values[:total]
            values = grown
        values[total : total + n_distinct] = column[:n_distinct]
        total += n_distinct
    offsets[n_columns] = total
    return values[:total].copy(), offsets


def tree_codes(X):
    """The ``TreeCodes`` of ``X`` (2-d, finite), read as float32."""
    X = np.ascontiguousarray(X, dtype=np.float32)
    if X.ndim != 2 or not np.isfinite(X).all():
        raise ValueError("X must be a 2-d array of finite values")
    codes = np.empty(X.shape, dtype=np.int32)
    values, offsets = _code_columns(X, codes)
    return TreeCodes(codes, values, offsets)


NO_CODES = TreeCodes(
    np.empty((0, 0), dtype=np.int32), np.empty(0, dtype=np.float32), np.empty(0, dtype=np.intp)
)
"""What the kernels get for the codes when the builder runs a rule's plain ``kernel``."""
