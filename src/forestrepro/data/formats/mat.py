"""MATLAB v5 ``.mat`` files, read with ``scipy.io.loadmat``.

Three layouts occur in the mirror:

- a feature matrix and a label vector (Yale_32x32: ``fea``/``gnd``, Deng Cai's format; and
  20news_w100: ``documents`` is a sparse words x documents matrix, hence ``transpose``,
  ``newsgroups`` the labels and ``wordlist`` the feature names, Roweis' binary version);
- one matrix whose column ``target_column`` is the label (isolet5: column 0);
- one variable per class and channel (UCI sEMG basic hand movements 1: ``cyl_ch1`` ... each
  trials x samples), given as ``class_variables``; every row of every listed variable is one
  record of that class, as in the gcForest-style sEMG set.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import scipy.io
import scipy.sparse

from ..errors import DatasetError
from .common import numbered


def _variable(content: dict, name: str, path: Path) -> np.ndarray:
    if name not in content:
        found = sorted(k for k in content if not k.startswith("__"))
        raise DatasetError(f"{path}: no variable '{name}'; variables are {found}")
    value = content[name]
    return value.toarray() if scipy.sparse.issparse(value) else np.asarray(value)


def _matrix(content: dict, name: str, path: Path) -> np.ndarray:
    value = _variable(content, name, path)
    if value.ndim != 2:
        raise DatasetError(f"{path}: variable '{name}' has shape {value.shape}, expected a matrix")
    return value.astype(np.float64)


def _strings(cells: np.ndarray) -> list[str]:
    """A MATLAB cell array of strings (or a char matrix) as a list of Python strings."""
    if cells.dtype == object:
        return [str(np.ravel(cell)[0]) for cell in cells.ravel()]
    return [str(cell).strip() for cell in cells.ravel()]


def read(path: Path, options: dict) -> tuple[pd.DataFrame, pd.Series]:
    """Parse one ``.mat`` file into (features, target) as described by the mirror ``options``."""
    try:
        content = scipy.io.loadmat(path)
    except NotImplementedError as error:  # v7.3 files are HDF5
        raise DatasetError(f"{path}: MATLAB v7.3 file; read it with format h5 ({error})") from error
    except ValueError as error:
        raise DatasetError(f"{path}: not a valid MATLAB v5 file ({error})") from error

    if "class_variables" in options:
        blocks, labels = [], []
        for label, variables in options["class_variables"].items():
            for name in variables:
                block = _matrix(content, name, path)
                blocks.append(block)
                labels += [label] * block.shape[0]
        if len({block.shape[1] for block in blocks}) != 1:
            raise DatasetError(f"{path}: class variables have different widths {[b.shape for b in blocks]}")
        matrix = np.vstack(blocks)
        return pd.DataFrame(matrix, columns=numbered(matrix.shape[1])), pd.Series(labels, name="target")

    matrix = _matrix(content, options["features_var"], path)
    if options.get("transpose", False):
        matrix = matrix.T
    if "target_var" in options:
        target = _variable(content, options["target_var"], path).ravel()
    else:
        column = options["target_column"]
        target = matrix[:, column]
        matrix = np.delete(matrix, column, axis=1)
    if target.shape[0] != matrix.shape[0]:
        raise DatasetError(f"{path}: {target.shape[0]} labels for {matrix.shape[0]} records")
    if "feature_names_var" in options:
        names = _strings(_variable(content, options["feature_names_var"], path))
        if len(names) != matrix.shape[1]:
            raise DatasetError(f"{path}: {len(names)} feature names for {matrix.shape[1]} features")
    else:
        names = numbered(matrix.shape[1])
    return pd.DataFrame(matrix, columns=names), pd.Series(target, name="target")
