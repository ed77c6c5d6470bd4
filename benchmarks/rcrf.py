"""Fit time of the RCRF paper's forests against scikit-learn's ``RandomForestClassifier``.

All forests have 100 trees, bootstrap samples and the same ``n_jobs``: scikit-learn's
``RandomForestClassifier(max_features="log2")`` (the reference, ratio 1), our RF
(``BreimanForestClassifier``), RCRF (``RCRFClassifier``) and CRF
(``CredalForestClassifier`` on raw values, and with MDLP bins: "CRF mdl").  Each fits the
same 75 % of a data set of the PMLB mirror; accuracy is on the other 25 %.  Times are the best of
``--repeats`` fits, alternating between the models so that a burst of load from other
processes does not fall on one model only; numba compilation is done before any timing.

    .venv/bin/python benchmarks/rcrf.py [--repeats 3] [--n-jobs 1] [--data krkopt ...]

Prints one row per (data set, model): fit time, time / scikit-learn's, test accuracy; and
the load average before and after, since the machine is shared.
"""

import argparse
import os
import time
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import train_test_split

from forestrepro.ensembles.credal import BreimanForestClassifier, CredalForestClassifier
from forestrepro.ensembles.rcrf import RCRFClassifier

MIRROR = Path(__file__).resolve().parents[1] / ".." / "shared" / "datasets" / "pmlb"
DATA_SETS = ("krkopt", "letter", "segmentation", "mfeat_factors")


def mirror(name):
    frame = pd.read_csv(MIRROR / f"{name}.tsv.gz", sep="\t")
    return frame.drop(columns="target").to_numpy(np.float32), frame["target"].to_numpy()


def models(n_jobs):
    """The forests, scikit-learn's first."""
    common = dict(n_jobs=n_jobs, random_state=0)
    return {
        "sklearn RF": RandomForestClassifier(100, max_features="log2", **common),
        "RF (ours)": BreimanForestClassifier(100, **common),
        "RCRF": RCRFClassifier(100, **common),
        "CRF": CredalForestClassifier(100, **common),
        "CRF mdl": CredalForestClassifier(100, discretize="mdl", **common),
    }


def best_fit_times(estimators, X, y, repeats):
    best = {name: np.inf for name in estimators}
    for _ in range(repeats):
        for name, estimator in estimators.items():
            start = time.perf_counter()
            estimator.fit(X, y)
            best[name] = min(best[name], time.perf_counter() - start)
    return best


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--n-jobs", type=int, default=1)
    parser.add_argument("--data", nargs="+", default=list(DATA_SETS))
    args = parser.parse_args()
    warm_X, warm_y = mirror("wine_recognition")
    for estimator in models(1).values():
        estimator.set_params(n_estimators=2).fit(warm_X, warm_y)

    print(f"load average before: {os.getloadavg()}; n_jobs={args.n_jobs}, best of {args.repeats}")
    print("data | n | d | classes | model | fit_s | ratio | accuracy")
    for name in args.data:
        X, y = mirror(name)
        X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.25, random_state=0)
        estimators = models(args.n_jobs)
        times = best_fit_times(estimators, X_train, y_train, args.repeats)
        for model, estimator in estimators.items():
            print(
                f"{name} | {X.shape[0]} | {X.shape[1]} | {len(np.unique(y))} | {model} | "
                f"{times[model]:.2f} | {times[model] / times['sklearn RF']:.2f} | "
                f"{estimator.score(X_test, y_test):.4f}",
                flush=True,
            )
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
