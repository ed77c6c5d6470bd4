"""``grow_sklearn_tree`` grows scikit-learn's tree node for node.

Each case fits scikit-learn's ``DecisionTreeClassifier(max_features="sqrt")`` (a random
forest's tree) or ``ExtraTreeClassifier(max_features=1)`` (a completely random forest's tree,
as in a cascade level) and our builder with the same seed, with a bootstrap's multiplicities as
sample weights (``np.bincount`` of ``RandomState(seed).randint(0, n, n)``) or none, on float32
``X`` in C and in Fortran order, and requires ``Tree.__getstate__()`` to be equal: every field
of every node (bit for bit, padding included), every value and ``max_depth``.

The cases reach both ways of finding a best cut: counting a feature's codes (where the column
has at most 8 times as many distinct values as the node has samples: every node of letter, the
large nodes elsewhere) and sorting them (the small nodes: below 35 samples on ionosphere, 17 on
wine, 13 on satimage, 7 on the vote fractions), and both code widths (uint8; uint16 on
ionosphere, checked below).
"""

import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest
from sklearn.tree import DecisionTreeClassifier, ExtraTreeClassifier
from sklearn.utils._random import _our_rand_r_py

from forestrepro.cascade._sklearn_rand import our_rand_r
from forestrepro.cascade.column_codes import column_codes
from forestrepro.cascade.sklearn_trees import grow_sklearn_tree
from forestrepro.data import DatasetError, load_dataset, load_spec

# the mirror the pipeline reads: $FORESTREPRO_MIRROR, else the shared one next to the repository
MIRROR = Path(
    os.environ.get("FORESTREPRO_MIRROR") or Path(__file__).resolve().parents[2] / ".." / "shared" / "datasets"
)
SEEDS = (0, 1, 7)
REFERENCE = {
    "best": lambda seed: DecisionTreeClassifier(max_features="sqrt", random_state=seed),
    "random": lambda seed: ExtraTreeClassifier(max_features=1, random_state=seed),
}


def _mirror_data(name, rows=None):
    """float32 ``X`` and class codes ``y`` of a mirror data set, its first ``rows`` rows."""
    try:
        frame = load_dataset(load_spec(name), sources=("mirror",), mirror_dir=MIRROR).frame
    except DatasetError as error:
        pytest.skip(f"{name} is not in the mirror {MIRROR}: {error}")
    frame = frame.iloc[:rows]
    X = frame.drop(columns="target").to_numpy(np.float32)
    return X, np.unique(frame["target"].to_numpy(), return_inverse=True)[1]


def _vote_fractions(n_rows=400, n_windows=150, n_classes=5, n_votes=50, seed=0):
    """A wide input like a cascade level's: per window, the fractions k/50 of 50 votes over the
    classes (many tied values), the true class favoured; ``n_windows * n_classes`` columns."""
    rng = np.random.RandomState(seed)
    y = rng.randint(0, n_classes, n_rows)
    logits = rng.normal(size=(n_rows, n_windows, n_classes))
    logits[np.arange(n_rows), :, y] += rng.uniform(0.0, 1.5, size=(n_windows,))
    p = np.exp(logits) / np.exp(logits).sum(axis=2, keepdims=True)
    draws = rng.uniform(size=(n_rows, n_windows, n_votes, 1)) > p.cumsum(axis=2)[:, :, None, :]
    voted = np.minimum(draws.sum(axis=3), n_classes - 1)  # each vote's class
    votes = (voted[..., None] == np.arange(n_classes)).sum(axis=2)
    return (votes / n_votes).reshape(n_rows, -1).astype(np.float32), y


def _bootstrap(n, seed):
    return np.bincount(np.random.RandomState(seed).randint(0, n, n), minlength=n).astype(np.float64)


def assert_same_trees(X, y, splitter, seed, bootstrap, coded=None):
    """scikit-learn's tree and ours, grown on ``X`` (or its ``coded`` columns) with the same
    seed, are equal."""
    weights = _bootstrap(len(y), seed) if bootstrap else None
    reference = REFERENCE[splitter](seed).fit(X, y, sample_weight=weights)
    ours = grow_sklearn_tree(
        X if coded is None else coded,
        y,
        reference.n_classes_,
        max_features=reference.max_features_,
        splitter=splitter,
        sample_weight=weights,
        random_state=seed,
    )
    expected, got = reference.tree_.__getstate__(), ours.__getstate__()
    assert got["node_count"] == expected["node_count"]
    assert got["max_depth"] == expected["max_depth"]
    assert got["nodes"].tobytes() == expected["nodes"].tobytes()
    assert got["values"].tobytes() == expected["values"].tobytes()
    return reference, ours


def assert_same_trees_every_way(X, y, splitter):
    """``assert_same_trees`` for X in C and Fortran order, every seed, with and without bootstrap."""
    for order in "CF":
        Xo = np.asarray(X, order=order)
        for seed in SEEDS:
            for bootstrap in (False, True):
                assert_same_trees(Xo, y, splitter, seed, bootstrap)


@pytest.mark.parametrize("splitter", ["best", "random"])
@pytest.mark.parametrize(
    "name, rows",
    [("wine", None), ("ionosphere", None), ("yeast", None), ("satimage", None), ("letter", 5000)],
)
def test_mirror_data_sets(name, rows, splitter):
    X, y = _mirror_data(name, rows)
    assert_same_trees_every_way(X, y, splitter)


def test_ionosphere_needs_wide_codes():
    """The uint16 codes are reached by ``test_mirror_data_sets``."""
    assert column_codes(_mirror_data("ionosphere")[0]).codes.dtype == np.uint16


def test_one_coding_serves_every_tree():
    """Columns coded once, as a forest would, give each seed's tree."""
    X, y = _vote_fractions(n_rows=300, n_windows=60, seed=4)
    X = np.asfortranarray(X)
    coded = column_codes(X)
    for splitter in ("best", "random"):
        for seed in range(10, 16):
            assert_same_trees(X, y, splitter, seed, True, coded=coded)


@pytest.mark.parametrize("splitter", ["best", "random"])
def test_wide_tied_vote_fractions(splitter):
    """Many columns of few distinct values, as a cascade level's class vectors."""
    X, y = _vote_fractions()
    assert len(np.unique(X)) <= 51
    assert_same_trees_every_way(X, y, splitter)


def test_constant_features_and_duplicates():
    """Constant columns (known, found and drawn constants) and duplicated rows."""
    rng = np.random.RandomState(3)
    X = np.repeat(rng.randint(0, 3, size=(60, 12)).astype(np.float32), 3, axis=0)
    X[:, ::3] = 1.0
    y = rng.randint(0, 3, len(X))
    for splitter in ("best", "random"):
        for seed in SEEDS:
            for bootstrap in (False, True):
                assert_same_trees(X, y, splitter, seed, bootstrap)


def test_values_closer_than_feature_threshold():
    """Neighbouring values less than ``FEATURE_THRESHOLD`` (1e-7) apart are one value to the
    splitter, in chains, and a column of such values is constant."""
    rng = np.random.RandomState(5)
    base = rng.randint(0, 4, size=(300, 16)).astype(np.float32) / 8 + np.float32(0.5)
    ulps = rng.randint(0, 3, size=base.shape).astype(np.float32)
    X = base + ulps * np.spacing(np.float32(0.5))  # 0, 1 or 2 ulps of 6e-8 above
    X[:, 0] = np.float32(0.75) + ulps[:, 0] * np.spacing(np.float32(0.5))
    y = (base[:, 1] + base[:, 2] > 1.2).astype(int) + (ulps[:, 3] > 0)
    for splitter in ("best", "random"):
        for seed in SEEDS:
            for bootstrap in (False, True):
                assert_same_trees(X, y, splitter, seed, bootstrap)


def test_predictions_are_sklearns():
    """The tree predicts as scikit-learn's does when put in a fitted classifier."""
    X, y = _vote_fractions(n_rows=200, n_windows=40)
    reference, ours = assert_same_trees(X, y, "best", 5, True)
    expected = reference.predict_proba(X)
    reference.tree_ = ours
    np.testing.assert_array_equal(reference.predict_proba(X), expected)


def test_rand_r_is_sklearns():
    """One step of our generator from a state is scikit-learn's ``our_rand_r`` from it."""
    for seed in (
        0,
        1,
        2,
        12345,
        2**31 - 1,
        2**31,
        2**32 - 1,
        *np.random.RandomState(0).randint(0, 2**32, 200),
    ):
        state = np.array([seed], dtype=np.int64)
        assert our_rand_r(state) == _our_rand_r_py(int(seed))


def test_refuses_weights_that_are_not_whole_numbers():
    X, y = _vote_fractions(n_rows=50, n_windows=4)
    with pytest.raises(ValueError, match="whole"):
        grow_sklearn_tree(X, y, 5, max_features=2, sample_weight=np.full(50, 0.5))
    with pytest.raises(ValueError, match="float32"):
        grow_sklearn_tree(X.astype(np.float64), y, 5, max_features=2)
    with pytest.raises(ValueError, match="class code"):
        grow_sklearn_tree(X, y + 1, 5, max_features=2)
    X[3, 3] = np.nan
    with pytest.raises(ValueError, match="finite"):
        grow_sklearn_tree(X, y, 5, max_features=2)


def test_trees_grown_in_threads_are_sklearns():
    """The builder releases the GIL and keeps its state per call: trees grown in two threads
    at once from one coding are each seed's tree."""
    X, y = _vote_fractions(n_rows=300, n_windows=60, seed=6)
    coded = column_codes(X)
    seeds = range(20, 28)

    def grow(seed):
        weights = _bootstrap(len(y), seed)
        return grow_sklearn_tree(coded, y, 5, max_features=17, sample_weight=weights, random_state=seed)

    with ThreadPoolExecutor(2) as pool:
        grown = list(pool.map(grow, seeds))
    for seed, ours in zip(seeds, grown, strict=True):
        reference = REFERENCE["best"](seed).fit(X, y, sample_weight=_bootstrap(len(y), seed))
        assert reference.max_features_ == 17
        assert ours.__getstate__()["nodes"].tobytes() == reference.tree_.__getstate__()["nodes"].tobytes()
        assert ours.__getstate__()["values"].tobytes() == reference.tree_.__getstate__()["values"].tobytes()


def test_rows_left_out_by_zero_weights():
    """A tree grown on some rows of ``X`` (``X[rows]``, any order) is the tree grown on all of
    ``X``'s coded columns with weight 0 on the other rows: one coding serves every fold."""
    X, y = _vote_fractions(n_rows=400, n_windows=60, seed=8)
    coded = column_codes(X)
    rows = np.random.RandomState(8).permutation(400)[:260]
    assert len(np.unique(y[rows])) == 5  # the fold's class codes are the input's
    for splitter in ("best", "random"):
        for seed in SEEDS:
            fold_weights = _bootstrap(len(rows), seed) if splitter == "best" else np.ones(len(rows))
            reference = REFERENCE[splitter](seed).fit(X[rows], y[rows], sample_weight=fold_weights)
            weights = np.zeros(len(y))
            weights[rows] = fold_weights
            ours = grow_sklearn_tree(
                coded,
                y,
                reference.n_classes_,
                max_features=reference.max_features_,
                splitter=splitter,
                sample_weight=weights,
                random_state=seed,
            )
            expected, got = reference.tree_.__getstate__(), ours.__getstate__()
            assert got["nodes"].tobytes() == expected["nodes"].tobytes()
            assert got["values"].tobytes() == expected["values"].tobytes()
