"""PlainBiau12, the second implementation of the BRF paper's Biau12
(src/forestrepro/extensions/plain_biau12.py), checked by hand on tiny inputs and by
scikit-learn's estimator checks."""

import numpy as np
import pytest
from sklearn.utils.estimator_checks import check_estimator

from forestrepro.extensions.plain_biau12 import PlainBiau12, _grow, gain_ratios


def test_gain_ratio_of_the_midpoint_cut_by_hand():
    # feature 0: range [0, 4], cut 2 puts rows 0, 1 (a, a) left and 2, 3 (b, b) right: gain 1
    # bit, split information 1 bit, ratio 1. Feature 1: cut 0.5 puts row 0 (a) left and the
    # rest (a, b, b) right: gain 1 - 3/4 H(1/3) = 0.3113, split H(1/4) = 0.8113, ratio 0.3837.
    # Feature 2 is constant: -inf.
    X = np.array([[0, 0, 7], [1, 1, 7], [3, 1, 7], [4, 1, 7]], dtype=np.float32)
    h13 = -(1 / 3) * np.log2(1 / 3) - (2 / 3) * np.log2(2 / 3)
    h14 = -(1 / 4) * np.log2(1 / 4) - (3 / 4) * np.log2(3 / 4)
    ratios = gain_ratios(X, np.array([0, 0, 1, 1]), 2)
    np.testing.assert_allclose(ratios[:2], [1.0, (1 - 0.75 * h13) / h14])
    assert ratios[2] == -np.inf


def _tree(X, y, strong, h, seed):
    X = np.asarray(X, dtype=np.float32)
    return _grow(
        X,
        np.asarray(y, dtype=np.int64),
        int(max(y)) + 1,
        np.asarray(strong),
        h,
        X.min(axis=0).astype(float),
        X.max(axis=0).astype(float),
        seed,
    )


def test_cuts_halve_the_cell_and_never_the_data_range():
    # one feature on the root cell [0, 1]: rows 0 (a) and 0.1, 0.2 (b) sit in the cell's lowest
    # quarter, so every cut is a dyadic midpoint 0.5, 0.25, 0.125, 0.0625 ... of the cell, never
    # the midpoint of a node's rows (0.1, 0.05) as the other reading ("of data") would cut; a
    # bootstrap sample holding every row is cut at 0.5, then (the cell [0, 0.5] halved twice
    # while every row is on one side) at 0.125, then 0.0625 between rows 0 and 0.1
    all_cuts = []
    for seed in range(30):
        feature, threshold, _, _, leaf = _tree([[0.0], [0.1], [0.2], [1.0]], [0, 1, 1, 1], [True], 1, seed)
        cuts = threshold[feature >= 0]
        assert all(any(t * 2**k == round(t * 2**k) for k in range(1, 12)) for t in cuts)
        all_cuts.append(sorted(cuts))
    assert [0.0625, 0.125, 0.5] in all_cuts


@pytest.mark.parametrize("seed", range(10))
def test_a_drawn_strong_feature_is_always_chosen(seed):
    rng = np.random.default_rng(seed)
    X = rng.random((60, 5))
    y = (X[:, 3] > 0.5).astype(int)
    # h = M: every feature is drawn, so every cut is on the strong feature 3 while it can cut
    strong = np.array([False, False, False, True, False])
    feature, threshold, *_ = _tree(X, y, strong, 5, seed)
    assert feature[0] == 3 and threshold[0] == pytest.approx(X[:, 3].min() / 2 + X[:, 3].max() / 2)
    assert set(feature[feature >= 0]) == {3}


def test_the_forest_learns_a_one_feature_rule_and_votes_by_majority():
    rng = np.random.default_rng(0)
    X = rng.random((200, 3))
    y = np.where(X[:, 0] > 0.5, "b", "a")
    forest = PlainBiau12(n_estimators=25, random_state=0).fit(X, y)
    assert list(forest.strong_features_) == [0]  # int(sqrt(3)) = 1 strong: the informative one
    test = rng.random((100, 3))
    assert (forest.predict(test) == np.where(test[:, 0] > 0.5, "b", "a")).mean() > 0.95
    proba = forest.predict_proba(test)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    assert set(np.round(proba.ravel() * 25, 9)) <= set(range(26))  # shares of 25 tree votes


def test_scikit_learn_estimator_checks():
    check_estimator(PlainBiau12(n_estimators=5))
