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


def test_f1_readings_by_hand():
    """Classes a (6 rows), b (5) and c (2); a: TP 5, FN 1, FP 1; b: TP 4, FN 1, FP 1; c: TP 1, FN 1,
    FP 1. F1 = 2 TP / (2 TP + FP + FN): a 10/12, b 8/10, c 2/4."""
    y_true = np.array(["a"] * 6 + ["b"] * 5 + ["c"] * 2)
    y_pred = np.array(["a"] * 5 + ["b"] + ["b"] * 4 + ["c"] + ["c", "a"])
    got = compute_metrics(y_true, y_pred, ["f1_macro", "f1_weighted", "f1_macro_min5"])
    f1 = {"a": 10 / 12, "b": 8 / 10, "c": 2 / 4}
    assert got["f1_macro"] == pytest.approx((f1["a"] + f1["b"] + f1["c"]) / 3)
    assert got["f1_weighted"] == pytest.approx((6 * f1["a"] + 5 * f1["b"] + 2 * f1["c"]) / 13)
    assert got["f1_macro_min5"] == pytest.approx((f1["a"] + f1["b"]) / 2)  # c has 2 rows: left out


def test_mcc_pct_is_50_for_a_constant_prediction():
    got = compute_metrics(np.array([0, 1, 1, 0]), np.array([1, 1, 1, 1]), ["mcc_pct"])
    assert got["mcc_pct"] == pytest.approx(50.0)


def test_unknown_metric_is_named():
    with pytest.raises(ValueError, match="auc"):
        compute_metrics(np.array([0]), np.array([0]), ["auc"])
