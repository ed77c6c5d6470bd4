"""With the Gini (or entropy) best-threshold rule, all features at every node, no bootstrap
and the same stopping rules, our tree is scikit-learn's tree up to ties between equally good
splits.

Both trees are walked together from the root.  Every pair of nodes must hold the same class
counts and agree on being a leaf.  Where both cut the same feature at the same threshold the
walk goes into both children.  Where they cut differently, the two cuts must be equally good
(same impurity decrease): a tie, which scikit-learn breaks by its random feature order and
we by feature index.  The walk then goes on into each of our two children against a
scikit-learn tree grown on that child's samples, i.e. the subtree scikit-learn would have
grown had it broken the tie our way.  So every node of our tree is checked.
"""

import numpy as np
import pytest
from sklearn.model_selection import train_test_split
from sklearn.tree import DecisionTreeClassifier
from tree_data import load_pmlb

from forestrepro.trees import PluggableTreeClassifier


def _impurity(counts, criterion):
    p = counts[counts > 0] / counts.sum()
    if criterion == "gini":
        return 1.0 - np.sum(p * p)
    return -np.sum(p * np.log2(p))


def _decrease(counts, left, right, criterion):
    n, n_left, n_right = counts.sum(), left.sum(), right.sum()
    return (
        _impurity(counts, criterion)
        - n_left / n * _impurity(left, criterion)
        - n_right / n * _impurity(right, criterion)
    )


def _members(tree, X, rows):
    """Training rows of every node of our tree."""
    members = {0: rows}
    for node in range(tree.node_count):
        left = tree.children_left[node]
        if left != -1:
            rows = members[node]
            goes_left = X[rows, tree.feature[node]] <= tree.threshold[node]
            members[left] = rows[goes_left]
            members[tree.children_right[node]] = rows[~goes_left]
    return members


class _SklearnSubtree:
    """scikit-learn's tree grown on some rows, its counts indexed by all the classes."""

    def __init__(self, X, y, w, rows, classes, criterion, max_depth, min_samples_split):
        fitted = DecisionTreeClassifier(
            criterion=criterion,
            max_depth=max_depth,
            min_samples_split=min_samples_split,
            random_state=0,
        ).fit(X[rows], y[rows], sample_weight=w[rows])
        self.tree = fitted.tree_
        self.counts = np.zeros((self.tree.node_count, len(classes)))
        self.counts[:, np.searchsorted(classes, fitted.classes_)] = (
            self.tree.value[:, 0, :] * self.tree.weighted_n_node_samples[:, None]
        )


def assert_same_tree_up_to_ties(ours, X, y, w, criterion, max_depth=None, min_samples_split=2):
    """Check every node of ``ours`` (see the module docstring); return the number of ties."""
    tree = ours.tree_
    classes = ours.classes_
    members = _members(tree, X, np.flatnonzero(w > 0))

    def subtree(node):
        depth = tree.depth[node]
        return _SklearnSubtree(
            X,
            y,
            w,
            members[node],
            classes,
            criterion,
            None if max_depth is None else max_depth - depth,
            min_samples_split,
        )

    n_ties = 0
    stack = [(0, subtree(0), 0)]
    while stack:
        a, theirs, b = stack.pop()
        np.testing.assert_allclose(tree.value[a], theirs.counts[b], rtol=1e-9, atol=1e-9)
        a_leaf = tree.children_left[a] == -1
        assert a_leaf == (theirs.tree.children_left[b] == -1), f"node {a}"
        if a_leaf:
            continue
        left, right = tree.children_left[a], tree.children_right[a]
        if tree.feature[a] == theirs.tree.feature[b] and tree.threshold[a] == theirs.tree.threshold[b]:
            stack.append((left, theirs, theirs.tree.children_left[b]))
            stack.append((right, theirs, theirs.tree.children_right[b]))
            continue
        n_ties += 1
        their_gain = _decrease(
            theirs.counts[b],
            theirs.counts[theirs.tree.children_left[b]],
            theirs.counts[theirs.tree.children_right[b]],
            criterion,
        )
        ours_gain = _decrease(tree.value[a], tree.value[left], tree.value[right], criterion)
        assert ours_gain == pytest.approx(their_gain, rel=1e-9, abs=1e-12), f"node {a}"
        for child in (left, right):
            if max_depth is not None and tree.depth[child] >= max_depth:
                assert tree.children_left[child] == -1
            else:
                stack.append((child, subtree(child), 0))
    return n_ties


CASES = [
    ("pendigits", "gini", {}),
    ("satimage", "gini", {}),
    ("letter", "gini", {}),
    ("magic", "gini", {}),
    ("wine_recognition", "gini", {}),
    ("ionosphere", "gini", {}),
    ("segmentation", "gini", {"max_depth": 6}),
    ("vehicle", "gini", {"min_samples_split": 10}),
    ("twonorm", "entropy", {}),
    ("yeast", "entropy", {"max_depth": 8, "min_samples_split": 5}),
]


@pytest.mark.parametrize(
    "name,criterion,stopping", CASES, ids=[f"{n}-{c}-{'-'.join(s) or 'full'}" for n, c, s in CASES]
)
def test_same_tree_as_sklearn(name, criterion, stopping):
    X, y = load_pmlb(name)
    X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.3, random_state=0)
    ours = PluggableTreeClassifier(criterion, **stopping).fit(X_train, y_train)
    assert_same_tree_up_to_ties(ours, X_train, y_train, np.ones(len(y_train)), criterion, **stopping)
    # and against scikit-learn's own tie-breaking, predictions still mostly agree
    theirs = DecisionTreeClassifier(criterion=criterion, random_state=0, **stopping).fit(X_train, y_train)
    assert np.mean(ours.predict(X_test) == theirs.predict(X_test)) > 0.9


def test_same_tree_as_sklearn_with_bootstrap_weights():
    """Bootstrap multiplicities as sample weights, as the forest passes them."""
    X, y = load_pmlb("satimage")
    weight = np.bincount(np.random.RandomState(1).randint(0, len(y), len(y)), minlength=len(y)).astype(float)
    ours = PluggableTreeClassifier().fit(X, y, sample_weight=weight)
    assert_same_tree_up_to_ties(ours, X, y, weight, "gini")
