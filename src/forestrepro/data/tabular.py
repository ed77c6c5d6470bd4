"""From parsed (features, target) to the frame the pipeline stores, whatever the source.

Steps, in order: ordinal-encode categorical features, tidy the labels, apply the data set's
``target_transform``, drop incomplete rows if asked, then check the shape against ``expected``.

Numbers are read strictly. A column of numbers with a token such as ``nan``, ``NA`` or ``?``
that the data set does not declare as a missing-value marker is an error, not a categorical
column; an infinite value is an error; and a missing value is an error unless the data set
says how missing values are handled (``drop_incomplete_rows: true``): none of the methods
takes one. Each error names the data set, its file(s), the column and the first data row.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .errors import DatasetError
from .targets import binarize

# Tokens that look like a missing or non-finite number rather than a category.
NOT_A_NUMBER = frozenset(
    {
        "",
        "?",
        "-",
        "nan",
        "na",
        "n/a",
        "null",
        "none",
        "inf",
        "+inf",
        "-inf",
        "infinity",
        "+infinity",
        "-infinity",
    }
)


class NotANumberError(ValueError):
    """A numeric column holds tokens that are not numbers: ``count`` of them, the first
    ``token`` at row position ``row``."""

    def __init__(self, token: str, row: int, count: int):
        super().__init__(f"{token!r} at row position {row}")
        self.token, self.row, self.count = token, row, count


def encode_column(column: pd.Series) -> tuple[pd.Series, list[str] | None]:
    """Return the column as float64 and, for a categorical one, its categories in code order.

    Numeric columns are cast. Text/nominal columns whose values all read as numbers keep those
    numbers (e.g. zoo's ``legs``); the others are coded 0, 1, ... by their sorted string values.
    Missing values stay NaN. A column whose values are numbers except for tokens in
    ``NOT_A_NUMBER`` (``nan``, ``NA``, ``?``, ...) raises ``NotANumberError``: it is a numeric
    column with undeclared missing values, not a categorical one.
    """
    if pd.api.types.is_numeric_dtype(column) and not isinstance(column.dtype, pd.CategoricalDtype):
        return column.astype(np.float64), None
    values = column.astype(object)
    present = values.notna()
    strings = values[present].map(str)
    encoded = pd.Series(np.nan, index=column.index, dtype=np.float64)
    numbers = pd.to_numeric(strings, errors="coerce")
    if numbers.notna().all():
        encoded[present] = numbers.astype(np.float64)
        return encoded, None
    odd = strings[numbers.isna()]
    if numbers.notna().any() and odd.str.strip().str.lower().isin(NOT_A_NUMBER).all():
        raise NotANumberError(str(odd.iloc[0]), int(column.index.get_loc(odd.index[0])), len(odd))
    categories = sorted(strings.unique())
    encoded[present] = strings.map({c: float(i) for i, c in enumerate(categories)})
    return encoded, categories


def _first_cell(mask: pd.DataFrame) -> tuple[str, int]:
    """The column and row position of the first True cell of ``mask``, in reading order."""
    row = int(np.flatnonzero(mask.to_numpy().any(axis=1))[0])
    return str(mask.columns[int(np.flatnonzero(mask.iloc[row].to_numpy())[0])]), row


def check_finite(frame: pd.DataFrame, spec: dict, origin: str) -> None:
    """Refuse infinite values, and missing ones unless the data set drops incomplete rows."""
    numeric = frame[[c for c in frame.columns if c != "target" and pd.api.types.is_numeric_dtype(frame[c])]]
    where = f"conf/dataset/{spec['name']}.yaml"
    infinite = pd.DataFrame(np.isinf(numeric.to_numpy()), columns=numeric.columns)
    if infinite.to_numpy().any():
        column, row = _first_cell(infinite)
        raise DatasetError(
            f"{spec['name']} ({origin}): {int(infinite.to_numpy().sum())} infinite value(s); the "
            f"first in column '{column}', data row {row + 1}"
        )
    missing = numeric.isna().reset_index(drop=True)
    if missing.to_numpy().any() and not spec["drop_incomplete_rows"]:
        column, row = _first_cell(missing)
        raise DatasetError(
            f"{spec['name']} ({origin}): {int(missing.to_numpy().sum())} missing value(s) in "
            f"{int(missing.any().sum())} column(s); the first in column '{column}', data row {row + 1}. No "
            f"method takes a missing value: set drop_incomplete_rows: true in {where} if the paper drops "
            "such rows, or fix the file"
        )


def tidy_labels(target: pd.Series) -> pd.Series:
    """Labels as int64 when they are all whole numbers (1, 1.0 or '1'), else as strings."""
    values = target.astype(object) if isinstance(target.dtype, pd.CategoricalDtype) else target
    numbers = pd.to_numeric(values, errors="coerce")
    if numbers.notna().all():
        whole = np.all(np.mod(numbers.to_numpy(dtype=np.float64), 1) == 0)
        return numbers.astype(np.int64 if whole else np.float64)
    return values.astype(str)


def finalize(features: pd.DataFrame, target: pd.Series, spec: dict, *, text_columns: list[str], origin: str):
    """Return (frame with features + ``target``, info for the provenance); raise on a shape mismatch."""
    name = spec["name"]
    columns = [str(c) for c in features.columns]
    duplicated = sorted({c for c in columns if columns.count(c) > 1})
    if duplicated or "target" in columns:
        raise DatasetError(
            f"{name} ({origin}): feature names must be unique and not 'target': {duplicated or ['target']}"
        )
    if target.isna().any():
        raise DatasetError(f"{name} ({origin}): {int(target.isna().sum())} rows have no label")

    encoded, categories = {}, {}
    for label, column in zip(columns, features.columns, strict=True):
        if label in text_columns:
            encoded[label] = features[column].astype(str).where(features[column].notna())
            continue
        try:
            encoded[label], cats = encode_column(features[column])
        except NotANumberError as err:
            raise DatasetError(
                f"{name} ({origin}): column '{label}', data row {err.row + 1}: {err.token!r} is not a number, in a "
                f"column of numbers ({err.count} such cell(s)); if it marks a missing value, list it under "
                f"mirror.missing_values in conf/dataset/{name}.yaml"
            ) from None
        if cats is not None:
            categories[label] = cats
    frame = pd.DataFrame(encoded, index=features.index)

    info = {"categories": categories, "target_transform": None, "dropped_incomplete_rows": 0}
    transform = spec["target_transform"]
    if transform is not None:
        target, cut = binarize(target, transform["threshold"])
        info["target_transform"] = {**transform, "threshold_value": cut}
    frame["target"] = tidy_labels(target).to_numpy()

    check_finite(frame, spec, origin)
    if spec["drop_incomplete_rows"]:
        incomplete = frame.drop(columns="target").isna().any(axis=1)
        info["dropped_incomplete_rows"] = int(incomplete.sum())
        frame = frame[~incomplete]
    frame = frame.reset_index(drop=True)

    found = {
        "rows": frame.shape[0],
        "features": frame.shape[1] - 1,
        "classes": int(frame["target"].nunique()),
    }
    expected = spec["expected"]
    if found != expected:
        diff = ", ".join(
            f"{k} {found[k]} (expected {expected[k]})" for k in expected if found[k] != expected[k]
        )
        raise DatasetError(
            f"{name}: shape mismatch in {origin}: {diff}; "
            f"expected {expected['rows']} x {expected['features']}, {expected['classes']} classes, "
            f"found {found['rows']} x {found['features']}, {found['classes']} classes"
        )
    info["shape"] = found
    return frame, info
