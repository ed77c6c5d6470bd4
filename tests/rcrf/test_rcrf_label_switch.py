"""RCRF's per-node label switch (Guan et al. 2019, Algorithm 2, step 4) under both readings:
a hand-made node with and without the priority class, and every node of whole trees
checked against a brute-force Gini search on the labels the node should use."""

import numpy as np
import pytest

from forestrepro.ensembles.rcrf import BinaryPriorityLabels, RCRFClassifier
from forestrepro.trees import build_tree
from forestrepro.trees._nodes import LEAF
from forestrepro.trees.rules import BestThreshold, OriginalLabels, PriorityClassView

# Classes 0 0 0 0 1 1 2 2.  f0 is noise, f1 separates class 2, f2 separates class 0 from
# {1, 2}.  Gini on the original classes prefers f2 (impurity 2 against 2.67 for f1 and 5
# for f0); on the binary labels of omega = 2, f1 separates them perfectly.
X = np.array(
    [[0, 0, 0], [1, 0, 0], [0, 0, 0], [1, 0, 0], [0, 0, 1], [1, 0, 1], [0, 1, 1], [1, 1, 1]], dtype=np.float32
)
Y = np.array([0, 0, 0, 0, 1, 1, 2, 2])


def _tree(y, n_classes, view):
    return build_tree(X, y, n_classes, BestThreshold("gini"), label_view=view)


def _split(tree, node=0):
    return int(tree.feature[node]), float(tree.threshold[node])


def test_node_with_the_priority_class_splits_on_binary_labels():
    assert _split(_tree(Y, 3, OriginalLabels())) == (2, 0.5)
    for view in (PriorityClassView(2), BinaryPriorityLabels(2)):
        tree = _tree(Y, 3, view)
        assert _split(tree) == (1, 0.5)
        assert tree.value[tree.children_left[0]].tolist() == [4, 2, 0]  # omega left out


def test_node_without_the_priority_class():
    # The root's left child holds classes 0 0 0 0 1 1 and no omega = 2.  Original reading:
    # Gini on the classes, f2 separates them.  Literal reading: all labels 0, every cut
    # scores the same, the first cut of the first usable feature (f0) is kept.
    original = _tree(Y, 3, PriorityClassView(2))
    assert _split(original, original.children_left[0]) == (2, 0.5)
    literal = _tree(Y, 3, BinaryPriorityLabels(2))
    assert _split(literal, literal.children_left[0]) == (0, 0.5)
    # a root without omega: the original reading is the plain Gini tree
    no_omega = np.where(Y == 2, 1, Y)
    plain = _tree(no_omega, 3, OriginalLabels())
    switched = _tree(no_omega, 3, PriorityClassView(2))
    np.testing.assert_array_equal(plain.feature, switched.feature)
    np.testing.assert_array_equal(plain.threshold, switched.threshold)


def test_leaves_keep_the_original_classes():
    tree = _tree(Y, 3, BinaryPriorityLabels(2))
    leaves = tree.children_left == LEAF
    # grown until pure in the original classes, whatever the view
    assert np.all(np.count_nonzero(tree.value[leaves], axis=1) == 1)


def _best_gini_score(x, labels, w, n_labels):
    """Best ``-N_L G_L - N_R G_R`` over the cuts between distinct values of ``x``."""
    order = np.argsort(x, kind="stable")
    xs, counts = x[order], np.zeros((len(x), n_labels))
    counts[np.arange(len(x)), labels[order]] = w[order]
    left = np.cumsum(counts, axis=0)[:-1]
    right = counts.sum(axis=0) - left
    w_left, w_right = left.sum(axis=1), right.sum(axis=1)
    score = -(w_left - (left**2).sum(axis=1) / w_left) - (w_right - (right**2).sum(axis=1) / w_right)
    cuts = xs[1:] > xs[:-1]
    return score[cuts].max() if cuts.any() else -np.inf


def _check_tree(tree, X, y, w, omega, literal):
    """Every internal node's cut is a best Gini cut on the labels Algorithm 2 prescribes."""
    rows = {0: np.flatnonzero(w > 0)}
    for node in range(tree.node_count):
        r = rows[node]
        if tree.children_left[node] == LEAF:
            continue
        f, t = tree.feature[node], tree.threshold[node]
        rows[tree.children_left[node]] = r[X[r, f] <= t]
        rows[tree.children_right[node]] = r[X[r, f] > t]
        has_omega = np.any(y[r] == omega)
        if has_omega or literal:
            labels, n_labels = (y == omega).astype(int), 2
        else:
            labels, n_labels = y, y.max() + 1
        if literal and not has_omega:
            # all labels 0: the first cut of the first usable feature, in pool order
            first = next(g for g in range(X.shape[1]) if np.ptp(X[r, g]) > 0)
            values = np.unique(X[r, first])
            assert (f, t) == (first, values[0] / 2 + values[1] / 2)
            continue
        best = max(_best_gini_score(X[r, g], labels[r], w[r], n_labels) for g in range(X.shape[1]))
        chosen = _best_gini_score(np.where(X[r, f] <= t, 0.0, 1.0), labels[r], w[r], n_labels)
        assert chosen == pytest.approx(best, abs=1e-9)


@pytest.mark.parametrize("absent_class_labels", ["original", "binary"])
def test_every_node_of_rcrf_trees_uses_the_prescribed_labels(absent_class_labels):
    rng = np.random.default_rng(0)
    X = rng.integers(0, 6, size=(120, 4)).astype(np.float32)
    y = rng.integers(0, 4, size=120)
    forest = RCRFClassifier(
        8, max_features=None, absent_class_labels=absent_class_labels, random_state=1
    ).fit(X, y)
    for tree in forest.estimators_:
        _check_tree(
            tree.tree_, X, y, tree.bootstrap_weight_, tree.priority_index_, absent_class_labels == "binary"
        )
