"""Rebuild every committed report under results/report/paper/ from the committed run records.

``results/report/paper/reports.yaml`` names each committed report: its directory, the tag
whose records it reads and the overrides that select its papers and experiments. For each,
Snakemake runs with ``report_dir=results/report/paper/<name>`` and ``records_only=true``
(planning stops with the list of jobs whose record is missing or stale, so no training job
can run), forcing the report rule (tables, figures, page) so nothing is taken from older files.

    python workflow/scripts/committed_reports.py            # make report
    python workflow/scripts/committed_reports.py --check    # and fail if git would see a change

The check is what CI runs on a fresh clone: every committed report must come back byte for
byte from the committed records, and no file may appear in or vanish from its directory. Since
the reports are rebuilt from HEAD's records (below), the check first refuses a run record under
``results/runs/`` that differs from HEAD (modified, added or deleted), naming each: its change
would not be checked.

Then the script writes the index of the committed reports, ``results/report/paper/index.md``
(and ``index.html``): one row per report, its cells within tolerance and its claims by verdict
read from its rebuilt page, with its tag from the manifest (``forestrepro.report.index``). The
check covers it like the reports.

Each report is rebuilt in a temporary worktree of the commit that makes it, from the records
committed there, and copied back: HEAD's, so only what is committed counts (commit new records
and code before ``make report``), or, for a report pinned to a commit (``commit: <sha>`` in its
entry), that commit's pipeline. That is how a report stays reproducible while later commits
change library code its records imported (which makes them stale here, and Snakemake plans
them again): the pin is dropped once they are remade. Being separate checkouts, the reports
are rebuilt side by side, one per core (``--cores``).
"""

from __future__ import annotations

import argparse
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

REPO = Path(__file__).resolve().parents[2]
# this checkout's library (for the index), not the one installed in the virtualenv
sys.path.insert(0, str(REPO / "src"))
COMMITTED = Path("results/report/paper")
RECORDS = Path("results/runs")
MANIFEST = COMMITTED / "reports.yaml"
# The rule that makes a report from records: its tables, figures and page, in one job
# (workflow/rules/report.smk). A report pinned to an older commit runs that commit's rules,
# where each table and figure had a job of its own: these are no training either.
DERIVED_RULES = ("report",)
OLDER_DERIVED_RULES = ("table", "plot_cd", "paper_figure")


def load_manifest(repo: Path | None = None) -> dict[str, dict]:
    """``{name: {"tag", "overrides", "covers", and optionally "partial": bool, "commit": sha}}``."""
    manifest = yaml.safe_load(((repo or REPO) / MANIFEST).read_text(encoding="utf-8")) or {}
    for name, entry in manifest.items():
        missing = {"tag", "overrides", "covers"} - set(entry)
        if missing:
            sys.exit(f"{MANIFEST}: report '{name}' lacks {sorted(missing)}")
    return manifest


def snakemake_command(name: str, entry: dict, cores: int) -> list[str]:
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


GIT = threading.Lock()  # reports are rebuilt side by side; git's worktree commands one at a time


def git(*args: str) -> str:
    with GIT:
        return subprocess.run(["git", *args], cwd=REPO, capture_output=True, text=True, check=True).stdout


def check_pin(name: str, commit: str) -> None:
    """A pin must name a commit this clone has, on HEAD's history: the code a report's records
    were made with (they stay current there after later commits change library code they
    imported, until they are remade and the pin dropped)."""
    try:
        git("cat-file", "-e", f"{commit}^{{commit}}")
    except subprocess.CalledProcessError:
        sys.exit(
            f"{MANIFEST}: report '{name}' is pinned to commit {commit}, which this clone lacks "
            "(a shallow clone? git fetch --unshallow)"
        )
    if subprocess.run(
        ["git", "merge-base", "--is-ancestor", commit, "HEAD"], cwd=REPO, check=False
    ).returncode:
        sys.exit(
            f"{MANIFEST}: report '{name}' is pinned to commit {commit}, which is not an ancestor of HEAD"
        )


def checkout(name: str, commit: str) -> Path:
    """A detached worktree of ``commit`` in a temporary directory."""
    where = Path(tempfile.mkdtemp(prefix=f"forestrepro-report-{name}-"))
    git("worktree", "add", "--detach", "--force", str(where), commit)
    return where


def rebuild(name: str, entry: dict, cores: int) -> str:
    """Rebuild one committed report in a worktree of HEAD, or of the commit it is pinned to
    (``commit:`` in the manifest), whose library then runs (the report is what that commit's
    pipeline makes of its records), and copy it back here; return a line saying so."""
    started = time.perf_counter()
    commit = entry.get("commit")
    if commit:
        check_pin(name, commit)
    where = checkout(name, commit or git("rev-parse", "HEAD").strip())
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
            shutil.rmtree(REPO / COMMITTED / name, ignore_errors=True)
            shutil.copytree(where / COMMITTED / name, REPO / COMMITTED / name)
    finally:
        git("worktree", "remove", "--force", str(where))
    if proc.returncode != 0:
        sys.exit(f"rebuilding {COMMITTED / name} failed:\n{proc.stdout[-4000:]}\n{proc.stderr[-4000:]}")
    ran = [
        line.split()[1].rstrip(":")
        for line in (proc.stdout + proc.stderr).splitlines()
        if line.startswith(("rule ", "localrule "))
    ]
    training = [rule for rule in ran if rule not in (*DERIVED_RULES, *OLDER_DERIVED_RULES, "all")]
    if training:
        sys.exit(
            f"rebuilding {COMMITTED / name} ran {training}: a committed report must come from records alone"
        )
    return (
        f"{COMMITTED / name}: rebuilt from records{f' at {commit[:10]}' if commit else ''} in "
        f"{time.perf_counter() - started:.1f} s "
        f"({len(ran)} steps: {', '.join(sorted(set(ran)))})"
    )


# git status --porcelain's two-letter codes, by the letter that says what happened to the file
CHANGES = {"M": "modified", "T": "modified", "A": "added", "?": "added", "D": "deleted", "R": "renamed"}


def uncommitted_records() -> list[str]:
    """Each file under ``results/runs/`` that differs from HEAD, as ``<what>: <path>``."""
    status = git("status", "--porcelain", "--untracked-files=all", "--", str(RECORDS))
    changed = []
    for line in status.splitlines():
        code, path = line[:2], line[3:]
        what = next((CHANGES[c] for c in code if c in CHANGES), f"changed ({code.strip()})")
        changed.append(f"{what}: {path}")
    return changed


def check_records_committed() -> None:
    """Fail, naming them, if run records differ from HEAD: the reports are rebuilt from HEAD's."""
    changed = uncommitted_records()
    if changed:
        sys.exit(
            f"{len(changed)} run record file(s) under {RECORDS}/ differ from HEAD:\n  "
            + "\n  ".join(changed)
            + "\nthe committed reports are rebuilt from HEAD's records, so these changes are not "
            "checked: commit them (or restore HEAD's with git restore / git clean) and check again"
        )


def check_unchanged() -> None:
    """Fail if the committed reports differ from git's (changed, added or removed files)."""
    status = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=all", "--", str(COMMITTED)],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    if status.strip():
        diff = subprocess.run(
            ["git", "diff", "--stat", "--", str(COMMITTED)],
            cwd=REPO,
            capture_output=True,
            text=True,
            check=False,
        ).stdout
        sys.exit(f"the rebuilt reports differ from the committed ones:\n{status}\n{diff}")
    print("every committed report was rebuilt byte for byte from the committed records")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--check", action="store_true", help="fail if a rebuilt report differs from git's")
    parser.add_argument("--cores", type=int, default=2)
    parser.add_argument("names", nargs="*", help="only these reports (default: all in the manifest)")
    args = parser.parse_args()
    manifest = load_manifest()
    unknown = sorted(set(args.names) - set(manifest))
    if unknown:
        sys.exit(f"unknown committed reports {unknown}; {MANIFEST} has {sorted(manifest)}")
    if args.check:
        check_records_committed()
    started = time.perf_counter()
    names = args.names or list(manifest)
    # pinned reports first: an older commit's pipeline makes each table and figure in a process
    # of its own (OLDER_DERIVED_RULES), the longest rebuilds, so they start while the others run
    names.sort(key=lambda name: "commit" not in manifest[name])
    # one report per core, each in its own worktree with one core; a failure stops the rest
    with ThreadPoolExecutor(max_workers=max(1, args.cores)) as pool:
        for line in pool.map(lambda name: rebuild(name, manifest[name], 1), names):
            print(line, flush=True)
    print(f"{len(names)} committed reports in {time.perf_counter() - started:.1f} s on {args.cores} cores")
    from forestrepro.report.index import write_index

    for path in write_index(REPO / COMMITTED, manifest):
        print(f"{path.relative_to(REPO)}: the index of the committed reports", flush=True)
    if args.check:
        check_unchanged()


if __name__ == "__main__":
    main()
