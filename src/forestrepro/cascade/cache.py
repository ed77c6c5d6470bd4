"""A cascade grown for a split, with each finished forest kept so that a stopped job resumes.

On MNIST's 22,180 scanned features one method's cascade takes 4-6 h on one core, longer than a
session or many cluster slots. ``cached_cascade_proba`` grows it with
``CascadeForestClassifier.fit_predict_proba(..., parts=...)``: every forest's out-of-fold class
vectors, test class vectors and tree accuracies go to ``<cache_dir>/<key>.parts/`` as each
forest finishes, and a rerun of the same job reads them. ``key`` is the content key of the
cascade's parameters (its seed included, so DF, WDF and WDF-oob never share) and its arrays.
The parts are removed once the cascade has answered. The wall seconds of the forests, summed
over every run that grew one, are returned with the answer.
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np

from ..checkpoint import KeptParts, content_key
from .forest import CascadeForestClassifier


def cached_cascade_proba(
    cache_dir: str | Path | None, cascade: CascadeForestClassifier, X_train, y_train, X_test
) -> tuple[np.ndarray, float]:
    """``cascade.fit_predict_proba(X_train, y_train, X_test)``, resuming from the forests a
    stopped run kept in ``cache_dir`` (``None``: nothing is kept), and the cascade's wall
    seconds over all its runs."""
    if cache_dir is None:
        started = time.perf_counter()
        proba = cascade.fit_predict_proba(X_train, y_train, X_test)
        return proba, time.perf_counter() - started
    parts = KeptParts(Path(cache_dir) / f"{content_key(cascade, X_train, y_train, X_test)}.parts")
    proba = cascade.fit_predict_proba(X_train, y_train, X_test, parts=parts)
    parts.clear()
    return proba, parts.seconds
