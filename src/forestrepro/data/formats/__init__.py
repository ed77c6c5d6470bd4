"""Parsers of the mirror's file formats; each returns raw (features, target) before encoding."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from ..errors import DatasetError
from . import arff, delimited, h5, idx, mat

PER_FILE = {
    "tsv.gz": delimited.read,
    "uci_data": delimited.read,
    "csv": delimited.read,
    "txt": delimited.read,
    "arff": arff.read,
    "mat": mat.read,
    "h5": h5.read,
}


def parse(options: dict, paths: list[Path]) -> tuple[pd.DataFrame, pd.Series]:
    """Parse the mirror files ``paths`` (in config order) with the mirror ``options``.

    idx files pair up (images + labels); every other format is parsed file by file and the
    rows are concatenated in the order listed. ``drop_columns`` is applied last.
    """
    if options["format"] == "idx":
        features, target = idx.read(paths)
    else:
        parts = [PER_FILE[options["format"]](path, options) for path in paths]
        columns = list(parts[0][0].columns)
        for path, (part, _) in zip(paths, parts, strict=True):
            if list(part.columns) != columns:
                raise DatasetError(f"{path}: columns differ from those of {paths[0]}")
        features = pd.concat([part for part, _ in parts], ignore_index=True)
        target = pd.concat([labels for _, labels in parts], ignore_index=True)
    missing = [c for c in options.get("drop_columns", []) if c not in features.columns]
    if missing:
        raise DatasetError(
            f"{paths[0]}: drop_columns {missing} not in the file; columns are {list(features.columns)[:20]}"
        )
    return features.drop(columns=options.get("drop_columns", [])), target
