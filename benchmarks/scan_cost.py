"""What a multi-grained scan (WDF Sec. 1, gcForest) of a whole data set costs, from its two parts.

A scan of the WDF protocol (an 80/20 split) grows, for each window size and each of its 2
forests, ``--folds`` fold forests on ``--max-train-windows`` windows each (every data set
scanned here has more windows than that), and classifies every window of every training row
once (by the fold forest that did not grow on it) and of every test row ``--folds`` times.
Both parts are linear in the number of trees. This script times them directly with ``--trees``
trees: one fold forest's growth per window size and forest, and the classification of the
windows of ``--rows`` rows by ``WindowForest`` (the scanner's classifier), and prints the
estimate for the whole scan at ``--target-trees`` trees (the paper profile: 500), with each
count of ``--threads`` (the forests' ``n_jobs``; default 1), and the speed-up of each over the
first, measured side by side in this process.

    .venv/bin/python benchmarks/scan_cost.py --dataset semg --shape 3000
    .venv/bin/python benchmarks/scan_cost.py --dataset mnist_test --shape 28x28
    .venv/bin/python benchmarks/scan_cost.py --dataset semg --shape 3000 --trees 20 --threads 1 2

The machine is shared: run it with nothing else busy, or read the estimate as an upper bound.
"""

import numpy as np
from scan_setup import load_rows, scan_parser, timed

from forestrepro.cascade.members import member_templates, seeded
from forestrepro.cascade.scanning import default_window_sizes, sample_windows, window_layout
from forestrepro.cascade.window_forest import WindowForest

TEST_SHARE = 0.2  # the WDF protocol's 80/20 split


def main() -> None:
    parser = scan_parser(__doc__.splitlines()[0], rows=32)
    parser.add_argument("--target-trees", type=int, default=500)
    parser.add_argument("--folds", type=int, default=3)
    parser.add_argument("--max-train-windows", type=int, default=100_000)
    parser.add_argument(
        "--threads", type=int, nargs="+", default=[1], help="thread counts to time, side by side"
    )
    args = parser.parse_args()

    X, classes, y = load_rows(args.dataset)
    n_test = round(TEST_SHARE * len(y))
    classified_rows = (len(y) - n_test) + args.folds * n_test
    order = np.random.default_rng(args.seed).permutation(len(y))
    fold_rows = order[: round((len(y) - n_test) * (args.folds - 1) / args.folds)]
    rows = np.sort(order[-args.rows :])
    print(
        f"{args.dataset}: {len(y)} rows x {X.shape[1]} features, shape {args.shape}; "
        f"{args.trees} trees timed, {args.target_trees} estimated"
    )
    estimates = {
        threads: _estimate(args, X, classes, y, fold_rows, rows, classified_rows, threads)
        for threads in args.threads
    }
    first = args.threads[0]
    for threads, (grow, classify) in estimates.items():
        print(
            f"estimate for the whole scan at {args.target_trees} trees, {threads} thread(s): "
            f"{(grow + classify) / 3600:.1f} h ({grow / 3600:.1f} h growing "
            f"{len(default_window_sizes(args.shape)) * args.folds} fold forests of each kind, "
            f"{classify / 3600:.1f} h classifying {classified_rows} rows' windows); "
            f"speed-up over {first} thread(s): {sum(estimates[first]) / (grow + classify):.2f}x "
            f"(growing {estimates[first][0] / grow:.2f}x, classifying {estimates[first][1] / classify:.2f}x)"
        )


def _estimate(args, X, classes, y, fold_rows, rows, classified_rows, threads):
    """Time one fold forest per window size and forest, and the classification of ``rows``,
    with ``threads`` threads; print the table; return the whole scan's (growing, classifying)
    seconds at ``--target-trees``."""
    scale = args.target_trees / args.trees
    print(f"\n{threads} thread(s):")
    print(
        "| window | forest | grow one fold forest (s) | classify one row (s) "
        "| estimate: grow + classify (h) |"
    )
    print("|---|---|---|---|---|")
    total_grow = total_classify = 0.0
    for size in default_window_sizes(args.shape):
        layout = window_layout(size, args.shape)
        windows, labels = sample_windows(X, y, fold_rows, layout, args.max_train_windows, args.seed)
        for name, template in zip(("RF", "CRF"), member_templates(1, 1, args.trees, n_jobs=threads)):
            model = seeded(template, args.seed)
            grow = timed(lambda: model.fit(windows, labels))[1]
            forest = WindowForest(model, len(classes))
            forest.class_vectors(X, rows[:1], layout[0][:1], layout[1])  # compile first
            per_row = timed(lambda: forest.class_vectors(X, rows, *layout))[1] / rows.size
            grow_all = scale * args.folds * grow
            classify_all = scale * per_row * classified_rows
            total_grow += grow_all
            total_classify += classify_all
            print(
                f"| {size} | {name} | {grow:.1f} | {per_row:.4f} | {grow_all / 3600:.2f} + "
                f"{classify_all / 3600:.2f} |",
                flush=True,
            )
    return total_grow, total_classify


if __name__ == "__main__":
    main()
