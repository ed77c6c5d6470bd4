"""One multi-grained scan per split, shared by the methods that cascade on it.

The scanning forests are not weighted (WDF weights the cascade's forests only), so DF, WDF
and WDF-oob grow their cascades on the same scanned features when the scanner gets the same
data and seed. Scanning is most of the cost on SEMG and MNIST, so the first job of a split
scans and stores ``(train, test)`` features, and the others read them. The DF-WDF comparison
is then paired on the scan as it is on the split.

The store is keyed by content (``kept_parts.content_key`` of the scanner and the training
rows, labels and test rows), so a changed setting or split never reads a stale scan. Jobs that
scan the same split at the same time take turns through a lock file: the second waits and then
reads. Files are written atomically, so an interrupted job leaves no half-written scan; an
unreadable stored scan (a damaged disk, a hand edit) is named in a warning and replaced.

While a scan runs, each fold forest's output is kept in ``<key>.parts/`` as it is made
(``kept_parts.KeptParts``). MNIST's scan takes about 16 h on one core; a job stopped in it
reruns only the fold forests it had not finished. The parts are removed once the whole scan is
stored.
"""

from __future__ import annotations

import fcntl
from pathlib import Path

import numpy as np

from .kept_parts import KeptParts, content_key, read_npz, write_npz
from .scanning import MultiGrainedScanner


def scan_key(scanner: MultiGrainedScanner, X_train, y_train, X_test) -> str:
    """Content hash of a scan: the scanner's parameters and the three arrays."""
    return content_key(scanner, X_train, y_train, X_test)


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
        stored = read_npz(path, "scan store")
        if stored is not None and {"train", "test"} <= stored.keys():
            return stored["train"], stored["test"]
        parts = KeptParts(directory / f"{key}.parts")
        train, test = scanner.fit_transform_with_test(X_train, y_train, X_test, parts=parts)
        write_npz(path, train=train, test=test)
        parts.clear()
        return train, test
