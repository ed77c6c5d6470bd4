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
"""

from __future__ import annotations

import fcntl
import hashlib
import json
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
        if path.exists():
            try:
                with np.load(path) as stored:
                    return stored["train"], stored["test"]
            except (OSError, ValueError, KeyError, zipfile.BadZipFile) as err:
                warnings.warn(f"scan store {path} is unreadable ({err}); scanning again and "
                              "replacing it", RuntimeWarning, stacklevel=2)
        train, test = scanner.fit_transform_with_test(X_train, y_train, X_test)
        with atomic_path(path) as tmp:
            with open(tmp, "wb") as handle:
                np.savez(handle, train=train, test=test)
        return train, test
