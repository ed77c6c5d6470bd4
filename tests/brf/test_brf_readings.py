"""BRF's readings and control (issue 22): Eq. 4 as printed against the ``beats_partner``
reading, a control forest that chooses every node by the gain ratio instead of the Banzhaf
index, and the ``h`` features per tree or per node."""

import numpy as np
import pytest
from banzhaf_reference import interdependence_matrix

from forestrepro.ensembles.brf import BanzhafForestClassifier
from forestrepro.trees import PluggableTreeClassifier, StoppingRules, build_tree
from forestrepro.trees.banzhaf import count_partners
from forestrepro.trees.rules import Midpoint
from forestrepro.trees.rules.banzhaf_rule import BanzhafMidpoint


def _partners(mi, cmi, beats_partner):
    out = np.empty(len(mi), dtype=np.intp)
    count_partners(np.asarray(mi, float), np.asarray(cmi, float), beats_partner, out)
    return out.tolist()


def test_partner_counts_by_hand():
    # mi = I(f_i; y); cmi[i, j] = I(f_i; y | f_j).  f0 says nothing, f1 much, f2 a little.
    mi = [0.0, 0.5, 0.2]
    cmi = [[0.0, 0.01, 0.01], [0.5, 0.0, 0.4], [0.2, 0.05, 0.0]]
    # Eq. 4 as printed, mi[i] <= cmi[i, j]: f0 gains from both (0 <= 0.01), f1 from f0 only
    # (0.5 <= 0.5, 0.5 > 0.4), f2 from f0 only (0.2 <= 0.2, 0.2 > 0.05)
    assert _partners(mi, cmi, False) == [2, 1, 1]
    # beats_partner, mi[j] <= cmi[i, j]: f0 beats nobody (0.5 > 0.01, 0.2 > 0.01); f1 beats
    # f0 (0 <= 0.5) and f2 (0.2 <= 0.4); f2 beats f0 (0 <= 0.2), not f1 (0.5 > 0.05)
    assert _partners(mi, cmi, True) == [0, 2, 1]


def test_the_noise_feature_has_the_fewest_partners_when_it_must_beat_them():
    # tests/brf/test_brf_information.py's example: f0 and f2 copy y, f1 is independent noise.
    # As printed the noise has the most partners; read as beats_partner it has none (it says
    # 0 bits given anything, each copy says 1 bit), and each copy beats only the noise.
    y = np.array([0, 0, 1, 1] * 2)
    noise = np.array([0, 1, 0, 1] * 2)
    _, mi, cmi = interdependence_matrix(np.column_stack([y, noise, y]), y)
    assert _partners(mi, cmi, False) == [1, 2, 1]
    assert _partners(mi, cmi, True) == [1, 0, 1]


def _root(rule, X, y, seed):
    tree = build_tree(X, y, 2, rule, stopping=StoppingRules(max_depth=1), seed=seed)
    return int(tree.feature[0])


def test_beats_partner_on_xor():
    # y = f0 XOR f1, f2 = f3 = y.  beats_partner: f0 beats f1 (1 bit given f1 >= 0), not the
    # copies (0 bits given a copy < 1); a copy beats f0 and f1 (1 >= 0), not the other copy:
    # a = (1, 1, 2, 2), so a Banzhaf root is a copy of y (Eq. 4 as printed picks f0 or f1).
    f0, f1 = np.array([0, 0, 1, 1] * 3), np.array([0, 1, 0, 1] * 3)
    y = f0 ^ f1
    X = np.column_stack([f0, f1, y, y]).astype(np.float32)
    beats = BanzhafMidpoint(root="banzhaf", interdependence="beats_partner")
    printed = BanzhafMidpoint(root="banzhaf")
    assert {_root(beats, X, y, seed) for seed in range(30)} == {2, 3}
    assert {_root(printed, X, y, seed) for seed in range(30)} == {0, 1}


def test_beats_partner_cuts_informative_features_below_the_root():
    # y = [x0 + x1 > 1] with four noise features, every feature a player (h = M): below the
    # gain-ratio root, Eq. 4 as printed cuts noise about as often as chance (4 of 6), the
    # beats_partner reading cuts x0 or x1 at every node
    rng = np.random.default_rng(0)
    X = rng.random((400, 6)).astype(np.float32)
    y = (X[:, 0] + X[:, 1] > 1).astype(int)
    share = {}
    for reading in ("eq4", "beats_partner"):
        cut = []
        for seed in range(20):
            rule = BanzhafMidpoint(interdependence=reading)
            feature = PluggableTreeClassifier(rule, max_depth=3, random_state=seed).fit(X, y).tree_.feature
            cut.extend(feature[1:][feature[1:] >= 0])
        share[reading] = np.mean(np.asarray(cut) < 2)
    assert share["beats_partner"] > 0.95
    assert share["eq4"] < 0.5


def test_gain_ratio_control_is_brf_with_the_gain_ratio_at_every_node(wine):
    X, y = wine
    control = BanzhafForestClassifier(6, node_criterion="gain_ratio", h_offset=1.0, random_state=0).fit(X, y)
    brf = BanzhafForestClassifier(6, h_offset=1.0, random_state=0).fit(X, y)
    for tree, brf_tree in zip(control.estimators_, brf.estimators_):
        # the same bootstrap sample and subspace as BRF's tree, and the same root
        np.testing.assert_array_equal(tree.features_, brf_tree.features_)
        np.testing.assert_array_equal(tree.bootstrap_weight_, brf_tree.bootstrap_weight_)
        assert tree.tree_.feature[0] == brf_tree.tree_.feature[0]
        # every node: the best gain-ratio midpoint among the subspace, as a Midpoint tree grows it
        single = PluggableTreeClassifier(
            Midpoint("gain_ratio"), subspace_size=5, random_state=tree.random_state
        )
        single.fit(X, y, sample_weight=tree.bootstrap_weight_)
        np.testing.assert_array_equal(tree.tree_.feature, single.tree_.feature)
        np.testing.assert_array_equal(tree.tree_.threshold, single.tree_.threshold)
    assert any(
        not np.array_equal(a.tree_.feature, b.tree_.feature)
        for a, b in zip(control.estimators_, brf.estimators_)
    )


def test_features_per_node(wine):
    X, y = wine
    per_tree = BanzhafForestClassifier(4, h=2, random_state=0).fit(X, y)
    per_node = BanzhafForestClassifier(4, h=2, feature_subset="per_node", random_state=0).fit(X, y)
    for tree in per_tree.estimators_:
        assert len(tree.features_) == 2
        assert set(tree.tree_.feature[tree.tree_.feature >= 0]) <= set(tree.features_)
    # h = 2 features drawn at each node: a tree cuts more than two features
    assert all(len(tree.features_) == 13 for tree in per_node.estimators_)
    assert max(len(set(t.tree_.feature[t.tree_.feature >= 0])) for t in per_node.estimators_) > 2


@pytest.mark.parametrize(
    "params, match",
    [
        ({"interdependence": "eq5"}, "interdependence"),
        ({"node_criterion": "gini"}, "node_criterion"),
        ({"feature_subset": "per_leaf"}, "feature_subset"),
        ({"node_criterion": "gain_ratio", "variant": "pbrf"}, "no Banzhaf root"),
    ],
)
def test_reading_errors_name_the_option(wine, params, match):
    with pytest.raises(ValueError, match=match):
        BanzhafForestClassifier(2, **params).fit(*wine)
