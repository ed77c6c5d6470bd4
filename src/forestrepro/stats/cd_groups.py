"""Groups of methods not significantly different by Nemenyi's test: Demšar (2006), Sec. 3.2.4.

Two methods differ significantly when their average ranks "differ by at least the critical
difference", so a group is a run of consecutive methods (sorted by average rank) whose extreme
ranks differ by strictly less than CD; only maximal runs are kept. These are the thick lines of
a critical-difference diagram (``report/cd_diagram.py`` draws them).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

__all__ = ["cd_groups", "check_cd", "sorted_ranks"]


def sorted_ranks(mean_ranks: pd.Series) -> pd.Series:
    if not isinstance(mean_ranks, pd.Series):
        raise TypeError(f"mean_ranks must be a pandas Series, got {type(mean_ranks).__name__}")
    if len(mean_ranks) < 2:
        raise ValueError(f"need at least 2 methods, got {len(mean_ranks)}")
    if not mean_ranks.index.is_unique:
        raise ValueError("method names (the index of mean_ranks) must be unique")
    values = mean_ranks.astype(float)
    if not np.all(np.isfinite(values.to_numpy())):
        raise ValueError("mean ranks must be finite numbers")
    # Stable sort: methods with equal average rank keep their input order.
    return values.sort_values(kind="mergesort")


def check_cd(cd: float) -> float:
    cd = float(cd)
    if not (math.isfinite(cd) and cd > 0):
        raise ValueError(f"cd must be a positive finite number, got {cd}")
    return cd


def cd_groups(mean_ranks: pd.Series, cd: float) -> list[tuple[str, ...]]:
    """Maximal groups of methods whose average ranks differ by less than ``cd``.

    Methods are sorted by average rank (best first). For each method the group runs to the
    last method whose rank is less than ``cd`` above it; groups contained in an earlier group
    and single methods are dropped. The groups are returned best-first, each as a tuple of
    method names in rank order -- exactly the thick lines of Demšar's Fig. 1.
    """
    cd = check_cd(cd)
    ordered = sorted_ranks(mean_ranks)
    names = [str(name) for name in ordered.index]
    values = ordered.to_numpy()
    groups: list[tuple[str, ...]] = []
    last_end = -1
    for start in range(len(values)):
        end = start
        while end + 1 < len(values) and values[end + 1] - values[start] < cd:
            end += 1
        if end > start and end > last_end:
            groups.append(tuple(names[start : end + 1]))
            last_end = end
    return groups
