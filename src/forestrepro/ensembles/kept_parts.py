"""Finished pieces of a long fit, kept on disk so that a stopped job resumes where it stopped.

A multi-grained scan of SEMG takes about 3 h on one core and a cascade hours more; Ctrl-C, a
cluster's time limit or the end of a session can stop either. The long loops hand each
finished piece (a fold forest's output, a cascade forest's class vectors) to ``KeptParts`` and
ask it first whether a piece is already there. Pieces live under a directory named by
``content_key``: a SHA-256 of the estimator's parameters (without ``n_jobs``, which changes no
number) and of the arrays it is fitted on, so a changed setting or split never reads a stale
piece. Files are written atomically; an unreadable one is named in a warning and recomputed.

Each piece also keeps the wall seconds it took to make, so that a fit resumed over several
runs reports the time of all of them (``KeptParts.seconds``), not only of its last run. Each
piece kept or read is logged (logger ``forestrepro``; the command line prints it to the job's
log), so a job of hours shows how far it has come.
"""

from __future__ import annotations

import hashlib
import json
import logging
import shutil
import time
import warnings
import zipfile
from pathlib import Path

import numpy as np

from ..io import atomic_path

_log = logging.getLogger(__name__)


def content_key(estimator, *arrays) -> str:
    """SHA-256 of ``estimator``'s parameters (without ``n_jobs``) and of ``arrays``.

    An object array (string labels, as SEMG's and MNIST's) is hashed by its values as text:
    its own bytes are pointers, which differ from one process to the next."""
    params = {k: v for k, v in estimator.get_params(deep=False).items() if k != "n_jobs"}
    digest = hashlib.sha256(json.dumps(params, sort_keys=True, default=str).encode())
    for array in arrays:
        array = np.ascontiguousarray(array)
        if array.dtype == object:
            array = array.astype(str)
        digest.update(f"{array.dtype.str}{array.shape}".encode())
        digest.update(array.tobytes())
    return digest.hexdigest()


def read_npz(path: Path, what: str) -> dict | None:
    """The arrays of ``path``, or None if it is missing or unreadable (then warned)."""
    if not path.exists():
        return None
    try:
        with np.load(path) as stored:
            return {name: stored[name] for name in stored.files}
    except (OSError, ValueError, KeyError, zipfile.BadZipFile) as err:
        warnings.warn(f"{what} {path} is unreadable ({err}); computing it again and replacing it",
                      RuntimeWarning, stacklevel=3)
        return None


def write_npz(path: Path, **arrays) -> None:
    """Write ``arrays`` to ``path`` atomically."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with atomic_path(path) as tmp:
        with open(tmp, "wb") as handle:
            np.savez(handle, **arrays)


class KeptParts:
    """The finished pieces of one unfinished fit, one ``.npz`` of named arrays each.

    ``get(name)`` returns the piece's arrays (a name stored as None reads as absent from the
    mapping, so use ``.get``) or None; ``put(name, **arrays)`` keeps one (None values are
    skipped); ``clear`` removes them all once the fit's result is stored.

    A piece's time is measured from the ``get`` that did not find it to its ``put`` and
    stored with it; ``seconds`` sums the times of the pieces read and kept so far, whichever
    run made them.
    """

    def __init__(self, directory: str | Path):
        self.directory = Path(directory)
        self.seconds = 0.0
        self._started: dict[str, float] = {}

    def get(self, name: str) -> dict | None:
        arrays = read_npz(self.directory / f"{name}.npz", "kept part")
        if arrays is None:
            self._started[name] = time.perf_counter()
            return None
        self.seconds += float(arrays.pop(_SECONDS, 0.0))
        _log.info("read kept %s from %s", name, self.directory.name)
        return arrays

    def put(self, name: str, **arrays) -> None:
        started = self._started.pop(name, None)
        seconds = 0.0 if started is None else time.perf_counter() - started
        write_npz(self.directory / f"{name}.npz", **{_SECONDS: np.float64(seconds)},
                  **{k: v for k, v in arrays.items() if v is not None})
        self.seconds += seconds
        _log.info("kept %s (%.0f s) in %s", name, seconds, self.directory.name)

    def clear(self) -> None:
        shutil.rmtree(self.directory, ignore_errors=True)


_SECONDS = "_seconds"  # the key of a piece's own time in its .npz
