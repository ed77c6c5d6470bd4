"""Readings of the C2RF paper's RF (Sec. 5.1 'the Decision Tree package', Sec. 5.2 (a) 'majority
vote'): each option of the instance's trees and of the vote, on inputs small enough to check by
hand, and the default path against a frozen copy of the algorithm every record was made with."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.tree import DecisionTreeClassifier

from forestrepro.c2rf.experiment import run_instance
from forestrepro.c2rf.instances import (
    build_instance,
    draw_labeled,
    drop_duplicate_rows,
    features_per_split,
    scale_features,
    tree_votes,
)
from forestrepro.c2rf.solver import majority_vote
from forestrepro.methods.base import MethodConfigError
from forestrepro.methods.c2rf import C2RFApproach


def _frozen_tree_votes(X_labeled, y_labeled, X_unlabeled, rng, n_trees=20, subset_fraction=0.2):
    """``instances.tree_votes`` as it was before the options (commit a4dc636), verbatim."""
    n = len(y_labeled)
    d = max(1, int(round(subset_fraction * n)))
    R = np.empty((n_trees, len(X_unlabeled)), dtype=np.int8)
    for j in range(n_trees):
        rows = rng.choice(n, size=d, replace=False)
        tree = DecisionTreeClassifier(random_state=int(rng.integers(2**31 - 1)))
        tree.fit(X_labeled[rows], y_labeled[rows])
        R[j] = np.where(tree.predict(X_unlabeled) == 1, 1, -1)
    return R


def _frozen_R(X, y, sampling, seed, fraction):
    """``build_instance``'s R as it was before the options, from its unchanged parts."""
    X, y = drop_duplicate_rows(np.asarray(X, dtype=np.float64), np.asarray(y).astype(np.int64))
    X = scale_features(X)
    sample_rng, tree_rng = (np.random.default_rng(s) for s in np.random.SeedSequence(seed).spawn(2))
    labeled = draw_labeled(y, sampling, sample_rng, fraction=fraction)
    unlabeled = np.setdiff1d(np.arange(len(y)), labeled)
    return _frozen_tree_votes(X[labeled], y[labeled], X[unlabeled], tree_rng)


@pytest.fixture(scope="module")
def data():
    X, y = make_classification(n_samples=1500, n_features=9, n_informative=3, weights=[0.7], random_state=1)
    return X, y


# A hand-checked split (8 labeled points, 5 positive): Gini prefers x0 <= 2.5 (weighted impurity
# 7/8 * 20/49 = 0.357 against 6/8 * 1/2 = 0.375 for x1 <= 0.5), entropy prefers x1 <= 0.5
# (6/8 * 1 = 0.750 against 7/8 * H(2/7) = 0.755). The point (3, 0) then falls in Gini's pure
# negative leaf {x0 > 2.5} and in entropy's pure positive leaf {x1 <= 0.5}.
X_SPLIT = np.array([[0, 2], [0, 1], [2, 0], [3, 2], [0, 1], [2, 1], [2, 3], [1, 0]], dtype=np.float64)
Y_SPLIT = np.array([0, 1, 1, 0, 1, 0, 1, 1])


@pytest.mark.parametrize("sampling", ["biased", "srs"])
def test_default_path_is_the_frozen_algorithm(data, sampling):
    X, y = data
    for seed in (0, 7):
        frozen = _frozen_R(X, y, sampling, seed, fraction=0.05)
        assert np.array_equal(build_instance(X, y, sampling=sampling, seed=seed, fraction=0.05).R, frozen)
        # the defaults spelled out are the same path
        spelled = build_instance(
            X,
            y,
            sampling=sampling,
            seed=seed,
            fraction=0.05,
            criterion="gini",
            max_features="all",
            with_replacement=False,
            subset_fraction=0.2,
        )
        assert np.array_equal(spelled.R, frozen)


def test_tie_counted_negative_by_default_and_positive_on_request():
    # two trees: point 0 and 1 tie (one vote each way), point 2 has both trees positive
    R = np.array([[1, -1, 1], [-1, 1, 1]])
    assert majority_vote(R).tolist() == [0, 0, 1]
    assert majority_vote(R, tie="negative").tolist() == [0, 0, 1]
    assert majority_vote(R, tie="positive").tolist() == [1, 1, 1]
    # no tie: both readings agree
    assert majority_vote(np.array([[1, -1], [1, -1], [-1, -1]]), tie="positive").tolist() == [1, 0]


def test_entropy_and_gini_trees_differ_on_the_hand_checked_split():
    X_unlabeled = np.array([[3.0, 0.0]])
    gini = tree_votes(X_SPLIT, Y_SPLIT, X_unlabeled, np.random.default_rng(0), subset_fraction=1.0)
    entropy = tree_votes(
        X_SPLIT, Y_SPLIT, X_unlabeled, np.random.default_rng(0), subset_fraction=1.0, criterion="entropy"
    )
    assert (gini == -1).all()
    assert (entropy == 1).all()


def test_with_replacement_draws_can_repeat_rows():
    # two labeled points, one per class, each tree on 2 rows: without replacement every tree sees
    # both and separates them (x <= 0 negative); with replacement a tree that drew one row twice
    # (probability 1/2 each) is constant, so the trees disagree on one of the two points
    X_labeled, y_labeled = np.array([[-1.0], [1.0]]), np.array([0, 1])
    X_unlabeled = np.array([[-2.0], [2.0]])
    without = tree_votes(X_labeled, y_labeled, X_unlabeled, np.random.default_rng(3), subset_fraction=1.0)
    assert (without == [[-1, 1]]).all()
    with_ = tree_votes(
        X_labeled,
        y_labeled,
        X_unlabeled,
        np.random.default_rng(3),
        subset_fraction=1.0,
        with_replacement=True,
    )
    constant = with_[:, 0] == with_[:, 1]
    assert constant.any() and not constant.all()
    # the draws themselves repeat: the stream tree_votes reads
    rng = np.random.default_rng(3)
    draws = []
    for _ in range(20):
        draws.append(rng.choice(2, size=2, replace=True))
        rng.integers(2**31 - 1)
    assert sum(len(set(d.tolist())) == 1 for d in draws) == int(constant.sum())


def test_sqrt_features_per_split_follow_decisiontree_jl():
    # DecisionTree.jl: round(Int, sqrt(p)); scikit-learn's own "sqrt" would floor 14 -> 3, 168 -> 12
    assert features_per_split("sqrt", 14) == 4
    assert features_per_split("sqrt", 168) == 13
    assert features_per_split("sqrt", 20) == 4
    assert features_per_split("sqrt", 1) == 1
    assert features_per_split("all", 168) is None


def test_sqrt_features_miss_the_one_separating_feature():
    # only column 0 separates the classes (clean2's pattern); with every feature each tree splits on
    # it and is right everywhere, with 3 of 9 features per split some trees split on noise first
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 9))
    y = (X[:, 0] > 0).astype(int)
    X_unlabeled = rng.normal(size=(200, 9))
    truth = np.where(X_unlabeled[:, 0] > 0, 1, -1)
    every = tree_votes(X, y, X_unlabeled, np.random.default_rng(1), subset_fraction=1.0)
    assert (every == truth).mean() > 0.95
    sqrt = tree_votes(X, y, X_unlabeled, np.random.default_rng(1), subset_fraction=1.0, max_features="sqrt")
    assert (sqrt == truth).mean() < (every == truth).mean()


def test_whole_sample_grows_every_tree_on_every_labeled_point():
    # 1.0 without replacement: each tree sees the 8 points (in another order), so on the
    # hand-checked split every Gini tree puts (3, 0) in its negative leaf; on a random 20 % (2 rows)
    # the trees differ
    X_unlabeled = np.array([[3.0, 0.0], [0.0, 1.0]])
    whole = tree_votes(X_SPLIT, Y_SPLIT, X_unlabeled, np.random.default_rng(5), subset_fraction=1.0)
    assert (whole[:, 0] == -1).all() and (whole[:, 1] == 1).all()
    part = tree_votes(X_SPLIT, Y_SPLIT, X_unlabeled, np.random.default_rng(5))
    assert not (part == whole).all()


def test_run_instance_threads_the_options(data):
    X, y = data
    options = {
        "criterion": "entropy",
        "max_features": "sqrt",
        "with_replacement": True,
        "subset_fraction": 0.7,
    }
    instance = build_instance(X, y, sampling="srs", seed=2, **options)
    assert not np.array_equal(instance.R, build_instance(X, y, sampling="srs", seed=2).R)
    (row,) = run_instance(X, y, sampling="srs", seed=2, approaches={"rf": None}, time_limit=1.0, **options)
    z = majority_vote(instance.R)
    assert row["eta"] == abs(int(z.sum()) - instance.lam)
    assert row["accuracy"] == pytest.approx(float(np.mean(z == instance.y_unlabeled)))
    (tied,) = run_instance(
        X, y, sampling="srs", seed=2, approaches={"rf": None}, time_limit=1.0, tie="positive", **options
    )
    assert tied["eta"] == abs(int(majority_vote(instance.R, tie="positive").sum()) - instance.lam)


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("criterion", "log_loss"),
        ("max_features", "log2"),
        ("with_replacement", "yes"),
        ("subset_fraction", 0.0),
        ("subset_fraction", 1),
    ],
)
def test_bad_tree_option_is_refused_by_name(option, value):
    with pytest.raises(ValueError, match=option):
        tree_votes(X_SPLIT, Y_SPLIT, X_SPLIT, np.random.default_rng(0), **{option: value})
    with pytest.raises(MethodConfigError, match=f"method 'bad'.*{option}"):
        C2RFApproach("bad", {"vote": True, option: value}, {})


def test_bad_tie_is_refused_by_name():
    with pytest.raises(ValueError, match="tie"):
        majority_vote(np.ones((2, 2)), tie="up")
    with pytest.raises(MethodConfigError, match="tie"):
        C2RFApproach("bad", {"vote": True, "tie": "up"}, {})
    with pytest.raises(MethodConfigError, match="'tie'.*vote: true"):
        C2RFApproach("bad", {"tie": "positive"}, {})


def test_default_rf_method_keeps_its_identity():
    # c2rf_rf.yaml's params are unchanged, and so are the job's params
    rf = C2RFApproach("c2rf_rf", {"vote": True}, {})
    assert rf.params == {"vote": True} and rf.forest_options == {} and rf.solve_kwargs is None
    entropy = C2RFApproach("c2rf_rf_entropy", {"vote": True, "criterion": "entropy"}, {})
    assert entropy.params == {"vote": True, "criterion": "entropy"}
    assert entropy.forest_options == {"criterion": "entropy"} and entropy.solve_kwargs is None
