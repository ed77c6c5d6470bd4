"""What deep-forest's binning is worth to a cascade level on a data set (benchmarks/cascade.md).

Fits a 100-tree random forest (``max_features="sqrt"``) and a completely random forest on a
level's input: the raw features (level 1), the raw features plus 8 out-of-fold class-vector
columns of 2 + 2 such forests (level 2), and that level-2 input with every column of more than
255 distinct values binned into 255 quantile bins, as the deep-forest package bins its input.
Prints the distinct values per column and, per forest and input, the best of 2 fit times, the
mean depth and node count, in one process.

    .venv/bin/python benchmarks/cascade_binning.py [adult]
"""

import sys
import time

import numpy as np
from scan_setup import load_sample
from sklearn.ensemble import ExtraTreesClassifier, RandomForestClassifier
from sklearn.model_selection import StratifiedKFold, cross_val_predict, train_test_split


def binned(A):
    """A copy of ``A`` with each column of more than 255 distinct values binned into 255 quantile bins."""
    out = A.copy()
    for j in range(A.shape[1]):
        if len(np.unique(A[:, j])) > 255:
            edges = np.unique(np.quantile(A[:, j], np.linspace(0, 1, 256)[1:-1]))
            out[:, j] = np.searchsorted(edges, A[:, j])
    return out


def main():
    X, y = load_sample(sys.argv[1] if len(sys.argv) > 1 else "adult", 0)
    Xtr, _, ytr, _ = train_test_split(X, y, test_size=0.2, stratify=y, random_state=0)
    cv = StratifiedKFold(3, shuffle=True, random_state=0)
    vecs = []
    for k, make in enumerate(
        [
            lambda s: RandomForestClassifier(100, max_features="sqrt", random_state=s),
            lambda s: ExtraTreesClassifier(100, max_features=1, random_state=s),
        ]
        * 2
    ):
        vecs.append(cross_val_predict(make(k), Xtr, ytr, cv=cv, method="predict_proba"))
    L2 = np.hstack([Xtr] + vecs)

    B2 = binned(L2)
    print("distinct values per column, raw:", [len(np.unique(L2[:, j])) for j in range(L2.shape[1])])
    print("binned:", [len(np.unique(B2[:, j])) for j in range(B2.shape[1])])
    for name, make in [
        ("RF sqrt", lambda: RandomForestClassifier(100, max_features="sqrt", random_state=1)),
        ("CRF", lambda: ExtraTreesClassifier(100, max_features=1, random_state=1)),
    ]:
        for level, A in [("level1 (raw X)", Xtr), ("level2 raw", L2), ("level2 binned", B2)]:
            times = []
            for _ in range(2):
                t = time.perf_counter()
                m = make().fit(A, ytr)
                times.append(time.perf_counter() - t)
            depth = np.mean([e.get_depth() for e in m.estimators_])
            nodes = np.mean([e.tree_.node_count for e in m.estimators_])
            print(
                f"{name:8s} {level:16s} best {min(times):6.1f} s  depth {depth:5.1f}  nodes {nodes:8.0f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
