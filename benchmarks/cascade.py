"""Our cascade forest (DF) against the official deep forest package, on the same splits.

Ours: ``CascadeForestClassifier`` (gcForest's level: ``--forests`` random forests and as many
completely-random tree forests of ``--trees`` trees, ``--folds``-fold out-of-fold class
vectors, best k-fold level). The anchor: ``deepforest.CascadeForestClassifier`` of
deep-forest-py310, in its own virtualenv (``benchmarks/deep_forest_anchor/setup.sh``; it
needs scikit-learn < 1.6), run by ``deep_forest_anchor/run_anchor.py`` in two modes:

- ``custom``, the matched setting: its ``set_estimator`` with the same scikit-learn forests
  (``RandomForestClassifier(max_features="sqrt")``, ``ExtraTreesClassifier(max_features=1)``)
  cross-fitted over the same number of folds, the same tolerance and level limit;
- ``builtin``: its own layer (out-of-bag class vectors and layer accuracy, ``max_features=
  "sqrt"`` extremely randomised forests instead of completely random ones, its compiled
  forests) with the same forest and tree counts.

Differences that remain in both modes: deep-forest bins every feature (raw and class
vectors) into at most 255 quantile bins; its folds are plain (not stratified) k-fold; it
predicts with the last layer kept, which is the best one unless ``max_layers`` stopped it.

Each data set is split 80 / 20, stratified and seeded (``--seed``); labels are coded
``0 .. c - 1``; the split is saved once and both sides read it.  With several ``--seeds``
each seed makes its own split (and seeds both sides), and a summary gives the mean
accuracy difference over the splits with its standard error: one test set of a few hundred
rows has a sampling error of about 2-3 points, so a single split cannot show a difference
of 1 point. Fit time is wall-clock for
``fit`` alone with ``--n-jobs`` threads per forest on both sides, the best of ``--repeats``
fits (ours and the anchor's alternate; the machine is shared, so single times are noisy).

    .venv/bin/python benchmarks/cascade.py [--datasets yeast letter:4000] [--trees 100]
        [--forests 2] [--folds 3] [--rounds 2] [--max-levels 10] [--n-jobs 2] [--seeds 0 1 2]
        [--modes custom builtin] [--repeats 1] [--out results.csv]

``NAME:ROWS`` takes a stratified, seeded sample of ROWS rows of the registry's data set.
Prints one row per (data set, anchor mode): both accuracies and their difference in points,
levels used / grown on each side, both fit times, their ratio, and the ratio of fit time per
level grown (the two sides may stop at different levels; ``--rounds`` at least
``--max-levels`` makes both grow exactly ``--max-levels``).
"""

import argparse
import json
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd
from scan_setup import load_sample
from sklearn.model_selection import train_test_split

from forestrepro.cascade.forest import CascadeForestClassifier

ANCHOR = Path(__file__).resolve().parent / "deep_forest_anchor"
ANCHOR_PYTHON = ANCHOR / ".venv" / "bin" / "python"


def run_ours(split, args, seed):
    model = CascadeForestClassifier(
        n_rf=args.forests,
        n_crf=args.forests,
        n_trees=args.trees,
        n_folds=args.folds,
        early_stopping_rounds=args.rounds,
        max_levels=args.max_levels,
        n_jobs=args.n_jobs,
        random_state=seed,
    )
    start = time.perf_counter()
    model.fit(split["X_train"], split["y_train"])
    fit_seconds = time.perf_counter() - start
    accuracy = float(np.mean(model.predict(split["X_test"]) == split["y_test"]))
    return {
        "accuracy": accuracy,
        "levels_used": model.best_level_,
        "levels_grown": model.n_levels_,
        "fit_seconds": fit_seconds,
    }


def run_anchor(split_path, mode, args, seed):
    params = {
        "mode": mode,
        "n_forests": args.forests,
        "n_trees": args.trees,
        "n_folds": args.folds,
        "max_levels": args.max_levels,
        "early_stopping_rounds": args.rounds,
        "n_jobs": args.n_jobs,
        "seed": seed,
    }
    done = subprocess.run(
        [str(ANCHOR_PYTHON), str(ANCHOR / "run_anchor.py"), str(split_path), json.dumps(params)],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def best(runs):
    """The run of shortest fit time (seeded runs differ in time only)."""
    return min(runs, key=lambda run: run["fit_seconds"])


def _row(name, seed, split, ours, anchor, mode):
    return {
        "dataset": name,
        "seed": seed,
        "n_train": len(split["y_train"]),
        "n_test": len(split["y_test"]),
        "anchor": mode,
        "ours_acc": ours["accuracy"],
        "anchor_acc": anchor["accuracy"],
        "diff_pts": 100 * (ours["accuracy"] - anchor["accuracy"]),
        "ours_levels": f"{ours['levels_used']}/{ours['levels_grown']}",
        "anchor_levels": f"{anchor['levels_used']}/{anchor['levels_grown']}",
        "ours_fit_s": ours["fit_seconds"],
        "anchor_fit_s": anchor["fit_seconds"],
        "fit_ratio": ours["fit_seconds"] / anchor["fit_seconds"],
        "per_level_ratio": (ours["fit_seconds"] / ours["levels_grown"])
        / (anchor["fit_seconds"] / anchor["levels_grown"]),
    }


def summary(table):
    """Per data set and anchor mode over the seeds: mean accuracies, the mean difference in
    points with its standard error, and the geometric mean of the fit-time ratios."""
    groups = table.groupby(["dataset", "anchor"], sort=False)
    return pd.DataFrame(
        {
            "splits": groups.size(),
            "ours_acc": groups["ours_acc"].mean(),
            "anchor_acc": groups["anchor_acc"].mean(),
            "diff_pts": groups["diff_pts"].mean(),
            "diff_se": groups["diff_pts"].sem(),
            "fit_ratio_gmean": groups["fit_ratio"].apply(lambda r: float(np.exp(np.log(r).mean()))),
            "per_level_ratio_gmean": groups["per_level_ratio"].apply(
                lambda r: float(np.exp(np.log(r).mean()))
            ),
        }
    ).reset_index()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", nargs="+", default=["yeast", "letter:4000"])
    parser.add_argument("--trees", type=int, default=100)
    parser.add_argument("--forests", type=int, default=2, help="forests of each kind")
    parser.add_argument("--folds", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=2, help="early-stopping rounds")
    parser.add_argument("--max-levels", type=int, default=10)
    parser.add_argument("--n-jobs", type=int, default=2)
    parser.add_argument(
        "--seeds", type=int, nargs="+", default=[0], help="one split (and seed of both sides) per seed"
    )
    parser.add_argument("--modes", nargs="+", default=["custom", "builtin"], choices=["custom", "builtin"])
    parser.add_argument("--repeats", type=int, default=1, help="fits per side; best time")
    parser.add_argument("--out", type=Path, help="also write the table as CSV")
    args = parser.parse_args()
    if not ANCHOR_PYTHON.exists():
        raise SystemExit(f"no anchor environment: run bash {ANCHOR / 'setup.sh'} first")
    started = time.perf_counter()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.datasets:
            for seed in args.seeds:
                X, y = load_sample(name, seed)
                X_train, X_test, y_train, y_test = train_test_split(
                    X, y, test_size=0.2, stratify=y, random_state=seed
                )
                split = dict(X_train=X_train, X_test=X_test, y_train=y_train, y_test=y_test)
                split_path = Path(tmp) / "split.npz"
                np.savez(split_path, **split)
                ours, anchors = [], {mode: [] for mode in args.modes}
                for _ in range(args.repeats):
                    ours.append(run_ours(split, args, seed))
                    for mode in args.modes:
                        anchors[mode].append(run_anchor(split_path, mode, args, seed))
                for mode in args.modes:
                    rows.append(_row(name, seed, split, best(ours), best(anchors[mode]), mode))
    table = pd.DataFrame(rows)
    print(
        f"settings: {args.forests} + {args.forests} forests x {args.trees} trees, "
        f"{args.folds} folds, {args.rounds} early-stopping rounds, at most "
        f"{args.max_levels} levels, n_jobs={args.n_jobs}, seeds {args.seeds}"
    )
    print(table.to_string(index=False, float_format=lambda v: f"{v:.3f}"))
    print("\nover the splits:")
    print(summary(table).to_string(index=False, float_format=lambda v: f"{v:.3f}"))
    print(f"total run time {time.perf_counter() - started:.1f} s")
    if args.out:
        table.to_csv(args.out, index=False)


if __name__ == "__main__":
    main()
