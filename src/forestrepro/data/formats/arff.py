"""Weka ARFF files (read with liac-arff): nominal attributes arrive as strings, ``?`` as NaN."""

from __future__ import annotations

from pathlib import Path

import arff as liac_arff
import pandas as pd

from ..errors import DatasetError
from .common import pop_target


def read(path: Path, options: dict) -> tuple[pd.DataFrame, pd.Series]:
    """Parse one ARFF file into (features, target); the target is the attribute ``target_column``."""
    try:
        with path.open(encoding="utf-8") as handle:
            content = liac_arff.load(handle)
    except liac_arff.ArffException as error:
        raise DatasetError(f"{path}: not a valid ARFF file ({error})") from error
    columns = [name for name, _ in content["attributes"]]
    frame = pd.DataFrame(content["data"], columns=columns)
    return pop_target(frame, options["target_column"], path)
