"""Target transforms: the data set's own (``target_transform``) and the papers' views (``paper_targets``)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from .errors import DatasetError


def binarize(target: pd.Series, threshold: str | float) -> tuple[pd.Series, float]:
    """Return (1 where target > threshold else 0, the numeric threshold used).

    ``threshold='median'`` uses the median of ``target``. Used for Boston housing, whose MEDV
    the BRF paper (Sun et al., 2018, Table 1) turns into 2 classes without saying how.
    """
    values = pd.to_numeric(target, errors="raise").astype(np.float64)
    cut = float(np.median(values)) if threshold == "median" else float(threshold)
    return (values > cut).astype(np.int64), cut


def apply_paper_target(y: np.ndarray, spec: dict, paper: str) -> np.ndarray:
    """Apply ``spec['paper_targets'][paper]`` to the labels ``y``; unchanged when the paper has none.

    ``one_vs_rest``: the ``positive`` label becomes 1, every other label 0. This is the C2RF
    setting (Burgard et al., 2024, Sec. 5.1): 'the class with label 1 represents the positive
    class and the other two classes represent the negative class'.
    """
    view = spec["paper_targets"].get(paper)
    y = np.asarray(y)
    if view is None:
        return y
    positive = view["positive"]
    hits = y == positive
    if not hits.any():
        raise DatasetError(
            f"{spec['name']}: positive label {positive!r} for {paper} is not among the labels {np.unique(y)[:20]}"
        )
    return hits.astype(np.int64)
