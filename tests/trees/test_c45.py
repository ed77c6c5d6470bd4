"""C4.5's use of the gain ratio (``trees.rules.c45``) against hand-worked nodes and a
brute-force reading of its definition."""

import numpy as np
import pytest

from forestrepro.ensembles.brf import GainRatioForestClassifier
from forestrepro.trees import StoppingRules, build_tree
from forestrepro.trees.rules import BestThreshold
from forestrepro.trees.rules.c45 import EPSILON, C45Threshold, min_split

ROOT = StoppingRules(max_depth=1)


def _root(tree):
    return int(tree.feature[0]), float(tree.threshold[0])


def _entropy(counts):
    counts = np.asarray(counts, float)
    p = counts[counts > 0] / counts.sum()
    return float(-(p * np.log2(p)).sum())


def _c45_root(X, y, min_objs=2.0):
    """The definition, cut by cut: (feature, threshold) of the root, or None for a leaf."""
    n, k = len(y), int(y.max()) + 1
    least = min(25.0, max(min_objs, 0.1 * n / k))
    parent = _entropy(np.bincount(y, minlength=k))
    found = []  # (feature, charged gain, split information, threshold)
    for f in range(X.shape[1]):
        values = np.unique(X[:, f])
        best = None
        tries = 0
        for lo, hi in zip(values[:-1], values[1:]):
            left = X[:, f] <= lo
            n_left = left.sum()
            if n_left < least or n - n_left < least:
                continue
            tries += 1
            p = n_left / n
            gain = (
                parent
                - p * _entropy(np.bincount(y[left], minlength=k))
                - (1 - p) * _entropy(np.bincount(y[~left], minlength=k))
            )
            if best is None or gain > best[0]:
                best = (gain, _entropy([n_left, n - n_left]), lo / 2 + hi / 2)
        if tries:
            found.append((f, best[0] - np.log2(tries) / n, best[1], best[2]))
    if not found:
        return None
    average = np.mean([g for _, g, _, _ in found])
    qualified = [(g / si, -f, f, t) for f, g, si, t in found if g > 0 and g >= average - EPSILON]
    if not qualified:
        return None
    _, _, f, t = max(qualified)  # the largest ratio; on a tie the first feature
    return f, float(np.float32(t))


def test_min_split_follows_c45():
    # 0.1 N / k clipped to [MINOBJS, 25]
    assert min_split(8.0, 2, 2.0) == 2.0
    assert min_split(1000.0, 2, 2.0) == 25.0
    assert min_split(300.0, 3, 2.0) == pytest.approx(10.0)


def test_a_one_row_cut_is_not_admissible():
    # y = 0 0 0 0 1 1 1 1.  A = 0 1 1 1 1 1 1 1 cuts off one row: the plain gain ratio takes it
    # (GR 0.253742 > B's 0.188722, tests/trees/test_tree_rules.py); C4.5 needs 2 rows a side,
    # so A has no admissible cut and B (one cut, charged log2(1)/8 = 0) is the only feature.
    X = np.array([[0, 1, 1, 1, 1, 1, 1, 1], [0, 0, 0, 1, 0, 1, 1, 1]], dtype=np.float32).T
    y = np.array([0, 0, 0, 0, 1, 1, 1, 1])
    assert _root(build_tree(X, y, 2, BestThreshold("gain_ratio"), stopping=ROOT)) == (0, 0.5)
    assert _root(build_tree(X, y, 2, C45Threshold(), stopping=ROOT)) == (1, 0.5)


def test_the_cut_is_chosen_by_gain_and_charged_for_the_cuts_tried():
    # x = 1..8, y = 0 0 1 0 0 1 1 1; cuts with 2 rows a side: 2.5, 3.5, 4.5, 5.5, 6.5 (T = 5),
    # gains 0.311278, 0.048795, 0.188722, 0.548795, 0.311278: cut 5.5, charged
    # 0.548795 - log2(5) / 8 = 0.258554 > 0, so the node is cut there.
    X = np.arange(1, 9, dtype=np.float32)[:, None]
    y = np.array([0, 0, 1, 0, 0, 1, 1, 1])
    assert _root(build_tree(X, y, 2, C45Threshold(), stopping=ROOT)) == (0, 5.5)
    assert 0.548795 - np.log2(5) / 8 == pytest.approx(0.258554, abs=1e-6)


def test_a_gain_below_its_charge_makes_a_leaf():
    # y alternates on x = 1..8: the best admissible gains (cuts 3.5 and 5.5) are 0.048795,
    # below the charge log2(5) / 8 = 0.290241, so C4.5 makes a leaf; the plain gain ratio cuts.
    X = np.arange(1, 9, dtype=np.float32)[:, None]
    y = np.array([0, 1, 0, 1, 0, 1, 0, 1])
    assert build_tree(X, y, 2, C45Threshold(), stopping=ROOT).node_count == 1
    assert build_tree(X, y, 2, BestThreshold("gain_ratio"), stopping=ROOT).node_count == 3


def test_a_feature_below_the_average_gain_is_passed_over():
    # 20 rows, 10 of each class.  f0 splits off rows 0-1 (class 1): left (0, 2), right (10, 8),
    # IG = 1 - 0.9 H(8/18) = 0.108032, SI = H(0.1) = 0.468996, GR = 0.230347.  f1 cuts 10 | 10
    # into (7, 3) and (3, 7): IG = 1 - H(0.3) = 0.118709 = GR.  One cut each (no charge);
    # the average gain 0.113371 less EPSILON is above f0's, so C4.5 takes f1, the plain
    # gain ratio f0.
    y = np.array([1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1])
    f0 = (np.arange(20) >= 2).astype(np.float32)
    f1 = (np.arange(20) >= 10).astype(np.float32)
    X = np.column_stack([f0, f1])
    expected = _c45_root(X, y)
    assert expected == (1, 0.5)
    assert _root(build_tree(X, y, 2, C45Threshold(), stopping=ROOT)) == expected
    assert _root(build_tree(X, y, 2, BestThreshold("gain_ratio"), stopping=ROOT)) == (0, 0.5)


@pytest.mark.parametrize("seed", range(40))
def test_the_root_is_the_definitions(seed):
    rng = np.random.default_rng(seed)
    n, m, k = rng.integers(6, 60), rng.integers(1, 5), rng.integers(2, 4)
    X = rng.integers(0, rng.integers(2, 12), size=(n, m)).astype(np.float32)
    X += rng.normal(0, 1, size=(n, m)).astype(np.float32) * (seed % 2)  # ties, and none
    y = rng.integers(0, k, size=n)
    y[:k] = np.arange(k)
    tree = build_tree(X, y, k, C45Threshold(), stopping=ROOT)
    expected = _c45_root(X, y)
    if expected is None:
        assert tree.node_count == 1
    else:
        assert _root(tree) == pytest.approx(expected)


def test_c45_trees_are_shallower_than_plain_gain_ratio_trees():
    # the guard is what stops the chains of one-row cuts: same data, same seeds
    rng = np.random.default_rng(0)
    X = rng.normal(size=(400, 6)).astype(np.float32)
    y = (X[:, 0] + X[:, 1] + rng.normal(0, 1, 400) > 0).astype(int)
    plain = GainRatioForestClassifier(5, h=6, random_state=0).fit(X, y)
    c45 = GainRatioForestClassifier(5, h=6, gain_ratio="c45", random_state=0).fit(X, y)
    depth = [max(t.tree_.max_depth for t in f.estimators_) for f in (plain, c45)]
    assert depth[1] < depth[0] / 2
