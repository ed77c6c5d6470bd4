"""One multi-grained scan per split, shared by the methods that cascade on it.

The scanning forests are not weighted (WDF weights the cascade's forests only), so DF, WDF
and WDF-oob grow their cascades on the same scanned features when the scanner gets the same
data and seed. Scanning is most of the cost on SEMG and MNIST, so the first job of a split
scans and stores ``(train, test)`` features, and the others read them. The DF-WDF comparison
is then paired on the scan as it is on the split.

The store is keyed by content (``checkpoint.content_key`` of the scanner and the training
rows, labels and test rows), so a changed setting or split never reads a stale scan. Files are
written atomically, so a stored scan is whole and is read without a lock; only a job that finds
none takes the split's lock file, and a second job that needs the same scan waits on it, then
reads what the first stored. An interrupted job leaves no half-written scan; an unreadable stored
scan (a damaged disk, a hand edit) is named in a warning and replaced.

While a scan runs, each fold forest's output is kept in ``<key>.parts/`` as it is made
(``checkpoint.KeptParts``). SEMG's scan takes about 3 h on one core; a job stopped in it
reruns only the fold forests it had not finished. The parts are removed once the whole scan is
stored.

A scan's ``seconds`` is the wall time of its fold forests summed over every run that made one,
stored with the scan: the cost of the scan whichever job paid it, and however often it was
stopped.
"""

from __future__ import annotations

import fcntl
import logging
import time
from pathlib import Path
from typing import NamedTuple

import numpy as np

from ..checkpoint import KeptParts, content_key, read_npz, write_npz
from .scanning import MultiGrainedScanner

_log = logging.getLogger(__name__)


class Scan(NamedTuple):
    """Scanned features of the training and test rows, and the scan's wall seconds."""

    train: np.ndarray
    test: np.ndarray
    seconds: float


def scan_key(scanner: MultiGrainedScanner, X_train, y_train, X_test) -> str:
    """Content hash of a scan: the scanner's parameters and the three arrays."""
    return content_key(scanner, X_train, y_train, X_test)


def _wait_for(lock) -> None:
    """Take the exclusive lock on the open file ``lock``, saying so if another job holds it."""
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        _log.info("another job is scanning this split (%s); waiting to read its scan", lock.name)
        fcntl.flock(lock, fcntl.LOCK_EX)


def _stored(path: Path) -> Scan | None:
    """The scan stored at ``path``, or None if there is none (or it is unreadable: warned)."""
    stored = read_npz(path, "scan store")
    if stored is None or not {"train", "test", "seconds"} <= stored.keys():
        return None
    return Scan(stored["train"], stored["test"], float(stored["seconds"]))


def cached_scan(cache_dir: str | Path | None, scanner: MultiGrainedScanner, X_train, y_train, X_test) -> Scan:
    """``scanner.fit_transform_with_test(X_train, y_train, X_test)``, read from
    ``cache_dir`` if a job has stored it, else computed and stored (``None``: no store)."""
    if cache_dir is None:
        started = time.perf_counter()
        train, test = scanner.fit_transform_with_test(X_train, y_train, X_test)
        return Scan(train, test, time.perf_counter() - started)
    directory = Path(cache_dir)
    directory.mkdir(parents=True, exist_ok=True)
    key = scan_key(scanner, X_train, y_train, X_test)
    path = directory / f"{key}.npz"
    if (found := _stored(path)) is not None:
        return found
    with open(directory / f"{key}.lock", "w") as lock:
        _wait_for(lock)
        if (found := _stored(path)) is not None:
            return found
        parts = KeptParts(directory / f"{key}.parts")
        train, test = scanner.fit_transform_with_test(X_train, y_train, X_test, parts=parts)
        write_npz(path, train=train, test=test, seconds=np.float64(parts.seconds))
        parts.clear()
        return Scan(train, test, parts.seconds)
