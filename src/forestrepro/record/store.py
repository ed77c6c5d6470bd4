"""Run records: one job's per-fold rows and the provenance that makes them auditable.

A job ``<paper>/<experiment>/<method>/<dataset>`` of tag ``<tag>`` leaves two files under
``results/runs/<tag>/``, both committed to git for every tag a committed report uses:

- ``<job>.csv``: one row per fold, repeat or sample (metrics including raw MCC, seeds,
  times, and for C2RF the solver status, bound and gap). Plain CSV, because a reader opens
  it anywhere (GitHub renders it, ``git diff`` shows a changed row) and it is small; floats
  are written with Python's shortest round-trip ``repr`` and read back exactly
  (``read_rows``).
- ``<job>.provenance.json``: the spec and its digest, the code digest and the file hashes
  behind it, the commit and whether the tree was clean, the data's provenance, the
  machine and package versions, the threads, wall time and peak memory, and the SHA-256 of
  the CSV, so a record edited by hand is detected (``record/currency.py``).
"""

from __future__ import annotations

import hashlib
import json
import resource
import sys
from pathlib import Path

import numpy as np
import pandas as pd

from ..io import atomic_path, write_text_atomic

FORMAT = 1  # the record format; a record of another format is stale


# Data set options that permit a run without changing what it computes: a job with one of them
# set is the same computation as without it, so the digest leaves them out and a record made
# before the option was set stays current. ``allow_small_classes``: run although some class has
# fewer rows than the folds (evaluation/folds.py, SMALL_CLASSES_OPTION).
PERMISSIONS = ("allow_small_classes",)


def spec_digest(spec: dict) -> str:
    """The SHA-256 of a job spec's canonical JSON (key order and spacing do not matter), without
    the data set options that only permit a run (``PERMISSIONS``)."""
    options = spec.get("dataset_options")
    if isinstance(options, dict) and any(key in options for key in PERMISSIONS):
        spec = {**spec, "dataset_options": {k: v for k, v in options.items() if k not in PERMISSIONS}}
    text = json.dumps(spec, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def provenance_path(rows_path: str | Path) -> Path:
    return Path(rows_path).with_suffix(".provenance.json")


def _nested(cell) -> bool:
    return isinstance(cell, (list, tuple, dict, np.ndarray))


def _as_json(cell) -> str:
    return json.dumps(cell.tolist() if isinstance(cell, np.ndarray) else cell)


def peak_memory_mb() -> float:
    """The peak resident memory of this process so far, in MB (``getrusage``'s ``ru_maxrss``:
    KiB on Linux, bytes on macOS); worker processes it started are not included."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return round(peak / (2**20 if sys.platform == "darwin" else 2**10), 1)


def write_record(rows: pd.DataFrame, provenance: dict, rows_path: str | Path) -> dict:
    """Write ``rows`` as CSV and ``provenance`` (completed with the format, the row count,
    the columns held as JSON, the CSV's SHA-256 and the writing process's peak memory
    ``peak_memory_mb``: a job writes its record last, so it is the job's peak) beside it, both
    atomically; return the provenance written."""
    json_columns = [c for c in rows.columns if rows[c].dtype == object and rows[c].map(_nested).any()]
    rows = rows.assign(
        **{c: rows[c].map(lambda cell: _as_json(cell) if _nested(cell) else cell) for c in json_columns}
    )
    text = rows.to_csv(index=False, lineterminator="\n")
    with atomic_path(rows_path) as tmp:
        tmp.write_bytes(text.encode())
    full = {
        **provenance,
        "format": FORMAT,
        "rows": len(rows),
        "json_columns": json_columns,
        "rows_sha256": hashlib.sha256(text.encode()).hexdigest(),
        "peak_memory_mb": peak_memory_mb(),
    }
    write_text_atomic(provenance_path(rows_path), json.dumps(full, indent=2, sort_keys=True) + "\n")
    return full


def read_rows(rows_path: str | Path) -> pd.DataFrame:
    """The rows of a record, with every float exactly as written and every JSON column
    (named in the provenance beside it) decoded."""
    rows = pd.read_csv(rows_path)
    json_columns = (
        read_provenance(rows_path).get("json_columns", []) if provenance_path(rows_path).exists() else []
    )
    for column in json_columns:
        rows[column] = rows[column].map(lambda cell: json.loads(cell) if isinstance(cell, str) else cell)
    return rows


def read_provenance(rows_path: str | Path) -> dict:
    return json.loads(provenance_path(rows_path).read_text(encoding="utf-8"))
