"""Split rules against numbers worked by hand on tiny inputs."""

import numpy as np
import pytest

from forestrepro.trees import PluggableTreeClassifier, StoppingRules, build_tree
from forestrepro.trees.rules import BestThreshold, Midpoint, gain_ratio, gini, iig

LOG2_3 = np.log2(3.0)


def _score(module, left, right, params=(1.0, 0.0)):
    """A criterion's score of the split with these children counts."""
    left, right = np.array(left, float), np.array(right, float)
    counts = left + right
    params = np.array(params)
    buf = np.zeros((4, len(counts)))
    stat = module.node_stat(counts, counts.sum(), len(counts), params, buf)
    return module.score(left, right, left.sum(), right.sum(), counts.sum(), len(counts), stat, params, buf)


def _root(tree):
    return int(tree.feature[0]), float(tree.threshold[0])


# --- Gini ------------------------------------------------------------------------------
# x = 1..8, y = 0 0 1 0 0 1 1 1.  Parent Gini = 1 - (1/4 + 1/4) = 0.5.
# Cut x <= 5.5: left (4, 1), right (0, 3): G_L = 1 - (16 + 1)/25 = 0.32, G_R = 0,
# decrease = 0.5 - 5/8 * 0.32 = 0.3 (the best; cut x <= 2.5 gives 0.5 - 6/8 * 4/9 = 1/6).
X8 = np.arange(1, 9, dtype=np.float32)[:, None]
Y8 = np.array([0, 0, 1, 0, 0, 1, 1, 1])


def test_gini_hand_example():
    # proxy -N_R G_R - N_L G_L = -5 * 0.32 = -1.6; decrease = (N G - (-proxy)) / N
    assert _score(gini, [4, 1], [0, 3]) == pytest.approx(-1.6)
    assert (8 * 0.5 + _score(gini, [4, 1], [0, 3])) / 8 == pytest.approx(0.3)
    assert (8 * 0.5 + _score(gini, [2, 0], [2, 4])) / 8 == pytest.approx(1 / 6)
    tree = build_tree(X8, Y8, 2, BestThreshold("gini"), stopping=_depth(1))
    assert _root(tree) == (0, 5.5)


def _depth(max_depth):
    return StoppingRules(max_depth=max_depth)


# --- Gain ratio ------------------------------------------------------------------------
# y = 0 0 0 0 1 1 1 1 (H = 1 bit), two binary features:
#   A = 0 1 1 1 1 1 1 1: left (1, 0), right (3, 4)
#     IG = 1 - 7/8 H(3/7, 4/7) = 1 - 0.875 * 0.985228 = 0.137925
#     SI = H(1/8, 7/8) = 0.543564,  GR = 0.137925 / 0.543564 = 0.253742
#   B = 0 0 0 1 0 1 1 1: left (3, 1), right (1, 3)
#     IG = 1 - H(3/4, 1/4) = 1 - 0.811278 = 0.188722
#     SI = H(1/2, 1/2) = 1,  GR = 0.188722
# Information gain prefers B, gain ratio prefers A.
X_AB = np.array([[0, 1, 1, 1, 1, 1, 1, 1], [0, 0, 0, 1, 0, 1, 1, 1]], dtype=np.float32).T
Y_AB = np.array([0, 0, 0, 0, 1, 1, 1, 1])


def test_gain_ratio_hand_example():
    assert _score(gain_ratio, [1, 0], [3, 4]) == pytest.approx(0.253742, abs=1e-6)
    assert _score(gain_ratio, [3, 1], [1, 3]) == pytest.approx(0.188722, abs=1e-6)
    ratio = build_tree(X_AB, Y_AB, 2, BestThreshold("gain_ratio"), stopping=_depth(1))
    gain = build_tree(X_AB, Y_AB, 2, BestThreshold("entropy"), stopping=_depth(1))
    assert _root(ratio) == (0, 0.5)
    assert _root(gain) == (1, 0.5)


def test_gain_ratio_best_threshold_on_one_feature():
    # x = 1..8, y = 0 0 1 0 0 1 1 1: cut 5.5 has IG = 1 - 5/8 H(4/5, 1/5) = 0.548795,
    # SI = H(5/8, 3/8) = 0.954434, GR = 0.574995; the next best, cuts 2.5 and 6.5,
    # have GR = 0.311278 / 0.811278 = 0.383689.
    assert _score(gain_ratio, [4, 1], [0, 3]) == pytest.approx(0.574995, abs=1e-6)
    assert _score(gain_ratio, [2, 0], [2, 4]) == pytest.approx(0.383689, abs=1e-6)
    tree = build_tree(X8, Y8, 2, BestThreshold("gain_ratio"), stopping=_depth(1))
    assert _root(tree) == (0, 5.5)


# --- IIG -------------------------------------------------------------------------------
# IDM, s = 1.  Counts (4, 1, 1): the two smallest share the mass 1, level 1.5:
#   p* = (4, 1.5, 1.5)/7, H* = 1.413800 bits.
# x = 1..6, y = 0 0 0 0 1 2.  Cut x <= 4.5: left (4, 0, 0) -> p* = (4, .5, .5)/5,
#   H* = 0.921928; right (0, 1, 1) -> p* = (1, 1, 1)/3, H* = log2 3 = 1.584963;
#   IIG = 1.413800 - 4/6 * 0.921928 - 2/6 * 1.584963 = 0.270860 (the best; cut 3.5 gives
#   0.090679, cut 5.5 gives 0.120775, cuts 1.5 and 2.5 are negative).
X6 = np.arange(1, 7, dtype=np.float32)[:, None]
Y6 = np.array([0, 0, 0, 0, 1, 2])


def _max_entropy(counts, s=1.0):
    counts = np.array(counts, float)
    return iig.max_entropy(counts, counts.sum(), len(counts), s, np.zeros(len(counts)))


def test_max_entropy_of_idm_credal_set():
    assert _max_entropy([4, 1, 1]) == pytest.approx(1.413800, abs=1e-6)
    assert _max_entropy([4, 0, 0]) == pytest.approx(0.921928, abs=1e-6)
    assert _max_entropy([0, 1, 1]) == pytest.approx(LOG2_3)
    # non-integer counts (0.2, 0.5, 3): level (1 + 0.2 + 0.5)/2 = 0.85 <= 3,
    # p* = (0.85, 0.85, 3)/4.7, H* = 1.305789
    assert _max_entropy([0.2, 0.5, 3.0]) == pytest.approx(1.305789, abs=1e-6)
    # a larger s spreads further: (4, 1, 1) with s = 4 reaches (4, 3, 3)/10
    expected = -(0.4 * np.log2(0.4) + 2 * 0.3 * np.log2(0.3))
    assert _max_entropy([4, 1, 1], s=4.0) == pytest.approx(expected)


def test_iig_hand_example():
    assert _score(iig, [4, 0, 0], [0, 1, 1]) == pytest.approx(0.270860, abs=1e-6)
    assert _score(iig, [3, 0, 0], [1, 1, 1]) == pytest.approx(0.090679, abs=1e-6)
    assert _score(iig, [1, 0, 0], [3, 1, 1]) == pytest.approx(-0.086200, abs=1e-6)
    tree = build_tree(X6, Y6, 3, BestThreshold("iig"), stopping=_depth(1))
    assert _root(tree) == (0, 4.5)


def test_iig_makes_a_leaf_without_positive_gain():
    # (1, 1) -> H* = 1; each child (1, 0) -> (1, 1)/2, H* = 1; IIG = 1 - 1/2 - 1/2 = 0.
    assert _score(iig, [1, 0], [0, 1]) == pytest.approx(0.0)
    tree = build_tree(np.array([[1.0], [2.0]], np.float32), np.array([0, 1]), 2, BestThreshold("iig"))
    assert tree.node_count == 1
    assert (
        build_tree(
            np.array([[1.0], [2.0]], np.float32), np.array([0, 1]), 2, BestThreshold("gini")
        ).node_count
        == 3
    )


# --- Midpoint --------------------------------------------------------------------------
# x = 0.2 0.3 0.5 0.7 1.0, y = 0 0 1 1 1, root cell [0, 1].
# Cell midpoints: root 0.5 -> left {0.2, 0.3, 0.5} in [0, 0.5] -> 0.25 -> right {0.3, 0.5}
#   in [0.25, 0.5] -> 0.375.  Data-range midpoints: root (0.2 + 1.0)/2 = 0.6 -> left
#   {0.2, 0.3, 0.5} -> 0.35.
X5 = np.array([[0.2], [0.3], [0.5], [0.7], [1.0]], dtype=np.float32)
Y5 = np.array([0, 0, 1, 1, 1])


def _internal_thresholds(tree):
    return [float(t) for t, left in zip(tree.threshold, tree.children_left) if left != -1]


def test_midpoint_of_cell():
    tree = build_tree(X5, Y5, 2, Midpoint("gini", of="cell"), root_cell=(np.zeros(1), np.ones(1)))
    assert _internal_thresholds(tree) == pytest.approx([0.5, 0.25, 0.375])


def test_midpoint_of_data_range():
    tree = build_tree(X5, Y5, 2, Midpoint("gini", of="data"))
    assert _internal_thresholds(tree) == pytest.approx([0.6, 0.35])


def test_midpoint_default_root_cell_is_the_data_range():
    # cell [0.2, 1.0]: root 0.6, then left cell [0.2, 0.6] -> 0.4
    tree = build_tree(X5, Y5, 2, Midpoint("gini", of="cell"))
    assert _internal_thresholds(tree) == pytest.approx([0.6, 0.4])


def test_midpoint_picks_the_feature_by_score():
    # feature 0's midpoint 0.5 puts (0, 0, 1) | (1, 1); feature 1's midpoint 0.5 separates
    # the classes: gain ratio picks feature 1.
    X = np.array([[0.1, 0.1], [0.2, 0.2], [0.3, 0.9], [0.8, 0.8], [0.9, 0.7]], np.float32)
    tree = build_tree(
        X, Y5, 2, Midpoint("gain_ratio"), root_cell=(np.zeros(2), np.ones(2)), stopping=_depth(1)
    )
    assert _root(tree) == (1, 0.5)


def _is_dyadic_point(t, lo, hi):
    """``t = lo + (hi - lo) * k / 2**m`` for an odd ``k``: a midpoint of a dyadic subcell."""
    fraction = (t - lo) / (hi - lo)
    return 0 < fraction < 1 and any(
        abs(fraction * 2**m - round(fraction * 2**m)) < 1e-6 for m in range(1, 30)
    )


def test_random_midpoint_cuts_dyadic_midpoints_until_pure():
    # Every cut is the midpoint of the node's cell or, where that would leave a child
    # empty, of a smaller dyadic subcell holding the node's samples; the tree grows to pure
    # leaves and uses every feature.
    rng = np.random.default_rng(0)
    X = rng.random((200, 3)).astype(np.float32)
    y = (X[:, 0] + X[:, 1] > 1).astype(int)
    model = PluggableTreeClassifier(Midpoint("random"), root_cell="unit", random_state=0).fit(X, y)
    tree = model.tree_
    lo, hi = {0: np.zeros(3)}, {0: np.ones(3)}
    n_exact_halves = 0
    for node in range(tree.node_count):
        left, right = tree.children_left[node], tree.children_right[node]
        if left == -1:
            continue
        f, t = tree.feature[node], tree.threshold[node]
        assert _is_dyadic_point(t, lo[node][f], hi[node][f])
        n_exact_halves += t == (lo[node][f] + hi[node][f]) / 2
        lo[left], hi[left] = lo[node].copy(), hi[node].copy()
        lo[right], hi[right] = lo[node].copy(), hi[node].copy()
        hi[left][f] = lo[right][f] = t
    assert n_exact_halves > 0
    assert model.score(X, y) == 1.0
    assert len(set(tree.feature[tree.children_left != -1])) == 3


def test_midpoint_skips_empty_halves():
    # cell [0, 1], values {0.1, 0.2}: 0.5 and 0.25 leave a side empty, 0.125 separates.
    X = np.array([[0.1], [0.2]], np.float32)
    tree = build_tree(X, np.array([0, 1]), 2, Midpoint("gini"), root_cell=(np.zeros(1), np.ones(1)))
    assert _internal_thresholds(tree) == [0.125]


def test_midpoint_rejects_data_outside_the_root_cell():
    with pytest.raises(ValueError, match="outside the root cell"):
        build_tree(X5 * 2, Y5, 2, Midpoint("gini"), root_cell=(np.zeros(1), np.ones(1)))


def test_rules_validate_their_names():
    with pytest.raises(ValueError, match="criterion"):
        BestThreshold("mse")
    with pytest.raises(ValueError, match="of must be"):
        Midpoint("gini", of="box")


def test_iig_of_exactly_zero_makes_a_leaf():
    # Counts (2, 1); both cuts give (1, 0) + (1, 1): IIG = 1 - 1/3 * 1 - 2/3 * 1 = 0 exactly
    # (H* of (2, 1), (1, 0) and (1, 1) with s = 1 are all 1 bit), which floating point may
    # compute as +1e-16. No cut has positive IIG, so the root is a leaf.
    tree = PluggableTreeClassifier(split_rule=BestThreshold("iig")).fit(
        np.array([[0.0], [1.0], [2.0]]), np.array([0, 1, 0])
    )
    assert tree.tree_.node_count == 1
