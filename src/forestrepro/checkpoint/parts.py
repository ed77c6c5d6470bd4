"""Finished pieces of a long fit, kept on disk so that a stopped job resumes where it stopped.

A multi-grained scan of SEMG takes about 3 h on one core and a cascade hours more; Ctrl-C, a
cluster's time limit or the end of a session can stop either. The long loops hand each
finished piece (a fold forest's output, a cascade forest's class vectors) to ``KeptParts`` and
ask it first whether a piece is already there. Pieces live under a directory named by
``keys.content_key``: a SHA-256 of the estimator's parameters (without ``n_jobs``, which
changes no number) and of the arrays it is fitted on, so a changed setting or split never reads
a stale piece. Files are written atomically; an unreadable one is named in a warning and
recomputed.

Each piece also keeps the wall seconds it took to make, so that a fit resumed over several
runs reports the time of all of them (``KeptParts.seconds``), not only of its last run. Each
piece kept or read is logged (logger ``forestrepro``; the command line prints it to the job's
log), so a job of hours shows how far it has come.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path

import numpy as np

from .store import PieceStore

_log = logging.getLogger(__name__)

_SECONDS = "_seconds"  # the key of a piece's own time in its .npz


class KeptParts(PieceStore):
    """The finished pieces of one unfinished fit, one ``.npz`` of named arrays each.

    ``get(name)`` returns the piece's arrays (a name stored as None reads as absent from the
    mapping, so use ``.get``) or None; ``put(name, **arrays)`` keeps one (None values are
    skipped); ``clear`` removes them all once the fit's result is stored.

    A piece's time is measured from the ``get`` that did not find it to its ``put`` and
    stored with it; ``seconds`` sums the times of the pieces read and kept so far, whichever
    run made them.
    """

    def __init__(self, directory: str | Path):
        super().__init__(directory)
        self.seconds = 0.0
        self._started: dict[str, float] = {}

    def get(self, name: str) -> dict | None:
        arrays = self.read_npz(name, "kept part")
        if arrays is None:
            self._started[name] = time.perf_counter()
            return None
        self.seconds += float(arrays.pop(_SECONDS, 0.0))
        _log.info("read kept %s from %s", name, self.directory.name)
        return arrays

    def put(self, name: str, **arrays) -> None:
        started = self._started.pop(name, None)
        seconds = 0.0 if started is None else time.perf_counter() - started
        self.write_npz(
            name, **{_SECONDS: np.float64(seconds)}, **{k: v for k, v in arrays.items() if v is not None}
        )
        self.seconds += seconds
        _log.info("kept %s (%.0f s) in %s", name, seconds, self.directory.name)
