"""One multi-grained scan per split, shared by the methods that cascade on it, kept in a
content-keyed store outside the work tree.

The scanning forests are not weighted (WDF weights the cascade's forests only), so DF, WDF
and WDF-oob grow their cascades on the same scanned features when the scanner gets the same
data and seed. Scanning is most of the cost on SEMG and MNIST, so the first job of a split
scans, and the others, in this session or a later one, read the scan.

The store (``checkpoint.location.scan_store_dir``: ``$FORESTREPRO_CACHE/scans``, by default
``~/.cache/forestrepro/scans``) holds one directory per scan, named by its content key
(``checkpoint.content_key`` of the scanner and the training rows, labels and test rows), so a
changed setting or split never reads a stale scan. A scan is kept in pieces, one per window
size x forest x fold (``window<size>_forest<n>_fold<k>.npz``, ``ScanPieces``) as each is
made, so a stopped scan resumes from its finished pieces; each piece holds its key, checked
when it is read, and its vote fractions as integer counts (``checkpoint.fractions``,
lossless), deflated. ``scan.json`` marks a whole scan and states its size: float32 bytes per
scanned row beside the stored bytes per row.

Pieces are written atomically, so a whole scan is read without a lock; a job that finds the
scan unfinished takes the split's lock, and a second job that needs the same scan waits on
it, then reads what the first stored. An unreadable piece (a damaged disk, a hand edit) is
named in a warning and made again. A scan read from the store gives the same arrays, bit for
bit, as a scan from nothing (``tests/cascade/test_scan_cache.py``).

A scan's ``seconds`` is the wall time of its pieces summed over every run that made one,
stored with them: the cost of the scan whichever job paid it, and however often it stopped.
"""

from __future__ import annotations

import fcntl
import json
import logging
import time
import warnings
from pathlib import Path
from typing import NamedTuple

import numpy as np

from ..checkpoint import KeptParts, content_key
from ..checkpoint.fractions import decode_fractions, encode_fractions, stored_names
from ..io import atomic_path, write_text_atomic
from .scanning import MultiGrainedScanner

_log = logging.getLogger(__name__)

MARKER = "scan.json"


class Scan(NamedTuple):
    """Scanned features of the training and test rows, and the scan's wall seconds."""

    train: np.ndarray
    test: np.ndarray
    seconds: float


def scan_key(scanner: MultiGrainedScanner, X_train, y_train, X_test) -> str:
    """Content hash of a scan: the scanner's parameters and the three arrays."""
    return content_key(scanner, X_train, y_train, X_test)


class ScanPieces(KeptParts):
    """The pieces of one scan: each fold forest's ``train`` class vectors (fractions of
    ``n_trees`` votes) and ``test`` share (fractions of ``n_trees * n_folds``), stored as
    counts (``checkpoint.fractions``) with the scan's ``key``."""

    def __init__(self, directory: str | Path, key: str, scanner: MultiGrainedScanner):
        super().__init__(directory)
        self.key = key
        self.denominators = {"train": scanner.n_trees, "test": scanner.n_trees * scanner.n_folds}

    def read_npz(self, name: str, what: str = "scan piece") -> dict | None:
        stored = super().read_npz(name, what)
        if stored is None:
            return None
        if str(stored.get("key")) != self.key:
            warnings.warn(
                f"scan piece {self.directory / name}.npz belongs to scan {stored.get('key')}, not "
                f"{self.key}; making it again",
                RuntimeWarning,
                stacklevel=3,
            )
            return None
        decoded = {n: decode_fractions(n, stored) for n in stored_names(stored)}
        return {k: v for k, v in stored.items() if k.startswith("_")} | decoded

    def write_npz(self, name: str, **arrays) -> None:
        """Write a piece atomically, deflated."""
        with atomic_path(self.directory / f"{name}.npz") as tmp:
            with open(tmp, "wb") as handle:
                np.savez_compressed(handle, **arrays)

    def put(self, name: str, **arrays) -> None:
        encoded = {"key": np.array(self.key)}
        for array_name, array in arrays.items():
            if array is not None:
                encoded |= encode_fractions(array_name, array, self.denominators[array_name])
        super().put(name, **encoded)

    def stored_bytes(self) -> int:
        """Bytes of the scan's pieces on disk."""
        return sum(p.stat().st_size for p in self.directory.glob("*.npz"))


def _wait_for(lock) -> None:
    """Take the exclusive lock on the open file ``lock``, saying so if another job holds it."""
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        _log.info("another job is scanning this split (%s); waiting to read its scan", lock.name)
        fcntl.flock(lock, fcntl.LOCK_EX)


def _size(pieces: ScanPieces, train: np.ndarray, test: np.ndarray) -> dict:
    """What the stored scan weighs against float32: bytes in all and per scanned row."""
    rows = train.shape[0] + test.shape[0]
    raw, stored = train.nbytes + test.nbytes, pieces.stored_bytes()
    return {
        "rows": rows,
        "features": int(train.shape[1]),
        "float32_bytes": raw,
        "stored_bytes": stored,
        "float32_bytes_per_row": raw / rows,
        "stored_bytes_per_row": stored / rows,
    }


def _scan(pieces: ScanPieces, scanner, X_train, y_train, X_test) -> Scan:
    train, test = scanner.fit_transform_with_test(X_train, y_train, X_test, parts=pieces)
    return Scan(train, test, pieces.seconds)


def cached_scan(store: str | Path | None, scanner: MultiGrainedScanner, X_train, y_train, X_test) -> Scan:
    """``scanner.fit_transform_with_test(X_train, y_train, X_test)``, read from the scan store
    ``store`` where its pieces are there, else scanned into it (``None``: no store)."""
    if store is None:
        started = time.perf_counter()
        train, test = scanner.fit_transform_with_test(X_train, y_train, X_test)
        return Scan(train, test, time.perf_counter() - started)
    key = scan_key(scanner, X_train, y_train, X_test)
    directory = Path(store) / key
    pieces = ScanPieces(directory, key, scanner)
    if (directory / MARKER).exists():
        _log.info("reading the scan %s from the scan store %s", key[:12], store)
        return _scan(pieces, scanner, X_train, y_train, X_test)
    directory.mkdir(parents=True, exist_ok=True)
    with open(directory / "lock", "w") as lock:
        _wait_for(lock)
        scan = _scan(pieces, scanner, X_train, y_train, X_test)
        if not (directory / MARKER).exists():
            size = _size(pieces, scan.train, scan.test)
            write_text_atomic(
                directory / MARKER,
                json.dumps({"key": key, "seconds": scan.seconds, **size}, indent=2, sort_keys=True) + "\n",
            )
            _log.info(
                "stored the scan %s in %s: %.0f bytes per scanned row (float32: %.0f)",
                key[:12],
                store,
                size["stored_bytes_per_row"],
                size["float32_bytes_per_row"],
            )
        return scan
