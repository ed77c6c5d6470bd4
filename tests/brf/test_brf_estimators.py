"""The forests of the BRF paper: scikit-learn conventions, h, determinism, structure."""

import numpy as np
import pytest
from sklearn.utils.estimator_checks import check_estimator

from forestrepro.ensembles.biau import Biau12ForestClassifier
from forestrepro.ensembles.brf import (
    BanzhafForestClassifier,
    GainRatioForestClassifier,
    paper_h,
)
from forestrepro.trees import PluggableTreeClassifier
from forestrepro.trees.rules import Midpoint


@pytest.mark.parametrize(
    "estimator",
    [
        BanzhafForestClassifier(5),
        BanzhafForestClassifier(
            5,
            variant="pbrf",
            selection="sample",
            of="data",
            n_bins=4,
            max_coalition=None,
            h=3,
            oob_score=True,
            random_state=0,
        ),
        BanzhafForestClassifier(
            5, interdependence="beats_partner", feature_subset="per_node", random_state=0
        ),
        BanzhafForestClassifier(5, node_criterion="gain_ratio", voting="soft"),
        GainRatioForestClassifier(5, feature_subset="per_node", random_state=0),
        # h = 2: with a one-feature subspace per tree the guard stops trees before they reach
        # the check's 0.83 training accuracy on its 2-feature data (the plain rule overfits to it)
        GainRatioForestClassifier(5, gain_ratio="c45", h_offset=1.0, random_state=0),
        Biau12ForestClassifier(5),
        Biau12ForestClassifier(5, importance="banzhaf", n_strong=2, h_offset=1.0, random_state=0),
    ],
    ids=[
        "brf",
        "pbrf-sample",
        "brf-beats-partner-per-node",
        "brf-gr-nodes-soft",
        "rf-gain-ratio",
        "rf-gain-ratio-c45",
        "biau12",
        "biau12v",
    ],
)
@pytest.mark.filterwarnings("ignore:Some inputs do not have OOB scores")
def test_check_estimator(estimator):
    # no check is waived; only check_array_api_input is skipped (array-api-compat absent)
    check_estimator(estimator, on_skip=None)


def test_paper_h():
    # h = round(log2(M) + C), half up, within [1, M]: letter 4, satimage 5, musk2 7
    assert [paper_h(m) for m in (16, 36, 166)] == [4, 5, 7]
    assert paper_h(4, h_offset=0.5) == 3  # 2.5 rounds up
    assert paper_h(16, h_offset=-9) == 1 and paper_h(16, h_offset=40) == 16
    assert paper_h(16, h=10) == 10 and paper_h(16, h=99) == 16


@pytest.mark.parametrize(
    "forest",
    [
        BanzhafForestClassifier(12, h=5, random_state=3),
        Biau12ForestClassifier(12, importance="banzhaf", random_state=3),
    ],
    ids=["brf", "biau12v"],
)
def test_forest_does_not_depend_on_n_jobs(wine, forest):
    X, y = wine
    probas = [forest.set_params(n_jobs=n_jobs).fit(X, y).predict_proba(X) for n_jobs in (1, 2)]
    np.testing.assert_array_equal(*probas)


def test_brf_trees(wine):
    X, y = wine
    forest = BanzhafForestClassifier(10, h_offset=1.0, random_state=0).fit(X, y)
    assert forest.h_ == 5  # round(log2(13) + 1) = round(4.70)
    for tree in forest.estimators_:
        assert len(tree.features_) == 5
        assert set(tree.tree_.feature[tree.tree_.feature >= 0]) <= set(tree.features_)
        # the root is the best gain-ratio midpoint among the tree's features
        single = PluggableTreeClassifier(
            Midpoint("gain_ratio"), max_depth=1, subspace_size=5, random_state=tree.random_state
        )
        single.fit(X, y, sample_weight=tree.bootstrap_weight_)
        assert tree.tree_.feature[0] == single.tree_.feature[0]
        assert tree.tree_.threshold[0] == single.tree_.threshold[0]
    hard = forest.predict_proba(X)
    assert np.all(np.isin(np.round(hard * 10), np.arange(11)))  # majority vote
    assert forest.score(X, y) > 0.95


def test_biau12_strong_features(wine):
    X, y = wine
    forest = Biau12ForestClassifier(5, n_strong=3, random_state=0).fit(X, y)
    assert len(forest.strong_features_) == 3
    best = np.argsort(-forest.feature_scores_)[:3]
    assert set(forest.strong_features_) == set(best)
    assert forest.h_ == 4 and forest.estimators_[0].features_.shape == (13,)


def test_gain_ratio_forest_feature_subsets(wine):
    X, y = wine
    per_tree = GainRatioForestClassifier(3, random_state=0).fit(X, y)
    per_node = GainRatioForestClassifier(3, feature_subset="per_node", random_state=0).fit(X, y)
    assert len(per_tree.estimators_[0].features_) == 4
    assert len(per_node.estimators_[0].features_) == 13


def test_parameter_errors(wine):
    X, y = wine
    for forest, match in [
        (BanzhafForestClassifier(2, variant="xbrf"), "variant"),
        (BanzhafForestClassifier(2, h=0), "h must"),
        (BanzhafForestClassifier(2, h_offset="1"), "h_offset"),
        (BanzhafForestClassifier(2, n_bins=1), "n_bins"),
        (BanzhafForestClassifier(2, max_coalition=0), "max_coalition"),
        (GainRatioForestClassifier(2, feature_subset="x"), "feature_subset"),
        (GainRatioForestClassifier(2, gain_ratio="c4.5"), "gain_ratio"),
        (Biau12ForestClassifier(2, importance="gini"), "importance"),
        (Biau12ForestClassifier(2, root_cell="unit"), "root cell"),
    ]:
        with pytest.raises(ValueError, match=match):
            forest.fit(X, y)
