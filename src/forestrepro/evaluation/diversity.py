"""Diversity and out-of-bag quality of a forest (RCRF paper, Guan, Pang and Liang 2019).

- ``pairwise_kappa_error``: the points of a kappa-error diagram (Margineantu and Dietterich
  1997; RCRF paper Sec. 4.4): for each of the L(L-1)/2 pairs of trees, Cohen's kappa between
  their predictions (Eqs. 4-6) and the mean of their two error rates.  All pairs at once
  from one-hot matrix products, no per-pair loop.
- ``kappa_error_centroid``: the centroid of those points (Table 5, Fig. 3).
- ``oob_metrics``: the protocol's metrics (accuracy, F1, kappa) of a forest's out-of-bag predictions
  (Sec. 4.3; Eqs. 2-6).
"""

import numpy as np

from .metrics import compute_metrics

_EXACT_FLOAT32 = 2**24
"""float32 one-hot products count agreements exactly below this many samples."""


def pairwise_kappa_error(tree_preds, y, n_classes):
    """Kappa and mean error of every pair of trees, pairs in ``np.triu_indices(L, 1)`` order.

    ``tree_preds`` (L, n) holds class indices in ``[0, n_classes)`` (e.g. a forest's
    ``tree_predictions``), ``y`` (n,) the true class indices (a value outside
    ``[0, n_classes)``, e.g. -1 for a class the forest never saw, is an error of every
    tree).  With ``c_i(k)`` the number of samples tree i puts in class k and ``a_ij`` the
    number where trees i and j agree, Eq. (5) is ``P1 = a_ij / n``, Eq. (6)
    ``P2 = sum_k c_i(k) c_j(k) / n**2`` and
    ``kappa = (P1 - P2) / (1 - P2)``, computed as ``(n a_ij - sum_k c_i c_j) /
    (n**2 - sum_k c_i c_j)`` on exact integer counts.  Where both trees predict one and the
    same class on every sample, kappa is 0/0: NaN, as ``sklearn.metrics.cohen_kappa_score``.

    Returns ``(kappa, error)``, two arrays of length L(L-1)/2.
    """
    preds = np.asarray(tree_preds)
    y = np.asarray(y)
    if preds.ndim != 2 or y.shape != preds.shape[1:]:
        raise ValueError(
            f"tree_preds must be (n_trees, n_samples) and y (n_samples,), got {preds.shape} and {y.shape}"
        )
    if preds.size and (preds.min() < 0 or preds.max() >= n_classes):
        raise ValueError(f"tree predictions must be class indices in [0, {n_classes})")
    n_trees, n = preds.shape
    if n >= _EXACT_FLOAT32:
        raise ValueError(f"at most {_EXACT_FLOAT32 - 1} samples, got {n}")
    agree = np.zeros((n_trees, n_trees))
    counts = np.empty((n_trees, n_classes))
    for k in range(n_classes):
        one_hot = (preds == k).astype(np.float32)
        agree += one_hot @ one_hot.T
        counts[:, k] = one_hot.sum(axis=1)
    chance = counts @ counts.T
    i, j = np.triu_indices(n_trees, 1)
    with np.errstate(invalid="ignore", divide="ignore"):
        kappa = (n * agree[i, j] - chance[i, j]) / (n * n - chance[i, j])
    errors = np.mean(preds != y, axis=1)
    return kappa, (errors[i] + errors[j]) / 2


def kappa_error_centroid(kappa, error):
    """``(mean kappa, mean error)`` over the pairs whose kappa is defined (not NaN)."""
    kappa = np.asarray(kappa, dtype=np.float64)
    defined = ~np.isnan(kappa)
    return float(kappa[defined].mean()), float(np.asarray(error)[defined].mean())


def oob_metrics(oob_decision_function, y, classes, names):
    """The metrics ``names`` (``evaluation.metrics``) of out-of-bag predictions.

    Each row's prediction is ``classes[argmax]`` of its out-of-bag votes (a forest's
    ``oob_decision_function_``; ties to the first class).  Rows that were never out of bag
    (NaN) are left out; ``n_scored`` and ``n_unscored`` count the rows used and left out.
    """
    decision = np.asarray(oob_decision_function)
    scored = ~np.isnan(decision).any(axis=1)
    y_pred = np.asarray(classes)[np.argmax(decision[scored], axis=1)]
    metrics = compute_metrics(np.asarray(y)[scored], y_pred, names)
    return {**metrics, "n_scored": int(scored.sum()), "n_unscored": int((~scored).sum())}
