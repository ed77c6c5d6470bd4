"""Helpers shared by the parsers."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from ..errors import DatasetError


def numbered(count: int) -> list[str]:
    """Names ``x0 .. x{count-1}`` for features that have no name in the file."""
    return [f"x{j}" for j in range(count)]


def pop_target(frame: pd.DataFrame, column: str | int, path: Path) -> tuple[pd.DataFrame, pd.Series]:
    """Split ``frame`` into features and the target ``column`` (a name, or a position; negative from the end)."""
    if isinstance(column, int):
        if not -frame.shape[1] <= column < frame.shape[1]:
            raise DatasetError(f"{path}: target column {column} is out of range ({frame.shape[1]} columns)")
        column = frame.columns[column]
    if column not in frame.columns:
        raise DatasetError(f"{path}: no target column '{column}'; columns are {list(frame.columns)[:20]}")
    return frame.drop(columns=[column]), frame[column].rename("target")
