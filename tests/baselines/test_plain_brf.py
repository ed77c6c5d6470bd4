"""PlainBanzhafRF, the second implementation of the BRF paper's BRF
(src/forestrepro/extensions/plain_brf.py), checked by hand on tiny inputs, against a brute
force over every coalition, against our brf's trees on the same draws and its accuracy on the
same folds, and by scikit-learn's estimator checks."""

import ast
import itertools
import math
from pathlib import Path

import numpy as np
import pytest
from sklearn.datasets import load_wine
from sklearn.model_selection import StratifiedKFold
from sklearn.preprocessing import MinMaxScaler
from sklearn.utils.estimator_checks import check_estimator

from forestrepro.ensembles.brf import BanzhafForestClassifier
from forestrepro.extensions.plain_brf import (
    PlainBanzhafRF,
    banzhaf_index,
    cell_midpoint,
    conditional_information,
    mutual_information,
    node_choices,
)


def _wine():
    X, y = load_wine(return_X_y=True)
    return MinMaxScaler().fit_transform(X).astype(np.float32), y


def test_the_papers_worked_example_and_a_three_player_game_by_hand():
    # Sec. 4.2: f4 wins {f2}, {f1, f2}, {f2, f3} of the 8 coalitions of {f1, f2, f3}: 3/8 (Eq. 1);
    # f2 is its one interdependent partner. With the bound 3 of Sec. 4.4: 3 of 7 non-empty ones
    assert banzhaf_index(1, 3, -1) == pytest.approx(3 / 8)
    assert banzhaf_index(1, 3, 3) == pytest.approx(3 / 7)
    # three players: with one partner of 2 others, {partner} and {partner, other} are won,
    # {other} lost: 2 of 4 coalitions (Eq. 1), 2 of 3 non-empty ones; with both partners every
    # non-empty one; with none, none
    assert banzhaf_index(1, 2, -1) == pytest.approx(1 / 2)
    assert banzhaf_index(1, 2, 3) == pytest.approx(2 / 3)
    assert banzhaf_index(2, 2, -1) == pytest.approx(3 / 4)
    assert banzhaf_index(2, 2, 1) == pytest.approx(1.0)
    assert banzhaf_index(0, 2, 3) == 0.0


def _brute_force_index(interdependent, i, max_coalition):
    """Eq. 1 / Sec. 4.4 from their definitions: every coalition S of the others, won when at
    least half of S is interdependent with player i (Eq. 3)."""
    others = [j for j in range(len(interdependent)) if j != i]
    largest = len(others) if max_coalition is None else max_coalition
    won = 0
    coalitions = 0
    for size in range(1, min(largest, len(others)) + 1):
        for coalition in itertools.combinations(others, size):
            coalitions += 1
            won += 2 * sum(interdependent[i][j] for j in coalition) >= size
    denominator = 2 ** len(others) if max_coalition is None else coalitions
    return won / denominator if denominator else 0.0  # a lone player has no coalition


@pytest.mark.parametrize("max_coalition", [None, 1, 2, 3, 5])
def test_the_index_is_the_count_over_every_coalition(max_coalition):
    rng = np.random.default_rng(1)
    for n in range(1, 8):
        interdependent = rng.random((n, n)) < 0.5
        for i in range(n):
            a = sum(interdependent[i][j] for j in range(n) if j != i)
            bound = -1 if max_coalition is None else max_coalition
            assert banzhaf_index(a, n - 1, bound) == pytest.approx(
                _brute_force_index(interdependent, i, max_coalition)
            )


def _information_by_definition(x, y, z=None):
    """I(x; y) or I(x; y | z) in bits from the probabilities of the rows, in plain Python."""
    z = [0] * len(x) if z is None else z
    n = len(x)
    p = {}
    for key in zip(x, y, z):
        p[key] = p.get(key, 0) + 1 / n

    def marginal(keep):
        out = {}
        for key, value in p.items():
            out[keep(key)] = out.get(keep(key), 0) + value
        return out

    pxz, pyz, pz = (
        marginal(lambda k: (k[0], k[2])),
        marginal(lambda k: (k[1], k[2])),
        marginal(lambda k: k[2]),
    )
    return sum(v * math.log2(v * pz[c] / (pxz[(a, c)] * pyz[(b, c)])) for (a, b, c), v in p.items())


def test_the_informations_of_xor_by_hand():
    # y = x XOR z on the four rows: x alone says nothing, x given z says all (1 bit); so z is
    # interdependent with x (0 <= 1), and a copy of x is too (0 <= 0, Eq. 4's "<=")
    x = np.array([0, 0, 1, 1])
    z = np.array([0, 1, 0, 1])
    y = x ^ z
    assert mutual_information(x, y, 2) == pytest.approx(0.0, abs=1e-12)
    assert conditional_information(x, z, y, 2) == pytest.approx((1.0, 1.0))
    assert conditional_information(x, x.copy(), y, 2) == pytest.approx((0.0, 0.0), abs=1e-12)
    rng = np.random.default_rng(0)
    for _ in range(20):
        a, b = rng.integers(0, 2, 30), rng.integers(0, 2, 30)
        labels = rng.integers(0, 3, 30)
        assert mutual_information(a, labels, 3) == pytest.approx(_information_by_definition(a, labels))
        assert conditional_information(a, b, labels, 3) == pytest.approx(
            (_information_by_definition(a, labels, b), _information_by_definition(b, labels, a))
        )


def test_a_cut_is_the_cells_midpoint_halved_until_it_separates():
    assert cell_midpoint(0.1, 0.9, 0.0, 1.0) == 0.5
    # rows in [0.6, 0.7] of the cell [0, 1]: 0.5 leaves them right, 0.75 left, 0.625 separates
    assert cell_midpoint(0.6, 0.7, 0.0, 1.0) == 0.625


def _brute_force_choices(values, classes, members, lo, hi, max_coalition):
    """The Banzhaf players of largest index at a non-root node, from the definitions."""
    players, cuts = [], []
    for j, row in enumerate(values):
        node = [row[r] for r in members]
        if max(node) > min(node):
            players.append(j)
            cuts.append(cell_midpoint(min(node), max(node), lo[j], hi[j]))
    y = [int(classes[r]) for r in members]
    bins = [[int(values[j][r] > t) for r in members] for j, t in zip(players, cuts)]
    n = len(players)
    interdependent = [
        [
            i != j
            and _information_by_definition(bins[i], y)
            <= _information_by_definition(bins[i], y, bins[j]) + 1e-9
            for j in range(n)
        ]
        for i in range(n)
    ]
    beta = [_brute_force_index(interdependent, i, max_coalition) for i in range(n)]
    return {players[i] for i in range(n) if beta[i] == max(beta)}, dict(zip(players, cuts))


def test_a_nodes_choice_is_the_brute_force_one():
    rng = np.random.default_rng(3)
    found_a_winner = False
    for _ in range(30):
        values = rng.random((5, 12)).round(1)
        classes = rng.integers(0, 3, 12)
        members = np.sort(rng.choice(12, 9, replace=False))
        lo, hi = values.min(axis=1), values.max(axis=1)
        positions, cuts = node_choices(values, classes, 3, members, lo, hi, False, 3)
        expected, expected_cuts = _brute_force_choices(values, classes, members, lo, hi, 3)
        assert set(positions.tolist()) == expected
        assert all(expected_cuts[j] == t for j, t in zip(positions.tolist(), cuts.tolist()))
        found_a_winner |= len(expected) == 1
    assert found_a_winner  # not every node is a tie of all players


def test_the_root_is_cut_by_the_gain_ratio_of_each_midpoint():
    # feature 0's midpoint 0.5 separates the classes, feature 1's (0.45) does not
    values = np.array([[0.0, 0.2, 0.8, 1.0], [0.0, 0.9, 0.1, 0.8]])
    positions, cuts = node_choices(
        values, np.array([0, 0, 1, 1]), 2, np.arange(4), values.min(1), values.max(1), True, 3
    )
    assert positions.tolist() == [0] and cuts.tolist() == [0.5]


def _check_against_plain(node, ours, values, classes, members, lo, hi, position, counts):
    """Walk our brf tree from ``node``: each cut is one of the cuts plain_brf may choose at that
    node (the same feature among the tied players, the same threshold), each leaf a node plain_brf
    leaves uncut. ``counts`` tallies the nodes with one choice and those with tied players."""
    tree = ours.tree_
    pure = len(set(classes[members].tolist())) == 1
    positions, cuts = node_choices(values, classes, 3, members, lo, hi, node == 0, 3)
    if tree.children_left[node] < 0:
        assert pure or len(positions) == 0
        return
    assert not pure
    j = position[tree.feature[node]]
    assert j in positions.tolist()
    assert cuts[positions.tolist().index(j)] == tree.threshold[node]
    counts[len(positions) > 1] += 1
    t = tree.threshold[node]
    goes_left = values[j, members] <= t
    for child, side in ((tree.children_left[node], goes_left), (tree.children_right[node], ~goes_left)):
        child_lo, child_hi = lo.copy(), hi.copy()
        if child == tree.children_left[node]:
            child_hi[j] = min(hi[j], t)
        else:
            child_lo[j] = max(lo[j], t)
        _check_against_plain(
            child, ours, values, classes, members[side], child_lo, child_hi, position, counts
        )


def test_each_tree_is_one_brf_may_grow_on_the_same_draws():
    # our brf's trees, each walked on its bootstrap sample (rows repeated as often as drawn) and
    # its subspace: at every node our cut is one plain_brf may choose (ties between players are
    # broken at random by both, from generators of their own), and its leaves are plain_brf's
    X, y = _wine()
    forest = BanzhafForestClassifier(10, h_offset=1, random_state=0).fit(X, y)
    counts = [0, 0]
    for ours in forest.estimators_:
        rows = np.repeat(np.arange(len(y)), ours.bootstrap_weight_.astype(np.int64))
        values = X[rows][:, ours.features_].T.astype(np.float64)
        position = {f: j for j, f in enumerate(ours.features_)}
        lo, hi = values.min(axis=1), values.max(axis=1)
        _check_against_plain(0, ours, values, y[rows], np.arange(len(rows)), lo, hi, position, counts)
    assert counts[0] > 10 and counts[1] > 10  # nodes of one choice and nodes of tied players


def test_each_tree_draws_h_features_and_a_bootstrap_sample():
    X, y = _wine()
    forest = PlainBanzhafRF(20, h_offset=0, random_state=0).fit(X, y)
    assert {len(s) for s in forest.subspaces_} == {4}  # round(log2 13) = 4
    assert len({tuple(s) for s in forest.subspaces_}) > 1
    for subspace, (feature, *_) in zip(forest.subspaces_, forest.trees_):
        assert set(feature[feature >= 0]) <= set(subspace)
    proba = forest.predict_proba(X)
    assert set(np.round(proba.ravel() * 20, 9)) <= set(range(21))  # shares of 20 tree votes
    again = PlainBanzhafRF(20, h_offset=0, random_state=0).fit(X, y)
    np.testing.assert_array_equal(again.predict_proba(X), proba)


def test_its_accuracy_agrees_with_brf_under_the_same_folds():
    X, y = _wine()
    plain, ours = [], []
    for train, test in StratifiedKFold(5, shuffle=True, random_state=0).split(X, y):
        for forest, scores in ((PlainBanzhafRF, plain), (BanzhafForestClassifier, ours)):
            fitted = forest(50, h_offset=1, random_state=1).fit(X[train], y[train])
            scores.append(np.mean(fitted.predict(X[test]) == y[test]))
    assert np.mean(plain) > 0.85
    assert abs(np.mean(plain) - np.mean(ours)) < 0.03


def test_it_imports_no_code_of_ours():
    # a second implementation: no module of forestrepro (trees, forests, other extensions)
    source = Path(__file__).parents[2] / "src/forestrepro/extensions/plain_brf.py"
    imported = set()
    for node in ast.walk(ast.parse(source.read_text())):
        if isinstance(node, ast.Import):
            imported |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            imported.add("." * node.level + (node.module or ""))
    assert imported and not any(name.startswith((".", "forestrepro")) for name in imported)


def test_scikit_learn_estimator_checks():
    check_estimator(PlainBanzhafRF(n_estimators=5))


def test_the_brf_paper_runs_it_beside_table_2s_brf():
    from forestrepro.config import compose_config

    cfg = compose_config(profile="paper")
    brf = cfg["paper"]["brf"]
    experiment = brf["experiments"]["independent_brf"]
    assert experiment["methods"] == ["plain_brf"] and experiment["protocol"] == "brf_cv5"
    assert {"isolet", "usps"} <= set(experiment["datasets"])
    assert list(brf["tables"]["independent_brf"]["datasets"]) == experiment["datasets"]
    assert brf["tables"]["independent_brf"]["methods"] == {"plain_brf": "BRFs"}
    assert cfg["method"]["plain_brf"]["grid"] == cfg["method"]["brf"]["grid"]
    assert (
        cfg["method"]["plain_brf"]["params"]["n_estimators"] == cfg["method"]["brf"]["params"]["n_estimators"]
    )
    causes = [c for c in brf["causes"] if c.get("independent_method") == "plain_brf"]
    assert [c["independent_table"] for c in causes] == ["independent_brf"]
