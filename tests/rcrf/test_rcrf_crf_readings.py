"""Two readings of the RCRF paper's CRF: trees grown until pure (``stop="pure"``) and
Abellán and Moral's multiway splits (``splits="multiway"``), each against a definition
checked by hand or by a direct recursive implementation."""

import itertools

import numpy as np
import pytest

from forestrepro.ensembles.credal import CredalForestClassifier, CredalTree, IIGUntilPure, MultiwayCredalTree
from forestrepro.trees._nodes import LEAF
from forestrepro.trees.rules import BestThreshold
from forestrepro.trees.rules.iig import ZERO_GAIN, max_entropy


def _fit(tree, X, y):
    tree.classes_, y_encoded = np.unique(y, return_inverse=True)
    tree.n_features_in_ = X.shape[1]
    return tree._fit_encoded(np.asarray(X, np.float32), y_encoded, np.ones(len(y))).tree_


def test_grown_until_pure_cuts_where_no_cut_gains():
    # x = 1..5, y = 0 0 1 0 0: no cut has a positive IIG (tests/rcrf/test_rcrf_credal.py), so
    # the default makes one leaf.  Grown until pure, the root takes the cut of largest IIG,
    # 2.5 (-0.049022; 3.5 ties and comes later); its right child (3, 4, 5: y = 1 0 0) has
    # H*(2, 1) = 1, and the cut 3.5 gives (0, 1) and (2, 0): IIG = 1 - 1/3 - 2/3 0.918296 > 0.
    X = np.arange(1, 6, dtype=np.float32)[:, None]
    y = [0, 0, 1, 0, 0]
    assert _fit(CredalTree(BestThreshold("iig")), X, y).node_count == 1
    tree = _fit(CredalTree(IIGUntilPure()), X, y)
    assert tree.threshold[0] == 2.5
    assert tree.threshold[tree.children_right[0]] == 3.5
    leaves = tree.children_left == LEAF
    assert tree.node_count == 5
    assert np.all(np.count_nonzero(tree.value[leaves], axis=1) == 1)


def _gain(X, y, rows, f, n_classes, s=1.0):
    scratch = np.empty(n_classes)

    def h(r):
        counts = np.bincount(y[r], minlength=n_classes).astype(float)
        return max_entropy(counts, counts.sum(), n_classes, s, scratch)

    gain = h(rows) - sum(
        np.sum(X[rows, f] == v) / len(rows) * h(rows[X[rows, f] == v]) for v in np.unique(X[rows, f])
    )
    return 0.0 if abs(gain) < ZERO_GAIN else gain


def _id3(X, y, rows, n_classes, domains, require_gain):
    """The multiway credal tree by its definition: a node is a dict of one branch per value of
    its feature's domain, an empty branch a leaf with the node's counts."""
    counts = np.bincount(y[rows], minlength=n_classes).astype(float)
    if len(rows) < 2 or np.count_nonzero(counts) == 1:
        return counts
    usable = [f for f in range(X.shape[1]) if np.unique(X[rows, f]).size > 1]
    gains = [_gain(X, y, rows, f, n_classes) for f in usable]
    if not usable or (require_gain and max(gains) <= 0.0):
        return counts
    f = usable[int(np.argmax(gains))]
    return f, {
        v: _id3(X, y, rows[X[rows, f] == v], n_classes, domains, require_gain)
        if np.any(X[rows, f] == v)
        else counts
        for v in domains[f]
    }


def _predict(node, x):
    while isinstance(node, tuple):
        f, branches = node
        node = branches[x[f]]
    return node / node.sum()


@pytest.mark.parametrize("stop", ["no_gain", "pure"])
@pytest.mark.parametrize("seed", range(4))
def test_multiway_tree_is_the_id3_credal_tree(stop, seed):
    # nominal features of 2-4 values, the class a noisy function of two of them; every
    # feature evaluated at every node, so the tree is deterministic and must equal the
    # recursive definition on every point of the domain
    rng = np.random.default_rng(seed)
    X = np.column_stack([rng.integers(0, k, 60) for k in (3, 2, 4, 3)])
    y = (X[:, 0] + X[:, 2]) % 3
    flip = rng.random(60) < 0.2
    y[flip] = rng.integers(0, 3, int(flip.sum()))
    tree = _fit(MultiwayCredalTree(stop=stop), X, y)
    domains = [np.unique(X[:, f]) for f in range(X.shape[1])]
    reference = _id3(X, y, np.arange(len(y)), 3, domains, stop == "no_gain")
    grid = np.array(list(itertools.product(*domains)), dtype=np.float32)
    np.testing.assert_allclose(tree.predict_proba(grid), [_predict(reference, x.astype(int)) for x in grid])


def test_a_multiway_split_has_a_branch_per_value_and_an_empty_one_predicts_the_node():
    # feature 0 (values 0, 1, 2) decides the class: the root splits on it into three
    # branches, chained as x0 <= 0.5, then x0 <= 1.5; feature 1 is noise
    X = np.array([[0, 0], [0, 1], [1, 0], [1, 1], [2, 0], [2, 1], [2, 0]], dtype=np.float32)
    y = np.array([0, 0, 1, 1, 2, 2, 2])
    tree = _fit(MultiwayCredalTree(), X, y)
    assert (tree.feature[0], tree.threshold[0]) == (0, 0.5)
    right = tree.children_right[0]
    assert (tree.feature[right], tree.threshold[right]) == (0, 1.5)
    assert tree.n_leaves == 3
    # the value 1 is in the domain (a row of weight 0 holds it) but not in the sample: its
    # branch is an empty leaf that predicts the node's counts (2, 2)
    X3 = np.array([[0], [0], [2], [2], [1]], dtype=np.float32)
    y3 = np.array([0, 0, 1, 1, 1])
    t = MultiwayCredalTree()
    t.classes_, enc = np.unique(y3, return_inverse=True)
    t.n_features_in_ = 1
    grown = t._fit_encoded(X3, enc, np.array([1.0, 1.0, 1.0, 1.0, 0.0])).tree_
    np.testing.assert_allclose(grown.predict_proba(np.array([[1.0]], np.float32)), [[0.5, 0.5]])
    assert grown.n_leaves == 3


def test_a_feature_is_used_once_down_a_path():
    rng = np.random.default_rng(0)
    X = rng.integers(0, 4, size=(300, 5)).astype(np.float32)
    y = rng.integers(0, 3, 300)
    tree = _fit(MultiwayCredalTree(stop="pure"), X, y)
    parent = np.full(tree.node_count, -1)
    for node in tree.split_nodes:
        parent[tree.children_left[node]] = parent[tree.children_right[node]] = node
    for leaf in np.flatnonzero(tree.children_left == LEAF):
        # the features of the path's chains: a chain is a run of cuts on one feature, each
        # the right child of the one before
        heads, node = [], leaf
        while parent[node] >= 0:
            up = parent[node]
            if not (
                parent[up] >= 0
                and tree.feature[parent[up]] == tree.feature[up]
                and tree.children_right[parent[up]] == up
            ):
                heads.append(tree.feature[up])
            node = up
        assert len(heads) == len(set(heads))


def test_the_default_crf_is_unchanged_by_the_new_switches():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(120, 6))
    y = (X[:, 0] + X[:, 1] > 0).astype(int) + (X[:, 2] > 1)
    plain = CredalForestClassifier(10, random_state=0).fit(X, y)
    spelled = CredalForestClassifier(10, splits="threshold", stop="no_gain", random_state=0).fit(X, y)
    for a, b in zip(plain.estimators_, spelled.estimators_, strict=True):
        np.testing.assert_array_equal(a.tree_.threshold, b.tree_.threshold)
    grown = CredalForestClassifier(10, stop="pure", random_state=0).fit(X, y)
    assert sum(t.tree_.node_count for t in grown.estimators_) > sum(
        t.tree_.node_count for t in plain.estimators_
    )
