"""PlainCredalRF, the second implementation of the RCRF paper's CRF
(src/forestrepro/extensions/plain_crf.py): the IDM's upper entropy against a brute-force
maximisation over the credal set, the IIG of a cut and a stump worked by hand, determinism for a
seed, the out-of-bag vote by hand, scikit-learn's estimator checks, and its place in the RCRF
paper's configuration."""

import ast
import itertools
import math
from pathlib import Path

import numpy as np
import pytest
from scipy.optimize import minimize
from sklearn.utils.estimator_checks import check_estimator

from forestrepro.extensions.plain_crf import (
    PlainCredalRF,
    candidates_per_node,
    drawn_candidates,
    grow_tree,
    imprecise_gains,
    tree_votes,
    upper_entropy,
)


def _entropy(p):
    p = np.asarray(p, dtype=np.float64)
    p = p[p > 0]
    return float(-(p * np.log2(p)).sum())


def _max_entropy_by_grid(counts, s, steps=600):
    """max H(p) over the credal set of ``counts`` (3 classes), on a grid of its free mass:
    ``p_c = (n_c + s a_c) / (N + s)`` with ``a`` on the simplex, step ``1 / steps``."""
    i, j = np.meshgrid(np.arange(steps + 1), np.arange(steps + 1), indexing="ij")
    keep = i + j <= steps
    share = np.stack((i[keep], j[keep], steps - i[keep] - j[keep]), axis=1) / steps
    p = (np.asarray(counts) + s * share) / (sum(counts) + s)
    return float((-(p * np.log2(np.where(p > 0, p, 1.0))).sum(axis=1)).max())


def _max_entropy_by_optimiser(counts, s):
    """max H(p) over ``n_c / (N + s) <= p_c <= (n_c + s) / (N + s)``, ``sum p = 1``, by SLSQP
    from several starts (the entropy is concave, so every start should reach the one maximum)."""
    counts = np.asarray(counts, dtype=np.float64)
    n = counts.sum() + s
    bounds = [(c / n, (c + s) / n) for c in counts]
    rng = np.random.default_rng(0)
    best = -np.inf
    for _ in range(5):
        start = rng.dirichlet(np.ones(len(counts)))
        found = minimize(
            lambda p: -_entropy(np.clip(p, 1e-15, 1)),
            (counts + s * start) / n,
            bounds=bounds,
            constraints=[{"type": "eq", "fun": lambda p: p.sum() - 1}],
            method="SLSQP",
            options={"ftol": 1e-12, "maxiter": 500},
        )
        best = max(best, -found.fun)
    return best


def test_the_upper_entropy_by_hand_for_s_1():
    # s = 1 adds 1/k to each of the k smallest counts: [3, 1, 1] -> [3, 1.5, 1.5] / 6;
    # [4, 2] -> [4, 3] / 7; a lone class [2, 0] -> [2, 1] / 3; [4, 4] -> [4.5, 4.5] / 9
    assert upper_entropy([3, 1, 1]) == pytest.approx(_entropy([0.5, 0.25, 0.25]))
    assert upper_entropy([4, 2]) == pytest.approx(_entropy([4 / 7, 3 / 7]))
    assert upper_entropy([2, 0]) == pytest.approx(_entropy([2 / 3, 1 / 3]))
    assert upper_entropy([4, 4]) == pytest.approx(1.0)
    # row by row over a stack of count vectors
    np.testing.assert_allclose(
        upper_entropy(np.array([[3, 1, 1], [0, 0, 0]])), [_entropy([0.5, 0.25, 0.25]), math.log2(3)]
    )


@pytest.mark.parametrize("counts", list(itertools.product(range(4), repeat=3)))
def test_the_upper_entropy_is_the_credal_sets_largest_entropy_on_a_grid(counts):
    assert upper_entropy(counts) == pytest.approx(_max_entropy_by_grid(counts, 1.0), abs=2e-4)
    assert upper_entropy(counts) >= _max_entropy_by_grid(counts, 1.0) - 1e-12


def test_the_upper_entropy_is_the_credal_sets_largest_entropy_by_an_optimiser():
    rng = np.random.default_rng(1)
    for _ in range(40):
        k = int(rng.integers(2, 6))
        counts = rng.integers(0, 9, k)
        for s in (1.0, 2.5):  # the level holds for any s, not only 1
            assert upper_entropy(counts, s) == pytest.approx(_max_entropy_by_optimiser(counts, s), abs=1e-6)


def test_the_iig_of_a_cut_by_hand():
    # six rows, classes 0 0 0 1 0 1 along x = 1..6; the cut at 3.5 sends [3, 0] left, [1, 2]
    # right: H*([4, 2]) = H(4/7, 3/7), H*([3, 0]) = H(3/4, 1/4), H*([1, 2]) = H(1/2, 1/2) = 1
    x = np.arange(1.0, 7.0)
    classes = np.array([0, 0, 0, 1, 0, 1])
    columns, thresholds, gains = imprecise_gains(x[:, None], classes, np.ones(6), 2)
    np.testing.assert_array_equal(columns, [0] * 5)
    np.testing.assert_array_equal(thresholds, [1.5, 2.5, 3.5, 4.5, 5.5])
    by_hand = _entropy([4 / 7, 3 / 7]) - 0.5 * _entropy([0.75, 0.25]) - 0.5 * 1.0
    assert gains[2] == pytest.approx(by_hand)
    assert by_hand == pytest.approx(0.0796, abs=1e-4)
    # a second column, x reversed, has the same cuts mirrored: listed after the first column's
    columns, thresholds, both = imprecise_gains(np.column_stack((x, 7 - x)), classes, np.ones(6), 2)
    np.testing.assert_array_equal(columns, [0] * 5 + [1] * 5)
    np.testing.assert_array_equal(thresholds[5:], [1.5, 2.5, 3.5, 4.5, 5.5])
    np.testing.assert_allclose(both[5:], gains[::-1])
    # a row drawn twice weighs as two rows; the cuts lie between distinct values only
    again = imprecise_gains(np.array([[1.0], [1.0], [2.0]]), np.array([0, 0, 1]), np.ones(3), 2)
    weighted = imprecise_gains(np.array([[1.0], [2.0]]), np.array([0, 1]), np.array([2.0, 1.0]), 2)
    for a, b in zip(again, weighted, strict=True):
        np.testing.assert_allclose(a, b)
    # one row of each class: the cut separates them, but its IIG is 0 (H*([1, 1]) = 1 bit, and
    # so is each side's, H*([1, 0]) = H(1/2, 1/2)): no positive IIG, no cut
    _, _, tiny = imprecise_gains(np.array([[0.0], [1.0]]), np.array([0, 1]), np.ones(2), 2)
    assert tiny == pytest.approx([0.0])
    # a constant column has no cut
    assert imprecise_gains(np.ones((4, 1)), np.array([0, 1, 0, 1]), np.ones(4), 2)[2].shape == (0,)


def test_a_stump_on_a_tiny_data_set():
    # feature 0 separates the classes at 3.5 (IIG = 1 - H(4/5, 1/5) = 0.278); feature 1 does not
    X = np.array([[0, 1], [1, 0], [2, 1], [3, 0], [4, 1], [5, 0], [6, 1], [7, 0]], dtype=np.float32)
    classes = np.array([0, 0, 0, 0, 1, 1, 1, 1])
    feature, threshold, left, right, leaf_class = grow_tree(
        X, classes, np.ones(8), 2, 2, 1.0, np.random.RandomState(0)
    )
    np.testing.assert_array_equal(feature, [0, -1, -1])
    assert threshold[0] == 3.5
    np.testing.assert_array_equal(left, [1, -1, -1])
    np.testing.assert_array_equal(right, [2, -1, -1])
    np.testing.assert_array_equal(leaf_class[1:], [0, 1])
    votes = tree_votes(
        np.array([[3.4, 9], [3.5, 9], [3.6, -9]], dtype=np.float32),
        feature,
        threshold,
        left,
        right,
        leaf_class,
    )
    np.testing.assert_array_equal(votes, [0, 0, 1])
    # with feature 1 the only candidate the node has no cut of positive IIG and stays a leaf
    alone = grow_tree(X[:, [1]], classes, np.ones(8), 2, 1, 1.0, np.random.RandomState(0))
    np.testing.assert_array_equal(alone[0], [-1])


def test_a_node_draws_m_features_and_more_only_until_one_varies():
    varies = np.array([False, True, True, False])
    # the first m = 2 drawn, features 3 and 1: feature 1 varies, feature 2 is not drawn
    np.testing.assert_array_equal(drawn_candidates(np.array([3, 1, 2, 0]), varies, 2), [1])
    np.testing.assert_array_equal(drawn_candidates(np.array([1, 2, 0, 3]), varies, 2), [1, 2])
    # neither of the first two varies: drawn on to feature 2, the first that does
    np.testing.assert_array_equal(drawn_candidates(np.array([0, 3, 2, 1]), varies, 2), [2])
    assert drawn_candidates(np.arange(4), np.zeros(4, dtype=bool), 2).shape == (0,)


def test_a_feature_constant_at_a_node_is_drawn_past():
    # feature 0 separates the classes, the 7 others are constant: m = 4 of the 8 features, and
    # where the 4 drawn are constant the draw goes on to feature 0, so every tree's root is cut
    # on it (a draw that stopped at 4 would miss it in half the trees and leave their root a leaf)
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 200)
    X = np.zeros((200, 8), dtype=np.float32)
    X[:, 0] = y + rng.normal(0, 0.1, 200)
    forest = PlainCredalRF(40, random_state=0).fit(X, y)
    assert all(feature[0] == 0 for feature, *_ in forest.trees_)
    # where every feature is constant, the root is a leaf of its bootstrap sample's majority class
    y = np.array([0, 0, 0, 1, 1, 0, 1])
    alone = PlainCredalRF(5, random_state=0).fit(np.zeros((7, 2)), y)
    for (feature, *_, leaf), counts in zip(alone.trees_, alone.bootstrap_counts_, strict=True):
        assert feature.tolist() == [-1]
        assert leaf.tolist() == [np.argmax(np.bincount(y, weights=counts, minlength=2))]


def test_m_is_int_log2_m_plus_1():
    assert [candidates_per_node(m, "log2+1") for m in (1, 2, 4, 6, 7, 8, 76)] == [1, 2, 3, 3, 3, 4, 7]
    assert candidates_per_node(3, 5) == 3


def _blobs(seed=0, n=150):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    return (rng.normal(size=(n, 5)) + y[:, None]).astype(np.float32), np.array(["a", "b", "c"])[y]


def test_a_seed_gives_the_same_forest_and_another_seed_another():
    X, y = _blobs()
    first = PlainCredalRF(15, random_state=3).fit(X, y)
    again = PlainCredalRF(15, random_state=3).fit(X, y)
    other = PlainCredalRF(15, random_state=4).fit(X, y)
    for a, b in zip(first.trees_, again.trees_, strict=True):
        for column_a, column_b in zip(a, b, strict=True):
            np.testing.assert_array_equal(column_a, column_b)
    np.testing.assert_array_equal(first.predict_proba(X), again.predict_proba(X))
    assert not np.array_equal(first.tree_predictions(X), other.tree_predictions(X))


def test_each_tree_grows_on_scikit_learns_bootstrap_and_the_oob_vote_is_its_out_of_bag_trees():
    X, y = _blobs(1)
    forest = PlainCredalRF(12, oob_score=True, random_state=5).fit(X, y)
    # scikit-learn's forests: tree seeds drawn from random_state, then randint(0, n, n) per tree
    seeds = np.random.RandomState(5).randint(np.iinfo(np.int32).max, size=12)
    for seed, counts in zip(seeds, forest.bootstrap_counts_, strict=True):
        drawn = np.random.RandomState(seed).randint(0, len(y), len(y))
        np.testing.assert_array_equal(counts, np.bincount(drawn, minlength=len(y)))
    predictions = forest.tree_predictions(X)
    proba = forest.predict_proba(X)
    for i in range(len(y)):
        out = [t for t, counts in enumerate(forest.bootstrap_counts_) if counts[i] == 0]
        shares = np.bincount(predictions[out, i], minlength=3) / len(out) if out else np.full(3, np.nan)
        np.testing.assert_array_equal(forest.oob_decision_function_[i], shares)
        np.testing.assert_array_equal(proba[i], np.bincount(predictions[:, i], minlength=3) / 12)
    scored = ~np.isnan(forest.oob_decision_function_).any(axis=1)
    assert forest.oob_score_ == pytest.approx(
        np.mean(forest.classes_[forest.oob_decision_function_[scored].argmax(axis=1)] == y[scored])
    )
    assert forest.oob_score_ > 0.7


def test_it_imports_no_code_of_ours():
    # a second implementation: no module of forestrepro (trees, forests, other extensions), no numba
    source = Path(__file__).parents[2] / "src/forestrepro/extensions/plain_crf.py"
    imported = set()
    for node in ast.walk(ast.parse(source.read_text())):
        if isinstance(node, ast.Import):
            imported |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            imported.add("." * node.level + (node.module or ""))
    assert imported and all(
        name.split(".")[0] in {"__future__", "math", "numbers", "numpy", "sklearn"} for name in imported
    )


def test_scikit_learn_estimator_checks():
    check_estimator(PlainCredalRF(n_estimators=5))


def test_the_rcrf_paper_runs_it_beside_the_crf_cells():
    from forestrepro.config import compose_config

    cfg = compose_config(profile="paper")
    rcrf = cfg["paper"]["rcrf"]
    plain, crf = cfg["method"]["plain_crf"], cfg["method"]["crf"]
    assert {k: plain["params"][k] for k in ("n_estimators", "max_features", "s")} == {
        k: crf["params"][k] for k in ("n_estimators", "max_features", "s")
    }
    assert crf["params"]["voting"] == "hard" and crf["params"]["discretize"] is None
    oob, diversity = rcrf["experiments"]["independent_crf"], rcrf["experiments"]["independent_crf_diversity"]
    assert oob["protocol"] == rcrf["experiments"]["main"]["protocol"] and oob["methods"] == ["plain_crf"]
    assert diversity["protocol"] == rcrf["experiments"]["diversity"]["protocol"]
    # Table 5's run leaves out only krkopt, whose Table 5 CRF cells lie within tolerance
    assert diversity["methods"] == ["plain_crf"]
    assert diversity["datasets"] == [d for d in oob["datasets"] if d != "krkopt"]
    # Table 5's 10-fold CV meets classes of fewer than 10 rows as the diversity experiment does
    own_options, options = rcrf["experiments"]["diversity"]["dataset_options"], diversity["dataset_options"]
    assert all(options.get(d) == own_options.get(d) for d in diversity["datasets"])
    rules = [c for c in rcrf["causes"] if c.get("independent_method") == "plain_crf"]
    tables = {rule["tables"][0]: rule["independent_table"] for rule in rules}
    assert sorted(tables) == sorted(["table2", "table3", "table4", "table5_kappa", "table5_error"])
    for rule in rules:
        assert (
            rule["test"] == "independent_within" and rule["methods"] == ["crf"] and len(rule["tables"]) == 1
        )
        own, other = rcrf["tables"][rule["tables"][0]], rcrf["tables"][rule["independent_table"]]
        assert other["metric"] == own["metric"] and other["published"] == own["published"]
        assert other["methods"] == {"plain_crf": "CRF"} and other["ablation"] is True
        expected = oob if own["experiment"] == "main" else diversity
        assert list(other["datasets"]) == expected["datasets"]
        assert rcrf["experiments"][other["experiment"]] == expected


def _walk_our_tree(tree, node, X, classes, weights, rows, n_classes, counts):
    """Walk our crf tree from ``node`` on its bootstrap rows: each cut is, on its own feature, the
    cut of largest IIG by plain_crf's computation (the same threshold), and that IIG is positive;
    each leaf is pure or has no cut of positive IIG on some feature drawn (not checked: its draws
    are our forest's own). ``counts`` tallies the cuts checked."""
    if tree.children_left[node] < 0:
        return
    j = tree.feature[node]
    _, thresholds, gains = imprecise_gains(X[rows][:, [j]], classes[rows], weights[rows], n_classes)
    best = int(np.argmax(gains))
    assert gains[best] > 0
    assert thresholds[best] == pytest.approx(tree.threshold[node], rel=1e-6)
    counts[0] += 1
    goes_left = X[rows, j] <= tree.threshold[node]
    for child, side in ((tree.children_left[node], goes_left), (tree.children_right[node], ~goes_left)):
        _walk_our_tree(tree, child, X, classes, weights, rows[side], n_classes, counts)


def test_each_cut_of_our_crf_is_plain_crfs_best_on_its_feature():
    # our crf (forestrepro.ensembles.credal) on the same bootstrap samples: every cut it makes is
    # the one plain_crf's IIG (its upper entropy over all the training classes) ranks first on that
    # feature, so the two compute the same criterion; their feature draws differ (generators of
    # their own), so the trees do
    from sklearn.datasets import load_wine

    from forestrepro.ensembles.credal import CredalForestClassifier

    X, y = load_wine(return_X_y=True)
    X = X.astype(np.float32)
    ours = CredalForestClassifier(n_estimators=10, random_state=0).fit(X, y)
    plain = PlainCredalRF(10, random_state=0).fit(X, y)
    counts = [0]
    for tree, bootstrap in zip(ours.estimators_, plain.bootstrap_counts_, strict=True):
        np.testing.assert_array_equal(tree.bootstrap_weight_, bootstrap)  # the same samples
        weights = bootstrap.astype(np.float64)
        rows = np.flatnonzero(weights > 0)
        _walk_our_tree(tree.tree_, 0, X, y, weights, rows, 3, counts)
    assert counts[0] > 50
