"""Seed derivation and metrics against hand-computed values."""

import numpy as np
import pytest

from forestrepro.evaluation.metrics import compute_metrics
from forestrepro.evaluation.seeds import derive_seed, model_seed, split_seed


def test_seeds_are_stable_and_distinct():
    assert derive_seed(1, "brf", "svm") == derive_seed(1, "brf", "svm")
    assert derive_seed(1, "brf", "svm") != derive_seed(2, "brf", "svm")
    assert model_seed(1, "brf", "svm", "wine", 0, 0) != model_seed(1, "brf", "knn", "wine", 0, 0)
    assert split_seed(1, "brf", "wine", 0) != split_seed(1, "brf", "sonar", 0)
    assert 0 <= derive_seed(1, "x") < 2**32


def test_metrics_by_hand():
    # 6 samples, 2 classes; confusion: TP=2, FN=1, FP=1, TN=2.
    y_true = np.array([1, 1, 1, 0, 0, 0])
    y_pred = np.array([1, 1, 0, 1, 0, 0])
    got = compute_metrics(y_true, y_pred, ["accuracy", "f1_macro", "kappa", "mcc", "mcc_pct"])
    assert got["accuracy"] == pytest.approx(4 / 6)
    assert got["f1_macro"] == pytest.approx(2 / 3)  # both classes: P = R = 2/3
    assert got["kappa"] == pytest.approx((4 / 6 - 0.5) / 0.5)
    assert got["mcc"] == pytest.approx((2 * 2 - 1 * 1) / 9)  # (TP TN - FP FN) / sqrt(3^4)
    assert got["mcc_pct"] == pytest.approx((1 / 3 + 1) / 2 * 100)


def test_mcc_pct_is_50_for_a_constant_prediction():
    got = compute_metrics(np.array([0, 1, 1, 0]), np.array([1, 1, 1, 1]), ["mcc_pct"])
    assert got["mcc_pct"] == pytest.approx(50.0)


def test_unknown_metric_is_named():
    with pytest.raises(ValueError, match="auc"):
        compute_metrics(np.array([0]), np.array([0]), ["auc"])
