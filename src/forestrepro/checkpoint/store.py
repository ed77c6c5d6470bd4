"""A directory of named pieces, each written atomically and read back or recomputed."""

from __future__ import annotations

import json
import shutil
import warnings
import zipfile
from pathlib import Path

import numpy as np

from ..io import atomic_path, write_text_atomic


def read_npz(path: Path, what: str) -> dict | None:
    """The arrays of ``path``, or None if it is missing or unreadable (then warned)."""
    if not path.exists():
        return None
    try:
        with np.load(path) as stored:
            return {name: stored[name] for name in stored.files}
    except (OSError, ValueError, KeyError, zipfile.BadZipFile) as err:
        warnings.warn(
            f"{what} {path} is unreadable ({err}); computing it again and replacing it",
            RuntimeWarning,
            stacklevel=3,
        )
        return None


def write_npz(path: Path, **arrays) -> None:
    """Write ``arrays`` to ``path`` atomically."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with atomic_path(path) as tmp:
        with open(tmp, "wb") as handle:
            np.savez(handle, **arrays)


def _plain(value):
    """JSON for numpy scalars."""
    if isinstance(value, np.generic):
        return value.item()
    raise TypeError(f"cannot store {type(value).__name__} in a checkpoint")


class PieceStore:
    """Named pieces under ``directory`` (``None``: a store that keeps nothing).

    A piece is a ``.npz`` of arrays (``read_npz``/``write_npz``) or a JSON document
    (``read_json``/``write_json``; Python floats round-trip exactly). A damaged piece reads as
    absent, so its work is done again. ``clear`` removes the directory once the work's result
    is stored elsewhere.
    """

    def __init__(self, directory: str | Path | None):
        self.directory = None if directory is None else Path(directory)

    def read_npz(self, name: str, what: str = "kept part") -> dict | None:
        if self.directory is None:
            return None
        return read_npz(self.directory / f"{name}.npz", what)

    def write_npz(self, name: str, **arrays) -> None:
        if self.directory is not None:
            write_npz(self.directory / f"{name}.npz", **arrays)

    def read_json(self, name: str) -> dict | None:
        if self.directory is None or not (self.directory / name).exists():
            return None
        try:
            return json.loads((self.directory / name).read_text(encoding="utf-8"))
        except ValueError:  # damaged: do that work again
            return None

    def write_json(self, name: str, content: dict) -> None:
        if self.directory is not None:
            write_text_atomic(self.directory / name, json.dumps(content, default=_plain))

    def clear(self) -> None:
        if self.directory is not None:
            shutil.rmtree(self.directory, ignore_errors=True)
