"""One multi-grained scan per split, shared by the methods that cascade on it.

The scanning forests are not weighted (WDF weights the cascade's forests only), so DF, WDF
and WDF-oob grow their cascades on the same scanned features when the scanner gets the same
data and seed. Scanning is most of the cost on SEMG and MNIST, so the first job of a split
scans and stores ``(train, test)`` features, and the others read them. The DF-WDF comparison
is then paired on the scan as it is on the split.

The store is keyed by content: a SHA-256 of the scanner's parameters (without ``n_jobs``,
which does not change a number) and of the training rows, labels and test rows. A changed
setting or split thus never reads a stale scan. Jobs that scan the same split at the same
time take turns through a lock file: the second waits and then reads. Files are written
atomically, so an interrupted job leaves no half-written scan; an unreadable stored scan
(a damaged disk, a hand edit) is named in a warning and replaced.

While a scan runs, each fold forest's output is kept in ``<key>.parts/`` as it is made
(``ScanParts``). MNIST's scan takes about 16 h on one core; a job stopped in it reruns only
the fold forests it had not finished. The parts are removed once the whole scan is stored.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import shutil
import warnings
import zipfile
from pathlib import Path

import numpy as np

from ..io import atomic_path
from .scanning import MultiGrainedScanner


def scan_key(scanner: MultiGrainedScanner, X_train, y_train, X_test) -> str:
    """Content hash of a scan: the scanner's parameters and the three arrays."""
    params = {k: v for k, v in scanner.get_params().items() if k != "n_jobs"}
    digest = hashlib.sha256(json.dumps(params, sort_keys=True, default=str).encode())
    for array in (X_train, y_train, X_test):
        array = np.ascontiguousarray(array)
        digest.update(f"{array.dtype.str}{array.shape}".encode())
        digest.update(array.tobytes())
    return digest.hexdigest()


def _read_npz(path: Path, what: str) -> dict | None:
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


def _write_npz(path: Path, **arrays) -> None:
    with atomic_path(path) as tmp:
        with open(tmp, "wb") as handle:
            np.savez(handle, **arrays)


class ScanParts:
    """The finished fold forests' outputs of one unfinished scan, one ``.npz`` each."""

    def __init__(self, directory: str | Path):
        self.directory = Path(directory)

    def get(self, name: str) -> dict | None:
        part = _read_npz(self.directory / f"{name}.npz", "scan part")
        if part is not None and "test" not in part:
            part["test"] = None
        return part

    def put(self, name: str, train: np.ndarray, test: np.ndarray | None) -> None:
        arrays = {"train": train} if test is None else {"train": train, "test": test}
        self.directory.mkdir(parents=True, exist_ok=True)
        _write_npz(self.directory / f"{name}.npz", **arrays)

    def clear(self) -> None:
        shutil.rmtree(self.directory, ignore_errors=True)


def cached_scan(cache_dir: str | Path | None, scanner: MultiGrainedScanner, X_train, y_train,
                X_test) -> tuple[np.ndarray, np.ndarray]:
    """``scanner.fit_transform_with_test(X_train, y_train, X_test)``, read from
    ``cache_dir`` if a job has stored it, else computed and stored (``None``: no store)."""
    if cache_dir is None:
        return scanner.fit_transform_with_test(X_train, y_train, X_test)
    directory = Path(cache_dir)
    directory.mkdir(parents=True, exist_ok=True)
    key = scan_key(scanner, X_train, y_train, X_test)
    path = directory / f"{key}.npz"
    with open(directory / f"{key}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        stored = _read_npz(path, "scan store")
        if stored is not None and {"train", "test"} <= stored.keys():
            return stored["train"], stored["test"]
        parts = ScanParts(directory / f"{key}.parts")
        train, test = scanner.fit_transform_with_test(X_train, y_train, X_test, parts=parts)
        _write_npz(path, train=train, test=test)
        parts.clear()
        return train, test
