"""Classifying every window of a row: ``WindowForest`` against ``predict_proba`` on cut windows.

Multi-grained scanning (WDF Sec. 1) spends most of its time classifying windows. For each
window size of ``--dataset``, this script grows the scan's random forest and completely-random
forest (``--trees`` trees each) on ``--train-windows`` windows, then classifies every window of
``--rows`` other rows twice in the same process: by cutting the windows out and calling
``predict_proba`` through ``cascade_members.class_vectors`` (the scan before
``window_forest``), and by ``WindowForest`` reading them in place. It checks the two give the
same numbers bit for bit and prints both times and their ratio.

    .venv/bin/python benchmarks/scan_predict.py --dataset semg --shape 3000
    .venv/bin/python benchmarks/scan_predict.py --dataset mnist_test --shape 28x28 --rows 200

One thread; the machine is shared, so run it with nothing else busy or read the times as
upper bounds. The ratio is steadier than the times.
"""

import numpy as np
from scan_setup import load_rows, scan_parser, timed

from forestrepro.cascade.members import class_vectors, member_templates, seeded
from forestrepro.cascade.scanning import default_window_sizes, sample_windows, window_layout
from forestrepro.cascade.window_forest import WindowForest


def main() -> None:
    parser = scan_parser(__doc__.splitlines()[0], rows=16)
    parser.add_argument("--train-windows", type=int, default=100_000)
    args = parser.parse_args()

    X, classes, y = load_rows(args.dataset)
    order = np.random.default_rng(args.seed).permutation(len(y))
    train_rows, rows = order[args.rows :], np.sort(order[: args.rows])
    print(
        f"{args.dataset}: {len(y)} rows x {X.shape[1]} features; {args.trees} trees per forest, "
        f"{args.train_windows} training windows, windows of {args.rows} rows classified"
    )
    print(
        "| window | forest | nodes per tree | windows | predict_proba on cut windows (s) "
        "| WindowForest (s) | ratio | equal |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for size in default_window_sizes(args.shape):
        layout = window_layout(size, args.shape)
        starts, offsets = layout
        windows, labels = sample_windows(X, y, train_rows, layout, args.train_windows, args.seed)
        templates = member_templates(1, 1, args.trees, n_jobs=1)
        for name, template in zip(("RF", "CRF"), templates):
            model = seeded(template, args.seed).fit(windows, labels)
            nodes = np.mean([tree.tree_.node_count for tree in model.forest_.estimators_])
            reference, seconds_reference = timed(
                lambda: class_vectors(
                    model, X[rows][:, starts[:, None] + offsets].reshape(-1, offsets.size), len(classes)
                )
            )
            forest = WindowForest(model, len(classes))
            forest.class_vectors(X, rows[:1], starts[:1], offsets)  # compile before timing
            ours, seconds_ours = timed(lambda: forest.class_vectors(X, rows, starts, offsets))
            print(
                f"| {size} | {name} | {nodes:.0f} | {len(reference)} | {seconds_reference:.2f} "
                f"| {seconds_ours:.2f} | {seconds_reference / seconds_ours:.2f} "
                f"| {np.array_equal(reference, ours)} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
