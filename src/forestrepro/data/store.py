"""Write a loaded data set (parquet + provenance JSON, atomically) and read it back as arrays."""

from __future__ import annotations

import json
import os

import numpy as np
import pandas as pd

from ..io import atomic_path, write_text_atomic
from .errors import DatasetError
from .loader import LoadedDataset


def write_dataset(
    loaded: LoadedDataset, parquet_path: str | os.PathLike, provenance_path: str | os.PathLike
) -> None:
    """Write ``loaded.frame`` as parquet and ``loaded.provenance`` as JSON with sorted keys, both atomically."""
    with atomic_path(parquet_path) as tmp:
        loaded.frame.to_parquet(tmp, index=False, engine="pyarrow")
    write_text_atomic(provenance_path, json.dumps(loaded.provenance, sort_keys=True, indent=2) + "\n")


def read_dataset(
    parquet_path: str | os.PathLike, *, allow_text: bool = False
) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """Return (X float64 of shape rows x features, y labels, feature names) from a written data set.

    Text features (imdb) cannot become float64. With ``allow_text`` a data set whose only
    feature is a text column gives X as a 1-D array of strings, for a method to vectorise.
    """
    frame = pd.read_parquet(parquet_path)
    features = frame.drop(columns="target")
    text = [c for c in features.columns if not pd.api.types.is_numeric_dtype(features[c])]
    if text and allow_text and list(features.columns) == text[:1] and len(text) == 1:
        return features[text[0]].astype(str).to_numpy(dtype=object), frame["target"].to_numpy(), text
    if text:
        raise DatasetError(
            f"{parquet_path}: text features {text}; read it with pandas.read_parquet and vectorise"
        )
    return features.to_numpy(dtype=np.float64), frame["target"].to_numpy(), list(features.columns)
