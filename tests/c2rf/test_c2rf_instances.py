"""Instances of Sec. 5.1 / Appendix A: duplicates, scaling, sampling, trees, determinism."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from sklearn.datasets import make_classification

from forestrepro.c2rf.experiment import mcc, run_instance
from forestrepro.c2rf.instances import build_instance, draw_labeled, drop_duplicate_rows, scale_features


@pytest.fixture(scope="module")
def data():
    X, y = make_classification(n_samples=3000, n_features=6, weights=[0.7], random_state=0)
    X[:, 0] *= 1000.0  # a coordinate that needs the +-100 rescaling
    return np.vstack([X, X[:25]]), np.concatenate([y, y[:25]])  # 25 exact duplicate rows


def test_duplicates_dropped(data):
    X, y = data
    X2, y2 = drop_duplicate_rows(X, y)
    assert len(y2) == 3000 and np.array_equal(X2, X[:3000])
    # equal features with different labels are kept
    assert len(drop_duplicate_rows(np.zeros((2, 2)), np.array([0, 1]))[1]) == 2


def test_scaling(data):
    X = scale_features(data[0])
    half = (X.max(axis=0) - X.min(axis=0)) / 2
    assert np.allclose(X.max(axis=0) + X.min(axis=0), 0.0)  # centred at the mid-range
    assert np.isclose(X[:, 0].min(), -100.0) and np.isclose(X[:, 0].max(), 100.0)
    assert np.allclose(half[1:], (data[0][:, 1:].max(axis=0) - data[0][:, 1:].min(axis=0)) / 2)


@pytest.mark.parametrize("bias", ["share", "inclusion"])
def test_biased_sample_over_represents_positives(bias, data):
    y = data[1]
    shares = [
        y[draw_labeled(y, "biased", np.random.default_rng(s), bias=bias, fraction=0.1)].mean()
        for s in range(20)
    ]
    assert len(draw_labeled(y, "srs", np.random.default_rng(0))) == round(0.01 * len(y))
    expected = 0.85 if bias == "share" else 0.3 * 0.85 / (0.3 * 0.85 + 0.7 * 0.15)
    assert abs(np.mean(shares) - expected) < 0.05


def test_biased_sample_defaults_to_inclusion(data):
    y = data[1]
    default = draw_labeled(y, "biased", np.random.default_rng(1), fraction=0.1)
    assert np.array_equal(
        default, draw_labeled(y, "biased", np.random.default_rng(1), bias="inclusion", fraction=0.1)
    )
    assert not np.array_equal(
        default, draw_labeled(y, "biased", np.random.default_rng(1), bias="share", fraction=0.1)
    )


def test_instance_is_deterministic(data):
    X, y = data
    a = build_instance(X, y, sampling="biased", seed=3)
    b = build_instance(X, y, sampling="biased", seed=3)
    c = build_instance(X, y, sampling="biased", seed=4)
    assert np.array_equal(a.R, b.R) and np.array_equal(a.labeled, b.labeled) and a.lam == b.lam
    assert not np.array_equal(a.labeled, c.labeled)
    assert a.R.shape == (20, 3000 - 30) and set(np.unique(a.R)) <= {-1, 1}
    assert a.lam == int(a.y_unlabeled.sum()) and a.n_rows == 3000


def test_run_instance_rows(data):
    X, y = data
    approaches = {
        "RF": None,
        "C2RF": {"preprocess": False},
        "p-C2RF+": {"local_search": True, "dominance": True},
    }
    rows = run_instance(X, y, sampling="srs", seed=0, approaches=approaches, time_limit=2)
    assert [r["approach"] for r in rows] == list(approaches)
    for row in rows:
        assert {
            "accuracy",
            "mcc",
            "mcc_pct",
            "eta",
            "status",
            "gap",
            "best_bound",
            "seconds",
            "nodes",
            "n_unique_patterns",
            "lam",
            "solved",
        } <= set(row)
        assert row["status"] in ("majority_vote", "optimal", "time_limit")
        if not np.isnan(row["mcc"]):
            assert np.isclose(row["mcc_pct"], (row["mcc"] + 1) / 2 * 100)


def test_mcc_of_one_class_prediction_is_zero():
    assert mcc(np.array([0, 1, 1]), np.array([0, 0, 0])) == 0.0  # printed as 50.0 in the paper
    assert mcc(np.array([0, 1, 1]), np.array([0, 1, 1])) == 1.0


MIRROR = Path(__file__).resolve().parents[3] / "shared" / "datasets"


@pytest.mark.skipif(not (MIRROR / "pmlb" / "phoneme.tsv.gz").exists(), reason="data mirror not available")
def test_table1_rows_after_dropping_duplicates():
    from forestrepro.data import apply_paper_target, load_dataset, load_spec

    spec = load_spec("phoneme")
    frame = load_dataset(spec, mirror_dir=MIRROR).frame
    y = apply_paper_target(frame["target"].to_numpy(), spec, "c2rf")
    instance = build_instance(frame.drop(columns="target").to_numpy(float), y, sampling="biased", seed=0)
    assert instance.n_rows == 5349  # C2RF Table 1
