"""scikit-learn's tree grown by ``cascade/sklearn_trees.py`` against scikit-learn growing it.

A cascade level grows random-forest trees (``max_features="sqrt"``, bootstrap) and completely
random trees (one feature per node, no bootstrap here); both are timed tree by tree, each seed's
tree grown by both sides one after the other, best of ``REPEATS``, the seconds summed over the
seeds. scikit-learn's side is ``DecisionTreeClassifier`` or ``ExtraTreeClassifier`` ``.fit(X, y,
sample_weight=bootstrap, check_input=False)``, as a forest fits its trees; ours is
``grow_sklearn_tree`` on ``column_codes(X)``, coded once per input as a forest would (its
seconds are in the agreement column, not in the ratio). Every tree pair must be equal node for
node (``Tree.__getstate__``). Cases: letter (20,000 x 16), and vote fractions as wide as MNIST's
and SEMG's cascade inputs (``WIDE``: 5,000 rows x 2,218 windows x 10 classes = 22,180 columns;
1,200 rows x 15,382 windows x 6 classes = 92,292 columns), fractions k/500 as from 500-tree
forests, Fortran order as ``cascade_members`` gives a fold's rows. Findings:
``sklearn_trees.md``.
"""

from __future__ import annotations

import time

import numpy as np
from sklearn.tree import DecisionTreeClassifier, ExtraTreeClassifier

from forestrepro.cascade.column_codes import column_codes
from forestrepro.cascade.sklearn_trees import grow_sklearn_tree

from .comparison import Comparison, Row, best_seconds
from .data import load_rows

REPEATS = 2
TREES = {"letter": 20, "vote fractions": 10}
# (rows, windows, classes) of the wide cases: a fold's two thirds of MNIST's 8,000 training
# images (22,180 columns) and of SEMG's 1,800 records (3,000 samples scanned: 92,292 columns)
WIDE = {"MNIST": (5000, 2218, 10), "SEMG": (1200, 15382, 6)}
# each kind of tree: scikit-learn's classifier for a seed, our splitter, bootstrap weights or not
KINDS = {
    "random forest tree": (
        lambda seed: DecisionTreeClassifier(max_features="sqrt", random_state=seed),
        "best",
        True,
    ),
    "completely random tree": (
        lambda seed: ExtraTreeClassifier(max_features=1, random_state=seed),
        "random",
        False,
    ),
}


def vote_fractions(n_rows, n_windows, n_classes, n_votes, seed=0):
    """A wide input like a cascade level's: per window, each class's share of ``n_votes`` votes
    (``rint(p * n_votes) / n_votes`` of softmax probabilities, the true class favoured by a
    window's own strength), float32 in Fortran order; and the classes."""
    rng = np.random.RandomState(seed)
    y = rng.randint(0, n_classes, n_rows)
    X = np.empty((n_rows, n_windows * n_classes), dtype=np.float32, order="F")
    strength = rng.uniform(0.0, 2.0, n_windows)
    for first in range(0, n_windows, 100):
        last = min(n_windows, first + 100)
        logits = rng.normal(size=(n_rows, last - first, n_classes))
        logits[np.arange(n_rows), :, y] += strength[first:last]
        p = np.exp(logits)
        p /= p.sum(axis=2, keepdims=True)
        X[:, first * n_classes : last * n_classes] = (np.rint(p * n_votes) / n_votes).reshape(n_rows, -1)
    return X, y


class SklearnTrees(Comparison):
    name = "sklearn_trees"
    ours = "scikit-learn's tree grown from coded columns (cascade/sklearn_trees.py)"
    anchor = "scikit-learn's DecisionTreeClassifier / ExtraTreeClassifier fit (check_input=False)"

    def rows(self, quick: bool) -> list[Row]:
        if quick:
            X, y = vote_fractions(300, 40, 5, 50)
            return [_row(f"vote fractions 300 x 200, {kind}", X, y, kind, 2, 1) for kind in KINDS]
        X, _, y = load_rows("letter")
        rows = [_row(f"letter, {kind}", X, y, kind, TREES["letter"], REPEATS) for kind in KINDS]
        for name, (n_rows, n_windows, n_classes) in WIDE.items():
            X, y = vote_fractions(n_rows, n_windows, n_classes, 500)
            case = f"{name}-wide vote fractions {n_rows:,} x {X.shape[1]:,}"
            rows += [_row(f"{case}, {kind}", X, y, kind, TREES["vote fractions"], REPEATS) for kind in KINDS]
        return rows


def _row(case, X, y, kind, n_trees, repeats) -> Row:
    """``n_trees`` seeds' trees of ``kind`` grown both ways; their summed best seconds."""
    make, splitter, bootstrap = KINDS[kind]
    n_classes = int(y.max()) + 1
    started = time.perf_counter()
    coded = column_codes(X)
    coding = time.perf_counter() - started
    few = np.array(coded.codes[:50], order="F" if np.isfortran(coded.codes) else "C")
    grow_sklearn_tree(coded._replace(codes=few), y[:50], n_classes, max_features=1)  # compile first
    totals = [0.0, 0.0]
    equal = 0
    for seed in range(n_trees):
        weights = np.bincount(np.random.RandomState(seed).randint(0, len(y), len(y)), minlength=len(y))
        weights = weights.astype(np.float64) if bootstrap else None
        reference = make(seed)
        seconds, (ours, _) = best_seconds(
            [
                lambda: grow_sklearn_tree(
                    coded,
                    y,
                    n_classes,
                    max_features=max(1, int(np.sqrt(X.shape[1]))) if splitter == "best" else 1,
                    splitter=splitter,
                    sample_weight=weights,
                    random_state=seed,
                    check_input=False,
                ),
                lambda: reference.fit(X, y, sample_weight=weights, check_input=False),
            ],
            repeats,
        )
        totals = [total + s for total, s in zip(totals, seconds, strict=True)]
        expected = reference.tree_.__getstate__()
        got = ours.__getstate__()
        equal += (
            got["max_depth"] == expected["max_depth"]
            and got["nodes"].tobytes() == expected["nodes"].tobytes()
            and got["values"].tobytes() == expected["values"].tobytes()
        )
    return Row(
        case,
        *totals,
        f"trees equal node for node in {equal} of {n_trees}; columns coded once in {coding:.2f} s",
    )
