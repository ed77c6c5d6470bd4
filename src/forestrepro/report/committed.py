"""Rebuild every committed report under ``results/report/paper/`` from the committed run records:
``forestrepro reports`` (``make report``) and ``forestrepro reports --check`` (``make
report-check``), run from the checkout's root.

``results/report/paper/reports.yaml`` names each committed report: its directory, the tag
whose records it reads and the overrides that select its papers and experiments. For each,
Snakemake runs with ``report_dir=results/report/paper/<name>`` and ``records_only=true``
(planning stops with the list of jobs whose record is missing or stale, so no training job
can run), forcing the report rule (tables, figures, page) so nothing is taken from older files.

The check is what CI runs on a fresh clone: every committed report must come back byte for
byte from the committed records, and no file may appear in or vanish from its directory. Since
the reports are rebuilt from HEAD's records (below), the check first refuses a run record under
``results/runs/`` that differs from HEAD (modified, added or deleted), naming each: its change
would not be checked.

Then the index of the committed reports is written, ``results/report/paper/index.md`` (and
``index.html``): one row per report, its cells within tolerance and its claims by verdict read
from its rebuilt page, with its tag from the manifest (``report/index.py``). The check covers it
like the reports.

Each report is rebuilt in a temporary worktree of the commit that makes it, from the records
committed there, and copied back: HEAD's, so only what is committed counts (commit new records
and code before ``make report``), or, for a report pinned to a commit (``commit: <sha>`` in its
entry), that commit's pipeline. That is how a report stays reproducible while later commits
change library code its records imported (which makes them stale here, and Snakemake plans
them again): the pin is dropped once they are remade. Being separate checkouts, the reports
are rebuilt side by side, one per core (``--cores``).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import yaml

from .location import COMMITTED_REPORTS

COMMITTED = Path(COMMITTED_REPORTS)
RECORDS = Path("results/runs")
MANIFEST = COMMITTED / "reports.yaml"
# The rule that makes a report from records: its tables, figures and page, in one job
# (workflow/rules/report.smk). A report pinned to an older commit runs that commit's rules,
# where each table and figure had a job of its own: these are no training either.
DERIVED_RULES = ("report",)
OLDER_DERIVED_RULES = ("table", "plot_cd", "paper_figure")
# git status --porcelain's two-letter codes, by the letter that says what happened to the file
CHANGES = {"M": "modified", "T": "modified", "A": "added", "?": "added", "D": "deleted", "R": "renamed"}

_GIT = threading.Lock()  # reports are rebuilt side by side; git's worktree commands one at a time


class CommittedReportError(Exception):
    """A committed report cannot be rebuilt, or came back different from git's."""


def load_manifest(repo: Path) -> dict[str, dict]:
    """``{name: {"tag", "overrides", "covers", and optionally "partial": bool, "commit": sha}}``."""
    manifest = yaml.safe_load((repo / MANIFEST).read_text(encoding="utf-8")) or {}
    for name, entry in manifest.items():
        missing = {"tag", "overrides", "covers"} - set(entry)
        if missing:
            raise CommittedReportError(f"{MANIFEST}: report '{name}' lacks {sorted(missing)}")
    return manifest


def snakemake_command(name: str, entry: dict, cores: int) -> list[str]:
    """The Snakemake invocation that rebuilds the committed report ``name`` from records alone."""
    return [
        str(Path(sys.executable).with_name("snakemake")),
        "--cores",
        str(cores),
        "--forcerun",
        *DERIVED_RULES,
        "--config",
        "profile=paper",
        f"tag={entry['tag']}",
        "overrides=" + json.dumps(entry["overrides"]),
        f"report_dir={COMMITTED / name}",
        "records_only=true",
        *(["partial=true"] if entry.get("partial") else []),
    ]


def _git(repo: Path, *args: str) -> str:
    with _GIT:
        return subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True, check=True).stdout


def check_pin(repo: Path, name: str, commit: str) -> None:
    """A pin must name a commit this clone has, on HEAD's history: the code a report's records
    were made with (they stay current there after later commits change library code they
    imported, until they are remade and the pin dropped)."""
    try:
        _git(repo, "cat-file", "-e", f"{commit}^{{commit}}")
    except subprocess.CalledProcessError:
        raise CommittedReportError(
            f"{MANIFEST}: report '{name}' is pinned to commit {commit}, which this clone lacks "
            "(a shallow clone? git fetch --unshallow)"
        ) from None
    if subprocess.run(
        ["git", "merge-base", "--is-ancestor", commit, "HEAD"], cwd=repo, check=False
    ).returncode:
        raise CommittedReportError(
            f"{MANIFEST}: report '{name}' is pinned to commit {commit}, which is not an ancestor of HEAD"
        )


def _checkout(repo: Path, name: str, commit: str) -> Path:
    """A detached worktree of ``commit`` in a temporary directory."""
    where = Path(tempfile.mkdtemp(prefix=f"forestrepro-report-{name}-"))
    _git(repo, "worktree", "add", "--detach", "--force", str(where), commit)
    return where


def rebuild(repo: Path, name: str, entry: dict, cores: int) -> str:
    """Rebuild one committed report in a worktree of HEAD, or of the commit it is pinned to
    (``commit:`` in the manifest), whose library then runs (the report is what that commit's
    pipeline makes of its records), and copy it back into ``repo``; return a line saying so."""
    started = time.perf_counter()
    commit = entry.get("commit")
    if commit:
        check_pin(repo, name, commit)
    where = _checkout(repo, name, commit or _git(repo, "rev-parse", "HEAD").strip())
    env = dict(os.environ)
    # that commit's library, not the one installed in .venv
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(where / "src"), env.get("PYTHONPATH")]))
    try:
        proc = subprocess.run(
            snakemake_command(name, entry, cores),
            cwd=where,
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        if proc.returncode == 0:
            shutil.rmtree(repo / COMMITTED / name, ignore_errors=True)
            shutil.copytree(where / COMMITTED / name, repo / COMMITTED / name)
    finally:
        _git(repo, "worktree", "remove", "--force", str(where))
    if proc.returncode != 0:
        raise CommittedReportError(
            f"rebuilding {COMMITTED / name} failed:\n{proc.stdout[-4000:]}\n{proc.stderr[-4000:]}"
        )
    ran = [
        line.split()[1].rstrip(":")
        for line in (proc.stdout + proc.stderr).splitlines()
        if line.startswith(("rule ", "localrule "))
    ]
    training = [rule for rule in ran if rule not in (*DERIVED_RULES, *OLDER_DERIVED_RULES, "all")]
    if training:
        raise CommittedReportError(
            f"rebuilding {COMMITTED / name} ran {training}: a committed report must come from records alone"
        )
    return (
        f"{COMMITTED / name}: rebuilt from records{f' at {commit[:10]}' if commit else ''} in "
        f"{time.perf_counter() - started:.1f} s "
        f"({len(ran)} steps: {', '.join(sorted(set(ran)))})"
    )


def uncommitted_records(repo: Path) -> list[str]:
    """Each file under ``results/runs/`` that differs from HEAD, as ``<what>: <path>``."""
    status = _git(repo, "status", "--porcelain", "--untracked-files=all", "--", str(RECORDS))
    changed = []
    for line in status.splitlines():
        code, path = line[:2], line[3:]
        what = next((CHANGES[c] for c in code if c in CHANGES), f"changed ({code.strip()})")
        changed.append(f"{what}: {path}")
    return changed


def check_records_committed(repo: Path) -> None:
    """Fail, naming them, if run records differ from HEAD: the reports are rebuilt from HEAD's."""
    changed = uncommitted_records(repo)
    if changed:
        raise CommittedReportError(
            f"{len(changed)} run record file(s) under {RECORDS}/ differ from HEAD:\n  "
            + "\n  ".join(changed)
            + "\nthe committed reports are rebuilt from HEAD's records, so these changes are not "
            "checked: commit them (or restore HEAD's with git restore / git clean) and check again"
        )


def check_unchanged(repo: Path) -> None:
    """Fail if the committed reports differ from git's (changed, added or removed files)."""
    status = _git(repo, "status", "--porcelain", "--untracked-files=all", "--", str(COMMITTED))
    if status.strip():
        diff = subprocess.run(
            ["git", "diff", "--stat", "--", str(COMMITTED)],
            cwd=repo,
            capture_output=True,
            text=True,
            check=False,
        ).stdout
        raise CommittedReportError(f"the rebuilt reports differ from the committed ones:\n{status}\n{diff}")


def rebuild_committed(repo: Path, names: list[str], cores: int, check: bool) -> None:
    """Rebuild the committed reports ``names`` (all in the manifest when empty), one per core,
    then their index; with ``check``, refuse uncommitted records first and fail if anything
    under ``results/report/paper/`` then differs from git's. Prints what it does."""
    from .index import write_index

    repo = Path(repo)
    manifest = load_manifest(repo)
    unknown = sorted(set(names) - set(manifest))
    if unknown:
        raise CommittedReportError(f"unknown committed reports {unknown}; {MANIFEST} has {sorted(manifest)}")
    if check:
        check_records_committed(repo)
    started = time.perf_counter()
    names = list(names or manifest)
    # pinned reports first: an older commit's pipeline makes each table and figure in a process
    # of its own (OLDER_DERIVED_RULES), the longest rebuilds, so they start while the others run
    names.sort(key=lambda name: "commit" not in manifest[name])
    # one report per core, each in its own worktree with one core; a failure stops the rest
    with ThreadPoolExecutor(max_workers=max(1, cores)) as pool:
        for line in pool.map(lambda name: rebuild(repo, name, manifest[name], 1), names):
            print(line, flush=True)
    print(f"{len(names)} committed reports in {time.perf_counter() - started:.1f} s on {cores} cores")
    for path in write_index(repo / COMMITTED, manifest):
        print(f"{path.relative_to(repo)}: the index of the committed reports", flush=True)
    if check:
        check_unchanged(repo)
        print("every committed report was rebuilt byte for byte from the committed records")
