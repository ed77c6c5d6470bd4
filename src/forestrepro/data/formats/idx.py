"""MNIST idx files (LeCun et al.; optionally gzipped), parsed with numpy alone.

Header: two zero bytes, a type code, the number of dimensions, then one big-endian uint32 per
dimension; the data follow in big-endian order.
"""

from __future__ import annotations

import gzip
import math
import struct
from pathlib import Path

import numpy as np
import pandas as pd

from ..errors import DatasetError
from .common import numbered

TYPE_CODES = {0x08: ">u1", 0x09: ">i1", 0x0B: ">i2", 0x0C: ">i4", 0x0D: ">f4", 0x0E: ">f8"}


def read_array(path: Path) -> np.ndarray:
    """Read one idx file into an array of the shape its header gives."""
    raw = path.read_bytes()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    if len(raw) < 4 or raw[:2] != b"\x00\x00" or raw[2] not in TYPE_CODES:
        raise DatasetError(f"{path}: not an idx file (magic {raw[:4].hex() or 'empty'})")
    ndim = raw[3]
    offset = 4 + 4 * ndim
    if len(raw) < offset:
        raise DatasetError(f"{path}: idx header truncated")
    shape = struct.unpack(f">{ndim}I", raw[4:offset])
    dtype = np.dtype(TYPE_CODES[raw[2]])
    if len(raw) - offset != math.prod(shape) * dtype.itemsize:
        raise DatasetError(
            f"{path}: idx header says {shape} but the file holds {len(raw) - offset} data bytes"
        )
    return np.frombuffer(raw, dtype=dtype, offset=offset).reshape(shape)


def read(paths: list[Path]) -> tuple[pd.DataFrame, pd.Series]:
    """Pair one images file (2 or more dimensions) with one labels file (1 dimension)."""
    arrays = {path: read_array(path) for path in paths}
    images = [path for path, array in arrays.items() if array.ndim >= 2]
    labels = [path for path, array in arrays.items() if array.ndim == 1]
    if len(images) != 1 or len(labels) != 1:
        raise DatasetError(
            f"idx: need one images file and one labels file, got images {images}, labels {labels}"
        )
    matrix = arrays[images[0]].reshape(arrays[images[0]].shape[0], -1).astype(np.float64)
    target = arrays[labels[0]].astype(np.int64)
    if target.shape[0] != matrix.shape[0]:
        raise DatasetError(
            f"idx: {labels[0]} has {target.shape[0]} labels for {matrix.shape[0]} images in {images[0]}"
        )
    return pd.DataFrame(matrix, columns=numbered(matrix.shape[1])), pd.Series(target, name="target")
