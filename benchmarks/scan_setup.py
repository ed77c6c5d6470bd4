"""What the scanning benchmarks (``scan_cost.py``, ``scan_predict.py``) share: their common
command-line options, a data set's rows as float32 with integer labels, and a timer."""

import argparse
import time

import numpy as np

from forestrepro.data import load_dataset, load_spec


def shape(text: str) -> tuple[int, ...]:
    """A scan's input shape from the command line: ``3000`` (sequence) or ``28x28`` (image)."""
    return tuple(int(side) for side in text.split("x"))


def scan_parser(description: str, rows: int) -> argparse.ArgumentParser:
    """``--dataset``, ``--shape``, ``--rows`` (default ``rows``), ``--trees`` and ``--seed``."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--dataset", required=True)
    parser.add_argument("--shape", type=shape, required=True,
                        help="3000 (sequence) or 28x28 (image)")
    parser.add_argument("--rows", type=int, default=rows, help="rows whose windows are classified")
    parser.add_argument("--trees", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    return parser


def load_rows(name: str):
    """``(X, classes, y)``: the data set's features (float32, C order), class names and codes."""
    frame = load_dataset(load_spec(name)).frame
    X = np.ascontiguousarray(frame.drop(columns="target").to_numpy(np.float32))
    classes, y = np.unique(frame["target"].to_numpy(), return_inverse=True)
    return X, classes, y


def timed(function):
    """``(function(), wall seconds)``."""
    started = time.perf_counter()
    result = function()
    return result, time.perf_counter() - started
