"""The suite's data: a registry data set from the local mirror, or synthetic data for ``--quick``."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
from sklearn.datasets import make_classification
from sklearn.model_selection import train_test_split

from forestrepro.data import load_dataset, load_spec

MIRROR = os.environ.get("FORESTREPRO_MIRROR") or Path(__file__).resolve().parents[2] / "shared" / "datasets"
"""The local mirror: ``FORESTREPRO_MIRROR``, or the one beside the checkout."""


def load_rows(name: str, dtype=np.float32) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(X, classes, y)`` of a registry data set: its features (``dtype``, C order), class
    names and codes ``0 .. c - 1``."""
    frame = load_dataset(load_spec(name), mirror_dir=MIRROR).frame
    X = np.ascontiguousarray(frame.drop(columns="target").to_numpy(dtype))
    classes, y = np.unique(frame["target"].to_numpy(), return_inverse=True)
    return X, classes, y


def load_sample(name_rows: str, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """``(X, y)`` of a registry data set, ``X`` float64 and ``y`` coded ``0 .. c - 1``;
    ``NAME:ROWS`` takes a stratified sample of ROWS rows seeded by ``seed``."""
    name, _, rows = name_rows.partition(":")
    X, _, y = load_rows(name, np.float64)
    if rows and int(rows) < len(y):
        X, _, y, _ = train_test_split(X, y, train_size=int(rows), stratify=y, random_state=seed)
    return X, y


def synthetic(n_rows: int, n_features: int = 10, n_classes: int = 3, seed: int = 0):
    """``(X, y)``: ``make_classification`` data, ``X`` float32 in C order."""
    X, y = make_classification(
        n_samples=n_rows,
        n_features=n_features,
        n_informative=min(n_features, 6),
        n_classes=n_classes,
        random_state=seed,
    )
    return np.ascontiguousarray(X, dtype=np.float32), y
