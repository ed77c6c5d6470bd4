"""Is a job's record current? Decided from content, never from file times.

A record is *current* when its format is this one, its CSV is the one its provenance
hashed, its spec digest equals the job's spec digest now, and every library file it
recorded (``code.files``) has the same SHA-256 now, or content the committed equivalence
ledger shows to give the same results (``record/equivalence.py``). Then the job is finished, on any
machine and in any fresh clone, whatever the files' modification times; the workflow
(``workflow/rules/common.smk``) gives such a job no inputs, so Snakemake has nothing to
rerun. Otherwise it is *missing* or *stale*, with the reason, and the job runs.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from .equivalence import Equivalences
from .provenance import PACKAGE_ROOT
from .store import FORMAT, provenance_path

SPEC_CHANGED = "the job's spec changed"  # the reason of a record of another spec


@dataclass(frozen=True)
class RecordStatus:
    state: str  # "current", "missing" or "stale"
    reason: str = ""

    @property
    def current(self) -> bool:
        return self.state == "current"


class FileHashes:
    """SHA-256 of library files by package-relative path, each read once (None: no such file)."""

    def __init__(self, package_root: Path = PACKAGE_ROOT):
        self.root = Path(package_root)
        self._known: dict[str, str | None] = {}

    def __call__(self, relative: str) -> str | None:
        if relative not in self._known:
            path = self.root / relative
            self._known[relative] = hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else None
        return self._known[relative]


def record_status(
    rows_path: str | Path, spec_digest: str, hashes: FileHashes, equivalences: Equivalences | None = None
) -> RecordStatus:
    """Whether the record at ``rows_path`` is current for a job whose spec digest is
    ``spec_digest`` and whose library files hash as ``hashes`` says, a file whose content
    changed counting as unchanged where ``equivalences`` leads from its recorded hash to now."""
    equivalences = equivalences or Equivalences()
    rows_path = Path(rows_path)
    prov_path = provenance_path(rows_path)
    if not rows_path.exists() and not prov_path.exists():
        return RecordStatus("missing")
    if not rows_path.exists() or not prov_path.exists():
        return RecordStatus("stale", f"half a record: {rows_path.name} or {prov_path.name} is missing")
    try:
        prov = json.loads(prov_path.read_text(encoding="utf-8"))
    except ValueError:
        return RecordStatus("stale", f"{prov_path.name} is not valid JSON")
    if prov.get("format") != FORMAT:
        return RecordStatus("stale", f"record format {prov.get('format')!r}, this code writes {FORMAT}")
    if hashlib.sha256(rows_path.read_bytes()).hexdigest() != prov.get("rows_sha256"):
        return RecordStatus("stale", f"{rows_path.name} differs from the rows its provenance hashed")
    if prov.get("spec_digest") != spec_digest:
        return RecordStatus("stale", SPEC_CHANGED)
    changed = sorted(
        path
        for path, sha in prov.get("code", {}).get("files", {}).items()
        if hashes(path) != sha and not equivalences.holds(path, sha, hashes(path))
    )
    if changed:
        shown = ", ".join(changed[:4]) + (f" and {len(changed) - 4} more" if len(changed) > 4 else "")
        return RecordStatus("stale", f"library code it ran changed: {shown}")
    return RecordStatus("current")
