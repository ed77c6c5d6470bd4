"""What a multi-grained scan (WDF Sec. 1, gcForest) of a whole data set will cost, from two small runs.

A scan grows 3 window sizes x 2 forests x ``--folds`` fold forests on at most
``--max-train-windows`` windows each, then classifies every window of every row. Its time is
close to ``fixed + per_row * rows``: growing the fold forests costs about the same whatever the
number of rows (once the rows hold more windows than ``--max-train-windows``), and classifying
costs the same per row. Both parts grow linearly with the number of trees. This script times
``MultiGrainedScanner.fit_transform`` on two seeded random samples of rows with ``--trees``
trees, fits the two constants, and prints the estimate for all rows at ``--target-trees``
trees (the paper profile: 500), on one core.

    .venv/bin/python benchmarks/scan_cost.py --dataset semg --shape 3000 --rows 60 120
    .venv/bin/python benchmarks/scan_cost.py --dataset mnist_test --shape 28x28 --rows 200 400

The machine is shared: run it with nothing else busy, or read the estimate as an upper bound.
"""

import argparse
import time

import numpy as np

from forestrepro.data import load_dataset, load_spec
from forestrepro.ensembles.scanning import MultiGrainedScanner


def _shape(text: str) -> tuple[int, ...]:
    return tuple(int(side) for side in text.split("x"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", required=True)
    parser.add_argument("--shape", type=_shape, required=True, help="3000 (sequence) or 28x28 (image)")
    parser.add_argument("--rows", type=int, nargs=2, default=(60, 120))
    parser.add_argument("--trees", type=int, default=25)
    parser.add_argument("--target-trees", type=int, default=500)
    parser.add_argument("--folds", type=int, default=3)
    parser.add_argument("--max-train-windows", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    frame = load_dataset(load_spec(args.dataset)).frame
    X = frame.drop(columns="target").to_numpy(np.float32)
    y = np.unique(frame["target"].to_numpy(), return_inverse=True)[1]
    rng = np.random.default_rng(args.seed)
    print(f"{args.dataset}: {X.shape[0]} rows x {X.shape[1]} features, shape {args.shape}")
    seconds = []
    for rows in args.rows:
        sample = rng.choice(len(y), rows, replace=False)
        scanner = MultiGrainedScanner(shape=args.shape, n_trees=args.trees, n_folds=args.folds,
                                      max_train_windows=args.max_train_windows,
                                      random_state=args.seed, n_jobs=1)
        started = time.perf_counter()
        features = scanner.fit_transform(X[sample], y[sample])
        seconds.append(time.perf_counter() - started)
        print(f"{rows} rows, {args.trees} trees: {seconds[-1]:.1f} s, {features.shape[1]} features "
              f"per row (windows {scanner.window_sizes_})")
    (small, large), (t_small, t_large) = args.rows, seconds
    per_row = max(0.0, (t_large - t_small) / (large - small))
    fixed = max(0.0, t_small - per_row * small)
    scale = args.target_trees / args.trees
    total = scale * (fixed + per_row * X.shape[0])
    print(f"fit: {fixed:.0f} s fixed + {per_row:.3f} s per row at {args.trees} trees")
    print(f"estimate for all {X.shape[0]} rows at {args.target_trees} trees, one core: "
          f"{total / 3600:.1f} h ({scale * fixed / 3600:.1f} h fixed + "
          f"{scale * per_row:.2f} s per row)")


if __name__ == "__main__":
    main()
