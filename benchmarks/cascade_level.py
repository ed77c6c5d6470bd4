"""What a cascade level costs: the order of its fold rows, and WDF's tree weights against DF.

Three measurements on a data set's rows, each against a reference in the same process:

1. **Fold rows' order.** A level grows each forest on the rows of the other folds. Given as
   ``X[rows]`` (row-major, what NumPy's indexing returns) or as ``rows_in_columns(X, rows)``
   (column-major, what ``cascade_members.cross_fit`` passes), scikit-learn's random forest and
   completely-random tree forest grow the same trees (checked); the ratio is column-major over
   row-major time, gathering the rows included.
2. **Scoring the trees.** WDF (Gong et al. 2019, Eqs. 1-4) weights each tree by its accuracy
   ``a_k`` on its training rows (accuracy source "train") or its out-of-bag rows ("oob").
   ``weighting.tree_accuracies`` (every row predicted in place, the out-of-bag rows picked
   afterwards) against the direct reading of Eq. (3): for each tree, copy its rows out of ``X``
   and predict them. The two must give the same accuracies; the ratio is the direct reading's
   time over ours.
3. **One level.** One random forest and one completely-random tree forest, cross-fitted over
   ``--folds`` folds by ``cascade_members.cross_fit``: unweighted (DF), weighted by training
   accuracy (WDF) and by out-of-bag accuracy (WDF-oob, which also bootstraps the
   completely-random trees); the ratio is each against DF.

    .venv/bin/python benchmarks/cascade_level.py --dataset semg [--rows 1800] [--trees 100]
        [--folds 3] [--n-jobs 1] [--repeats 2] [--seed 0] [--scan 3000 [--scan-trees 5]]

``--scan SHAPE`` (``3000`` for SEMG, ``28x28`` for MNIST) first scans the rows with
``--scan-trees`` trees per scanning forest (few, to be quick) and measures on the scanned
features: a scanned data set's cascade input, as wide as the paper profile's (92,292 columns
on SEMG, 22,180 on MNIST).

Times are wall-clock, the best of ``--repeats`` runs, the runs of a comparison alternating
(the machine may be shared). Copying rows costs most on wide data: a cascade level's input on
a scanned data set holds the scan's tens of thousands of class-vector columns.
"""

import argparse
import time

import numpy as np
from scan_setup import load_rows, shape
from sklearn.ensemble import ExtraTreesClassifier, RandomForestClassifier
from sklearn.model_selection import train_test_split

from forestrepro.cascade.members import cross_fit, fold_ids, member_templates, rows_in_columns
from forestrepro.cascade.scanning import MultiGrainedScanner
from forestrepro.cascade.weighting import tree_accuracies


def best_time(function, repeats):
    """The fastest of ``repeats`` wall-clock runs of ``function``, and its last result."""
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        result = function()
        times.append(time.perf_counter() - started)
    return min(times), result


def same_trees(first, second):
    """Whether two lists of fitted trees have the same features, cuts and leaf values."""
    return all(
        np.array_equal(a.tree_.feature, b.tree_.feature)
        and np.array_equal(a.tree_.threshold, b.tree_.threshold)
        and np.array_equal(a.tree_.value, b.tree_.value)
        for a, b in zip(first, second)
    )


def fold_order(X, y, folds, args):
    """Measurement 1: the rows ``folds != 0`` of ``X`` given row-major, then column-major."""
    rows = folds != 0
    print(f"\n1. fold rows' order: {np.count_nonzero(rows)} of the rows, {args.trees} trees")
    print(f"{'forest':<26}{'row-major s':>12}{'column-major s':>15}{'ratio':>7}  same trees")
    gathers = {"row": lambda: X[rows], "column": lambda: rows_in_columns(X, rows)}
    for name, forest in (
        ("random forest (sqrt)", RandomForestClassifier(max_features="sqrt")),
        ("completely random (1)", ExtraTreesClassifier(max_features=1)),
    ):
        forest.set_params(n_estimators=args.trees, n_jobs=args.n_jobs, random_state=args.seed)
        seconds, trees = {"row": np.inf, "column": np.inf}, {}
        for _ in range(args.repeats):
            for order, gather in gathers.items():
                took, fitted = best_time(lambda: forest.fit(gather(), y[rows]), 1)
                seconds[order] = min(seconds[order], took)
                trees[order] = fitted.estimators_
        print(
            f"{name:<26}{seconds['row']:>12.2f}{seconds['column']:>15.2f}"
            f"{seconds['column'] / seconds['row']:>7.2f}  "
            f"{same_trees(trees['row'], trees['column'])}"
        )


def accuracies_on_copied_rows(forest, X, y, source):
    """Eq. (3) read directly: each tree predicts a copy of its rows of ``X`` (all of them,
    or its out-of-bag ones)."""
    accuracies = []
    for k, tree in enumerate(forest.estimators_):
        rows = np.arange(len(y))
        if source == "oob":
            rows = np.setdiff1d(rows, forest.estimators_samples_[k])
        proba = tree.predict_proba(X[rows], check_input=False)
        accuracies.append(np.mean(np.argmax(proba, axis=1) == y[rows]))
    return np.array(accuracies)


def scoring(X, y, args):
    """Measurement 2: ``tree_accuracies`` against ``accuracies_on_copied_rows``."""
    print(f"\n2. scoring {args.trees} trees on their {len(y)} training rows")
    print(f"{'forest':<34}{'copied rows s':>14}{'ours s':>8}{'ratio':>7}  equal")
    for name, forest, source in (
        ("random forest, train", RandomForestClassifier(max_features="sqrt"), "train"),
        ("random forest, oob", RandomForestClassifier(max_features="sqrt"), "oob"),
        ("completely random, train", ExtraTreesClassifier(max_features=1), "train"),
        ("completely random, oob", ExtraTreesClassifier(max_features=1, bootstrap=True), "oob"),
    ):
        forest.set_params(n_estimators=args.trees, n_jobs=1, random_state=args.seed)
        forest.fit(X, y)
        seconds = {"copied": np.inf, "ours": np.inf}
        for _ in range(args.repeats):
            took, reference = best_time(lambda: accuracies_on_copied_rows(forest, X, y, source), 1)
            seconds["copied"] = min(seconds["copied"], took)
            took, ours = best_time(lambda: tree_accuracies(forest, X, y, source), 1)
            seconds["ours"] = min(seconds["ours"], took)
        print(
            f"{name:<34}{seconds['copied']:>14.2f}{seconds['ours']:>8.2f}"
            f"{seconds['copied'] / seconds['ours']:>7.1f}  {np.array_equal(reference, ours)}"
        )


def level_cost(X, y, folds, args):
    """Measurement 3: one level of one forest of each kind, DF, WDF and WDF-oob."""
    n_classes = int(y.max()) + 1
    seeds = np.random.RandomState(args.seed).randint(2**31 - 1, size=args.folds)
    settings = {
        "DF": dict(weighting="none"),
        "WDF": dict(weighting="accuracy", accuracy_source="train"),
        "WDF-oob": dict(weighting="accuracy", accuracy_source="oob"),
    }

    def level(options):
        templates = member_templates(1, 1, args.trees, n_jobs=args.n_jobs, **options)
        return [cross_fit(template, X, y, n_classes, folds, seeds, keep=False)[0] for template in templates]

    seconds = {name: np.inf for name in settings}
    for _ in range(args.repeats):
        for name, options in settings.items():
            seconds[name] = min(seconds[name], best_time(lambda: level(options), 1)[0])
    print(
        f"\n3. one level: 1 random forest + 1 completely-random forest, {args.folds} folds, "
        f"{args.n_jobs} thread(s)"
    )
    print(f"{'method':<10}{'seconds':>9}{'ratio to DF':>13}")
    for name in settings:
        print(f"{name:<10}{seconds[name]:>9.2f}{seconds[name] / seconds['DF']:>13.2f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", required=True)
    parser.add_argument("--rows", type=int, default=None, help="stratified sample of rows")
    parser.add_argument("--trees", type=int, default=100)
    parser.add_argument("--folds", type=int, default=3)
    parser.add_argument("--n-jobs", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--scan", type=shape, default=None, help="scan the rows first: 3000 (sequence) or 28x28 (image)"
    )
    parser.add_argument("--scan-trees", type=int, default=5)
    args = parser.parse_args()
    X, _, y = load_rows(args.dataset)
    if args.rows is not None and args.rows < len(y):
        X, _, y, _ = train_test_split(X, y, train_size=args.rows, stratify=y, random_state=args.seed)
    if args.scan is not None:
        scanner = MultiGrainedScanner(
            shape=args.scan, n_trees=args.scan_trees, n_jobs=args.n_jobs, random_state=args.seed
        )
        X = np.ascontiguousarray(scanner.fit_transform(X, y))
    print(
        f"{args.dataset}: {X.shape[0]} rows x {X.shape[1]} features, {args.trees} trees, "
        f"best of {args.repeats}"
    )
    level_input = np.asfortranarray(X)  # a level's input is column-major (cascade._LevelInput)
    folds = fold_ids(y, args.folds, args.seed)
    fold_order(level_input, y, folds, args)
    scoring(X, y, args)
    level_cost(level_input, y, folds, args)


if __name__ == "__main__":
    main()
