"""Fit time of the BRF paper's forests against scikit-learn's ``RandomForestClassifier``.

BRF (``BanzhafForestClassifier``), Biau12 and Biau12V (``Biau12ForestClassifier``), 100
trees each, against ``RandomForestClassifier(100)`` (its defaults: Gini, ``sqrt``
features per node, bootstrap) with the same ``n_jobs``, on letter, satimage and musk2
(PMLB's ``clean2``).  ``h = round(log2(M) + C)`` for each ``C`` of ``--h-offsets``.  Both
fit the same 75 % of each data set in the same process; accuracy is on the other 25 %.
Times are the best of ``--repeats`` fits, alternating between the two libraries; numba
compilation is done before any timing.  The load average is printed before and after: the
machine is shared.

    .venv/bin/python benchmarks/brf.py [--repeats 3] [--n-jobs 1] [--h-offsets 0 3]

Prints one row per (data set, method, C): ours, scikit-learn's time, the ratio ours /
scikit-learn, both accuracies, the mean number of nodes per tree of ours and the time per
node; then the worst ratio of each method. Biau12's rows also time the second implementation
``PlainBiau12`` (``forestrepro.extensions.plain_biau12``, one numba module, the same reading
and 100 trees, on one thread) in the same process: ``plain_s`` and the ratio ours / plain.
"""

import argparse
import os
import time
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import train_test_split

from forestrepro.ensembles.biau import Biau12ForestClassifier
from forestrepro.ensembles.brf import BanzhafForestClassifier
from forestrepro.extensions.plain_biau12 import PlainBiau12

MIRROR = Path(__file__).resolve().parents[1] / ".." / "shared" / "datasets" / "pmlb"
DATA_SETS = {"letter": "letter", "satimage": "satimage", "musk2": "clean2"}
DROP = ("molecule_name", "conformation_name")
METHODS = {
    "brf": lambda c, n_jobs: BanzhafForestClassifier(100, h_offset=c, n_jobs=n_jobs, random_state=0),
    "biau12": lambda c, n_jobs: Biau12ForestClassifier(100, h_offset=c, n_jobs=n_jobs, random_state=0),
    "biau12v": lambda c, n_jobs: Biau12ForestClassifier(
        100, importance="banzhaf", h_offset=c, n_jobs=n_jobs, random_state=0
    ),
}


def mirror(file_name):
    frame = pd.read_csv(MIRROR / f"{file_name}.tsv.gz", sep="\t")
    frame = frame.drop(columns=[c for c in DROP if c in frame.columns])
    return frame.drop(columns="target").to_numpy(np.float32), frame["target"].to_numpy()


def best_fit_times(models, X, y, repeats):
    """Best fit time of each model; fits alternate between the models."""
    best = [np.inf] * len(models)
    for _ in range(repeats):
        for i, model in enumerate(models):
            start = time.perf_counter()
            model.fit(X, y)
            best[i] = min(best[i], time.perf_counter() - start)
    return best


def compare(name, X, y, method, c, repeats, n_jobs):
    X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.25, random_state=0)
    ours = METHODS[method](c, n_jobs)
    theirs = RandomForestClassifier(100, n_jobs=n_jobs, random_state=0)
    plain = PlainBiau12(100, h_offset=c, random_state=0) if method == "biau12" else None
    t_ours, t_theirs, *t_plain = best_fit_times(
        [ours, theirs, plain][: 2 + (plain is not None)], X_train, y_train, repeats
    )
    nodes = float(np.mean([tree.tree_.node_count for tree in ours.estimators_]))
    row = dict(
        data=name,
        n=X.shape[0],
        d=X.shape[1],
        method=method,
        C=c,
        h=ours.h_,
        n_jobs=n_jobs,
        ours_s=t_ours,
        sklearn_s=t_theirs,
        ratio=t_ours / t_theirs,
        acc_ours=ours.score(X_test, y_test),
        acc_sklearn=theirs.score(X_test, y_test),
        nodes_per_tree=nodes,
        us_per_node=1e6 * t_ours / (100 * nodes),
        plain_s=t_plain[0] if t_plain else float("nan"),
        ours_per_plain=t_ours / t_plain[0] if t_plain else float("nan"),
    )
    print(" | ".join(f"{v:.3f}" if isinstance(v, float) else str(v) for v in row.values()), flush=True)
    return row


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--n-jobs", type=int, default=1)
    parser.add_argument("--h-offsets", type=float, nargs="+", default=[0.0, 3.0])
    parser.add_argument("--methods", nargs="+", default=list(METHODS), choices=list(METHODS))
    args = parser.parse_args()
    warm_X, warm_y = mirror("satimage")
    for method in args.methods:
        METHODS[method](0.0, 1).set_params(n_estimators=2).fit(warm_X[:300], warm_y[:300])
    PlainBiau12(2).fit(warm_X[:300], warm_y[:300])

    print("load average before: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    columns = [
        "data",
        "n",
        "d",
        "method",
        "C",
        "h",
        "n_jobs",
        "ours_s",
        "sklearn_s",
        "ratio",
        "acc_ours",
        "acc_sklearn",
        "nodes_per_tree",
        "us_per_node",
        "plain_s",
        "ours_per_plain",
    ]
    print(" | ".join(columns))
    rows = []
    for name, file_name in DATA_SETS.items():
        X, y = mirror(file_name)
        for method in args.methods:
            for c in args.h_offsets:
                rows.append(compare(name, X, y, method, c, args.repeats, args.n_jobs))
    print("load average after: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    for method in args.methods:
        worst = max(r["ratio"] for r in rows if r["method"] == method)
        print(f"worst ratio {method} / scikit-learn: {worst:.2f}")


if __name__ == "__main__":
    main()
