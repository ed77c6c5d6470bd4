"""One cascade level on a scanned data set's cascade input: its seconds and a digest of its numbers.

``prepare`` writes a level's input once; ``run`` grows one level on it with DF, WDF and WDF-oob
weighting, as the pipeline grows a level (``CascadeForestClassifier.fit_predict_proba``: 4 random
forests and 4 completely-random tree forests, 3 folds, the test rows through the level), with
fewer trees per forest than the paper's 500, and prints per method the wall seconds and a SHA-256
of every forest's out-of-fold and test class vectors, its tree accuracies and the level's
accuracies. It imports the library from ``PYTHONPATH``, so the same command times two checkouts
and says whether they give the same numbers, bit for bit:

    PYTHONPATH=src .venv/bin/python -m benchmarks.cascade_level prepare mnist /tmp/mnist_level.npz
    PYTHONPATH=src .venv/bin/python -m benchmarks.cascade_level prepare semg /tmp/semg_level.npz
    PYTHONPATH=src .venv/bin/python -m benchmarks.cascade_level run /tmp/mnist_level.npz [--trees 20]
        [--n-jobs 1] [--methods DF WDF WDF-oob] [--profile FILE]

``prepare mnist`` takes a stratified sample of the WDF holdout split of ``mnist_test`` (``--rows``
training and a quarter as many test images) and scans it with ``--scan-trees`` trees per scanning
forest instead of 500 (the paper profile's scan of MNIST costs hours and is not stored): the
input has the paper profile's width, 22,180 columns, but cheaper class vectors. ``prepare semg``
reads SEMG's 3,000-sample scan (WDF ``semg_3000``: 1,440 training and 360 test rows x 92,292
columns) from the scan store, which it never writes: it stops if the scan is not there whole.
``--profile FILE`` writes cProfile's statistics of the levels and prints where their time went,
step by step (``STEPS``). Findings: ``cascade_level.md``.
"""

from __future__ import annotations

import argparse
import cProfile
import hashlib
import json
import pstats
import time
from pathlib import Path

import numpy as np
from sklearn.model_selection import train_test_split

from forestrepro.cascade.forest import CascadeForestClassifier
from forestrepro.cascade.scan_cache import MARKER, cached_scan, scan_key
from forestrepro.cascade.scanning import MultiGrainedScanner
from forestrepro.checkpoint.location import scan_store_dir
from forestrepro.data import load_dataset, load_spec
from forestrepro.evaluation.holdout import holdout_splits

from .data import MIRROR

ROOT = Path(__file__).resolve().parents[1]
SEMG_RECORD = ROOT / "results/runs/paper/wdf/semg_3000/df/semg/repeat0.provenance.json"
"""A record of the WDF ``semg_3000`` jobs: its spec names the split and the scanner of the stored scan."""
METHODS = {
    "DF": {"weighting": "none"},
    "WDF": {"weighting": "accuracy", "accuracy_source": "train"},
    "WDF-oob": {"weighting": "accuracy", "accuracy_source": "oob"},
}

STEPS = (
    ("growing the trees (scikit-learn's tree fit)", [("sklearn/tree/_classes.py", "_fit", "cumulative")]),
    ("the forests' fit around their trees", [("sklearn/ensemble/_forest.py", "fit", "cumulative")]),
    ("scoring the trees for WDF's weights", [("cascade/weighting.py", "tree_accuracies", "cumulative")]),
    ("class vectors of held-out and test rows", [("cascade/members.py", "class_vectors", "cumulative")]),
    (
        "gathering fold rows",
        [("cascade/members.py", "rows_in_columns", "cumulative"), ("cascade/members.py", "rows", "own")],
    ),
    ("cross_fit's own lines (X[held_out] copies before)", [("cascade/members.py", "cross_fit", "own")]),
    (
        "finite and dtype checks (in the rows above)",
        [("sklearn/utils/validation.py", "check_array", "cumulative")],
    ),
    (
        "the level's input (copying X in)",
        [("cascade/forest.py", "__init__", "cumulative")],
    ),
)
"""Per step of a level, the functions whose time (cumulative, or their own lines') is the step's."""


def split(name: str, spec: dict):
    """``(X, y, train rows, test rows, split seed)`` of the WDF holdout split of a data set."""
    frame = load_dataset(load_spec(name), mirror_dir=MIRROR).frame
    X = frame.drop(columns="target").to_numpy(np.float32)
    y = np.asarray(frame["target"].to_numpy())
    protocol = {**spec["protocol"], "repeat": 0}
    (_, train, test, seed), *_ = holdout_splits(
        y, paper="wdf", dataset=name, root_seed=spec["root_seed"], protocol=protocol
    )
    return X, y, train, test, seed


def prepare_semg(args) -> dict:
    """SEMG's stored 3,000-sample scan, read from the scan store (refused unless it is whole)."""
    spec = json.loads(SEMG_RECORD.read_text())["spec"]
    X, y, train, test, seed = split("semg", spec)
    scanner = MultiGrainedScanner(
        shape=(3000,), random_state=seed, **spec["method_config"]["params"]["scanner"]
    )
    store = scan_store_dir()
    key = scan_key(scanner, X[train], y[train], X[test])
    if not (store / key / MARKER).exists():
        raise SystemExit(f"SEMG's scan {key[:12]} is not whole in {store}: nothing read, nothing written")
    scan = cached_scan(store, scanner, X[train], y[train], X[test])
    return {"X": scan.train, "y": y[train], "X_test": scan.test, "y_test": y[test]}


def prepare_mnist(args) -> dict:
    """A stratified sample of MNIST's holdout split, scanned with few trees per scanning forest."""
    spec = json.loads(SEMG_RECORD.read_text())["spec"]
    X, y, train, test, seed = split("mnist_test", spec)
    train, _ = train_test_split(train, train_size=args.rows, stratify=y[train], random_state=0)
    test, _ = train_test_split(test, train_size=args.rows // 4, stratify=y[test], random_state=0)
    scanner = MultiGrainedScanner(shape=(28, 28), n_trees=args.scan_trees, random_state=seed)
    scanned, scanned_test = scanner.fit_transform_with_test(X[train], y[train], X[test])
    return {"X": scanned, "y": y[train], "X_test": scanned_test, "y_test": y[test]}


class Recorder:
    """A stand-in for the cascade's store of kept parts: keeps nothing back, records what is put."""

    def __init__(self):
        self.parts = {}

    def get(self, name):
        return None

    def put(self, name, **arrays):
        self.parts[name] = arrays


def digest(cascade: CascadeForestClassifier, recorder: Recorder, proba: np.ndarray) -> str:
    """SHA-256 of every forest's class vectors and tree accuracies, the test class vectors and
    the level's accuracies."""
    sha = hashlib.sha256()
    arrays = [array for _, part in sorted(recorder.parts.items()) for _, array in sorted(part.items())]
    for array in [*arrays, proba, cascade.level_accuracies_, cascade.level_test_accuracies_]:
        if array is not None:
            sha.update(str(array.dtype).encode() + np.ascontiguousarray(array).tobytes())
    return sha.hexdigest()[:16]


def run(args) -> None:
    """One level per method on the prepared input: seconds and digest."""
    data = np.load(args.input, allow_pickle=True)
    X, y, X_test, y_test = data["X"], data["y"], data["X_test"], data["y_test"]
    print(f"{args.input}: {X.shape[0]} + {X_test.shape[0]} rows x {X.shape[1]} columns, {args.trees} trees")
    profile = cProfile.Profile() if args.profile else None
    for method in args.methods:
        cascade = CascadeForestClassifier(
            n_trees=args.trees, max_levels=1, n_jobs=args.n_jobs, random_state=0, **METHODS[method]
        )
        recorder = Recorder()
        started = time.perf_counter()
        if profile:
            profile.enable()
        proba = cascade.fit_predict_proba(X, y, X_test, y_test, parts=recorder)
        if profile:
            profile.disable()
        seconds = time.perf_counter() - started
        print(
            f"{method:<8} {seconds:8.2f} s  accuracy {cascade.level_accuracies_[0]:.4f}  "
            f"digest {digest(cascade, recorder, proba)}",
            flush=True,
        )
    if profile:
        profile.dump_stats(args.profile)
        print_steps(pstats.Stats(str(args.profile)))


def print_steps(stats: pstats.Stats) -> None:
    """Seconds per step of the profiled levels (the forests' fit without the trees' own)."""
    times = {}
    for (file, _, function), (_, _, own, cumulative, _) in stats.stats.items():
        for step, functions in STEPS:
            for suffix, name, kind in functions:
                if file.endswith(suffix) and function == name:
                    times[step] = times.get(step, 0.0) + (own if kind == "own" else cumulative)
    times["the forests' fit around their trees"] = times.get(
        "the forests' fit around their trees", 0.0
    ) - times.get(STEPS[0][0], 0.0)
    print(f"profiled: {stats.total_tt:.2f} s")
    for step, _ in STEPS:
        print(f"  {step:<52} {times.get(step, 0.0):8.2f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    prepare = commands.add_parser("prepare", help="write a level's input")
    prepare.add_argument("dataset", choices=("mnist", "semg"))
    prepare.add_argument("out", type=Path)
    prepare.add_argument("--rows", type=int, default=4000, help="MNIST: training images of the sample")
    prepare.add_argument("--scan-trees", type=int, default=5, help="MNIST: trees per scanning forest")
    timed = commands.add_parser("run", help="grow one level per method on a prepared input")
    timed.add_argument("input", type=Path)
    timed.add_argument("--trees", type=int, default=20)
    timed.add_argument("--n-jobs", type=int, default=1)
    timed.add_argument("--methods", nargs="+", choices=tuple(METHODS), default=list(METHODS))
    timed.add_argument("--profile", type=Path, default=None)
    args = parser.parse_args()
    if args.command == "run":
        run(args)
        return
    arrays = (prepare_semg if args.dataset == "semg" else prepare_mnist)(args)
    np.savez(args.out, **arrays)
    print(
        f"{args.out}: {arrays['X'].shape[0]} + {arrays['X_test'].shape[0]} rows x {arrays['X'].shape[1]} columns"
    )


if __name__ == "__main__":
    main()
