"""The split rules of the BRF paper's forests on hand-made nodes: Banzhaf (BRF, PBRF),
Biau12's strong and weak features, and the greedy empirical-error rule of Sec. 5.2."""

from collections import Counter

import numpy as np
import pytest

from forestrepro.trees import StoppingRules, build_tree
from forestrepro.trees.banzhaf import count_partners
from forestrepro.trees.mutual_information import information_from_bitsets
from forestrepro.trees.rules import Midpoint, _scan
from forestrepro.trees.rules.banzhaf_node import (
    node_bitsets,
    node_codes,
    node_information,
    node_range,
    player_scores,
)
from forestrepro.trees.rules.banzhaf_rule import BanzhafMidpoint
from forestrepro.trees.rules.biau import StrongWeakMidpoint, feature_scores, strong_features
from forestrepro.trees.rules.empirical_error import EmpiricalError

STUMP = StoppingRules(max_depth=1)

# y = f0 XOR f1 on the four patterns, three times; f2 = f3 = y.  Interdependence (Eq. 4):
# f0 gains from f1 (0 -> 1 bit) and from f2, f3 (0 <= 0), so a0 = a1 = 3; f2 gains from
# f0, f1 (1 <= 1) but not from its copy f3 (1 -> 0), so a2 = a3 = 2.  Eq. (1) with n = 4:
# beta = 7/8 for a = 3 (all 7 non-empty coalitions won), 6/8 for a = 2.
F0 = np.array([0, 0, 1, 1] * 3)
F1 = np.array([0, 1, 0, 1] * 3)
XOR_Y = F0 ^ F1
XOR_X = np.column_stack([F0, F1, XOR_Y, XOR_Y]).astype(np.float32)


def _root(tree):
    return int(tree.feature[0]), float(tree.threshold[0])


def _roots(rule, X, y, n_classes, seeds, **kwargs):
    return [_root(build_tree(X, y, n_classes, rule, stopping=STUMP, seed=seed, **kwargs)) for seed in seeds]


@pytest.mark.parametrize("of_data", [False, True])
def test_two_bins_are_the_midpoint_cut(of_data):
    rng = np.random.default_rng(0)
    X = rng.random((50, 3)).astype(np.float32) * np.float32(0.7) + np.float32(0.1)
    samples = rng.permutation(50)
    lo, hi = np.zeros(3), np.ones(3)
    interval = np.empty(2)
    for f in range(3):
        values = X[samples, f]
        assert node_range(X, samples, 0, 50, f, of_data, lo, hi, interval)
        cut = _scan.midpoint(X, samples, 0, 50, f, of_data, lo, hi)
        assert interval[0] / 2.0 + interval[1] / 2.0 == cut
        for n_bins in (2, 3, 4, 8):
            codes = np.empty(50, dtype=np.uint8)
            node_codes(X, samples, 0, 50, f, interval[0], interval[1], n_bins, codes)
            edges = interval[0] + (interval[1] - interval[0]) * np.arange(1, n_bins) / n_bins
            np.testing.assert_array_equal(codes, np.searchsorted(edges, values, side="left"))
            if n_bins % 2 == 0:
                np.testing.assert_array_equal(codes >= n_bins // 2, values > cut)
    X[:, 1] = 0.5
    assert not node_range(X, samples, 0, 50, 1, of_data, lo, hi, interval)


def test_partner_counts_order_players_as_beta_does():
    # the argmax of Algorithm 1 is taken over a, the number of interdependent partners
    rng = np.random.default_rng(5)
    X = rng.random((120, 8)).astype(np.float32)
    y = (X[:, 0] + X[:, 1] > 1.0).astype(np.intp) + (X[:, 2] > 0.7)
    w = rng.integers(1, 4, 120).astype(np.float64)
    samples = np.arange(120)
    counts = np.bincount(y, weights=w, minlength=3)
    lo, hi, bounds = np.zeros(8), np.ones(8), np.empty((8, 2))
    codes = np.empty((8, 120), dtype=np.uint8)
    for f in range(8):
        assert node_range(X, samples, 0, 120, f, False, lo, hi, bounds[f])
        node_codes(X, samples, 0, 120, f, bounds[f, 0], bounds[f, 1], 2, codes[f])
    a, beta = np.empty(8), np.empty(8)
    player_scores(y, w, 3, samples, 0, 120, counts, codes, 2, 3, False, False, a)
    player_scores(y, w, 3, samples, 0, 120, counts, codes, 2, 3, True, False, beta)
    assert len(set(a)) > 1
    for i in range(8):
        for j in range(8):
            assert (a[i] < a[j]) == (beta[i] < beta[j])
            assert (a[i] == a[j]) == (beta[i] == beta[j])


@pytest.mark.parametrize("seed", range(4))
def test_bit_sets_straight_from_X_equal_the_codes_path(seed):
    # a small node with bootstrap weights is counted from bit sets made straight from X;
    # its MI and CMI must be those of the codes (histogram) path, to the bit
    rng = np.random.default_rng(seed)
    n_all, d, n_classes = 200, 7, 5
    X = rng.random((n_all, d)).astype(np.float32)
    y = rng.integers(0, n_classes, n_all).astype(np.intp)
    w = rng.integers(0, 4, n_all).astype(np.float64)
    samples = rng.permutation(n_all)
    start, end = 10, 10 + int(rng.integers(3, 65))
    counts = np.bincount(y[samples[start:end]], weights=w[samples[start:end]], minlength=n_classes)
    players = np.arange(d, dtype=np.intp)
    lo, hi, bounds = np.zeros(d), np.ones(d), np.empty((d, 2))
    codes = np.empty((d, end - start), dtype=np.uint8)
    for f in range(d):
        assert node_range(X, samples, start, end, f, False, lo, hi, bounds[f])
        node_codes(X, samples, start, end, f, bounds[f, 0], bounds[f, 1], 2, codes[f])
    sets, k, n_planes = node_bitsets(X, y, w, n_classes, samples, start, end, counts, players, bounds)
    assert sets.shape[0] > 0
    got = np.empty(d), np.empty((d, d))
    information_from_bitsets(sets, k, n_planes, *got)
    expected = np.empty(d), np.empty((d, d))
    node_information(y, w, n_classes, samples, start, end, counts, codes, 2, *expected)
    np.testing.assert_array_equal(got[0], expected[0])
    np.testing.assert_array_equal(got[1], expected[1])
    # fractional weights do not qualify
    assert (
        node_bitsets(X, y, w / 2.0 + 0.25, n_classes, samples, start, end, counts, players, bounds)[0].shape[
            0
        ]
        == 0
    )


def test_brf_root_is_the_best_gain_ratio_midpoint():
    rng = np.random.default_rng(1)
    X = rng.random((200, 5)).astype(np.float32)
    y = (X[:, 3] + 0.3 * rng.random(200) > 0.6).astype(np.intp)
    brf = build_tree(X, y, 2, BanzhafMidpoint(), stopping=STUMP)
    gain_ratio = build_tree(X, y, 2, Midpoint("gain_ratio"), stopping=STUMP)
    assert _root(brf) == _root(gain_ratio)
    assert _root(brf)[0] == 3


def test_banzhaf_prefers_complementary_features():
    roots = _roots(BanzhafMidpoint(root="banzhaf"), XOR_X, XOR_Y, 2, range(40))
    assert {feature for feature, _ in roots} == {0, 1}  # ties broken at random
    assert {threshold for _, threshold in roots} == {0.5}
    # with a single player the node is cut on it; without one it is a leaf
    assert _roots(BanzhafMidpoint(root="banzhaf"), XOR_X, XOR_Y, 2, [0], features=[2])[0] == (2, 0.5)
    constant = build_tree(
        np.zeros((6, 2), np.float32), np.array([0, 1] * 3), 2, BanzhafMidpoint(root="banzhaf")
    )
    assert constant.node_count == 1


@pytest.mark.parametrize("of_data", [False, True])
def test_two_sample_nodes_have_no_interdependence(of_data):
    # the shortcut of banzhaf_split: two samples of two classes, n_bins even
    rng = np.random.default_rng(3)
    X = rng.random((2, 5)).astype(np.float32)
    y, w = np.array([0, 1]), np.array([1.0, 3.0])
    samples = np.arange(2)
    lo, hi = np.zeros(5), np.ones(5)
    bounds = np.empty((5, 2))
    for n_bins in (2, 4):
        codes = np.empty((5, 2), dtype=np.uint8)
        for f in range(5):
            assert node_range(X, samples, 0, 2, f, of_data, lo, hi, bounds[f])
            node_codes(X, samples, 0, 2, f, bounds[f, 0], bounds[f, 1], n_bins, codes[f])
        mi, cmi = np.empty(5), np.empty((5, 5))
        node_information(y, w, 2, samples, 0, 2, np.array([1.0, 3.0]), codes, n_bins, mi, cmi)
        partners = np.empty(5, dtype=np.intp)
        count_partners(mi, cmi, False, partners)
        assert not partners.any()


def test_sample_selection_follows_zeta():
    rule = BanzhafMidpoint(root="banzhaf", selection="sample", max_coalition=None)
    counts = Counter(feature for feature, _ in _roots(rule, XOR_X, XOR_Y, 2, range(2600)))
    zeta = np.array([7, 7, 6, 6]) / 26
    observed = np.array([counts[f] for f in range(4)]) / 2600
    assert np.all(np.abs(observed - zeta) < 4 * np.sqrt(zeta * (1 - zeta) / 2600))


def test_biau12_chooses_strong_candidates_first():
    rng = np.random.default_rng(2)
    X = rng.random((30, 4)).astype(np.float32)
    y = rng.integers(0, 2, 30)
    # every feature is a candidate: a strong one is always chosen, each about equally often
    chosen = Counter(f for f, _ in _roots(StrongWeakMidpoint((1, 3)), X, y, 2, range(60)))
    assert set(chosen) == {1, 3} and min(chosen.values()) > 15
    # the strong feature is constant at the node: a weak one, uniformly
    X_const = X.copy()
    X_const[:, 1] = 0.25
    chosen = {f for f, _ in _roots(StrongWeakMidpoint((1,)), X_const, y, 2, range(40))}
    assert chosen == {0, 2, 3}
    # one candidate per node: whatever is drawn, strong or weak, cut at the cell midpoint
    roots = _roots(StrongWeakMidpoint((1,)), X, y, 2, range(60), n_eval=1)
    assert {f for f, _ in roots} == {0, 1, 2, 3}
    samples = np.arange(30)
    lo, hi = X.min(axis=0).astype(float), X.max(axis=0).astype(float)
    for f, threshold in roots:
        assert threshold == _scan.midpoint(X, samples, 0, 30, f, False, lo, hi)


def test_biau12_feature_scores():
    # gain ratio of the midpoint cut (0.5) of A = 0 1 1 1 1 1 1 1 and B = 0 0 0 1 0 1 1 1
    # for y = 0 0 0 0 1 1 1 1 (tests/trees/test_tree_rules.py): 0.253742 and 0.188722;
    # a constant feature scores -inf.
    X = np.array([[0, 1, 1, 1, 1, 1, 1, 1], [0, 0, 0, 1, 0, 1, 1, 1], [3] * 8], dtype=np.float32).T
    y = np.array([0, 0, 0, 0, 1, 1, 1, 1])
    np.testing.assert_allclose(feature_scores(X, y), [0.253742, 0.188722, -np.inf], atol=1e-6)
    # Biau12V: Banzhaf index of each feature among all features (beta of the XOR example)
    np.testing.assert_allclose(
        feature_scores(XOR_X, XOR_Y, "banzhaf", max_coalition=None), [7 / 8, 7 / 8, 6 / 8, 6 / 8]
    )
    with pytest.raises(ValueError, match="importance"):
        feature_scores(X, y, "gini")


def test_strong_features_ties_at_random():
    scores = np.array([3.0, 1.0, 3.0, 2.0])
    firsts = {strong_features(scores, 1, np.random.RandomState(seed)) for seed in range(20)}
    assert firsts == {(0,), (2,)}
    assert strong_features(scores, 3, np.random.RandomState(0)) == (0, 2, 3)


def test_empirical_error_cut():
    # x = 1..8, y = 0 0 1 0 0 1 1 1: the cut 5.5 leaves (4, 1 | 0, 3), 7 points right;
    # every other cut classifies at most 6.
    X = np.arange(1, 9, dtype=np.float32)[:, None]
    y = np.array([0, 0, 1, 0, 0, 1, 1, 1])
    assert set(_roots(EmpiricalError(), X, y, 2, range(10))) == {(0, 5.5)}
    # alternating labels: the cuts 1.5, 3.5, 5.5 and 7.5 all classify 5 of 8; ties at random
    alternating = np.array([0, 1] * 4)
    roots = set(_roots(EmpiricalError(), X, alternating, 2, range(40)))
    assert roots == {(0, 1.5), (0, 3.5), (0, 5.5), (0, 7.5)}
    full = build_tree(X, alternating, 2, EmpiricalError())
    assert full.n_leaves == 8  # grown to one point per leaf
