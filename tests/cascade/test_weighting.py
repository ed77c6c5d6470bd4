"""Eq. (4) on hand-made accuracies (including a = 1 and a <= 1/2), the tree accuracies of
Eqs. (1)-(3) from training and out-of-bag rows, and the weighted sum of Eqs. (5)-(6)."""

import numpy as np
import pytest
from cascade_helpers import blobs
from sklearn.ensemble import ExtraTreesClassifier, RandomForestClassifier
from sklearn.utils.estimator_checks import check_estimator

from forestrepro.cascade.weighting import (
    WeightedForestClassifier,
    log_odds_weights,
    tree_accuracies,
    weighted_proba,
)


def test_eq4_on_hand_made_accuracies():
    # log2(0.9/0.1) = log2 9, log2(0.8/0.2) = 2, log2(0.6/0.4) = log2 1.5
    log_odds = np.array([np.log2(9), 2.0, np.log2(1.5)])
    for rule in ("clip", "drop"):
        np.testing.assert_allclose(log_odds_weights([0.9, 0.8, 0.6], rule=rule), log_odds / log_odds.sum())
    # W_k is proportional to the log-odds, whatever the number of trees
    weights = log_odds_weights([0.9, 0.8, 0.6, 0.9])
    assert weights[0] == pytest.approx(weights[3])
    assert weights[0] / weights[1] == pytest.approx(np.log2(9) / 2)


def test_a_equal_one_is_clipped_to_one_minus_epsilon():
    for rule in ("clip", "drop"):
        weights = log_odds_weights([1.0, 0.9], rule=rule, epsilon=1e-3)
        expected = np.array([np.log2(0.999 / 0.001), np.log2(9)])
        np.testing.assert_allclose(weights, expected / expected.sum())
    # only perfect trees: equal finite weights (all clipped alike)
    np.testing.assert_allclose(log_odds_weights([1.0, 1.0, 1.0, 1.0]), 0.25)


def test_a_at_or_below_one_half():
    floor = np.log2(0.501 / 0.499)
    clipped = log_odds_weights([0.5, 0.3, 0.75], rule="clip", epsilon=1e-3)
    expected = np.array([floor, floor, np.log2(3)])
    np.testing.assert_allclose(clipped, expected / expected.sum())
    assert np.all(clipped > 0)
    np.testing.assert_allclose(log_odds_weights([0.5, 0.3, 0.75], rule="drop"), [0, 0, 1])
    # no tree above 1/2: "drop" falls back to the plain average, "clip" is uniform anyway
    np.testing.assert_allclose(log_odds_weights([0.5, 0.2, 0.0], rule="drop"), 1 / 3)
    np.testing.assert_allclose(log_odds_weights([0.5, 0.2, 0.0], rule="clip"), 1 / 3)


@pytest.mark.parametrize("kwargs", [dict(rule="mean"), dict(epsilon=0.0), dict(epsilon=0.5)])
def test_weight_arguments_are_checked(kwargs):
    with pytest.raises(ValueError):
        log_odds_weights([0.7, 0.8], **kwargs)


@pytest.mark.parametrize("accuracy", [[], [1.2], [[0.7]]])
def test_accuracies_are_checked(accuracy):
    with pytest.raises(ValueError):
        log_odds_weights(accuracy)


@pytest.fixture(scope="module")
def data():
    return blobs(120, n_features=5, n_classes=3, seed=1)


def _argmax_accuracy(tree, X, y):
    return np.mean(np.argmax(tree.predict_proba(X), axis=1) == y)


def test_train_accuracy_is_eq3_on_the_training_rows(data):
    X, y = data
    forest = RandomForestClassifier(10, random_state=0).fit(X, y)
    expected = [_argmax_accuracy(tree, X, y) for tree in forest.estimators_]
    np.testing.assert_allclose(tree_accuracies(forest, X, y, "train"), expected)
    # a completely random tree grown on all rows is right on all of them: a = 1
    crf = ExtraTreesClassifier(10, max_features=1, random_state=0).fit(X, y)
    np.testing.assert_array_equal(tree_accuracies(crf, X, y, "train"), 1.0)


def test_oob_accuracy_uses_each_trees_out_of_bag_rows(data):
    X, y = data
    forest = ExtraTreesClassifier(10, max_features=1, bootstrap=True, random_state=0).fit(X, y)
    expected = []
    for tree, in_bag in zip(forest.estimators_, forest.estimators_samples_):
        oob = np.setdiff1d(np.arange(len(y)), in_bag)
        expected.append(_argmax_accuracy(tree, X[oob], y[oob]))
    accuracies = tree_accuracies(forest, X, y, "oob")
    np.testing.assert_allclose(accuracies, expected)
    assert np.all(accuracies < 1.0)
    with pytest.raises(ValueError, match="bootstrap"):
        tree_accuracies(ExtraTreesClassifier(3).fit(X, y), X, y, "oob")


def test_a_tree_without_out_of_bag_rows_is_scored_on_all_rows():
    # two rows: about half the bootstrap samples draw both, leaving no out-of-bag row
    X, y = np.array([[0.0], [1.0]]), np.array([0, 1])
    forest = RandomForestClassifier(20, random_state=0).fit(X, y)
    expected, without = [], 0
    for tree, in_bag in zip(forest.estimators_, forest.estimators_samples_):
        rows = np.setdiff1d(np.arange(2), in_bag)
        without += rows.size == 0
        rows = rows if rows.size else np.arange(2)
        expected.append(_argmax_accuracy(tree, X[rows], y[rows]))
    assert 0 < without < 20
    np.testing.assert_array_equal(tree_accuracies(forest, X, y, "oob"), expected)


def test_weighted_forest_is_the_weighted_sum_of_eqs_5_6(data):
    X, y = data
    model = WeightedForestClassifier(RandomForestClassifier(12), random_state=3).fit(X, y)
    trees = model.forest_.estimators_
    np.testing.assert_allclose(model.weights_, log_odds_weights(model.tree_accuracies_))
    expected = sum(w * tree.predict_proba(X) for w, tree in zip(model.weights_, trees))
    np.testing.assert_allclose(model.predict_proba(X), expected, rtol=1e-12)
    assert not np.allclose(model.weights_, 1 / 12)


def test_unweighted_forest_is_scikit_learns_average(data):
    X, y = data
    model = WeightedForestClassifier(RandomForestClassifier(12), weighting="none", random_state=3).fit(X, y)
    reference = RandomForestClassifier(12, random_state=3).fit(X, y)
    np.testing.assert_allclose(model.predict_proba(X), reference.predict_proba(X), rtol=1e-12)
    assert model.tree_accuracies_ is None


def test_weighted_sum_does_not_depend_on_n_jobs(data):
    X, y = data
    forest = RandomForestClassifier(40, random_state=0).fit(X, y)
    weights = np.random.default_rng(0).dirichlet(np.ones(40))
    np.testing.assert_array_equal(
        weighted_proba(forest.estimators_, weights, X, 1), weighted_proba(forest.estimators_, weights, X, 2)
    )


def test_weighted_forest_check_estimator():
    # no check is waived; only check_array_api_input is skipped (array-api-compat absent)
    check_estimator(WeightedForestClassifier(RandomForestClassifier(5)), on_skip=None)
