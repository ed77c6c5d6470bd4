"""Delimited text tables: PMLB ``.tsv.gz``, UCI ``.data``, ``.csv`` and plain ``.txt``.

PMLB files are tab-separated with a header and the label column ``target`` (Olson et al., 2017);
UCI ``.data`` files are comma- or whitespace-separated, usually without a header, with ``?`` for
a missing value. ``txt`` files are read without any quoting (a quote is just a character, as in
the IMDB sentences of the UCI Sentiment Labelled Sentences set); ``csv`` uses standard quoting.
gzip is inferred from the ``.gz`` suffix.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pandas as pd

from .common import numbered, pop_target


def read(path: Path, options: dict) -> tuple[pd.DataFrame, pd.Series]:
    """Parse one delimited file into (features, target) as described by the mirror ``options``."""
    separator = r"\s+" if options["separator"] == "whitespace" else options["separator"]
    names = options.get("column_names")
    frame = pd.read_csv(
        path,
        sep=separator,
        header=0 if options["header"] else None,
        names=names,
        na_values=[*options.get("missing_values", []), ""],
        keep_default_na=False,
        dtype={column: str for column in options.get("text_columns", [])},
        quoting=csv.QUOTE_NONE if options["format"] == "txt" else csv.QUOTE_MINIMAL,
        skipinitialspace=separator == ",",
    )
    features, target = pop_target(frame, options["target_column"], path)
    if not options["header"] and names is None:
        features.columns = numbered(features.shape[1])
    return features, target
