"""PlainGainRatioRF, the second implementation of the BRF paper's RF
(src/forestrepro/extensions/plain_rf_gr.py), checked by hand on tiny inputs, against a brute
force, against our rf_gr on the same draws and folds, and by scikit-learn's estimator checks."""

import math

import numpy as np
import pytest
from sklearn.datasets import load_wine
from sklearn.model_selection import StratifiedKFold
from sklearn.preprocessing import MinMaxScaler
from sklearn.utils.estimator_checks import check_estimator

from forestrepro.ensembles.brf import GainRatioForestClassifier
from forestrepro.extensions.plain_rf_gr import (
    PlainGainRatioRF,
    _tree_votes,
    gain_ratio,
    grow_tree,
    subspace_size,
)


def _wine():
    X, y = load_wine(return_X_y=True)
    return MinMaxScaler().fit_transform(X).astype(np.float32), y


def test_gain_ratio_of_a_cut_by_hand():
    # 6 rows, classes (a, b) = (3, 3): H = 1 bit. Left (2, 0), right (1, 3): gain
    # 1 - 4/6 H(1/4) = 1/2 log2 3 - 1/3, split information H(1/3) = log2 3 - 2/3, ratio exactly 1/2
    assert gain_ratio(np.array([2.0, 0.0]), np.array([1.0, 3.0])) == pytest.approx(0.5, abs=1e-12)
    # a cut that separates the classes: gain 1 bit, split information 1 bit
    assert gain_ratio(np.array([3.0, 0.0]), np.array([0.0, 3.0])) == pytest.approx(1.0, abs=1e-12)
    # a cut that leaves the class frequencies as they were: no gain
    assert gain_ratio(np.array([1.0, 1.0]), np.array([2.0, 2.0])) == pytest.approx(0.0, abs=1e-12)


def _root_cut(X, y):
    """The (feature, threshold) of the root of a tree on every row, trying every feature."""
    X = np.asarray(X, dtype=np.float32)
    y = np.asarray(y, dtype=np.int64)
    feature, threshold, *_ = grow_tree(X, y, int(y.max()) + 1, np.arange(len(y)), np.arange(X.shape[1]))
    return feature[0], threshold[0]


def _brute_force_gain_ratio(x, y, t):
    """The gain ratio of the cut x <= t, from the definitions, in plain Python."""

    def entropy(labels):
        n = len(labels)
        return -sum(labels.count(c) / n * math.log2(labels.count(c) / n) for c in set(labels))

    left = [c for v, c in zip(x, y) if v <= t]
    right = [c for v, c in zip(x, y) if v > t]
    p = len(left) / len(y)
    gain = entropy(list(y)) - p * entropy(left) - (1 - p) * entropy(right)
    return gain / -(p * math.log2(p) + (1 - p) * math.log2(1 - p))


def test_a_stump_on_six_rows_is_the_brute_force_best_cut():
    X = np.array([[0.1, 0.9], [0.2, 0.8], [0.4, 0.8], [0.4, 0.3], [0.7, 0.2], [0.9, 0.1]], dtype=np.float32)
    y = [0, 0, 1, 0, 1, 1]
    # every cut is the midpoint of two consecutive distinct values of a feature; the best gain
    # ratio wins, ties (here 0.3 and 0.55 on feature 0, both 1/2) to the lower feature, then the
    # lower threshold
    candidates = []
    for f in range(2):
        values = sorted(set(X[:, f].tolist()))
        for low, high in zip(values, values[1:]):
            t = low / 2 + high / 2
            candidates.append((round(_brute_force_gain_ratio(X[:, f].tolist(), y, t), 12), -f, -t, f, t))
    score, _, _, f_best, t_best = max(candidates)
    feature, threshold = _root_cut(X, y)
    assert (feature, threshold) == (f_best, pytest.approx(t_best))
    left = np.bincount(np.array(y)[X[:, feature] <= threshold], minlength=2).astype(float)
    assert gain_ratio(left, np.bincount(y, minlength=2) - left) == pytest.approx(score)


def test_ties_go_to_the_lower_feature_then_the_lower_threshold():
    # features 0 and 1 are copies: the same best cuts on both; feature 0's is taken. On it the
    # cuts 0.15 and 0.65 leave the same counts mirrored, (1, 0 | 1, 2) and (1, 2 | 1, 0): the lower
    X = np.array([[0.0, 0.0], [0.3, 0.3], [0.4, 0.4], [0.9, 0.9]], dtype=np.float32)
    feature, threshold = _root_cut(X, [0, 1, 1, 0])
    assert feature == 0 and threshold == pytest.approx(0.15)


def test_values_closer_than_1e7_are_one_value():
    X = np.array([[0.5], [0.5 + 5e-8], [0.9]], dtype=np.float32)
    assert X[0, 0] != X[1, 0]
    feature, threshold = _root_cut(X, [0, 1, 1])
    assert feature == 0 and threshold == pytest.approx(0.7)


def test_a_node_is_cut_until_pure_or_no_feature_varies():
    # rows 0, 1 equal with different classes: their leaf is impure, predicting the first class
    X = np.array([[0.2], [0.2], [0.8]], dtype=np.float32)
    feature, threshold, left, right, leaf_class = grow_tree(
        X, np.array([1, 0, 1], dtype=np.int64), 2, np.arange(3), np.array([0])
    )
    assert list(feature) == [0, -1, -1] and threshold[0] == pytest.approx(0.5)
    assert leaf_class[left[0]] == 0 and leaf_class[right[0]] == 1


@pytest.mark.parametrize(
    ("n_features", "h_offset", "h"), [(60, 0, 6), (18, 0, 4), (4, 0.5, 3), (2, -5, 1), (8, 9, 8)]
)
def test_h_is_rounded_half_up_and_clipped(n_features, h_offset, h):
    assert subspace_size(n_features, h_offset) == h


def test_with_every_feature_and_no_bootstrap_the_trees_are_deterministic():
    X, y = _wine()
    forests = [
        PlainGainRatioRF(3, h_offset=10, bootstrap=False, random_state=seed).fit(X, y) for seed in (0, 1)
    ]
    trees = [tree for forest in forests for tree in forest.trees_]
    for tree in trees[1:]:
        for mine, first in zip(tree, trees[0]):
            np.testing.assert_array_equal(mine, first)
    assert all(list(s) == list(range(X.shape[1])) for f in forests for s in f.subspaces_)


def test_each_tree_is_rf_gr_s_tree_on_the_same_draws():
    # our rf_gr's trees, each regrown here on its bootstrap sample (rows repeated as often as
    # drawn) and its subspace: the same leaf for every point of the cube
    X, y = _wine()
    forest = GainRatioForestClassifier(10, h_offset=1, random_state=0).fit(X, y)
    points = np.random.default_rng(0).random((2000, X.shape[1])).astype(np.float32)
    for ours in forest.estimators_:
        rows = np.repeat(np.arange(len(y)), ours.bootstrap_weight_.astype(np.int64))
        tree = grow_tree(X, y.astype(np.int64), 3, rows, ours.features_.astype(np.int64))
        assert len(tree[0]) == ours.tree_.node_count
        np.testing.assert_array_equal(_tree_votes(points, *tree), ours.predict(points))


def test_each_tree_draws_h_features_and_a_bootstrap_sample():
    X, y = _wine()
    forest = PlainGainRatioRF(20, h_offset=0, random_state=0).fit(X, y)
    assert {len(s) for s in forest.subspaces_} == {4}  # round(log2 13) = 4
    assert len({tuple(s) for s in forest.subspaces_}) > 1
    for subspace, (feature, *_) in zip(forest.subspaces_, forest.trees_):
        assert set(feature[feature >= 0]) <= set(subspace)
    proba = forest.predict_proba(X)
    assert set(np.round(proba.ravel() * 20, 9)) <= set(range(21))  # shares of 20 tree votes


def test_its_accuracy_agrees_with_rf_gr_under_the_same_folds():
    X, y = _wine()
    plain, ours = [], []
    for train, test in StratifiedKFold(5, shuffle=True, random_state=0).split(X, y):
        for forest, scores in ((PlainGainRatioRF, plain), (GainRatioForestClassifier, ours)):
            fitted = forest(50, h_offset=1, random_state=1).fit(X[train], y[train])
            scores.append(np.mean(fitted.predict(X[test]) == y[test]))
    assert np.mean(plain) > 0.9
    assert abs(np.mean(plain) - np.mean(ours)) < 0.03


def test_scikit_learn_estimator_checks():
    check_estimator(PlainGainRatioRF(n_estimators=5))


def test_the_brf_paper_runs_it_beside_table_2s_rf():
    from forestrepro.config import compose_config

    cfg = compose_config(profile="paper")
    brf = cfg["paper"]["brf"]
    experiment = brf["experiments"]["independent_rf_gr"]
    assert experiment["methods"] == ["plain_rf_gr"] and experiment["protocol"] == "brf_cv5"
    # every data set of Table 2 but usps, whose rf_gr cell lies within tolerance (the cost)
    assert experiment["datasets"] == [d for d in brf["experiments"]["main"]["datasets"] if d != "usps"]
    assert list(brf["tables"]["independent_rf_gr"]["datasets"]) == experiment["datasets"]
    assert brf["tables"]["independent_rf_gr"]["methods"] == {"plain_rf_gr": "RFs"}
    assert cfg["method"]["plain_rf_gr"]["grid"] == cfg["method"]["rf_gr"]["grid"]
    assert (
        cfg["method"]["plain_rf_gr"]["params"]["n_estimators"]
        == cfg["method"]["rf_gr"]["params"]["n_estimators"]
    )
    # the textbook RF's second implementation also runs on isolet
    assert "isolet" in brf["experiments"]["independent_rf"]["datasets"]
    assert "isolet" in brf["tables"]["independent_rf"]["datasets"]
