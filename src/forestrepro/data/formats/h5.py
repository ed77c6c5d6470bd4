"""HDF5 files, read with h5py (USPS: ``train/data``, ``train/target``, ``test/data``, ``test/target``)."""

from __future__ import annotations

from pathlib import Path

import h5py
import numpy as np
import pandas as pd

from ..errors import DatasetError
from .common import numbered


def _read_key(handle: h5py.File, key: str, path: Path) -> np.ndarray:
    if key not in handle:
        raise DatasetError(f"{path}: no HDF5 data set '{key}'")
    return np.asarray(handle[key])


def read(path: Path, options: dict) -> tuple[pd.DataFrame, pd.Series]:
    """Concatenate the row blocks ``data_keys[i]`` (features) and ``target_keys[i]`` (labels)."""
    data_keys, target_keys = options["data_keys"], options["target_keys"]
    if len(data_keys) != len(target_keys):
        raise DatasetError(f"{path}: {len(data_keys)} data_keys but {len(target_keys)} target_keys")
    try:
        handle = h5py.File(path, "r")
    except OSError as error:
        raise DatasetError(f"{path}: not a valid HDF5 file ({error})") from error
    with handle:
        blocks, targets = [], []
        for data_key, target_key in zip(data_keys, target_keys, strict=True):
            block = _read_key(handle, data_key, path)
            block = block.reshape(block.shape[0], -1).astype(np.float64)
            target = _read_key(handle, target_key, path).ravel()
            if target.shape[0] != block.shape[0]:
                raise DatasetError(
                    f"{path}: '{target_key}' has {target.shape[0]} labels for {block.shape[0]} rows"
                )
            blocks.append(block)
            targets.append(target)
    matrix = np.concatenate(blocks)
    return pd.DataFrame(matrix, columns=numbered(matrix.shape[1])), pd.Series(
        np.concatenate(targets), name="target"
    )
