"""Nominal features coded in a declared order: the data set option ``nominal_order``.

The fetch step codes a nominal feature 0, 1, ... by its sorted string values
(``data/tabular.py``), and PMLB's files come coded the same way. That need not be the order the
data's documentation declares: car's buying is coded high < low < med < vhigh, where UCI's
car.names declares vhigh, high, med, low. A tree's threshold split on the codes can only cut
the values into a lower and an upper part, so the order decides which groups of values a single
split can separate. A paper that does not say how it coded nominal features may have used the
declared order; this option reads its data that way.

``nominal_order`` maps a feature to its values in the declared order, each as the data set's
file writes it (a string, or the number of a file that comes coded); the feature is recoded as
each value's position in that list. Missing values stay missing.
"""

from __future__ import annotations

import numpy as np

from .errors import DatasetError


def declared_codes(
    X: np.ndarray, names: list[str], categories: dict[str, list[str]], order: dict[str, list], dataset: str
) -> np.ndarray:
    """``X`` with each feature of ``order`` recoded as its values' positions in the declared
    list. ``categories``: the fetch step's string values of each string-coded feature, in code
    order (the data's provenance); a feature without them holds the file's own numbers."""
    X = np.array(X, dtype=np.float64, copy=True)
    for column, declared in order.items():
        if column not in names:
            raise DatasetError(
                f"{dataset}: dataset option nominal_order names feature {column!r}, which the data set "
                f"does not have; its features are {names}"
            )
        keys = [str(v) for v in declared] if column in categories else [float(v) for v in declared]
        if len(set(keys)) != len(keys):
            raise DatasetError(f"{dataset}: dataset option nominal_order lists a value of {column!r} twice")
        j = names.index(column)
        present = ~np.isnan(X[:, j])
        values = X[present, j]
        if column in categories:
            values = np.asarray(categories[column], dtype=object)[values.astype(np.int64)]
        position = {key: float(i) for i, key in enumerate(keys)}
        unknown = sorted({str(v) for v in values if v not in position})
        if unknown:
            raise DatasetError(
                f"{dataset}: feature {column!r} has values {unknown} that dataset option nominal_order "
                f"does not list ({list(declared)})"
            )
        X[present, j] = [position[v] for v in values]
    return X
