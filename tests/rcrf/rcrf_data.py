"""Data for the RCRF tests: the mirror's data sets and the published tables."""

from importlib.resources import files
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

MIRROR = Path(__file__).resolve().parents[2] / ".." / "shared" / "datasets" / "pmlb"


def load_pmlb(name):
    """``X`` (float32) and ``y`` of the mirror's data set ``name``; skip if absent."""
    path = MIRROR / f"{name}.tsv.gz"
    if not path.exists():
        pytest.skip(f"mirror data set {path} not present")
    frame = pd.read_csv(path, sep="\t")
    return frame.drop(columns="target").to_numpy(np.float32), frame["target"].to_numpy()


def published(table):
    """A published RCRF table shipped with the package, e.g. ``"table3_f1"``."""
    return pd.read_csv(files("forestrepro.report") / "published" / f"rcrf_{table}.csv")
