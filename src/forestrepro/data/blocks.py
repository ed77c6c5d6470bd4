"""Fewer features by block means: each run of ``size`` consecutive features becomes its mean.

The WDF paper's Table 1 gives SEMG 500 features, while each of its records holds 3,000
samples, and does not say how one became the other. The reading we take (``block_mean: 6``
in ``conf/paper/wdf.yaml``) is the plainest one that keeps the record a sequence for 1-D
scanning: the mean of each 6 consecutive samples (a boxcar filter decimated by 6), so
feature ``j`` is ``mean(x[6j : 6j + 6])``.
"""

from __future__ import annotations

import numpy as np

from .errors import DatasetError


def check_block_mean(n_features: int, size: int, dataset: str) -> None:
    """Raise ``DatasetError`` naming ``dataset`` and the option unless ``size`` divides
    ``n_features``: the configuration checks this before any job runs."""
    if size < 1 or n_features % size:
        raise DatasetError(
            f"data set '{dataset}': option block_mean={size} does not divide its {n_features} "
            "features into runs of equal length"
        )


def block_means(X, size: int) -> np.ndarray:
    """``X`` with each run of ``size`` consecutive columns replaced by its mean (float64)."""
    X = np.asarray(X, dtype=np.float64)
    if size < 1 or X.ndim != 2 or X.shape[1] % size:
        raise DatasetError(
            f"option block_mean={size} does not divide the "
            f"{X.shape[1] if X.ndim == 2 else 'non-tabular'} features into runs of equal length"
        )
    return X.reshape(X.shape[0], X.shape[1] // size, size).mean(axis=2)
