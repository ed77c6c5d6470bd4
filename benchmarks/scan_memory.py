"""Peak memory of growing one scanning forest: at once, or in chunks of trees packed as grown.

A scan's fold forest (WDF Sec. 1, Fig. 1) grows ``--trees`` trees on ``--max-train-windows``
windows. Grown at once, scikit-learn holds every tree before ``WindowForest`` packs them; grown
by ``WindowForest.grow``, it holds the packed trees and one chunk of ``--chunk-trees``
scikit-learn trees. Each way runs in a fresh process of its own, which reports its peak
resident memory (``ru_maxrss``), the memory it held before growing (data and windows), its
growth time and the class vectors of a few rows' windows; the two must be equal.

    .venv/bin/python benchmarks/scan_memory.py --dataset mnist_test --shape 28x28
    .venv/bin/python benchmarks/scan_memory.py --dataset semg --shape 3000
"""

import multiprocessing
import resource

import numpy as np
from scan_setup import load_rows, scan_parser, timed

from forestrepro.cascade.members import member_templates, seeded
from forestrepro.cascade.scanning import default_window_sizes, sample_windows, window_layout
from forestrepro.cascade.window_forest import GROWTH_CHUNK_TREES, WindowForest

WAYS = ("at once", "in chunks")


def _peak_gb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e6  # kB on Linux


def grow_one_way(args, way: str):
    """In a fresh process: ``(peak GB before growing, peak GB, seconds, packed GB, class
    vectors)``."""
    X, classes, y = load_rows(args.dataset)
    rows = np.random.default_rng(args.seed).permutation(len(y))
    layout = window_layout(args.window or default_window_sizes(args.shape)[0], args.shape)
    windows, labels = sample_windows(X, y, rows[: -args.rows], layout, args.max_train_windows, args.seed)
    template = member_templates(1, 1, args.trees, n_jobs=args.n_jobs)[args.forest == "CRF"]
    model = seeded(template, args.seed)
    before = _peak_gb()
    if way == "at once":
        forest, seconds = timed(
            lambda: WindowForest(model.fit(windows, labels), len(classes), take_trees=True)
        )
    else:
        forest, seconds = timed(
            lambda: WindowForest.grow(model, windows, labels, len(classes), args.chunk_trees)
        )
    peak = _peak_gb()
    return (before, peak, seconds, forest.nbytes / 1e9, forest.class_vectors(X, rows[-args.rows :], *layout))


def main() -> None:
    parser = scan_parser(__doc__.splitlines()[0], rows=4)
    parser.set_defaults(trees=500)
    parser.add_argument(
        "--window",
        type=int,
        default=None,
        help="window length or side (default: the smallest of the paper's)",
    )
    parser.add_argument("--forest", choices=("RF", "CRF"), default="CRF")
    parser.add_argument("--chunk-trees", type=int, default=GROWTH_CHUNK_TREES)
    parser.add_argument("--max-train-windows", type=int, default=100_000)
    parser.add_argument("--n-jobs", type=int, default=1)
    args = parser.parse_args()

    print(
        f"{args.dataset}, shape {args.shape}: one {args.forest} fold forest of {args.trees} "
        f"trees on {args.max_train_windows} windows, chunks of {args.chunk_trees} trees"
    )
    print("| growth | memory before growing (GB) | peak (GB) | packed trees (GB) | growth (s) |")
    print("|---|---|---|---|---|")
    context = multiprocessing.get_context("spawn")
    results = {}
    for way in WAYS:
        with context.Pool(1) as pool:
            results[way] = pool.apply(grow_one_way, (args, way))
        before, peak, seconds, packed, _ = results[way]
        print(f"| {way} | {before:.2f} | {peak:.2f} | {packed:.2f} | {seconds:.1f} |", flush=True)
    equal = np.array_equal(results[WAYS[0]][4], results[WAYS[1]][4])
    print(
        f"peak ratio, in chunks / at once: {results[WAYS[1]][1] / results[WAYS[0]][1]:.2f}; "
        f"class vectors equal: {equal}"
    )


if __name__ == "__main__":
    main()
