"""CRF (Abellán, Mantas and Castellano 2017): IIG splits against hand-computed values, the
leaf rule, the subset size, Fayyad-Irani discretisation and raw-threshold mapping."""

import numpy as np
import pytest
from rcrf_data import load_pmlb

from forestrepro._validation import resolve_count
from forestrepro.ensembles.credal import (
    BreimanForestClassifier,
    CredalForestClassifier,
    CredalTree,
    bin_codes,
    mdl_cut_points,
)
from forestrepro.trees import PluggableTreeClassifier
from forestrepro.trees._nodes import LEAF
from forestrepro.trees.rules import BestThreshold


def _fit(tree, X, y, weight=None):
    tree.classes_, y_encoded = np.unique(y, return_inverse=True)
    tree.n_features_in_ = X.shape[1]
    weight = np.ones(len(y)) if weight is None else weight
    return tree._fit_encoded(np.asarray(X, np.float32), y_encoded, weight)


# x = 1..6, y = 0 0 0 0 1 2, IDM s = 1 (the builder's hand example, tests/trees):
# H*(4, 1, 1) = 1.413800; cut 4.5: H*(4, 0, 0) = 0.921928, H*(0, 1, 1) = log2 3;
# IIG = 1.413800 - 4/6 0.921928 - 2/6 1.584963 = 0.270860, the best cut.
# Left (4, 0, 0) is pure; right (0, 1, 1): H* = log2 3, each child (0, 1, 0) has
# p* = (.5, 1, .5)/2 -> H* = 1.5, IIG = 1.584963 - 1.5 = 0.084963 > 0: cut at 5.5.
def test_credal_tree_on_the_hand_example():
    X = np.arange(1, 7, dtype=np.float32)[:, None]
    tree = _fit(CredalTree(BestThreshold("iig")), X, [0, 0, 0, 0, 1, 2]).tree_
    assert (tree.feature[0], tree.threshold[0]) == (0, 4.5)
    right = tree.children_right[0]
    assert tree.threshold[right] == 5.5
    assert tree.node_count == 5


def test_a_node_without_positive_iig_is_a_leaf():
    # x = 1..5, y = 0 0 1 0 0.  H*(4, 1) = H((4, 2)/6) = 0.918296.  Cut 1.5: H*(1, 0) = 1,
    # H*(3, 1) = H((3, 2)/5) = 0.970951, IIG = 0.918296 - 1/5 - 4/5 0.970951 = -0.058465;
    # cut 2.5: H*(2, 0) = 0.918296, H*(2, 1) = 1, IIG = 3/5 0.918296 - 3/5 = -0.049022; the
    # other two cuts mirror these.  No positive IIG: one leaf, although Gini cuts the node.
    X = np.arange(1, 6, dtype=np.float32)[:, None]
    y = [0, 0, 1, 0, 0]
    assert _fit(CredalTree(BestThreshold("iig")), X, y).tree_.node_count == 1
    assert _fit(PluggableTreeClassifier("gini"), X, y).tree_.node_count > 1
    # with s = 0 (no imprecision) IIG is the information gain and the node is cut
    assert _fit(CredalTree(BestThreshold("iig", s=0.0)), X, y).tree_.node_count > 1


@pytest.mark.parametrize(
    "forest",
    [CredalForestClassifier(), BreimanForestClassifier(max_features="log2+1")],
    ids=["crf", "rf-log2+1"],
)
def test_subset_size_is_int_log2_plus_one(forest):
    for n_features, expected in [(1, 1), (2, 2), (4, 3), (6, 3), (7, 3), (8, 4), (16, 5), (17, 5), (216, 8)]:
        forest.n_features_in_ = n_features
        assert forest._make_tree(0).max_features == expected


def test_the_rf_draws_int_log2_m_features_by_default_and_one_more_under_log2_plus_one():
    # M = 7 (ecoli): int(log2 7) = 2, Breiman's int(log2 7 + 1) = 3; M = 8: 3 and 4; M = 17: 4 and 5
    for n_features, default, plus_one in [(7, 2, 3), (8, 3, 4), (17, 4, 5)]:
        X = np.random.default_rng(0).normal(size=(40, n_features))
        y = (X[:, 0] > 0).astype(int)
        for max_features, size in [("log2", default), ("log2+1", plus_one)]:
            forest = BreimanForestClassifier(3, max_features=max_features, random_state=0).fit(X, y)
            drawn = {resolve_count(t.max_features, n_features, "max_features") for t in forest.estimators_}
            assert drawn == {size}


def test_mdl_cut_points():
    x = np.arange(30, dtype=np.float32)
    three = np.repeat([0, 1, 2], 10)
    np.testing.assert_array_equal(mdl_cut_points(x, three, np.ones(30), 3), [9.5, 19.5])
    # alternating classes: no cut pays for itself
    assert mdl_cut_points(x, np.arange(30) % 2, np.ones(30), 2).size == 0
    # four rows 0 0 1 1: Gain 1 > (log2 3 + log2 7 - 2) / 4 = 0.598, one cut
    np.testing.assert_array_equal(mdl_cut_points(x[:4], np.array([0, 0, 1, 1]), np.ones(4), 2), [1.5])
    # weights are multiplicities; rows of weight 0 do not count
    rng = np.random.default_rng(0)
    xs, ys = rng.integers(0, 12, 60).astype(np.float32), rng.integers(0, 3, 60)
    w = rng.integers(0, 3, 60).astype(float)
    keep = np.repeat(np.arange(60), w.astype(int))
    np.testing.assert_array_equal(
        mdl_cut_points(xs, ys, w, 3), mdl_cut_points(xs[keep], ys[keep], np.ones(keep.size), 3)
    )
    with pytest.raises(ValueError, match="integer"):
        mdl_cut_points(xs, ys, w / 2, 3)


def test_mdl_gain_threshold_by_hand():
    x = np.arange(4, dtype=np.float32)
    # classes 0 0 0 | 1: E = 0, Gain = Ent(3, 1) = 0.811278; Delta = log2 7 - 2 * 0.811278
    # = 1.184799; threshold (log2 3 + Delta) / 4 = 0.692441 < Gain: cut at 2.5.
    np.testing.assert_array_equal(mdl_cut_points(x, np.array([0, 0, 0, 1]), np.ones(4), 2), [2.5])
    # classes 0 | 1 0 1: E = 3/4 Ent(1, 2) = 0.688722, Gain = 1 - E = 0.311278;
    # Delta = log2 7 - (2 * 1 - 0 - 2 * 0.918296) = 2.643947; threshold
    # (log2 3 + Delta) / 4 = 1.057228 > Gain: no cut.
    assert mdl_cut_points(x, np.array([0, 1, 0, 1]), np.ones(4), 2).size == 0


def test_discretised_tree_predicts_on_raw_values():
    X, y = load_pmlb("wine_recognition")
    weight = np.bincount(np.random.default_rng(0).integers(0, len(y), len(y)), minlength=len(y)).astype(float)
    credal = _fit(
        CredalTree(BestThreshold("iig"), max_features=4, discretize="mdl", random_state=5), X, y, weight
    )
    codes = bin_codes(X, credal.cut_points_)
    on_codes = _fit(
        PluggableTreeClassifier(BestThreshold("iig"), max_features=4, random_state=5), codes, y, weight
    )
    np.testing.assert_array_equal(credal.tree_.apply(X), on_codes.tree_.apply(codes))
    internal = np.flatnonzero(credal.tree_.children_left != LEAF)
    assert all(credal.tree_.threshold[n] in credal.cut_points_[credal.tree_.feature[n]] for n in internal)
    # cut points come from the tree's own bootstrap sample only
    inbag = weight > 0
    for f, cuts in enumerate(credal.cut_points_):
        np.testing.assert_array_equal(
            cuts, mdl_cut_points(X[inbag, f], np.unique(y, return_inverse=True)[1][inbag], weight[inbag], 3)
        )
