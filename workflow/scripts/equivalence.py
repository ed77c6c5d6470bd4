"""Show that a library change leaves the committed records' results unchanged, and enter it in
the equivalence ledger ``results/runs/equivalences.tsv`` (``forestrepro/record/equivalence.py``).

After committing a change to library code that should not change any number (a new option
whose default keeps the old path, a refactoring), the committed records that hashed the old
files are stale. Instead of remaking all of them:

    python workflow/scripts/equivalence.py plan             # the reruns it takes: about one per group
    python workflow/scripts/equivalence.py run --cores 2    # run them (Snakemake, per report)
    python workflow/scripts/equivalence.py attest           # compare with git's records, write the ledger

A group is a (tag, paper, experiment, method); its rerun is its cheapest job (by recorded wall
time, preferring one whose solves were not stopped by a time limit) among those that ran the
changed files as they were at ``--since`` (``reruns_to_show``). Its records of older versions need
no rerun of their own: they were current at ``--since`` through the ledger's rows to that version,
and the row this change enters extends the chain. Only a group with no record of the ``--since``
versions gets one rerun per older version. ``--also GLOB`` adds jobs (e.g. the data sets a change
touches). ``attest`` compares each record that differs from
HEAD's with HEAD's: the same spec, the same rows in every column but times, made from a clean
tree at HEAD. Then, and only when every group a changed file reaches has such a rerun, the
file's change is entered; otherwise it says what is missing and exits 1. Commit the ledger
with the rerun records: they are its evidence.
"""

from __future__ import annotations

import argparse
import fnmatch
import hashlib
import io
import json
import subprocess
import sys
from pathlib import Path

import pandas as pd
import yaml

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "src"))

from forestrepro.record import Equivalences, FileHashes, read_rows  # noqa: E402
from forestrepro.record.equivalence import (  # noqa: E402
    LEDGER_NAME,
    attest,
    compare,
    latest_per_group,
    reruns_to_show,
)

PACKAGE = REPO / "src" / "forestrepro"  # the library whose files the records hashed
RUNS = Path("results/runs")
LEDGER = RUNS / LEDGER_NAME
MANIFEST = Path("results/report/paper/reports.yaml")


def git(*args: str, text: bool = True):
    return subprocess.run(["git", *args], cwd=REPO, capture_output=True, text=text, check=True).stdout


def committed_records(revision: str = "HEAD") -> dict[str, dict[str, dict]]:
    """``{tag: {job: provenance}}`` of the records committed at ``revision``."""
    records: dict[str, dict[str, dict]] = {}
    for name in git("ls-tree", "-r", "--name-only", revision, "--", str(RUNS)).splitlines():
        if not name.endswith(".provenance.json"):
            continue
        tag, job = Path(name).relative_to(RUNS).parts[0], str(Path(*Path(name).relative_to(RUNS).parts[1:]))
        records.setdefault(tag, {})[job.removesuffix(".provenance.json")] = json.loads(
            git("show", f"{revision}:{name}")
        )
    return records


def hashes_at(revision: str):
    """The SHA-256 of each library file at ``revision`` (None: no such file there)."""
    known: dict[str, str | None] = {}

    def sha(path: str) -> str | None:
        if path not in known:
            show = subprocess.run(
                ["git", "show", f"{revision}:src/forestrepro/{path}"],
                cwd=REPO,
                capture_output=True,
                check=False,
            )
            known[path] = hashlib.sha256(show.stdout).hexdigest() if show.returncode == 0 else None
        return known[path]

    return sha


def current(since: str):
    """``(now, then)``: whether a file version ``(path, sha)`` is current now, and was at
    ``since`` (the ledger counting as in ``record/currency.py``)."""
    now, then, ledger = FileHashes(PACKAGE), hashes_at(since), Equivalences.read(REPO / LEDGER)

    def at(hashes):
        return lambda path, sha: hashes(path) == sha or ledger.holds(path, sha, hashes(path))

    return at(now), at(then)


def made_stale(records: dict[str, dict[str, dict]], since: str) -> dict[str, dict[str, dict]]:
    """The records whose code was current at ``since`` and is not now: the ones the library
    change ``since..HEAD`` made stale."""
    now, then = current(since)
    out: dict[str, dict[str, dict]] = {}
    for tag, jobs in records.items():
        for job, prov in jobs.items():
            files = prov.get("code", {}).get("files", {}).items()
            if all(then(path, sha) for path, sha in files) and not all(now(path, sha) for path, sha in files):
                out.setdefault(tag, {})[job] = prov
    return out


def stopped_solves(stale: dict[str, dict[str, dict]]) -> dict[tuple[str, str], int]:
    """Per stale job with solves (a ``status`` column): 0 when every solve finished, 1 when
    some stopped at their time limit, 2 when all did. Read from HEAD, as the records are: a rerun
    that was stopped leaves the working tree without the file (Snakemake removes a job's outputs
    when it starts it)."""
    stopped = {}
    for tag, jobs in stale.items():
        for job in jobs:
            rows = pd.read_csv(io.StringIO(git("show", f"HEAD:{RUNS / tag / job}.csv")))
            if "status" in rows:
                limited = rows["status"] == "time_limit"
                stopped[tag, job] = 2 if limited.all() else int(limited.any())
    return stopped


def selection(since: str, also: list[str]) -> dict[str, list[str]]:
    """``{tag: [job, ...]}``: the reruns ``reruns_to_show`` chooses among the records the
    change made stale, and the stale jobs ``also`` names."""
    stale = made_stale(committed_records(), since)
    now, _ = current(since)
    then = hashes_at(since)

    def ran_since_versions(prov: dict) -> bool:
        return all(sha == then(path) or now(path, sha) for path, sha in prov["code"]["files"].items())

    pool = latest_per_group(stale, ran_since_versions)
    chosen: dict[str, set[str]] = {}
    for tag, job in reruns_to_show(pool, lambda path, sha: not now(path, sha), stopped_solves(pool)):
        chosen.setdefault(tag, set()).add(job)
    for tag, jobs in stale.items():
        for job in jobs:
            if any(fnmatch.fnmatchcase(f"{tag}/{job}", pattern) for pattern in also):
                chosen.setdefault(tag, set()).add(job)
    return {tag: sorted(jobs) for tag, jobs in sorted(chosen.items())}


def report_overrides(tag: str, paper: str) -> list[str]:
    """The overrides of the committed report that reads ``paper``'s records of ``tag``."""
    manifest = yaml.safe_load((REPO / MANIFEST).read_text(encoding="utf-8"))
    for entry in manifest.values():
        if entry["tag"] == tag and f"papers=[{paper}]" in entry["overrides"]:
            return entry["overrides"]
    sys.exit(f"{MANIFEST}: no committed report reads {paper}'s records of tag '{tag}'")


def cmd_plan(args) -> None:
    chosen = selection(args.since, args.also)
    stale = made_stale(committed_records(), args.since)
    total = sum(len(jobs) for jobs in stale.values())
    wall = 0.0
    for tag, jobs in chosen.items():
        for job in jobs:
            seconds = stale[tag][job].get("wall_seconds", 0.0)
            wall += seconds
            print(f"{tag}/{job}\t{seconds:.0f} s")
    print(
        f"{sum(map(len, chosen.values()))} reruns for {total} stale records; {wall / 3600:.2f} h of recorded wall time"
    )


def cmd_run(args) -> None:
    by_report: dict[tuple[str, str], list[str]] = {}
    for tag, jobs in selection(args.since, args.also).items():
        for job in jobs:
            by_report.setdefault((tag, job.split("/")[0]), []).append(job)
    failed = False
    for (tag, paper), jobs in by_report.items():
        command = [
            str(Path(sys.executable).with_name("snakemake")),
            "--cores",
            str(args.cores),
            "--keep-going",
            "records",
            "--config",
            "profile=paper",
            f"tag={tag}",
            "overrides=" + json.dumps(report_overrides(tag, paper)),
            "only=" + json.dumps(jobs),
        ]
        print(f"{tag}/{paper}: {len(jobs)} jobs", flush=True)
        failed |= subprocess.run(command, cwd=REPO, check=False).returncode != 0
    sys.exit(1 if failed else 0)


def cmd_attest(args) -> None:
    head = git("rev-parse", "HEAD").strip()
    committed = committed_records(head)
    reruns = []
    for name in git("diff", "--name-only", head, "--", str(RUNS)).splitlines():
        if not name.endswith(".provenance.json"):
            continue
        rel = Path(name).relative_to(RUNS)
        tag, job = rel.parts[0], str(Path(*rel.parts[1:])).removesuffix(".provenance.json")
        if job not in committed.get(tag, {}) or not (REPO / name).is_file():
            continue  # a new record, not a rerun; or one deleted (a job that is running)
        csv_name = name.removesuffix(".provenance.json") + ".csv"
        old_prov = committed[tag][job]
        old_rows = read_rows_text(git("show", f"{head}:{csv_name}"), old_prov)
        new_prov = json.loads((REPO / name).read_text(encoding="utf-8"))
        reruns.append(compare(tag, job, old_prov, old_rows, new_prov, read_rows(REPO / csv_name)))
    hashes = FileHashes(PACKAGE)
    present = {
        path: hashes(path)
        for jobs in committed.values()
        for p in jobs.values()
        for path in p["code"]["files"]
    }
    ledger = Equivalences.read(REPO / LEDGER)
    rows, problems = attest(reruns, made_stale(committed, args.since), present, head, ledger)
    print(f"{len(reruns)} reruns, {sum(not r.difference for r in reruns)} with the same rows")
    for problem in problems:
        print(f"  not shown: {problem}")
    if rows:
        Equivalences(ledger.rows + rows).write(REPO / LEDGER)
        for row in rows:
            print(
                f"  entered: {row['path']} {row['from_sha256'][:12]} -> {row['to_sha256'][:12]} ({row['jobs']})"
            )
    sys.exit(1 if problems else 0)


def read_rows_text(text: str, provenance: dict) -> pd.DataFrame:
    """A record's rows from its CSV text (as ``read_rows`` reads a file)."""
    rows = pd.read_csv(io.StringIO(text))
    for column in provenance.get("json_columns", []):
        rows[column] = rows[column].map(lambda cell: json.loads(cell) if isinstance(cell, str) else cell)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="command", required=True)
    for name, command in (("plan", cmd_plan), ("run", cmd_run), ("attest", cmd_attest)):
        p = sub.add_parser(name)
        p.set_defaults(func=command)
        p.add_argument(
            "--since",
            default="HEAD~1",
            help="the commit before the change (default HEAD~1): its records were current",
        )
        if name != "attest":
            p.add_argument(
                "--also", action="append", default=[], help="more stale jobs: a glob over <tag>/<job>"
            )
        if name == "run":
            p.add_argument("--cores", type=int, default=2)
    args = parser.parse_args()
    args.func(args)


if __name__ == "__main__":
    main()
