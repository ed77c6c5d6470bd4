"""Classification metrics, all from ``sklearn.metrics``.

- ``accuracy``: fraction of correct predictions (``accuracy_pct``: the same in percent);
- ``f1_macro``: unweighted mean of per-class F1 (the RCRF paper's F1, Sec. 4.3);
- ``f1_weighted``: per-class F1 weighted by the class's true rows, and ``f1_macro_min5``: the
  unweighted mean over the classes with at least 5 true rows; two other readings of the RCRF
  paper's "F1", which does not say how it averages over classes (the RCRF report's F1 tables);
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


def _f1_weighted(y_true, y_pred) -> float:
    return f1_score(y_true, y_pred, average="weighted", zero_division=0)


def _f1_macro_min5(y_true, y_pred) -> float:
    classes, counts = np.unique(y_true, return_counts=True)
    return f1_score(y_true, y_pred, labels=classes[counts >= 5], average="macro", zero_division=0)


def _mcc_pct(y_true, y_pred) -> float:
    return (matthews_corrcoef(y_true, y_pred) + 1.0) / 2.0 * 100.0


def _accuracy_pct(y_true, y_pred) -> float:
    return accuracy_score(y_true, y_pred) * 100.0


METRICS: dict[str, Callable[[np.ndarray, np.ndarray], float]] = {
    "accuracy": accuracy_score,
    "accuracy_pct": _accuracy_pct,
    "f1_macro": _f1_macro,
    "f1_macro_min5": _f1_macro_min5,
    "f1_weighted": _f1_weighted,
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
