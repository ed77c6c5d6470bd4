"""The finished folds of a running job, kept so that a stopped job resumes where it stopped.

One nested-CV job can run for hours (the SVM grid on newsgroups takes about 75 min per outer
fold on one core). A cluster's time limit, Ctrl-C or the end of a session can stop it. Without
this store, every fold it had finished would be lost: Snakemake reruns an incomplete job from
the start.

``FoldStore`` writes each finished ``(repeat, fold)`` row as soon as it is made, and, while a
fold's grid search runs, the inner scores of each finished candidate (``grid_search``). The rows go
in a directory named by a content key (``checkpoint.digest``) of everything that determines them: the job's specification
and the method's configuration (with the sweep value). A rerun of the same job reads those
rows instead of refitting. A changed setting gives a new name, so a stale row is never read.
``clear`` removes the directory once the job's output is written. Rows are JSON; Python
floats round-trip exactly, so a resumed job writes the numbers a fresh one would (only its
timing columns keep the first run's times).
"""

from __future__ import annotations

from pathlib import Path

from ..checkpoint import PieceStore, digest


class FoldStore(PieceStore):
    """Rows of finished folds under ``directory``; ``FoldStore(None)`` keeps nothing."""

    @classmethod
    def for_job(cls, root: str | Path, *identity) -> FoldStore:
        """The store of the job that ``identity`` (JSON-able parts) determines."""
        return cls(Path(root) / digest(identity)[:20])

    def get(self, repeat: int, fold: int) -> dict | None:
        """The stored row of ``(repeat, fold)``, or None."""
        return self.read_json(f"repeat{repeat}_fold{fold}.json")

    def put(self, repeat: int, fold: int, row: dict) -> None:
        self.write_json(f"repeat{repeat}_fold{fold}.json", row)

    def get_search(self, repeat: int, fold: int) -> dict | None:
        """The kept state of ``(repeat, fold)``'s unfinished grid search, or None."""
        return self.read_json(f"repeat{repeat}_fold{fold}.search.json")

    def put_search(self, repeat: int, fold: int, state: dict) -> None:
        self.write_json(f"repeat{repeat}_fold{fold}.search.json", state)
