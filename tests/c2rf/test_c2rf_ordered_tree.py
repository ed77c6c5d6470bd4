"""Our numpy CART (c2rf/ordered_tree.py): in column order the C2RF ``split_ties="first_feature"``
reading, in a random order per node (``tree_code="numpy"``) a second implementation of
scikit-learn's tree. Scikit-learn's tree where no two features tie, the first feature in the scan's
order where they do, each split checked against a brute-force search in exact arithmetic."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from sklearn.tree import DecisionTreeClassifier

from forestrepro.c2rf.instances import build_instance, tree_votes
from forestrepro.c2rf.ordered_tree import OrderedTree, best_split
from forestrepro.methods.base import MethodConfigError
from forestrepro.methods.c2rf import C2RFApproach


@pytest.mark.parametrize("feature_order", ["column", "random"])
@pytest.mark.parametrize("criterion", ["gini", "entropy"])
def test_one_feature_gives_scikit_learns_tree(criterion, feature_order):
    # with one feature nothing ties between features, so the tree is scikit-learn's, on
    # continuous values and on repeated integer values (splits only between distinct values)
    rng = np.random.default_rng(0)
    for trial in range(120):
        n = int(rng.integers(2, 60))
        X = rng.integers(0, 6, size=(n, 1)).astype(float) if trial % 2 else rng.normal(size=(n, 1))
        y = rng.integers(0, 2, size=n)
        X_new = 3 * rng.normal(size=(200, 1))
        ours = OrderedTree(criterion, feature_order, random_state=trial).fit(X, y).predict(X_new)
        theirs = DecisionTreeClassifier(criterion=criterion, random_state=trial).fit(X, y).predict(X_new)
        assert np.array_equal(ours, theirs), trial


# Worked example: both features separate the classes exactly, feature 0 at 1.5 (between 1 and
# 2), feature 1 at 25 (between 20 and 30). The point (3, 10) is positive by feature 0 and
# negative by feature 1, so the tree's answer shows which feature took the tie.
X_TIE = np.array([[0.0, 10.0], [1.0, 20.0], [2.0, 30.0], [5.0, 40.0]])
Y_TIE = np.array([0, 0, 1, 1])


def test_a_tie_goes_to_the_first_feature_in_column_order():
    assert best_split(X_TIE, Y_TIE) == (0, 1.5)
    assert OrderedTree().fit(X_TIE, Y_TIE).predict(np.array([[3.0, 10.0]])).tolist() == [1]
    swapped = X_TIE[:, ::-1]
    assert best_split(swapped, Y_TIE) == (0, 25.0)
    assert OrderedTree().fit(swapped, Y_TIE).predict(np.array([[10.0, 3.0]])).tolist() == [0]


def _exact_gini_cost(y_left, y_right):
    """n_l Gini_l + n_r Gini_r as a fraction: the quantity the proxy maximises, negated."""
    cost = Fraction(0)
    for part in (y_left, y_right):
        n, p = len(part), int(sum(part))
        cost += Fraction(n) - Fraction(p * p + (n - p) * (n - p), n)
    return cost


def _brute_force_split(X, y, order=None):
    """Every (feature, threshold) between distinct values, in ``order`` (default column order)
    then value order; the first of the smallest exact cost."""
    best = None
    for f in range(X.shape[1]) if order is None else order:
        values = np.unique(X[:, f])
        for lo, hi in zip(values[:-1], values[1:]):
            left = X[:, f] <= lo
            cost = _exact_gini_cost(y[left].tolist(), y[~left].tolist())
            if best is None or cost < best[0]:
                best = (cost, f, (lo + hi) / 2)
    return None if best is None else best[1:]


def test_each_split_is_the_brute_force_first_best():
    # small integer data: many features and thresholds tie exactly
    rng = np.random.default_rng(3)
    checked = 0
    for _ in range(60):
        n, p = int(rng.integers(3, 14)), int(rng.integers(2, 7))
        X = rng.integers(0, 4, size=(n, p)).astype(float)
        y = rng.integers(0, 2, size=n)
        if y.min() == y.max():
            continue
        assert best_split(X, y) == _brute_force_split(X, y)
        order = rng.permutation(p)
        assert best_split(X, y, order=order) == _brute_force_split(X, y, order)
        checked += 1
    assert checked > 40


def test_a_random_order_gives_each_tied_feature_as_often_as_scikit_learn():
    # on the worked example the two features tie at the root: scikit-learn and the numpy CART in
    # a random order each give feature 0 to about half of the trees (400 seeds each; a column
    # order would give it to all of them)
    point = np.array([[3.0, 10.0]])
    ours = [
        OrderedTree(feature_order="random", random_state=s).fit(X_TIE, Y_TIE).predict(point)[0]
        for s in range(400)
    ]
    theirs = [DecisionTreeClassifier(random_state=s).fit(X_TIE, Y_TIE).predict(point)[0] for s in range(400)]
    assert 0.4 < np.mean(ours) < 0.6 and 0.4 < np.mean(theirs) < 0.6


def test_numpy_tree_code_grows_the_default_forest_in_distribution():
    # the same rows per tree (the stream is the same), trees of our code: on the worked example the
    # votes split as scikit-learn's do, and where nothing ties (one feature) they are the same votes
    rng = np.random.default_rng(6)
    X = rng.normal(size=(300, 1))
    y = (X[:, 0] + rng.normal(scale=0.8, size=300) > 0.3).astype(int)
    X_new = rng.normal(size=(100, 1))
    default = tree_votes(X, y, X_new, np.random.default_rng(0))
    numpy_code = tree_votes(X, y, X_new, np.random.default_rng(0), tree_code="numpy")
    assert np.array_equal(default, numpy_code)
    grow = {"n_trees": 200, "subset_fraction": 1.0}
    ties = tree_votes(
        X_TIE, Y_TIE, np.array([[3.0, 10.0]]), np.random.default_rng(0), tree_code="numpy", **grow
    )
    assert 0.35 < np.mean(ties == 1) < 0.65


def test_tree_is_grown_until_pure_and_predicts_its_training_points():
    rng = np.random.default_rng(4)
    X = rng.integers(0, 5, size=(40, 4)).astype(float)
    y = rng.integers(0, 2, size=40)
    X, first = np.unique(X, axis=0, return_index=True)
    y = y[first]
    assert np.array_equal(OrderedTree().fit(X, y).predict(X), y)


def test_one_feature_instances_are_the_default_ones():
    # the random stream is the same under either tie rule: with one feature the trees agree,
    # so the whole instance does
    rng = np.random.default_rng(5)
    X = rng.normal(size=(800, 1))
    y = (X[:, 0] + rng.normal(scale=0.8, size=800) > 0.3).astype(int)
    for sampling in ("biased", "srs"):
        default = build_instance(X, y, sampling=sampling, seed=1, fraction=0.05)
        ordered = build_instance(X, y, sampling=sampling, seed=1, fraction=0.05, split_ties="first_feature")
        assert np.array_equal(default.R, ordered.R)
        assert np.array_equal(default.labeled, ordered.labeled)


def test_tie_rule_changes_the_trees_where_features_tie():
    # on the worked example every tree grown on all four points ties between the two features:
    # scikit-learn's random order gives some trees feature 1 (vote -1 on (3, 10)), the first-feature
    # rule gives every tree feature 0 (vote +1)
    X_new = np.array([[3.0, 10.0]])
    grow = {"n_trees": 20, "subset_fraction": 1.0}
    default = tree_votes(X_TIE, Y_TIE, X_new, np.random.default_rng(0), **grow)
    first = tree_votes(X_TIE, Y_TIE, X_new, np.random.default_rng(0), split_ties="first_feature", **grow)
    assert (default == 1).any() and (default == -1).any()
    assert (first == 1).all()


def test_first_feature_needs_every_feature():
    with pytest.raises(ValueError, match="split_ties='first_feature' needs max_features='all'"):
        tree_votes(
            X_TIE, Y_TIE, X_TIE, np.random.default_rng(0), max_features="sqrt", split_ties="first_feature"
        )
    with pytest.raises(MethodConfigError, match="method 'bad'.*split_ties"):
        C2RFApproach("bad", {"vote": True, "max_features": "sqrt", "split_ties": "first_feature"}, {})
    with pytest.raises(MethodConfigError, match="method 'bad'.*split_ties"):
        C2RFApproach("bad", {"vote": True, "split_ties": "last"}, {})
    with pytest.raises(ValueError, match="tree_code='numpy' needs max_features='all'"):
        tree_votes(X_TIE, Y_TIE, X_TIE, np.random.default_rng(0), max_features="sqrt", tree_code="numpy")
    with pytest.raises(MethodConfigError, match="method 'bad'.*tree_code"):
        C2RFApproach("bad", {"vote": True, "tree_code": "julia"}, {})


def test_labels_must_be_binary():
    with pytest.raises(ValueError, match="labels must be 0 or 1"):
        OrderedTree().fit(X_TIE, np.array([0, 1, 2, 1]))
    with pytest.raises(ValueError, match="criterion"):
        OrderedTree("log_loss")
    with pytest.raises(ValueError, match="feature_order"):
        OrderedTree(feature_order="reverse")
