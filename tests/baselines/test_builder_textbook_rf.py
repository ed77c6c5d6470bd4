"""BuilderTextbookRF, the textbook RF grown by our tree builder (src/forestrepro/extensions/
builder_textbook_rf.py): a second implementation of conf/method/rf.yaml's scikit-learn forest."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.tree import DecisionTreeClassifier
from sklearn.utils.estimator_checks import check_estimator

from forestrepro.ensembles.textbook_rf import TextbookRandomForestClassifier
from forestrepro.extensions.builder_textbook_rf import BuilderTextbookRF


def test_one_tree_on_one_feature_is_scikit_learns_entropy_tree():
    # no bootstrap, one feature (so no ties between features, which each code breaks at random
    # in its own way): each tree is the fully grown information-gain tree of the whole data,
    # which scikit-learn's CART grows too
    rng = np.random.default_rng(0)
    for trial in range(40):
        n = int(rng.integers(5, 80))
        X = rng.integers(0, 8, size=(n, 1)).astype(float) if trial % 2 else rng.normal(size=(n, 1))
        y = rng.integers(0, 2, size=n)
        X_new = 3 * rng.normal(size=(300, 1))
        ours = BuilderTextbookRF(n_estimators=1, k_offset=10, bootstrap=False, random_state=trial)
        theirs = DecisionTreeClassifier(criterion="entropy", random_state=trial)
        assert np.array_equal(ours.fit(X, y).predict(X_new), theirs.fit(X, y).predict(X_new)), trial


@pytest.mark.parametrize(
    ("n_features", "k_offset", "k"), [(40, 0, 5), (40, -1, 4), (256, 4, 12), (4, 4, 4), (2, -1, 1)]
)
def test_features_per_node_follow_the_textbook_rfs_grid(n_features, k_offset, k):
    X = np.random.default_rng(1).normal(size=(30, n_features))
    y = np.arange(30) % 2
    forest = BuilderTextbookRF(n_estimators=2, k_offset=k_offset, random_state=0).fit(X, y)
    assert {tree.max_features for tree in forest.estimators_} == {k}


def test_it_scores_as_the_scikit_learn_forest_does_on_one_data_set():
    # the same forest in distribution: accuracies on held-out rows within a few points
    rng = np.random.default_rng(2)
    X = rng.normal(size=(600, 10))
    y = (X[:, :3].sum(axis=1) + 0.7 * rng.normal(size=600) > 0).astype(int)
    train, test = slice(0, 400), slice(400, None)
    ours = BuilderTextbookRF(k_offset=0, random_state=0).fit(X[train], y[train]).score(X[test], y[test])
    theirs = (
        TextbookRandomForestClassifier(max_features=3, random_state=0)
        .fit(X[train], y[train])
        .score(X[test], y[test])
    )
    assert abs(ours - theirs) < 0.04, (ours, theirs)


def test_scikit_learn_estimator_checks():
    check_estimator(BuilderTextbookRF(n_estimators=5))
