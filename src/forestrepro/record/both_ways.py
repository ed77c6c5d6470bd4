"""Records measured both ways: when they were made, and when they were rerun on newer code.

A measured cost (``record/cost.py``) is the seconds a record took when it was made, with the
code of its commit and under that run's load; a rerun on today's code can take less or more.
The equivalence ledger (``record/equivalence.py``) names, per library change shown to change no
number, the records rerun as its evidence (``<tag>/<job>``): each rerun was made at the ledger
row's commit and replaced its record with the same rows and new times, so the record's git
history holds both versions. Such a record is *measured both ways*: the version the rerun
replaced (its core-seconds and the commit it was made at) and the rerun (its core-seconds at the
row's commit), each priced as ``record.cost.core_seconds`` prices a record.

``newest_both_ways`` gives, per paper, one such record among those a plan reads: from the newest
ledger row that reran one of them (rows ordered by their commit's date), the one whose record
costs most now. It is cheap: one git call orders the rows' commits, and one per paper reads the
chosen record's history (``git log -p`` of its provenance and CSV, whole files as context); no
other record's history is read. Without git history it returns None, and a record whose two
versions the history does not hold (a shallow clone) has no figures (``BothWays.measured``).
"""

from __future__ import annotations

import json
import subprocess
from dataclasses import dataclass
from pathlib import Path

from .cost import core_seconds
from .equivalence import LEDGER_NAME, Equivalences

PROVENANCE, ROWS = ".provenance.json", ".csv"


@dataclass(frozen=True)
class BothWays:
    """One record (``<tag>/<job>``) rerun as the ledger's evidence at ``rerun_commit``: the
    core-seconds of the version the rerun replaced (``made_seconds``, made at ``made_commit``) and
    of the rerun (``rerun_seconds``); the seconds are None where git history lacks a version."""

    record: str
    rerun_commit: str
    made_commit: str | None = None
    made_seconds: float | None = None
    rerun_seconds: float | None = None

    @property
    def measured(self) -> bool:
        return self.made_seconds is not None and self.rerun_seconds is not None


def newest_both_ways(runs: str | Path, recorded: dict[str, float]) -> dict[str, BothWays] | None:
    """``{paper: BothWays}`` for each paper some of whose records ``recorded`` (``<tag>/<job>``
    under ``runs``, ``results/runs``, -> its core-seconds now: the records a plan reads) the ledger
    ``runs/equivalences.tsv`` names as evidence (module docstring); a paper with none is left
    out. None where ``runs`` has no git history to order the ledger's rows by."""
    runs = Path(runs)
    reruns: dict[str, dict[str, set[str]]] = {}  # paper -> the row's commit -> its records read
    for row in Equivalences.read(runs / LEDGER_NAME).rows:
        for record in row["evidence"].split():
            if record in recorded:
                reruns.setdefault(record.split("/")[1], {}).setdefault(row["commit"], set()).add(record)
    if not reruns:
        return {}
    commits = sorted({commit for by_commit in reruns.values() for commit in by_commit})
    order = _git(runs, "log", "--no-walk=sorted", "--ignore-missing", "--format=%H", *commits)
    if order is None:
        return None
    newest = {commit: rank for rank, commit in enumerate(order.split())}
    found = {}
    for paper, by_commit in reruns.items():
        commit = min(by_commit, key=lambda c: (newest.get(c, len(newest)), c))
        record = min(by_commit[commit], key=lambda r: (-recorded[r], r))
        found[paper] = _both_ways(runs, record, commit)
    return found


def _both_ways(runs: Path, record: str, commit: str) -> BothWays:
    """``record`` as rerun at ``commit`` and as the version the rerun replaced, from its history."""
    versions = _versions(runs, record)
    reruns = [i for i, (prov, _) in enumerate(versions) if _commit(prov) == commit]
    if not reruns:
        return BothWays(record, commit)
    rerun = reruns[-1]
    made = next((i for i in range(rerun - 1, -1, -1) if _commit(versions[i][0]) != commit), None)
    if made is None or versions[made][0] is None:
        return BothWays(record, commit)
    return BothWays(
        record,
        commit,
        _commit(versions[made][0]),
        core_seconds(versions[made][0], versions[made][1]),
        core_seconds(versions[rerun][0], versions[rerun][1]),
    )


def _commit(provenance: dict | None) -> str | None:
    return ((provenance or {}).get("git") or {}).get("commit")


def _versions(runs: Path, record: str) -> list[tuple[dict | None, str | None]]:
    """``record``'s committed versions, oldest first: (provenance, CSV text) after each commit
    that changed either file (None: no such file then). One ``git log -p`` whose context is the
    whole file, so each patch holds the file's new content."""
    log = _git(
        runs,
        "log",
        "-p",
        "--no-renames",
        "--no-color",
        "--no-ext-diff",
        "--no-textconv",
        "-U1000000000",
        "--format=%x00%H",
        "--",
        record + PROVENANCE,
        record + ROWS,
    )
    versions, now = [], {PROVENANCE: None, ROWS: None}
    for commit in reversed((log or "").split("\0")[1:]):
        for name, text in _new_contents(commit).items():
            now[name] = text
        versions.append((json.loads(now[PROVENANCE]) if now[PROVENANCE] else None, now[ROWS]))
    return versions


def _new_contents(patch: str) -> dict[str, str | None]:
    """``{PROVENANCE or ROWS: the file's content after the commit (None: deleted)}`` from one
    commit's patch with whole-file context: its context and added lines."""
    found: dict[str, str | None] = {}
    for diff in patch.split("\ndiff --git ")[1:]:
        header, hunked, hunk = diff.partition("\n@@ ")
        name = PROVENANCE if header.split("\n", 1)[0].endswith(PROVENANCE) else ROWS
        if "\n+++ /dev/null" in header:
            found[name] = None
        if not hunked or name in found:  # deleted, or its content unchanged (a mode change)
            continue
        lines = hunk.split("\n")[1:]  # after the hunk's range line
        found[name] = "".join(line[1:] + "\n" for line in lines if line[:1] in (" ", "+"))
    return found


def _git(runs: Path, *args: str) -> str | None:
    """git's output in ``runs``, or None where git fails there (no repository, no git)."""
    try:
        done = subprocess.run(["git", "-C", str(runs), *args], capture_output=True, text=True, check=False)
    except OSError:
        return None
    return done.stdout if done.returncode == 0 else None
