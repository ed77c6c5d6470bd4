"""From parsed (features, target) to the frame the pipeline stores, whatever the source.

Steps, in order: ordinal-encode categorical features, tidy the labels, apply the data set's
``target_transform``, drop incomplete rows if asked, then check the shape against ``expected``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .errors import DatasetError
from .targets import binarize


def encode_column(column: pd.Series) -> tuple[pd.Series, list[str] | None]:
    """Return the column as float64 and, for a categorical one, its categories in code order.

    Numeric columns are cast. Text/nominal columns whose values all read as numbers keep those
    numbers (e.g. zoo's ``legs``); the others are coded 0, 1, ... by their sorted string values.
    Missing values stay NaN.
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
    categories = sorted(strings.unique())
    encoded[present] = strings.map({c: float(i) for i, c in enumerate(categories)})
    return encoded, categories


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
        raise DatasetError(f"{name} ({origin}): feature names must be unique and not 'target': {duplicated or ['target']}")
    if target.isna().any():
        raise DatasetError(f"{name} ({origin}): {int(target.isna().sum())} rows have no label")

    encoded, categories = {}, {}
    for label, column in zip(columns, features.columns, strict=True):
        if label in text_columns:
            encoded[label] = features[column].astype(str).where(features[column].notna())
            continue
        encoded[label], cats = encode_column(features[column])
        if cats is not None:
            categories[label] = cats
    frame = pd.DataFrame(encoded, index=features.index)

    info = {"categories": categories, "target_transform": None, "dropped_incomplete_rows": 0}
    transform = spec["target_transform"]
    if transform is not None:
        target, cut = binarize(target, transform["threshold"])
        info["target_transform"] = {**transform, "threshold_value": cut}
    frame["target"] = tidy_labels(target).to_numpy()

    if spec["drop_incomplete_rows"]:
        incomplete = frame.drop(columns="target").isna().any(axis=1)
        info["dropped_incomplete_rows"] = int(incomplete.sum())
        frame = frame[~incomplete]
    frame = frame.reset_index(drop=True)

    found = {"rows": frame.shape[0], "features": frame.shape[1] - 1, "classes": int(frame["target"].nunique())}
    expected = spec["expected"]
    if found != expected:
        diff = ", ".join(f"{k} {found[k]} (expected {expected[k]})" for k in expected if found[k] != expected[k])
        raise DatasetError(
            f"{name}: shape mismatch in {origin}: {diff}; "
            f"expected {expected['rows']} x {expected['features']}, {expected['classes']} classes, "
            f"found {found['rows']} x {found['features']}, {found['classes']} classes"
        )
    info["shape"] = found
    return frame, info
