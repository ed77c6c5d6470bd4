"""What the benchmarks share: the scanning benchmarks' (``scan_cost.py``, ``scan_predict.py``)
common command-line options, a data set's rows as float32 with integer labels, a seeded
sample of them as float64 (``cascade.py``, ``svm_grid.py``), and a timer."""

import argparse
import os
import time
from pathlib import Path

import numpy as np
from sklearn.model_selection import train_test_split

from forestrepro.data import load_dataset, load_spec

MIRROR = os.environ.get("FORESTREPRO_MIRROR") or Path(__file__).resolve().parents[2] / "shared" / "datasets"
"""The local mirror: FORESTREPRO_MIRROR, or the one beside the checkout."""


def shape(text: str) -> tuple[int, ...]:
    """A scan's input shape from the command line: ``3000`` (sequence) or ``28x28`` (image)."""
    return tuple(int(side) for side in text.split("x"))


def scan_parser(description: str, rows: int) -> argparse.ArgumentParser:
    """``--dataset``, ``--shape``, ``--rows`` (default ``rows``), ``--trees`` and ``--seed``."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--dataset", required=True)
    parser.add_argument("--shape", type=shape, required=True, help="3000 (sequence) or 28x28 (image)")
    parser.add_argument("--rows", type=int, default=rows, help="rows whose windows are classified")
    parser.add_argument("--trees", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    return parser


def load_rows(name: str):
    """``(X, classes, y)``: the data set's features (float32, C order), class names and codes."""
    frame = load_dataset(load_spec(name), mirror_dir=MIRROR).frame
    X = np.ascontiguousarray(frame.drop(columns="target").to_numpy(np.float32))
    classes, y = np.unique(frame["target"].to_numpy(), return_inverse=True)
    return X, classes, y


def load_sample(name_rows: str, seed: int):
    """``X`` (float64), ``y`` coded 0 .. c - 1, of a registry data set; ``NAME:ROWS`` takes a
    stratified sample of ROWS rows seeded by ``seed``."""
    name, _, rows = name_rows.partition(":")
    frame = load_dataset(load_spec(name), mirror_dir=MIRROR).frame
    X = frame.drop(columns="target").to_numpy(np.float64)
    y = np.unique(frame["target"].to_numpy(), return_inverse=True)[1]
    if rows and int(rows) < len(y):
        X, _, y, _ = train_test_split(X, y, train_size=int(rows), stratify=y, random_state=seed)
    return X, y


def timed(function):
    """``(function(), wall seconds)``."""
    started = time.perf_counter()
    result = function()
    return result, time.perf_counter() - started
