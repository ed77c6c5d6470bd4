"""Data for the BRF tests: the mirror's wine data set (skipped if the mirror is absent)."""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

MIRROR = Path(__file__).resolve().parents[2] / ".." / "shared" / "datasets" / "pmlb"


@pytest.fixture(scope="session")
def wine():
    """``X`` (float32) and ``y`` of the mirror's wine_recognition."""
    path = MIRROR / "wine_recognition.tsv.gz"
    if not path.exists():
        pytest.skip(f"mirror data set {path} not present")
    frame = pd.read_csv(path, sep="\t")
    return frame.drop(columns="target").to_numpy(np.float32), frame["target"].to_numpy()
