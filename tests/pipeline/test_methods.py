"""Methods: grids, configuration errors, and the textbook forest's estimator checks."""

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.utils.estimator_checks import check_estimator

from forestrepro.config import compose_config
from forestrepro.ensembles.textbook_rf import TextbookRandomForestClassifier
from forestrepro.methods import MethodConfigError, build_method
from forestrepro.methods.baselines import subset_size
from forestrepro.methods.registry import METHODS, method_class


def test_subset_size_is_round_log2_plus_offset():
    # M = 34: log2 34 = 5.087 -> h = 5 + C.
    assert [subset_size(34, c) for c in (-1, 0, 1, 2)] == [4, 5, 6, 7]
    # M = 8: log2 8 = 3 exactly; half-way 3.5 rounds up.
    assert subset_size(8, 0.5) == 4
    assert subset_size(8, 100) == 8 and subset_size(8, -100) == 1


def test_svm_grid_is_powers_of_two():
    m = build_method(
        {"name": "svm", "estimator": "svm_rbf", "params": {}, "grid": {"log2_C": [-1, 3], "log2_gamma": [0]}}
    )
    assert m.param_grid(10) == {"C": [0.5, 8.0], "gamma": [1.0]}


def test_unknown_estimator_and_grid_key_are_named():
    with pytest.raises(MethodConfigError, match="svm_linear"):
        build_method({"name": "svm", "estimator": "svm_linear", "params": {}, "grid": {}})
    with pytest.raises(MethodConfigError, match="log2_c"):
        build_method({"name": "svm", "estimator": "svm_rbf", "params": {}, "grid": {"log2_c": [1]}})
    with pytest.raises(MethodConfigError, match="n_trees"):
        build_method({"name": "rf", "estimator": "textbook_rf", "params": {"n_trees": 3}, "grid": {}})


def test_every_estimator_key_names_its_class_and_every_configured_method_builds():
    # The registry imports each method's module lazily, so a mistyped key shows only here.
    assert {key: method_class(key).key for key in METHODS} == {key: key for key in METHODS}
    cfg = compose_config(profile="paper")
    for name, method in cfg["method"].items():
        assert build_method(method).name == name


def test_majority_vote_counts_trees():
    X, y = make_classification(n_samples=120, n_features=6, random_state=0)
    forest = TextbookRandomForestClassifier(n_estimators=7, voting="hard", random_state=0).fit(X, y)
    votes = np.stack([tree.predict(X).astype(int) for tree in forest.ensemble_.estimators_])
    expected = (votes == 1).sum(axis=0) > 3.5
    np.testing.assert_array_equal(forest.predict(X), expected.astype(int))
    np.testing.assert_allclose(forest.predict_proba(X)[:, 1], (votes == 1).mean(axis=0))


@pytest.mark.parametrize("feature_subset", ["per_node", "per_tree"])
def test_same_seed_same_forest_whatever_n_jobs(feature_subset):
    X, y = make_classification(n_samples=150, n_features=8, n_classes=3, n_informative=4, random_state=1)
    a = TextbookRandomForestClassifier(
        n_estimators=10, feature_subset=feature_subset, random_state=3, n_jobs=1
    ).fit(X, y)
    b = TextbookRandomForestClassifier(
        n_estimators=10, feature_subset=feature_subset, random_state=3, n_jobs=2
    ).fit(X, y)
    np.testing.assert_array_equal(a.predict_proba(X), b.predict_proba(X))


@pytest.mark.parametrize(
    "params",
    [
        {"n_estimators": 5},
        {"n_estimators": 5, "feature_subset": "per_tree", "voting": "soft", "bootstrap_fraction": 0.8},
    ],
)
def test_textbook_forest_passes_check_estimator(params):
    check_estimator(TextbookRandomForestClassifier(**params, random_state=0))
