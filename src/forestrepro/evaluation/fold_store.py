"""The finished folds of a running job, kept so that a stopped job resumes where it stopped.

One nested-CV job can run for hours (the SVM grid on newsgroups takes about 2.4 h per outer
fold on one core). A cluster's time limit, Ctrl-C or the end of a session can stop it. Without
this store, every fold it had finished would be lost: Snakemake reruns an incomplete job from
the start.

``FoldStore`` writes each finished ``(repeat, fold)`` row as soon as it is made, and, while a
fold's grid search runs, the inner scores of each finished candidate (``grid_search``). The rows go
in a directory named by a hash of everything that determines them: the job's specification
and the method's configuration (with the sweep value). A rerun of the same job reads those
rows instead of refitting. A changed setting gives a new name, so a stale row is never read.
``clear`` removes the directory once the job's output is written. Rows are JSON; Python
floats round-trip exactly, so a resumed job writes the numbers a fresh one would (only its
timing columns keep the first run's times).
"""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import numpy as np

from ..io import write_text_atomic


def _plain(value):
    """JSON for numpy scalars."""
    if isinstance(value, np.generic):
        return value.item()
    raise TypeError(f"cannot store {type(value).__name__} in a fold row")


class FoldStore:
    """Rows of finished folds under ``directory``; ``FoldStore(None)`` keeps nothing."""

    def __init__(self, directory: str | Path | None):
        self.directory = None if directory is None else Path(directory)

    @classmethod
    def for_job(cls, root: str | Path, *identity) -> FoldStore:
        """The store of the job that ``identity`` (JSON-able parts) determines."""
        text = json.dumps(identity, sort_keys=True, default=str)
        return cls(Path(root) / hashlib.sha256(text.encode()).hexdigest()[:20])

    def _path(self, repeat: int, fold: int) -> Path:
        return self.directory / f"repeat{repeat}_fold{fold}.json"

    def _search_path(self, repeat: int, fold: int) -> Path:
        return self.directory / f"repeat{repeat}_fold{fold}.search.json"

    def _read(self, path: Path) -> dict | None:
        if self.directory is None or not path.exists():
            return None
        try:
            return json.loads(path.read_text(encoding="utf-8"))
        except ValueError:  # damaged: do that work again
            return None

    def _write(self, path: Path, content: dict) -> None:
        if self.directory is not None:
            write_text_atomic(path, json.dumps(content, default=_plain))

    def get(self, repeat: int, fold: int) -> dict | None:
        """The stored row of ``(repeat, fold)``, or None."""
        return None if self.directory is None else self._read(self._path(repeat, fold))

    def put(self, repeat: int, fold: int, row: dict) -> None:
        if self.directory is not None:
            self._write(self._path(repeat, fold), row)

    def get_search(self, repeat: int, fold: int) -> dict | None:
        """The kept state of ``(repeat, fold)``'s unfinished grid search, or None."""
        return None if self.directory is None else self._read(self._search_path(repeat, fold))

    def put_search(self, repeat: int, fold: int, state: dict) -> None:
        if self.directory is not None:
            self._write(self._search_path(repeat, fold), state)

    def clear(self) -> None:
        if self.directory is not None:
            shutil.rmtree(self.directory, ignore_errors=True)
