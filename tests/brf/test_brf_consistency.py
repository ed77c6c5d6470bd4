"""The BRF paper's Sec. 5.2 consistency experiment: the synthetic data source, the
learning-curve protocol, the greedy empirical-error forest, curve claims and the figure."""

import copy
import json

import numpy as np
import pandas as pd
import pytest

from forestrepro.data import DatasetError, load_dataset, load_spec
from forestrepro.data.registry import validate_spec
from forestrepro.data.synthetic import stripes_checkerboard
from forestrepro.ensembles.empirical_error_rf import EmpiricalErrorForestClassifier
from forestrepro.evaluation.learning_curve import learning_curve, learning_curve_split
from forestrepro.evaluation.protocol import ProtocolError
from forestrepro.evaluation.seeds import split_seed
from forestrepro.methods import build_method
from forestrepro.methods.base import Method
from forestrepro.report.claims import FAILS, HOLDS, UNKNOWN, evaluate_curve_claim
from forestrepro.report.paper_figures import draw_figure
from forestrepro.report.sections import _figure_claims

PROTOCOL = {
    "kind": "learning_curve",
    "train_sizes": [20, 60, 150],
    "test_size": 100,
    "repeats": 2,
    "metrics": ["accuracy"],
}


def _ee(n_estimators=5):
    return build_method(
        {
            "name": "ee_rf",
            "estimator": "empirical_error_rf",
            "params": {"n_estimators": n_estimators},
            "grid": {},
        }
    )


class _Recorder(Method):
    """A method that predicts class 0 and remembers which rows it was given."""

    key = "recorder"

    def __init__(self, name):
        super().__init__(name, {}, {})
        self.calls = []

    def estimator(self, random_state):
        from sklearn.dummy import DummyClassifier

        return DummyClassifier(strategy="constant", constant=0)

    def param_grid(self, n_features):
        return {}

    def fit_predict(self, X_train, y_train, X_test, random_state, n_jobs=1):
        self.calls.append((X_train[:, 0].copy(), X_test[:, 0].copy(), random_state))
        return np.zeros(len(X_test), dtype=int), {}


# --- the synthetic data source -------------------------------------------------------------


def test_synthetic_source_is_deterministic_balanced_and_labelled_synthetic():
    spec = load_spec("stripes_checkerboard")
    assert "SYNTHETIC" in spec["description"] and "mirror" not in spec and "openml" not in spec
    first = load_dataset(spec, sources=("mirror",), mirror_dir="/nonexistent")  # no source is read
    second = load_dataset(spec)
    pd.testing.assert_frame_equal(first.frame, second.frame)
    assert first.provenance["source"] == "synthetic" and first.provenance["files"] == []
    assert first.provenance["synthetic"]["seed"] == spec["synthetic"]["seed"]
    assert first.provenance["shape"] == spec["expected"]
    frame = first.frame
    assert list(frame.columns) == ["x1", "x2", "target"]
    X, y = stripes_checkerboard(spec["synthetic"]["n_samples"], seed=spec["synthetic"]["seed"])
    np.testing.assert_array_equal(frame[["x1", "x2"]].to_numpy(), X)
    np.testing.assert_array_equal(frame["target"].to_numpy(), y)
    assert frame["target"].mean() == pytest.approx(0.5, abs=0.01)


def test_synthetic_schema():
    spec = load_spec("stripes_checkerboard")
    for edit in (
        lambda s: s.update(mirror=load_spec("wine")["mirror"]),  # synthetic and a mirror file
        lambda s: s.update(openml=load_spec("wine")["openml"]),
        lambda s: s.pop("synthetic"),  # neither a source nor a generator
        lambda s: s["synthetic"].update(generator="moons"),
        lambda s: s["synthetic"].pop("seed"),
    ):
        bad = copy.deepcopy(spec)
        edit(bad)
        with pytest.raises(DatasetError, match="does not match"):
            validate_spec(bad, "edited stripes_checkerboard")
    bad = copy.deepcopy(spec)
    bad["expected"]["rows"] += 1
    with pytest.raises(DatasetError, match="shape mismatch"):
        load_dataset(bad)


# --- the learning-curve protocol -----------------------------------------------------------


def test_learning_curve_rows_and_determinism():
    X, y = stripes_checkerboard(400, seed=3)
    rows = learning_curve(_ee(), X, y, paper="brf", dataset="d", root_seed=7, protocol=PROTOCOL)
    assert len(rows) == 6
    assert list(rows["n_train"]) == [20, 60, 150] * 2 and list(rows["repeat"]) == [0, 0, 0, 1, 1, 1]
    assert list(rows["fold"]) == [0, 1, 2] * 2 and set(rows["n_test"]) == {100}
    np.testing.assert_allclose(rows["error"], 1 - rows["accuracy"])
    assert rows["error"].between(0, 1).all() and rows["model_seed"].nunique() == 6
    assert list(rows["split_seed"]) == [split_seed(7, "brf", "d", r) for r in (0, 0, 0, 1, 1, 1)]
    again = learning_curve(_ee(), X, y, paper="brf", dataset="d", root_seed=7, protocol=PROTOCOL, n_jobs=2)
    pd.testing.assert_frame_equal(rows.drop(columns="fit_seconds"), again.drop(columns="fit_seconds"))


def test_test_set_is_shared_and_training_sets_are_nested():
    X = np.column_stack([np.arange(400.0), np.zeros(400)])
    y = np.arange(400) % 2
    a, b = _Recorder("a"), _Recorder("b")
    for method in (a, b):
        learning_curve(method, X, y, paper="brf", dataset="d", root_seed=7, protocol=PROTOCOL)
    test, pool, _ = learning_curve_split(400, 100, 7, "brf", "d")
    assert len(test) == 100 and len(pool) == 300 and not set(test) & set(pool)
    for (train_a, test_a, seed_a), (train_b, test_b, seed_b) in zip(a.calls, b.calls):
        np.testing.assert_array_equal(test_a, test)  # the same test rows for every method and repeat
        np.testing.assert_array_equal(train_a, train_b)  # paired training sets
        assert seed_a != seed_b  # the model seed depends on the method
        assert not set(train_a) & set(test)
    for repeat in (0, 1):
        sets = [set(train) for train, _, _ in a.calls[3 * repeat : 3 * repeat + 3]]
        assert sets[0] < sets[1] < sets[2]  # nested
    assert set(a.calls[2][0]) != set(a.calls[5][0])  # repeats draw anew
    fraction = learning_curve_split(400, 0.25, 7, "brf", "d")[0]
    np.testing.assert_array_equal(fraction, test)


def test_learning_curve_errors():
    X, y = stripes_checkerboard(400, seed=3)
    with pytest.raises(ProtocolError, match="largest training size"):
        learning_curve(
            _ee(),
            X,
            y,
            paper="brf",
            dataset="d",
            root_seed=7,
            protocol={**PROTOCOL, "train_sizes": [20, 301]},
        )
    searched = build_method(
        {
            "name": "brf",
            "estimator": "banzhaf_rf",
            "params": {"n_estimators": 2},
            "grid": {"h_offset": [0, 1]},
        }
    )
    with pytest.raises(ProtocolError, match="grid: {}"):
        learning_curve(searched, X, y, paper="brf", dataset="d", root_seed=7, protocol=PROTOCOL)
    with pytest.raises(ProtocolError, match="cannot hold out"):
        learning_curve(
            _ee(), X, y, paper="brf", dataset="d", root_seed=7, protocol={**PROTOCOL, "test_size": 400}
        )


# --- the greedy empirical-error forest -----------------------------------------------------


def test_ee_forest_cuts_at_least_empirical_error():
    # x = 1..8, y = 0 0 1 0 0 1 1 1: the cut 5.5 classifies 7 of 8 points, every other cut at
    # most 6; no cut of the noise feature x2 classifies more than 6.
    x1 = np.arange(1, 9, dtype=float)
    x2 = np.array([3, 1, 4, 1, 5, 9, 2, 6], dtype=float)
    y = np.array([0, 0, 1, 0, 0, 1, 1, 1])
    forest = EmpiricalErrorForestClassifier(3, max_features=None, bootstrap=False, random_state=0)
    forest.fit(np.column_stack([x1, x2]), y)
    for tree in forest.estimators_:
        assert (int(tree.tree_.feature[0]), float(tree.tree_.threshold[0])) == (0, 5.5)
        assert tree.tree_.n_leaves >= 3  # grown on to pure cells
    assert (forest.predict(np.column_stack([x1, x2])) == y).all()


def test_ee_forest_fits_and_predicts():
    X, y = stripes_checkerboard(2000, seed=4)
    forest = EmpiricalErrorForestClassifier(10, random_state=0).fit(X[:1500], y[:1500])
    assert forest.voting == "hard" and len(forest.estimators_) == 10
    proba = forest.predict_proba(X[1500:])
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    assert (forest.predict(X[1500:]) == y[1500:]).mean() > 0.8
    again = EmpiricalErrorForestClassifier(10, random_state=0, n_jobs=2).fit(X[:1500], y[:1500])
    np.testing.assert_array_equal(again.predict_proba(X[1500:]), proba)
    budget = EmpiricalErrorForestClassifier(5, max_leaf_nodes=4, random_state=0).fit(X[:1500], y[:1500])
    assert all(tree.tree_.n_leaves <= 4 for tree in budget.estimators_)
    assert max(tree.tree_.n_leaves for tree in forest.estimators_) > 4


# --- curve claims and the figure -----------------------------------------------------------


def _curve_runs():
    rows = []
    for repeat in range(2):
        for n, falling, flat in ((100, 0.3, 0.20), (1000, 0.1, 0.21), (10000, 0.02, 0.19)):
            rows.append({"dataset": "d", "method": "a", "repeat": repeat, "n_train": n, "error": falling})
            rows.append({"dataset": "d", "method": "b", "repeat": repeat, "n_train": n, "error": flat})
    return pd.DataFrame(rows)


def test_curve_claims():
    runs = _curve_runs()

    def verdict(**claim):
        return evaluate_curve_claim({"text": "t", **claim}, runs)["ours"]

    assert verdict(kind="decreasing", a="a") == HOLDS
    assert verdict(kind="decreasing", a="b") == FAILS
    assert verdict(kind="final_at_least", a="b", bound=1 / 6) == HOLDS
    assert verdict(kind="final_at_least", a="a", bound=1 / 6) == FAILS
    assert verdict(kind="final_at_most", a="a", b="b") == HOLDS
    assert verdict(kind="final_at_most", a="c", b="b") == UNKNOWN
    assert evaluate_curve_claim({"text": "t", "kind": "decreasing", "a": "a"}, runs)["paper"] == UNKNOWN
    with pytest.raises(ValueError, match="unknown curve claim"):
        verdict(kind="dominates", a="a")


def test_learning_curve_figure(tmp_path):
    spec = {
        "kind": "learning_curve",
        "experiment": "consistency",
        "caption": "c",
        "metric": "error",
        "method_order": ["a", "b"],
        "claims": [{"text": "a falls", "kind": "decreasing", "a": "a"}],
    }
    written = draw_figure(_curve_runs(), spec, tmp_path / "fig2")
    assert [p.suffix for p in written] == [".png", ".pdf"]
    assert all(p.stat().st_size > 1000 for p in written)
    # the verdicts go beside the images, for the report's claims table under the figure
    claims = json.loads((tmp_path / "fig2.claims.json").read_text())
    assert [(c["claim"], c["ours"]) for c in claims] == [("a falls", HOLDS)]
    assert _figure_claims(tmp_path / "fig2.png") == claims
    assert _figure_claims(tmp_path / "elsewhere.png") == []
