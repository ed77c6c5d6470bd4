"""The BRF paper's SVM grid on one inner fold: ``SVC(kernel="rbf")`` against ``GridRBFSVC``.

One outer training fold of a data set (80 % of it, stratified, seeded, scaled to [0, 1] as the
protocol does) is searched over the configured grid (``conf/method/svm.yaml``: 11 values of C
x 10 of gamma) by ``--inner-folds``-fold CV, with ``forestrepro.evaluation.grid_search`` on both
sides, in the same process, one after the other: the reference fits ``SVC(kernel="rbf")`` per
candidate and fold, ours fits every C of a gamma on one precomputed kernel and keeps the fits
(``forestrepro.kernel_svm``). Both choose a candidate and refit it; the script checks that they
choose the same candidate with the same inner accuracy and predict the held-out 20 % the same.

    .venv/bin/python benchmarks/svm_grid.py [--datasets usps:3000 wine] [--inner-folds 5]
        [--n-jobs 1] [--log2-C -5 -1 3] [--log2-gamma -7 -3]

``NAME:ROWS`` takes a stratified, seeded sample of ROWS rows. Prints per data set: the rows
searched, both wall times, their ratio (ours / reference), the chosen C and gamma on each side,
and whether the choice, the inner score and the predictions agree; then the seconds per inner
fold, in all and (with ``--n-jobs 1``) per gamma, side by side; the load average before and
after, since the machine is shared.
"""

import argparse
import json
import os
import tempfile
import time

import numpy as np
from scan_setup import load_sample
from sklearn.model_selection import StratifiedKFold, train_test_split
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import MinMaxScaler
from sklearn.svm import SVC

from forestrepro.config import compose_config
from forestrepro.evaluation.grid_search import search_grid
from forestrepro.kernel_svm import GridRBFSVC


def picked(choice) -> str:
    return f"2^{np.log2(choice.params['model__C']):g}, 2^{np.log2(choice.params['model__gamma']):g}"


def timed_search(model, grid, X, y, cv, n_jobs):
    """The search's choice, its wall seconds, and ``{gamma: seconds}`` spent on each gamma's
    candidates (read off the search's progress, one candidate at a time; None with n_jobs > 1)."""
    per_gamma: dict[float, float] = {}
    last = [0.0]

    def keep(state):
        # the candidate just kept is the one whose key is new; its time is the step in "seconds"
        key = list(state["scores"])[-1]
        gamma = json.loads(key)["model__gamma"]
        per_gamma[gamma] = per_gamma.get(gamma, 0.0) + state["seconds"] - last[0]
        last[0] = state["seconds"]

    started = time.perf_counter()
    choice = search_grid(model, grid, X, y, cv, n_jobs=n_jobs, keep=keep if n_jobs == 1 else lambda s: None)
    return choice, time.perf_counter() - started, (per_gamma if n_jobs == 1 else None)


def main():
    svm = compose_config(profile="paper")["method"]["svm"]
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", nargs="+", default=["usps:3000", "wine"])
    parser.add_argument("--inner-folds", type=int, default=5)
    parser.add_argument("--n-jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--log2-C", type=float, nargs="+", default=svm["grid"]["log2_C"])
    parser.add_argument("--log2-gamma", type=float, nargs="+", default=svm["grid"]["log2_gamma"])
    args = parser.parse_args()
    Cs = [2.0**e for e in args.log2_C]
    grid = {"model__C": Cs, "model__gamma": [2.0**e for e in args.log2_gamma]}
    print(
        f"load average before: {os.getloadavg()}; {len(Cs) * len(grid['model__gamma'])} candidates x "
        f"{args.inner_folds} inner folds, n_jobs={args.n_jobs}"
    )
    print(
        "data set | rows | reference s | ours s | ours / reference | reference C, gamma | ours C, gamma | "
        "same choice, score, predictions"
    )
    for name in args.datasets:
        X, y = load_sample(name, args.seed)
        train, test = train_test_split(np.arange(len(y)), test_size=0.2, stratify=y, random_state=args.seed)
        cv = StratifiedKFold(args.inner_folds, shuffle=True, random_state=args.seed)
        reference_model = Pipeline([("scale", MinMaxScaler()), ("model", SVC(kernel="rbf", cache_size=500))])
        reference, reference_s, reference_gamma = timed_search(
            reference_model, grid, X[train], y[train], cv, args.n_jobs
        )
        with tempfile.TemporaryDirectory(prefix="svm-grid-") as memory:
            ours_model = Pipeline(
                [
                    ("scale", MinMaxScaler()),
                    ("model", GridRBFSVC(C_grid=tuple(Cs), memory=memory, cache_size=500)),
                ]
            )
            ours, ours_s, ours_gamma = timed_search(ours_model, grid, X[train], y[train], cv, args.n_jobs)
        same = (
            ours.params == reference.params,
            ours.score == reference.score,
            bool(np.array_equal(ours.estimator.predict(X[test]), reference.estimator.predict(X[test]))),
        )
        print(
            f"{name} | {len(train)} | {reference_s:.1f} | {ours_s:.1f} | {ours_s / reference_s:.2f} | "
            f"{picked(reference)} | {picked(ours)} | {same}"
        )
        k = args.inner_folds
        print(f"  per inner fold: reference {reference_s / k:.1f} s, ours {ours_s / k:.1f} s")
        if reference_gamma is not None:
            print("  gamma | reference s per inner fold | ours s per inner fold | ours / reference")
            for gamma in sorted(reference_gamma):
                ref, our = reference_gamma[gamma] / k, ours_gamma[gamma] / k
                print(f"  2^{np.log2(gamma):g} | {ref:.2f} | {our:.2f} | {our / ref:.2f}")
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
