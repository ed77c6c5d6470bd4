"""Multi-grained scanning: classifying every window of a row, ``WindowForest`` against
scikit-learn's ``predict_proba`` on the windows cut out of their rows.

For each window size of a data set (WDF Sec. 1, gcForest: d/16, d/8 and d/4), the scan's random
forest and completely random forest (10 trees each) are grown on 100,000 training windows; then
the windows of other rows are classified both ways in this process, alternating, best of 3: by
cutting them out and calling ``predict_proba`` (the scan before ``cascade/window_forest.py``), and
by ``WindowForest`` reading them in place. The two must give the same class vectors bit for bit.
A row sums the six forests' seconds. Cases: SEMG (3,000 samples a record, the windows of 16 rows)
and MNIST (28 x 28, the windows of 200 images). Findings: ``scan_predict.md``; what a whole scan
costs: ``scan_cost.md``; its memory: ``scan_memory.md``.
"""

from __future__ import annotations

import numpy as np

from forestrepro.cascade.members import class_vectors, member_templates, seeded
from forestrepro.cascade.scanning import default_window_sizes, sample_windows, window_layout
from forestrepro.cascade.window_forest import WindowForest

from .comparison import Comparison, Row, best_seconds
from .data import load_rows, synthetic

CASES = (("semg", (3000,), 16), ("mnist_test", (28, 28), 200))
TREES = 10
TRAIN_WINDOWS = 100_000
REPEATS = 3
SEED = 0


class ScanPredict(Comparison):
    name = "scan"
    ours = "our window classifier (WindowForest, windows read in place)"
    anchor = "scikit-learn's predict_proba on the cut windows"

    def rows(self, quick: bool) -> list[Row]:
        if quick:
            X, y = synthetic(60, n_features=64)
            return [_row("synthetic 60 x 64", X, np.arange(3), y, (64,), 4, 3, 2_000, 1)]
        rows = []
        for name, shape, n_rows in CASES:
            X, classes, y = load_rows(name)
            rows.append(_row(name, X, classes, y, shape, n_rows, TREES, TRAIN_WINDOWS, REPEATS))
        return rows


def _row(case, X, classes, y, shape, n_rows, trees, train_windows, repeats) -> Row:
    """Both ways on the windows of ``n_rows`` rows, every window size and both forests."""
    order = np.random.default_rng(SEED).permutation(len(y))
    train_rows, rows = order[n_rows:], np.sort(order[:n_rows])
    ours_seconds = anchor_seconds = 0.0
    forests = equal = 0
    for size in default_window_sizes(shape):
        starts, offsets = layout = window_layout(size, shape)
        windows, labels = sample_windows(X, y, train_rows, layout, train_windows, SEED)
        for template in member_templates(1, 1, trees, n_jobs=1):
            model = seeded(template, SEED).fit(windows, labels)
            forest = WindowForest(model, len(classes))
            forest.class_vectors(X, rows[:1], starts[:1], offsets)  # compile before timing
            seconds, (ours, anchor) = best_seconds(
                [
                    lambda: forest.class_vectors(X, rows, starts, offsets),
                    lambda: class_vectors(model, cut_windows(X, rows, starts, offsets), len(classes)),
                ],
                repeats,
            )
            ours_seconds += seconds[0]
            anchor_seconds += seconds[1]
            forests += 1
            equal += np.array_equal(ours, anchor)
    return Row(
        f"{case}, windows of {n_rows} rows",
        ours_seconds,
        anchor_seconds,
        f"class vectors equal bit for bit in {equal} of {forests} forests",
    )


def cut_windows(X, rows, starts, offsets) -> np.ndarray:
    """Every window of ``rows``, cut out of its row: one window a row of the result."""
    return X[rows][:, starts[:, None] + offsets].reshape(-1, offsets.size)
