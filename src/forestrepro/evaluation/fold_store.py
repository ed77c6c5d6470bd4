"""The finished folds of a running job, kept so that a stopped job resumes where it stopped.

One nested-CV job can run for hours (the SVM grid on newsgroups takes about 75 min per outer
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

    def _read(self, name: str) -> dict | None:
        if self.directory is None or not (self.directory / name).exists():
            return None
        try:
            return json.loads((self.directory / name).read_text(encoding="utf-8"))
        except ValueError:  # damaged: do that work again
            return None

    def _write(self, name: str, content: dict) -> None:
        if self.directory is not None:
            write_text_atomic(self.directory / name, json.dumps(content, default=_plain))

    def get(self, repeat: int, fold: int) -> dict | None:
        """The stored row of ``(repeat, fold)``, or None."""
        return self._read(f"repeat{repeat}_fold{fold}.json")

    def put(self, repeat: int, fold: int, row: dict) -> None:
        self._write(f"repeat{repeat}_fold{fold}.json", row)

    def get_search(self, repeat: int, fold: int) -> dict | None:
        """The kept state of ``(repeat, fold)``'s unfinished grid search, or None."""
        return self._read(f"repeat{repeat}_fold{fold}.search.json")

    def put_search(self, repeat: int, fold: int, state: dict) -> None:
        self._write(f"repeat{repeat}_fold{fold}.search.json", state)

    def clear(self) -> None:
        if self.directory is not None:
            shutil.rmtree(self.directory, ignore_errors=True)
