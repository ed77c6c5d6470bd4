"""Fit time of forestrepro's tree builder against scikit-learn's, side by side.

Single tree: ``PluggableTreeClassifier("gini")`` vs
``DecisionTreeClassifier(criterion="gini")``; forest: ``PluggableForestClassifier`` vs
``RandomForestClassifier`` (100 trees, ``max_features="sqrt"``, bootstrap, same ``n_jobs``).
Both fit the same 75 % of each data set in the same process; accuracy is on the other 25 %.
Data: data sets of the PMLB mirror and synthetic data (``make_classification``, 3 classes,
10 features) of growing n.  Times are the best of ``--repeats`` fits, alternating between
the two libraries; numba compilation is done before any timing.

    .venv/bin/python benchmarks/tree_builder.py [--repeats 3] [--n-jobs 1]

Prints one table row per (data set, model) with our time, scikit-learn's, the ratio
ours / scikit-learn and both accuracies, then the growth exponent of time with n.
"""

import argparse
import time
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.datasets import make_classification
from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import train_test_split
from sklearn.tree import DecisionTreeClassifier

from forestrepro.ensembles.forest import PluggableForestClassifier
from forestrepro.trees import PluggableTreeClassifier

MIRROR = Path(__file__).resolve().parents[1] / ".." / "shared" / "datasets" / "pmlb"
MIRROR_SETS = ("pendigits", "letter", "satimage", "magic")
SYNTHETIC_N = (10**4, 10**5, 10**6)
FOREST_MAX_N = 10**5


def mirror(name):
    frame = pd.read_csv(MIRROR / f"{name}.tsv.gz", sep="\t")
    return frame.drop(columns="target").to_numpy(np.float32), frame["target"].to_numpy()


def synthetic(n):
    X, y = make_classification(n_samples=n, n_features=10, n_informative=6, n_classes=3, random_state=0)
    return X.astype(np.float32), y


def best_fit_times(models, X, y, repeats):
    """Best fit time of each model; fits alternate between the models, so a burst of load
    from other processes does not fall on one side only."""
    best = [np.inf] * len(models)
    for _ in range(repeats):
        for i, model in enumerate(models):
            start = time.perf_counter()
            model.fit(X, y)
            best[i] = min(best[i], time.perf_counter() - start)
    return best


def compare(data_name, X, y, kind, repeats, n_jobs):
    X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.25, random_state=0)
    if kind == "tree":
        ours = PluggableTreeClassifier("gini")
        theirs = DecisionTreeClassifier(criterion="gini", random_state=0)
    else:
        ours = PluggableForestClassifier(100, n_jobs=n_jobs, random_state=0)
        theirs = RandomForestClassifier(100, n_jobs=n_jobs, random_state=0)
    t_ours, t_theirs = best_fit_times([ours, theirs], X_train, y_train, repeats)
    row = dict(
        data=data_name,
        n=X.shape[0],
        d=X.shape[1],
        classes=len(np.unique(y)),
        model=kind if kind == "tree" else f"forest100 n_jobs={n_jobs}",
        ours_s=t_ours,
        sklearn_s=t_theirs,
        ratio=t_ours / t_theirs,
        acc_ours=ours.score(X_test, y_test),
        acc_sklearn=theirs.score(X_test, y_test),
    )
    print(" | ".join(f"{v:.3f}" if isinstance(v, float) else str(v) for v in row.values()), flush=True)
    return row


def growth_exponent(rows, column):
    n = np.array([r["n"] for r in rows], float)
    t = np.array([r[column] for r in rows])
    return np.polyfit(np.log(n), np.log(t), 1)[0]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--n-jobs", type=int, default=1)
    args = parser.parse_args()
    warm_X, warm_y = synthetic(200)
    PluggableForestClassifier(2).fit(warm_X, warm_y).predict(warm_X)

    columns = [
        "data",
        "n",
        "d",
        "classes",
        "model",
        "ours_s",
        "sklearn_s",
        "ratio",
        "acc_ours",
        "acc_sklearn",
    ]
    print(" | ".join(columns))
    rows = []
    for name in MIRROR_SETS:
        X, y = mirror(name)
        rows.append(compare(name, X, y, "tree", args.repeats, args.n_jobs))
        rows.append(compare(name, X, y, "forest", args.repeats, args.n_jobs))
    for n in SYNTHETIC_N:
        X, y = synthetic(n)
        repeats = args.repeats if n < 10**6 else 1
        rows.append(compare("synthetic", X, y, "tree", repeats, args.n_jobs))
        if n <= FOREST_MAX_N:
            rows.append(compare("synthetic", X, y, "forest", repeats, args.n_jobs))

    trees = [r for r in rows if r["data"] == "synthetic" and r["model"] == "tree"]
    print(
        f"single tree, time ~ n^k on synthetic data: ours k = "
        f"{growth_exponent(trees, 'ours_s'):.2f}, scikit-learn k = "
        f"{growth_exponent(trees, 'sklearn_s'):.2f}"
    )
    ratios = [r["ratio"] for r in rows]
    print(f"worst ratio ours / scikit-learn: {max(ratios):.2f}")


if __name__ == "__main__":
    main()
