"""The three forests of the RCRF paper: scikit-learn conventions, priority-class draws,
feature subsets, votes, out-of-bag predictions, per-tree predictions, determinism."""

import numpy as np
import pytest
from rcrf_data import load_pmlb
from sklearn.utils.estimator_checks import check_estimator

from forestrepro.ensembles.credal import BreimanForestClassifier, CredalForestClassifier
from forestrepro.ensembles.rcrf import PriorityClassTree, RCRFClassifier
from forestrepro.trees import PluggableTreeClassifier
from forestrepro.trees._nodes import LEAF


@pytest.mark.parametrize(
    "estimator",
    [
        RCRFClassifier(10),
        RCRFClassifier(
            10,
            feature_subset="per_tree",
            priority_draw="present",
            absent_class_labels="binary",
            voting="soft",
            oob_score=True,
            random_state=0,
        ),
        CredalForestClassifier(10),
        CredalForestClassifier(10, discretize="mdl", oob_score=True, random_state=0),
        CredalForestClassifier(10, stop="pure", random_state=0),
        CredalForestClassifier(10, splits="multiway", oob_score=True, random_state=0),
        CredalForestClassifier(10, splits="multiway", stop="pure", discretize="mdl", random_state=0),
        BreimanForestClassifier(10, oob_score=True, random_state=0),
        BreimanForestClassifier(10, max_features="log2+1", random_state=0),
    ],
    ids=[
        "rcrf",
        "rcrf-other-readings",
        "crf",
        "crf-mdl",
        "crf-pure",
        "crf-multiway",
        "crf-multiway-mdl",
        "rf",
        "rf-log2+1",
    ],
)
@pytest.mark.filterwarnings("ignore:Some inputs do not have OOB scores")
def test_check_estimator(estimator):
    check_estimator(estimator, on_skip=None)


@pytest.fixture(scope="module")
def ecoli():
    return load_pmlb("ecoli")


def test_priority_class_draws():
    # class 2 has one row: out of a tree's bootstrap sample with probability ~ 1/e
    rng = np.random.default_rng(0)
    y = np.repeat([0, 1, 2], [150, 50, 1])
    X = rng.normal(size=(len(y), 3)) + y[:, None]
    every = RCRFClassifier(300, random_state=0).fit(X, y)
    drawn = np.bincount(every.priority_classes_, minlength=3)
    assert drawn.min() > 60  # uniform over all classes, not by size
    absent = [tree.bootstrap_weight_[-1] == 0 for tree in every.estimators_]
    assert 0 < np.sum(absent & (every.priority_classes_ == 2))
    present = RCRFClassifier(300, priority_draw="present", random_state=0).fit(X, y)
    for tree, omega in zip(present.estimators_, present.priority_classes_):
        assert tree.bootstrap_weight_[y == omega].sum() > 0
    assert np.sum(present.priority_classes_ == 2) < drawn[2]


def test_a_tree_without_its_priority_class_is_a_gini_tree(ecoli):
    X, y = ecoli
    classes, y_encoded = np.unique(y, return_inverse=True)
    omega = len(classes) - 1
    weight = np.where(y_encoded == omega, 0.0, 1.0)  # omega left out of the sample
    seed = next(s for s in range(100) if np.random.default_rng(s).choice(len(classes)) == omega)
    trees = []
    for tree in (
        PriorityClassTree(max_features=2, random_state=seed),
        PluggableTreeClassifier("gini", max_features=2, random_state=seed),
    ):
        tree.classes_, tree.n_features_in_ = classes, X.shape[1]
        trees.append(tree._fit_encoded(X, y_encoded, weight).tree_)
    assert trees[0].node_count > 1
    np.testing.assert_array_equal(trees[0].feature, trees[1].feature)
    np.testing.assert_array_equal(trees[0].threshold, trees[1].threshold)


def test_feature_subsets_per_node_and_per_tree(ecoli):
    X, y = ecoli  # M = 7 features: log2 gives m = 2
    per_tree = RCRFClassifier(20, feature_subset="per_tree", random_state=0).fit(X, y)
    per_node = RCRFClassifier(20, random_state=0).fit(X, y)
    for tree in per_tree.estimators_:
        assert len(tree.features_) == 2
        internal = tree.tree_.children_left != LEAF
        assert set(tree.tree_.feature[internal]) <= set(tree.features_)
    used = [set(t.tree_.feature[t.tree_.children_left != LEAF]) for t in per_node.estimators_]
    assert all(len(t.features_) == 7 for t in per_node.estimators_)
    assert max(map(len, used)) > 2


@pytest.mark.parametrize("forest", [RCRFClassifier, CredalForestClassifier, BreimanForestClassifier])
def test_votes_oob_and_tree_predictions(ecoli, forest):
    X, y = ecoli
    model = forest(25, oob_score=True, random_state=0).fit(X, y)
    preds = model.tree_predictions(X)
    assert preds.shape == (25, len(y))
    n_classes = len(model.classes_)
    votes = np.eye(n_classes)[preds]  # (trees, samples, classes)
    np.testing.assert_allclose(model.predict_proba(X), votes.mean(axis=0))
    oob = np.array([t.bootstrap_weight_ == 0 for t in model.estimators_])
    with np.errstate(invalid="ignore"):
        expected = (votes * oob[:, :, None]).sum(axis=0) / oob.sum(axis=0)[:, None]
    np.testing.assert_allclose(model.oob_decision_function_, expected)


@pytest.mark.parametrize(
    "forest",
    [
        lambda **kw: RCRFClassifier(30, **kw),
        lambda **kw: RCRFClassifier(30, feature_subset="per_tree", priority_draw="present", **kw),
        lambda **kw: CredalForestClassifier(30, **kw),
        lambda **kw: CredalForestClassifier(30, discretize="mdl", **kw),
    ],
    ids=["rcrf", "rcrf-per-tree", "crf", "crf-mdl"],
)
def test_forests_do_not_depend_on_n_jobs(ecoli, forest):
    X, y = ecoli
    fits = [forest(n_jobs=n_jobs, oob_score=True, random_state=3).fit(X, y) for n_jobs in (1, 2)]
    np.testing.assert_array_equal(*(f.tree_predictions(X) for f in fits))
    np.testing.assert_array_equal(*(f.oob_decision_function_ for f in fits))
    other = forest(random_state=4).fit(X, y)
    assert not np.array_equal(fits[0].tree_predictions(X), other.tree_predictions(X))


def test_rcrf_rejects_unknown_readings(ecoli):
    X, y = ecoli
    for params in (
        {"feature_subset": "per_leaf"},
        {"priority_draw": "largest"},
        {"absent_class_labels": "zeros"},
    ):
        with pytest.raises(ValueError, match=next(iter(params))):
            RCRFClassifier(2, **params).fit(X, y)
    with pytest.raises(ValueError, match="discretize"):
        CredalForestClassifier(2, discretize="equal_width").fit(X, y)
