"""Committed records are never overwritten by a run of another spec, unless asked for.

A run under an explicit tag (``tag=paper``) with an override, or after an edit of a paper's
configuration, plans jobs whose spec differs from the spec of the record at their path. Their
record is stale ("the job's spec changed") and would be replaced by the new run. Where that
record is committed (git tracks it), the old numbers are evidence behind a committed report,
so the workflow refuses before any job runs, naming the records (``workflow/rules/common.smk``);
``--config overwrite=true`` says the user means it. Records git does not track (a local run)
are the user's own scratch and are replaced as before.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from .currency import SPEC_CHANGED


def tracked_files(directory: str | Path) -> set[str]:
    """The files under ``directory`` that git tracks, as paths relative to the current directory
    (``git ls-files``); empty outside a git checkout or without git."""
    try:
        proc = subprocess.run(
            ["git", "ls-files", "-z", "--", str(directory)],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return set()
    return set(proc.stdout.split("\0")) - {""} if proc.returncode == 0 else set()


def overwritten(records: dict[str, tuple[str, str]], tracked: set[str]) -> list[str]:
    """The paths of ``records`` (job path -> (record CSV path, staleness reason)) whose record is
    tracked and would be replaced because the job's spec changed, sorted."""
    return sorted(
        path for path, (csv, reason) in records.items() if reason == SPEC_CHANGED and csv in tracked
    )


def refusal(paths: list[str], tag: str) -> str:
    """The message that refuses to overwrite the committed records of ``paths`` under ``tag``."""
    shown = ", ".join(paths[:5]) + (f" and {len(paths) - 5} more" if len(paths) > 5 else "")
    return (
        f"forestrepro: this configuration would overwrite {len(paths)} committed record(s) of tag '{tag}' "
        f"whose spec differs from the one planned now: {shown}. Run it under a tag of its own (leave out "
        "tag=, and the overrides name it), or pass --config overwrite=true to replace them"
    )
