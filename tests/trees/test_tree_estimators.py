"""The scikit-learn estimators: conventions (``check_estimator``), the forest's bagging,
seeds, voting and out-of-bag predictions."""

import numpy as np
import pytest
from sklearn.ensemble import RandomForestClassifier
from sklearn.utils.estimator_checks import check_estimator
from tree_data import load_pmlb

from forestrepro.ensembles.forest import PluggableForestClassifier
from forestrepro.trees import PluggableTreeClassifier
from forestrepro.trees.rules import Midpoint


@pytest.mark.parametrize(
    "estimator",
    [
        PluggableTreeClassifier(),
        PluggableTreeClassifier(Midpoint("iig", of="data"), max_features="sqrt", random_state=0),
        PluggableForestClassifier(n_estimators=10),
        PluggableForestClassifier(
            n_estimators=10,
            split_rule="gain_ratio",
            voting="hard",
            subspace_size=0.5,
            max_features=None,
            oob_score=True,
            random_state=0,
        ),
    ],
    ids=["tree", "tree-midpoint-iig", "forest", "forest-gain-ratio-hard-oob"],
)
@pytest.mark.filterwarnings("ignore:Some inputs do not have OOB scores")
def test_check_estimator(estimator):
    # no check is waived; only check_array_api_input is skipped (array-api-compat absent)
    check_estimator(estimator, on_skip=None)


@pytest.fixture(scope="module")
def wine():
    return load_pmlb("wine_recognition")


def test_forest_does_not_depend_on_n_jobs(wine):
    X, y = wine
    probas = [
        PluggableForestClassifier(20, n_jobs=n_jobs, random_state=7).fit(X, y).predict_proba(X)
        for n_jobs in (1, 2)
    ]
    np.testing.assert_array_equal(*probas)
    other = PluggableForestClassifier(20, random_state=8).fit(X, y).predict_proba(X)
    assert not np.array_equal(probas[0], other)


def test_forest_draws_scikit_learns_seeds_and_bootstraps(wine):
    X, y = wine
    ours = PluggableForestClassifier(5, random_state=3).fit(X, y)
    theirs = RandomForestClassifier(5, random_state=3).fit(X, y)
    assert [t.random_state for t in ours.estimators_] == [t.random_state for t in theirs.estimators_]
    from sklearn.ensemble._forest import _generate_sample_indices

    for tree, seed in zip(ours.estimators_, [t.random_state for t in theirs.estimators_]):
        counts = np.bincount(_generate_sample_indices(seed, len(y), len(y), None), minlength=len(y))
        np.testing.assert_array_equal(tree.bootstrap_weight_, counts)


def test_bootstrap_size_and_no_bootstrap(wine):
    X, y = wine
    forest = PluggableForestClassifier(3, max_samples=0.5, random_state=0).fit(X, y)
    for tree in forest.estimators_:
        assert tree.bootstrap_weight_.sum() == len(y) // 2
        assert tree.tree_.weighted_n_node_samples[0] == len(y) // 2
    full = PluggableForestClassifier(3, bootstrap=False, max_features=None, random_state=0).fit(X, y)
    assert full.estimators_[0].bootstrap_weight_ is None
    # without bootstrap or feature draws every tree is the same
    first, second = full.estimators_[0].tree_, full.estimators_[1].tree_
    np.testing.assert_array_equal(first.threshold, second.threshold)
    with pytest.raises(ValueError, match="oob_score"):
        PluggableForestClassifier(3, bootstrap=False, oob_score=True).fit(X, y)


def test_soft_and_hard_voting(wine):
    X, y = wine
    soft = PluggableForestClassifier(15, max_depth=2, random_state=0).fit(X, y)
    hard = PluggableForestClassifier(15, max_depth=2, voting="hard", random_state=0).fit(X, y)
    trees = [t.predict_proba(X) for t in soft.estimators_]
    np.testing.assert_allclose(soft.predict_proba(X), np.mean(trees, axis=0))
    votes = np.mean([np.eye(3)[np.argmax(p, axis=1)] for p in trees], axis=0)
    np.testing.assert_allclose(hard.predict_proba(X), votes)
    np.testing.assert_array_equal(hard.predict(X), hard.classes_[np.argmax(votes, axis=1)])


def test_out_of_bag_predictions(wine):
    X, y = wine
    forest = PluggableForestClassifier(30, oob_score=True, random_state=0).fit(X, y)
    classes = list(forest.classes_)
    y_index = np.array([classes.index(label) for label in y])
    total, n = np.zeros((len(y), 3)), np.zeros(len(y))
    for tree in forest.estimators_:
        oob = tree.bootstrap_weight_ == 0
        total[oob] += tree.predict_proba(X[oob])
        n[oob] += 1
    np.testing.assert_allclose(forest.oob_decision_function_, total / n[:, None])
    assert forest.oob_score_ == pytest.approx(np.mean(np.argmax(total, 1) == y_index))
    assert forest.oob_score_ > 0.9


def test_forest_accuracy_close_to_sklearn():
    X, y = load_pmlb("satimage")
    train, test = slice(0, 4500), slice(4500, None)
    ours = PluggableForestClassifier(30, random_state=0).fit(X[train], y[train])
    theirs = RandomForestClassifier(30, random_state=0).fit(X[train], y[train])
    assert abs(ours.score(X[test], y[test]) - theirs.score(X[test], y[test])) < 0.02
