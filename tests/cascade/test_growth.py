"""``growth.grow`` returns ``forest.fit``'s forest: the same trees node for node, the same
attributes, the same class vectors, on mirror data sets and seeds, whatever ``n_jobs``; and
it refuses a forest whose trees it would not reproduce."""

import os
from pathlib import Path

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.ensemble import ExtraTreesClassifier, GradientBoostingClassifier, RandomForestClassifier

from forestrepro.cascade.column_codes import column_codes
from forestrepro.cascade.growth import grow, tree_seeds
from forestrepro.data import load_dataset, load_spec

MIRROR = Path(
    os.environ.get("FORESTREPRO_MIRROR") or Path(__file__).resolve().parents[3] / "shared" / "datasets"
)
FORESTS = {
    "random forest": RandomForestClassifier(15, max_features="sqrt"),
    "completely random": ExtraTreesClassifier(15, max_features=1),
    "completely random, bootstrap": ExtraTreesClassifier(15, max_features=1, bootstrap=True),
    "random forest, log2, no bootstrap": RandomForestClassifier(15, max_features="log2", bootstrap=False),
}


@pytest.fixture(scope="module", params=["yeast", "iris", "wine", "ionosphere"])
def rows(request):
    frame = load_dataset(load_spec(request.param), sources=("mirror",), mirror_dir=MIRROR).frame
    X = frame.drop(columns="target").to_numpy(np.float32)
    _, y = np.unique(frame["target"].to_numpy(), return_inverse=True)
    return np.asfortranarray(X[:300]), y[:300]


def _without(attributes, name):
    return {key: value for key, value in attributes.items() if key != name}


def assert_same_forest(fitted, grown):
    assert repr(_without(vars(fitted), "estimators_")) == repr(_without(vars(grown), "estimators_"))
    assert len(fitted.estimators_) == len(grown.estimators_)
    for ours, theirs in zip(grown.estimators_, fitted.estimators_, strict=True):
        assert repr(_without(vars(ours), "tree_")) == repr(_without(vars(theirs), "tree_"))
        mine, reference = ours.tree_.__getstate__(), theirs.tree_.__getstate__()
        assert mine["node_count"] == reference["node_count"]
        assert np.array_equal(mine["nodes"], reference["nodes"])  # features, thresholds, children, impurities
        assert np.array_equal(mine["values"], reference["values"])


@pytest.mark.parametrize("kind", FORESTS)
@pytest.mark.parametrize("seed", [0, 7])
def test_grown_forest_is_scikit_learns_fit(rows, kind, seed):
    X, y = rows
    forest = FORESTS[kind].set_params(random_state=seed)
    fitted = clone(forest).fit(X, y)
    grown = grow(clone(forest), X, y)
    assert_same_forest(fitted, grown)
    assert np.array_equal(grown.predict_proba(X), fitted.predict_proba(X))
    if forest.bootstrap:
        for ours, theirs in zip(grown.estimators_samples_, fitted.estimators_samples_, strict=True):
            assert np.array_equal(ours, theirs)


def test_threads_do_not_change_the_trees(rows):
    X, y = rows
    forest = RandomForestClassifier(12, random_state=3)
    threaded = grow(clone(forest).set_params(n_jobs=2), X, y)
    assert_same_forest(grow(clone(forest), X, y), threaded.set_params(n_jobs=None))


def test_a_class_missing_from_a_bootstrap_sample_keeps_its_column():
    X = np.arange(40, dtype=np.float32).reshape(-1, 1)
    y = np.r_[np.zeros(39, dtype=int), 1]  # class 1 has one row: some bootstrap samples miss it
    forest = RandomForestClassifier(30, random_state=1)
    assert_same_forest(clone(forest).fit(X, y), grow(clone(forest), X, y))


def test_seeds_are_the_forests():
    forest = RandomForestClassifier(5, random_state=11).fit(np.eye(4), [0, 1, 0, 1])
    assert tree_seeds(11, 5) == [tree.random_state for tree in forest.estimators_]


@pytest.mark.parametrize(
    ("forest", "named"),
    [
        (RandomForestClassifier(5, max_depth=3), "max_depth=3"),
        (ExtraTreesClassifier(5, criterion="entropy"), "criterion='entropy'"),
        (RandomForestClassifier(5, class_weight="balanced"), "class_weight='balanced'"),
        (RandomForestClassifier(5, oob_score=True), "oob_score=True"),
        (GradientBoostingClassifier(), "GradientBoostingClassifier"),
    ],
)
def test_a_forest_grow_would_not_reproduce_is_refused_by_name(forest, named):
    with pytest.raises(ValueError, match=named.replace("(", r"\(")):
        grow(forest, np.eye(4, dtype=np.float32), [0, 1, 0, 1])


@pytest.mark.parametrize("kind", FORESTS)
def test_a_fold_grown_from_the_whole_inputs_codes_is_scikit_learns_fit_on_its_rows(rows, kind):
    X, y = rows
    fold = np.random.default_rng(1).random(len(y)) < 2 / 3  # a fold's rows: some values leave with the others
    forest = FORESTS[kind].set_params(random_state=5)
    fitted = clone(forest).fit(X[fold], y[fold])
    grown = grow(clone(forest), X[fold], y[fold], codes=column_codes(X).rows(fold))
    assert_same_forest(fitted, grown)


def test_codes_of_other_rows_are_refused():
    X = np.eye(4, dtype=np.float32)
    with pytest.raises(ValueError, match=r"codes of shape \(3, 4\) do not code X of shape \(4, 4\)"):
        grow(RandomForestClassifier(3), X, [0, 1, 0, 1], codes=column_codes(X).rows([0, 1, 2]))
