"""Classification metrics, all from ``sklearn.metrics``.

- ``accuracy``: fraction of correct predictions (``accuracy_pct``: the same in percent);
- ``f1_macro``: unweighted mean of per-class F1 (the RCRF paper's F1, Sec. 4.3);
- ``kappa``: Cohen's kappa;
- ``mcc``: Matthews correlation coefficient (multi-class generalisation, Gorodkin 2004);
- ``mcc_pct``: the C2RF paper's "MCC in percentage", (MCC + 1) / 2 x 100, which is 50 for a
  forest that predicts one class only (papers/README.md).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from sklearn.metrics import accuracy_score, cohen_kappa_score, f1_score, matthews_corrcoef


def _f1_macro(y_true, y_pred) -> float:
    return f1_score(y_true, y_pred, average="macro", zero_division=0)


def _mcc_pct(y_true, y_pred) -> float:
    return (matthews_corrcoef(y_true, y_pred) + 1.0) / 2.0 * 100.0


def _accuracy_pct(y_true, y_pred) -> float:
    return accuracy_score(y_true, y_pred) * 100.0


METRICS: dict[str, Callable[[np.ndarray, np.ndarray], float]] = {
    "accuracy": accuracy_score,
    "accuracy_pct": _accuracy_pct,
    "f1_macro": _f1_macro,
    "kappa": cohen_kappa_score,
    "mcc": matthews_corrcoef,
    "mcc_pct": _mcc_pct,
}


def compute_metrics(y_true: np.ndarray, y_pred: np.ndarray, names: list[str]) -> dict[str, float]:
    """Each metric in ``names`` of predictions ``y_pred`` against ``y_true``."""
    unknown = sorted(set(names) - set(METRICS))
    if unknown:
        raise ValueError(f"unknown metric(s) {unknown}; valid: {sorted(METRICS)}")
    return {name: float(METRICS[name](y_true, y_pred)) for name in names}
