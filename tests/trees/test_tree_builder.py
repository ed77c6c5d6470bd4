"""The builder: stopping rules, feature subsets, label views and the Python rule hook."""

import numpy as np
import pytest

from forestrepro.trees import PluggableTreeClassifier, StoppingRules, build_tree
from forestrepro.trees.rules import (
    BestThreshold,
    Midpoint,
    NodeView,
    PriorityClassView,
    PythonSplitRule,
)

RNG = np.random.default_rng(0)
X_NOISY = RNG.random((300, 6)).astype(np.float32)
Y_NOISY = RNG.integers(0, 3, 300)


def _leaves(tree):
    return np.flatnonzero(tree.children_left == -1)


def test_max_leaf_nodes_grows_the_balanced_tree_of_k_n_cells():
    # 256 grid points with alternating labels: every midpoint cell stays impure, so a
    # budget of k_n = 8 leaves gives the 8 cells of depth 3 (log2 k_n cuts on each path)
    X = ((np.arange(256) + 0.5) / 256).astype(np.float32)[:, None]
    y = np.arange(256) % 2
    rule = Midpoint("random")
    cell = (np.zeros(1), np.ones(1))
    tree = build_tree(X, y, 2, rule, root_cell=cell, stopping=StoppingRules(max_leaf_nodes=8))
    assert tree.n_leaves == 8
    assert set(tree.depth[_leaves(tree)]) == {3}
    assert sorted(tree.threshold[tree.children_left != -1]) == [i / 8 for i in range(1, 8)]
    odd = build_tree(X, y, 2, rule, root_cell=cell, stopping=StoppingRules(max_leaf_nodes=5))
    assert odd.n_leaves == 5 and odd.max_depth == 3


def test_max_depth_and_min_samples_split():
    tree = build_tree(X_NOISY, Y_NOISY, 3, BestThreshold(), stopping=StoppingRules(max_depth=4))
    assert tree.max_depth == 4
    tree = build_tree(X_NOISY, Y_NOISY, 3, BestThreshold(), stopping=StoppingRules(min_samples_split=40))
    internal = tree.children_left != -1
    assert tree.n_node_samples[internal].min() >= 40
    # every leaf is pure or too small to split
    leaves = _leaves(tree)
    pure = tree.value[leaves].max(axis=1) == tree.weighted_n_node_samples[leaves]
    assert np.all(pure | (tree.n_node_samples[leaves] < 40))


def test_misclassified_fraction_stops_a_nearly_pure_node():
    # 9 points of class 0 and 1 of class 1: fraction of points outside the majority = 0.1
    X = np.arange(10, dtype=np.float32)[:, None]
    y = np.array([0] * 9 + [1])
    for threshold, n_nodes in [(0.0, 3), (0.1, 3), (0.11, 1), (0.25, 1)]:
        tree = build_tree(X, y, 2, BestThreshold(), stopping=StoppingRules(max_error_fraction=threshold))
        assert tree.node_count == n_nodes, threshold


def test_pure_nodes_are_leaves():
    tree = build_tree(X_NOISY, np.zeros(300, int), 1, BestThreshold())
    assert tree.node_count == 1


def test_leaves_store_counts_and_predict_frequencies():
    model = PluggableTreeClassifier(max_depth=2).fit(X_NOISY, Y_NOISY)
    tree = model.tree_
    assert tree.value[0].tolist() == np.bincount(Y_NOISY).tolist()
    leaves = tree.apply(X_NOISY)
    proba = model.predict_proba(X_NOISY)
    np.testing.assert_allclose(proba, tree.value[leaves] / tree.value[leaves].sum(1, keepdims=True))
    np.testing.assert_array_equal(model.predict(X_NOISY), np.argmax(proba, axis=1))


def test_per_tree_subspace():
    model = PluggableTreeClassifier(subspace_size=2, random_state=3).fit(X_NOISY, Y_NOISY)
    assert len(model.features_) == 2
    used = set(model.tree_.feature[model.tree_.children_left != -1])
    assert used <= set(model.features_.tolist())
    other = PluggableTreeClassifier(subspace_size=2, random_state=4).fit(X_NOISY, Y_NOISY)
    assert model.features_.tolist() != other.features_.tolist()


def test_per_node_feature_draws_are_seeded():
    def fit(seed):
        return PluggableTreeClassifier(max_features=1, random_state=seed).fit(X_NOISY, Y_NOISY).tree_

    a, b, c = fit(0), fit(0), fit(1)
    np.testing.assert_array_equal(a.feature, b.feature)
    np.testing.assert_array_equal(a.threshold, b.threshold)
    assert a.node_count != c.node_count or not np.array_equal(a.feature, c.feature)
    # one feature per node: the root is cut on a single drawn feature, unlike the full tree
    used = [fit(seed).feature[0] for seed in range(8)]
    assert len(set(used)) > 1


# --- label views (RCRF) ----------------------------------------------------------------
# Classes 0, 0, 0, 1, 1, 1, 2, 2.  Feature 0 isolates class 0, feature 1 isolates class 2.
# Gini on the original classes: feature 0 decreases 0.65625 - 5/8 * 0.48 = 0.35625,
# feature 1 decreases 0.65625 - 6/8 * 0.5 = 0.28125: feature 0 wins.  On the binary labels
# 1[y == 2]: parent 0.375; feature 0 leaves (3, 0) | (3, 2): 0.375 - 5/8 * 0.48 = 0.075,
# feature 1 leaves (6, 0) | (0, 2): 0.375: feature 1 wins.
X_VIEW = np.array([[0, 0], [0, 0], [0, 0], [1, 0], [1, 0], [1, 0], [1, 1], [1, 1]], np.float32)
Y_VIEW = np.array([0, 0, 0, 1, 1, 1, 2, 2])


def test_priority_class_view_scores_on_binary_labels_where_the_class_is():
    plain = build_tree(X_VIEW, Y_VIEW, 3, BestThreshold())
    assert plain.feature[0] == 0
    viewed = build_tree(X_VIEW, Y_VIEW, 3, BestThreshold(), label_view=PriorityClassView(2))
    assert viewed.feature[0] == 1
    # the left child holds no class 2: it is split on the original classes 0 | 1
    left = viewed.children_left[0]
    assert viewed.feature[left] == 0
    # leaves keep the original classes
    assert viewed.value[_leaves(viewed)].tolist() == [[0, 0, 2], [3, 0, 0], [0, 3, 0]]


def test_priority_class_of_the_estimator():
    model = PluggableTreeClassifier(priority_class=2).fit(X_VIEW, Y_VIEW)
    assert model.tree_.feature[0] == 1
    with pytest.raises(ValueError, match="priority_class"):
        PluggableTreeClassifier(priority_class=7).fit(X_VIEW, Y_VIEW)


# --- Python rule hook ------------------------------------------------------------------
class WidestFeatureMidpoint(PythonSplitRule):
    """Cut the feature of widest range at the node at the midpoint of that range."""

    needs_cell = True

    def __init__(self):
        self.seen = []

    def split(self, node: NodeView):
        self.seen.append(node)
        values = node.X[node.samples][:, node.features]
        width = values.max(axis=0) - values.min(axis=0)
        if width.max() == 0:
            return None
        best = int(np.argmax(width))
        return int(node.features[best]), (values[:, best].min() / 2.0 + values[:, best].max() / 2.0)


def test_python_rule_hook():
    rule = WidestFeatureMidpoint()
    tree = build_tree(X_NOISY, Y_NOISY, 3, rule, stopping=StoppingRules(max_depth=3))
    assert tree.max_depth == 3
    root = rule.seen[0]
    assert root.counts.tolist() == np.bincount(Y_NOISY).tolist()
    np.testing.assert_allclose(root.cell_lo, X_NOISY.min(axis=0))
    first_child = rule.seen[1]
    f, t = tree.feature[0], tree.threshold[0]
    assert first_child.cell_hi[f] == t and first_child.depth == 1
    assert np.all(X_NOISY[first_child.samples, f] <= t)
    values = X_NOISY[:, f]
    assert t == pytest.approx(values.min() / 2 + values.max() / 2)


def test_python_rule_can_make_leaves():
    class Never(PythonSplitRule):
        def split(self, node):
            return None

    assert build_tree(X_NOISY, Y_NOISY, 3, Never()).node_count == 1


def test_unknown_rule_type():
    with pytest.raises(TypeError, match="split rule"):
        build_tree(X_NOISY, Y_NOISY, 3, object())
    with pytest.raises(TypeError, match="split_rule"):
        PluggableTreeClassifier(split_rule=3).fit(X_NOISY, Y_NOISY)


def test_midpoint_rule_in_the_estimator():
    model = PluggableTreeClassifier(Midpoint("gain_ratio", of="data"), max_depth=5).fit(X_NOISY, Y_NOISY)
    assert model.tree_.max_depth <= 5
