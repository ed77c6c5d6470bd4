"""A data set's content fingerprint, the same for any row order, column order and label names.

Two files hold the same data when one is the other with its rows shuffled, its columns
permuted and its classes renamed (PMLB's ``diabetes`` is BRF's ``pima``; a copy of ``wine``
with the labels 1, 2, 3 written a, b, c is ``wine``). ``fingerprint`` hashes what such changes
leave alone:

- each cell as a float64 rounded to 9 decimals (so ``1``, ``1.0`` and ``1.000000000`` agree;
  a missing cell is NaN; a text column is coded by its sorted distinct strings);
- each column's *signature*, the hash of its sorted values; the columns are put in signature
  order, and the cells of columns with the same signature (the same multiset of values) are
  sorted within each row, so no column order survives;
- each class as the sorted multiset of its rows, and the data set as the sorted multiset of
  its classes' hashes: the partition of the rows the labels induce, not the labels' names.

Equal data give equal fingerprints. Unequal data give unequal ones but for a hash collision
and one blind spot: data that differ only by a swap of cells between two columns holding the
same multiset of values, within a row. ``paper_matches`` compares a data set with every data
set of the papers that has its number of rows and features (``conf/dataset/<name>.yaml`` with
``papers``), loading only those from the mirror; a data set of another shape cannot be equal.
No training job imports this module.
"""

from __future__ import annotations

import hashlib
import itertools
from pathlib import Path

import numpy as np
import pandas as pd
import yaml

from ..resources import dataset_dir
from .errors import DatasetError
from .loader import load_dataset
from .registry import load_spec

DECIMALS = 9


def _numeric(column: pd.Series) -> np.ndarray:
    """The column as float64: numbers rounded to ``DECIMALS`` (-0.0 as 0.0), text coded by its
    sorted distinct strings, missing cells NaN."""
    if column.dtype == object:
        present = column.notna()
        codes = np.full(len(column), np.nan)
        strings = column[present].astype(str)
        codes[present.to_numpy()] = np.searchsorted(np.unique(strings), strings)
        return codes
    values = np.round(column.to_numpy(dtype=np.float64), DECIMALS) + 0.0
    return np.where(np.isnan(values), np.nan, values)  # one NaN bit pattern


def _digest(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def _canonical_rows(features: pd.DataFrame) -> np.ndarray:
    """The features as a float64 matrix in a column order that no permutation of the columns
    changes (see the module docstring)."""
    if features.shape[1] == 0:
        raise DatasetError("a data set without features has no fingerprint")
    matrix = np.column_stack([_numeric(features[c]) for c in features.columns])
    signatures = [_digest(np.sort(matrix[:, j]).tobytes()) for j in range(matrix.shape[1])]
    order = sorted(range(matrix.shape[1]), key=lambda j: signatures[j])
    matrix, signatures = matrix[:, order], [signatures[j] for j in order]
    start = 0
    for _, tied in itertools.groupby(signatures):
        end = start + len(list(tied))
        matrix[:, start:end] = np.sort(matrix[:, start:end], axis=1)  # columns with the same values
        start = end
    return np.ascontiguousarray(matrix)


def fingerprint(features: pd.DataFrame, target: pd.Series) -> str:
    """The hex SHA-256 of the data ``features`` with labels ``target`` up to row order, column
    order and the labels' names."""
    rows = _canonical_rows(features)
    keyed = rows.view(np.dtype((np.void, rows.shape[1] * rows.itemsize))).ravel()  # one value per row
    classes, inverse = np.unique(target.astype(str).to_numpy(), return_inverse=True)
    hashes = sorted(_digest(np.sort(keyed[inverse == k]).tobytes()) for k in range(len(classes)))
    shape = f"{rows.shape[0]}x{rows.shape[1]}x{len(classes)}".encode()
    return hashlib.sha256(shape + b"".join(hashes)).hexdigest()


def frame_fingerprint(frame: pd.DataFrame) -> str:
    """``fingerprint`` of a loaded data set's frame (features and the label column ``target``)."""
    return fingerprint(frame.drop(columns="target"), frame["target"])


def paper_matches(
    features: pd.DataFrame,
    target: pd.Series,
    mirror_dir: Path,
    config_dir: str | Path | None = None,
) -> list[str]:
    """The papers' data sets (sorted names) whose data equal ``features`` and ``target`` up to
    row order, column order and label names. Only those with the same number of rows and
    features are loaded, from ``mirror_dir``; one the mirror cannot provide is an error naming
    it (it could be the same data)."""
    rows, width = features.shape
    wanted = fingerprint(features, target)
    matches = []
    directory = Path(config_dir) if config_dir is not None else dataset_dir()
    for path in sorted(directory.glob("*.yaml")):  # the papers' data sets are files, not collection entries
        written = yaml.safe_load(path.read_text(encoding="utf-8"))
        expected = written.get("expected") or {}
        if not written.get("papers") or expected.get("rows") != rows or expected.get("features") != width:
            continue
        name = path.stem
        spec = load_spec(name, directory)
        try:
            loaded = load_dataset(spec, sources=("mirror",), mirror_dir=mirror_dir)
        except DatasetError as err:
            raise DatasetError(
                f"cannot compare with the papers' data set '{name}' (the same shape, {rows} x {width}): {err}"
            ) from None
        if frame_fingerprint(loaded.frame) == wanted:
            matches.append(name)
    return matches
