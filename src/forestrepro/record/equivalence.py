"""Code equivalences: library changes shown, by rerunning, not to change any committed record.

A record lists the SHA-256 of every library file its job imported (``record/currency.py``),
so any change to one of them makes the record stale, even one that cannot alter what the job
computed: a new option whose default keeps the old path, a refactoring. Such a change may be
entered in the committed ledger ``results/runs/equivalences.tsv`` (one row per file: ``path``,
``from_sha256``, ``to_sha256``, ``commit``, ``jobs``, ``evidence``) only once it has been
*shown*, by :func:`attest`:

1. the jobs the change made stale were rerun with the new code, from a clean tree at the
   commit that makes the change, at least one job for every (tag, paper, experiment, method)
   whose committed records hashed the file's old content; and
2. every rerun gave the same rows as its committed record, compared exactly in every column
   but the measured times (columns named ``seconds`` or ending in ``_seconds``).

A record whose file hash differs from the file's content now is then still current when the
ledger leads from the recorded hash to the present one (possibly over several rows). The reruns
replace their records, so each row's evidence is a set of committed records a reader can diff
against the ones they replaced (``git log -p``). A rerun is evidence, not proof: the ledger says
how many jobs were rerun out of how many it covers, and deleting a row makes those records
stale again.

``forestrepro equivalence`` does this from a checkout's root, after committing a change to
library code that should not change any number:

    forestrepro equivalence plan             # the reruns it takes: about one per group
    forestrepro equivalence run --cores 2    # run them (Snakemake, per committed report)
    forestrepro equivalence attest           # compare with git's records, write the ledger

A group is a (tag, paper, experiment, method); its rerun is its cheapest job (by recorded wall
time plus, for a job read from a scan, the scan's recorded seconds, since the machine that reruns
it may not hold the scan: ``plan`` charges a scanned job's scan the same way; preferring one whose
solves were not stopped by a time limit) among those that ran the
changed files as they were at ``--since`` (``reruns_to_show``). Its records of older versions need
no rerun of their own: they were current at ``--since`` through the ledger's rows to that version,
and the row this change enters extends the chain. Only a group with no record of the ``--since``
versions gets one rerun per older version. ``--also GLOB`` adds jobs (e.g. the data sets a change
touches). ``attest`` compares each record that differs from HEAD's with HEAD's: the same spec,
the same rows in every column but times, made from a clean tree at HEAD. Then, and only when
every group a changed file reaches has such a rerun, the file's change is entered; otherwise it
says what is missing and exits 1. Commit the ledger with the rerun records: they are its
evidence.
"""

from __future__ import annotations

import csv
import fnmatch
import hashlib
import io
import json
import subprocess
import sys
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from .store import read_rows

LEDGER_NAME = "equivalences.tsv"
COLUMNS = ("path", "from_sha256", "to_sha256", "commit", "jobs", "evidence")


def is_time_column(column: str) -> bool:
    """A measured duration, which differs between any two runs (``fit_seconds``, ``seconds``)."""
    return column == "seconds" or column.endswith("_seconds")


# Columns of what a clock-bounded heuristic found before the solve, not of its result: C2RF's
# ``start_eta``, the eta of the start the local search or the priority dive handed to HiGHS. Both
# stop at a share of the time limit (the dive gave no start on ann_thyroid under load 7 and one
# on 2 of 5 samples at load 2-4), and the local search's float sums take the machine's BLAS
# kernels (mushroom's first share-reading sample: 933 on one machine, 965 on another, the same
# optimal eta 873, bound and node count). A row compared is one whose solve was not stopped by a
# time limit, so its result does not depend on the start.
HEURISTIC_COLUMNS = ("start_eta",)


class Equivalences:
    """The ledger's rows as a graph: ``holds(path, recorded, present)`` when a chain of rows of
    ``path`` joins the recorded hash to the present one. A row says that two versions of a file
    give the same numbers, which holds either way, so a chain may take a row from its new version
    back to its old one: a record of a version that a later row left behind (made on a branch of
    the file's history) is current where both versions were shown equal to a common one."""

    def __init__(self, rows: list[dict] | None = None):
        self.rows = list(rows or [])
        self._edges: dict[tuple[str, str], set[str]] = defaultdict(set)
        for row in self.rows:
            self._edges[row["path"], row["from_sha256"]].add(row["to_sha256"])
            self._edges[row["path"], row["to_sha256"]].add(row["from_sha256"])

    @classmethod
    def read(cls, path: str | Path) -> Equivalences:
        """The ledger at ``path`` (none there: an empty ledger)."""
        path = Path(path)
        if not path.is_file():
            return cls()
        with path.open(encoding="utf-8", newline="") as handle:
            rows = list(csv.DictReader(handle, delimiter="\t"))
        if rows and set(COLUMNS) - set(rows[0]):
            raise ValueError(f"{path}: an equivalence ledger needs the columns {', '.join(COLUMNS)}")
        return cls(rows)

    def holds(self, path: str, recorded: str, present: str | None) -> bool:
        if present is None:
            return False
        seen, frontier = {recorded}, [recorded]
        while frontier:
            sha = frontier.pop()
            if sha == present:
                return True
            for nxt in self._edges.get((path, sha), ()):
                if nxt not in seen:
                    seen.add(nxt)
                    frontier.append(nxt)
        return False

    def write(self, path: str | Path) -> None:
        rows = sorted(self.rows, key=lambda row: (row["commit"], row["path"], row["from_sha256"]))
        with Path(path).open("w", encoding="utf-8", newline="") as handle:
            writer = csv.DictWriter(handle, COLUMNS, delimiter="\t", lineterminator="\n")
            writer.writeheader()
            writer.writerows(rows)


def rows_differ(old_rows: pd.DataFrame, new_rows: pd.DataFrame) -> str:
    """Why two records' rows are not the same result ('' when they are): every column but
    the measured times must be present in both and equal exactly, NaN matching NaN.

    A row whose solve was stopped by its time limit (``status`` ``time_limit``) in either run is
    left out: where a clock stops a solver depends on the machine's speed, so such a row need
    not repeat; for the same reason the starts' columns ``HEURISTIC_COLUMNS`` are not compared.
    At least one row must be compared."""
    old_cols = [c for c in old_rows.columns if not is_time_column(c)]
    new_cols = [c for c in new_rows.columns if not is_time_column(c)]
    if old_cols != new_cols:
        return f"columns differ: {sorted(set(old_cols) ^ set(new_cols)) or 'their order'}"
    if len(old_rows) != len(new_rows):
        return f"{len(old_rows)} rows before, {len(new_rows)} now"
    compared = pd.Series(True, index=old_rows.index)
    if "status" in old_cols:
        compared = (old_rows["status"] != "time_limit").to_numpy() & (
            new_rows["status"] != "time_limit"
        ).to_numpy()
        compared = pd.Series(compared, index=old_rows.index)
        if not compared.any():
            return "every row stopped at its time limit in one of the runs: nothing to compare"
    for column in (c for c in old_cols if c not in HEURISTIC_COLUMNS):
        before, after = old_rows[column][compared], new_rows[column].set_axis(old_rows.index)[compared]
        same = (before.astype(str) == after.astype(str)) | (before.isna() & after.isna())
        if not same.all():
            row = int(same.index[~same.to_numpy()][0])
            return f"column {column!r}, row {row}: {before.loc[row]!r} before, {after.loc[row]!r} now"
    return ""


@dataclass(frozen=True)
class Rerun:
    """A committed record (``old``, its provenance) and the record its job wrote again (``new``)."""

    tag: str
    job: str
    old: dict
    new: dict
    difference: str  # '' when the rows are the same result

    @property
    def group(self) -> tuple[str, str, str, str]:
        return group_of(self.tag, self.old)


def group_of(tag: str, provenance: dict) -> tuple[str, str, str, str]:
    """(tag, paper, experiment, method): the jobs one rerun stands for."""
    spec = provenance["spec"]
    return tag, spec["paper"], spec["experiment"], spec["method"]


def compare(
    tag: str, job: str, old_prov: dict, old_rows: pd.DataFrame, new_prov: dict, new_rows: pd.DataFrame
) -> Rerun:
    """A rerun of job ``job`` (its record's path under ``results/runs/<tag>/``, without
    ``.csv``), checked: the same spec, and rows the same in all but times."""
    if old_prov.get("spec_digest") != new_prov.get("spec_digest"):
        difference = "its spec changed: not a rerun of the same job"
    else:
        difference = rows_differ(old_rows, new_rows)
    return Rerun(tag, job, old_prov, new_prov, difference)


def changed_files(rerun: Rerun) -> dict[str, tuple[str, str]]:
    """``{path: (old sha, new sha)}`` of the library files whose content differed between the
    committed record's run and the rerun."""
    old = rerun.old.get("code", {}).get("files", {})
    new = rerun.new.get("code", {}).get("files", {})
    return {path: (sha, new[path]) for path, sha in old.items() if path in new and new[path] != sha}


def attest(
    reruns: list[Rerun],
    affected: dict[str, dict[str, dict]],
    present: dict[str, str | None],
    head: str,
    entered: Equivalences | None = None,
) -> tuple[list[dict], list[str]]:
    """The ledger rows the reruns show, and the problems that keep any other row out.

    ``affected``: ``{tag: {job: provenance}}`` of the committed records the change made stale;
    ``present``: each library file's SHA-256 now. A change ``(path, old, new)`` is entered when
    ``new`` is the file's content now, every rerun whose code changed ``path`` from ``old`` gave
    the same rows and was made from a clean tree at ``head``, and every (tag, paper, experiment,
    method) with an affected record that hashed ``old`` has such a rerun. A change the ledger
    ``entered`` already holds (a rerun's old record was current through it) is neither entered
    again nor a problem."""
    problems = [f"{r.tag}/{r.job}: {r.difference}" for r in reruns if r.difference]
    problems += [
        f"{r.tag}/{r.job}: made at {r.new.get('git', {}).get('commit')} "
        f"(clean: {r.new.get('git', {}).get('clean')}), not from a clean tree at {head}"
        for r in reruns
        if r.new.get("git", {}).get("commit") != head or r.new.get("git", {}).get("clean") is not True
    ]
    bad = {(r.tag, r.job) for r in reruns if r.difference} | {
        (r.tag, r.job)
        for r in reruns
        if r.new.get("git", {}).get("commit") != head or r.new.get("git", {}).get("clean") is not True
    }
    by_change: dict[tuple[str, str, str], list[Rerun]] = defaultdict(list)
    for rerun in reruns:
        for path, (old, new) in changed_files(rerun).items():
            by_change[path, old, new].append(rerun)
    rows = []
    for (path, old, new), shown in sorted(by_change.items()):
        if entered is not None and entered.holds(path, old, new):
            continue
        if new != present.get(path):
            problems.append(
                f"{path}: the reruns ran {new[:12]}, the file is {str(present.get(path))[:12]} now"
            )
            continue
        failed = [f"{r.tag}/{r.job}" for r in shown if (r.tag, r.job) in bad]
        if failed:
            problems.append(f"{path}: not entered, its reruns {', '.join(failed)} are no evidence")
            continue
        covered = {r.group for r in shown}
        reached = [
            group_of(tag, prov)
            for tag, jobs in affected.items()
            for prov in jobs.values()
            if prov.get("code", {}).get("files", {}).get(path) == old
        ]
        missing = sorted(set(reached) - covered)
        if missing:
            listed = ", ".join("/".join(g) for g in missing[:6]) + (" ..." if len(missing) > 6 else "")
            problems.append(f"{path}: no rerun for {len(missing)} (tag, paper, experiment, method): {listed}")
            continue
        rows.append(
            {
                "path": path,
                "from_sha256": old,
                "to_sha256": new,
                "commit": head,
                "jobs": f"{len(shown)} of {len(reached)}",
                "evidence": " ".join(sorted(f"{r.tag}/{r.job}" for r in shown)),
            }
        )
    return rows, problems


def read_record(rows_path: Path) -> tuple[dict, pd.DataFrame]:
    """A record's provenance and rows."""
    prov = json.loads(rows_path.with_suffix(".provenance.json").read_text(encoding="utf-8"))
    return prov, read_rows(rows_path)


def reruns_to_show(
    stale: dict[str, dict[str, dict]],
    changed: Callable[[str, str], bool],
    stopped: dict[tuple[str, str], int] | None = None,
    scans: dict[tuple[str, str], float] | None = None,
) -> set[tuple[str, str]]:
    """The ``(tag, job)`` records to rerun so that ``attest`` finds evidence for every change.

    ``attest`` enters the change of a file from a version ``old`` only when each (tag, paper,
    experiment, method) with a stale record that hashed ``old`` has a rerun that ran ``old``
    before. So for each group and each (file, version) one of its records hashed and that is
    no longer current (``changed(path, sha)``), the cheapest such record is chosen: the one with
    the fewest stopped solves by ``stopped`` (0: every solve finished; 1: some stopped at their
    time limit, whose rows are not compared; 2: all did, leaving nothing to compare), then the
    least price (``rerun_seconds``: recorded wall time plus the scan's, ``scans``), then by name. One record usually covers all of its group's
    changes; a group whose records ran different versions of a file gets one per version."""
    stopped, scans = stopped or {}, scans or {}
    best: dict[tuple, tuple] = {}
    for tag, jobs in stale.items():
        for job, prov in jobs.items():
            key = (stopped.get((tag, job), 0), rerun_seconds(prov, scans.get((tag, job), 0.0)), job)
            group = group_of(tag, prov)
            for path, sha in prov.get("code", {}).get("files", {}).items():
                if changed(path, sha) and ((group, path, sha) not in best or key < best[group, path, sha]):
                    best[group, path, sha] = key
    return {(group[0], key[2]) for (group, _, _), key in best.items()}


def rerun_seconds(provenance: dict, scan_seconds: float = 0.0) -> float:
    """A rerun's price in wall seconds: the record's own, plus those of the scan it read
    (``scan_seconds`` of its rows, 0 for an unscanned job). The record's wall time leaves the
    scan out when the scan was already stored, but the machine that reruns it may not hold it
    (MNIST's scan: 513 s recorded, 4,248 s of scan first)."""
    return provenance.get("wall_seconds", float("inf")) + scan_seconds


def latest_per_group(
    stale: dict[str, dict[str, dict]], is_latest: Callable[[dict], bool]
) -> dict[str, dict[str, dict]]:
    """The records to choose reruns among (``reruns_to_show``): of each (tag, paper, experiment,
    method), those for which ``is_latest(provenance)`` holds (they ran the changed files as they
    were just before the change), or all of its records where none does.

    A record of an older version was current before the change only through the ledger's rows
    from its version to the latest, so a rerun of the latest version in each group, and the row
    it enters, carry it on: it needs no rerun of its own."""
    groups: dict[tuple, dict[tuple[str, str], dict]] = defaultdict(dict)
    for tag, jobs in stale.items():
        for job, prov in jobs.items():
            groups[group_of(tag, prov)][tag, job] = prov
    pool: dict[str, dict[str, dict]] = {}
    for records in groups.values():
        latest = {key: prov for key, prov in records.items() if is_latest(prov)}
        for (tag, job), prov in (latest or records).items():
            pool.setdefault(tag, {})[job] = prov
    return pool


RUNS = Path("results/runs")  # a checkout's committed records, and the ledger among them
LEDGER = RUNS / LEDGER_NAME
LIBRARY = Path("src/forestrepro")  # the library whose files the records hashed
REPORTS_MANIFEST = Path("results/report/paper/reports.yaml")


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True, check=True).stdout


def committed_records(repo: Path, revision: str = "HEAD") -> dict[str, dict[str, dict]]:
    """``{tag: {job: provenance}}`` of the records committed at ``revision``."""
    records: dict[str, dict[str, dict]] = {}
    for name in _git(repo, "ls-tree", "-r", "--name-only", revision, "--", str(RUNS)).splitlines():
        if not name.endswith(".provenance.json"):
            continue
        tag, *job = Path(name).relative_to(RUNS).parts
        records.setdefault(tag, {})[str(Path(*job)).removesuffix(".provenance.json")] = json.loads(
            _git(repo, "show", f"{revision}:{name}")
        )
    return records


def hashes_at(repo: Path, revision: str) -> Callable[[str], str | None]:
    """The SHA-256 of each library file at ``revision`` (None: no such file there)."""
    known: dict[str, str | None] = {}

    def sha(path: str) -> str | None:
        if path not in known:
            show = subprocess.run(
                ["git", "show", f"{revision}:{(LIBRARY / path).as_posix()}"],
                cwd=repo,
                capture_output=True,
                check=False,
            )
            known[path] = hashlib.sha256(show.stdout).hexdigest() if show.returncode == 0 else None
        return known[path]

    return sha


def current(repo: Path, since: str):
    """``(now, then)``: whether a file version ``(path, sha)`` is current now, and was at
    ``since`` (the ledger counting as in ``record/currency.py``)."""
    from .currency import FileHashes

    now, then, ledger = FileHashes(repo / LIBRARY), hashes_at(repo, since), Equivalences.read(repo / LEDGER)

    def at(hashes):
        return lambda path, sha: hashes(path) == sha or ledger.holds(path, sha, hashes(path))

    return at(now), at(then)


def made_stale(repo: Path, records: dict[str, dict[str, dict]], since: str) -> dict[str, dict[str, dict]]:
    """The records whose code was current at ``since`` and is not now: the ones the library
    change ``since..HEAD`` made stale."""
    now, then = current(repo, since)
    out: dict[str, dict[str, dict]] = {}
    for tag, jobs in records.items():
        for job, prov in jobs.items():
            files = prov.get("code", {}).get("files", {}).items()
            if all(then(path, sha) for path, sha in files) and not all(now(path, sha) for path, sha in files):
                out.setdefault(tag, {})[job] = prov
    return out


def record_rows(repo: Path, stale: dict[str, dict[str, dict]]) -> dict[tuple[str, str], pd.DataFrame]:
    """Each stale job's rows, read from HEAD as the records are: a rerun that was stopped leaves
    the working tree without the file (Snakemake removes a job's outputs when it starts it)."""
    return {
        (tag, job): pd.read_csv(io.StringIO(_git(repo, "show", f"HEAD:{(RUNS / tag / job).as_posix()}.csv")))
        for tag, jobs in stale.items()
        for job in jobs
    }


def stopped_solves(rows: dict[tuple[str, str], pd.DataFrame]) -> dict[tuple[str, str], int]:
    """Per job with solves (a ``status`` column): 0 when every solve finished, 1 when some
    stopped at their time limit, 2 when all did."""
    stopped = {}
    for key, frame in rows.items():
        if "status" in frame:
            limited = frame["status"] == "time_limit"
            stopped[key] = 2 if limited.all() else int(limited.any())
    return stopped


def scan_pieces(
    rows: dict[tuple[str, str], pd.DataFrame],
    stale: dict[str, dict[str, dict]],
    scan_of: Callable[[dict], str | None],
) -> dict[tuple[str, str], dict[tuple, float]]:
    """Per job read from a scan (a ``scan_seconds`` column): ``{(tag, scan, repeat): wall
    seconds}`` of the scanned split of each of its rows. A scan (``scan_of`` the record's spec:
    ``config.jobs.scan_name``, which the command line passes) is shared by the split's DF, WDF
    and WDF-oob jobs, so the same piece is named by each of them, and a plan counts it once."""
    pieces = {}
    for (tag, job), frame in rows.items():
        if "scan_seconds" in frame:
            scan = scan_of(stale[tag][job]["spec"])
            repeats = frame["repeat"] if "repeat" in frame else pd.Series(0, index=frame.index)
            pieces[tag, job] = {
                (tag, scan, int(r)): float(sec) for r, sec in zip(repeats, frame["scan_seconds"], strict=True)
            }
    return pieces


def scan_seconds(pieces: dict[tuple[str, str], dict[tuple, float]]) -> dict[tuple[str, str], float]:
    """Per scanned job, the seconds of the scan pieces it reads (``scan_pieces``)."""
    return {key: sum(job_pieces.values()) for key, job_pieces in pieces.items()}


def selection(
    repo: Path, since: str, also: list[str], scan_of: Callable[[dict], str | None]
) -> dict[str, list[str]]:
    """``{tag: [job, ...]}``: the reruns ``reruns_to_show`` chooses among the records the
    change made stale, and the stale jobs ``also`` names (globs over ``<tag>/<job>``)."""
    stale = made_stale(repo, committed_records(repo), since)
    now, _ = current(repo, since)
    then = hashes_at(repo, since)

    def ran_since_versions(prov: dict) -> bool:
        return all(sha == then(path) or now(path, sha) for path, sha in prov["code"]["files"].items())

    pool = latest_per_group(stale, ran_since_versions)
    rows = record_rows(repo, pool)
    chosen: dict[str, set[str]] = {}
    not_current = lambda path, sha: not now(path, sha)  # noqa: E731
    for tag, job in reruns_to_show(
        pool, not_current, stopped_solves(rows), scan_seconds(scan_pieces(rows, pool, scan_of))
    ):
        chosen.setdefault(tag, set()).add(job)
    for tag, jobs in stale.items():
        for job in jobs:
            if any(fnmatch.fnmatchcase(f"{tag}/{job}", pattern) for pattern in also):
                chosen.setdefault(tag, set()).add(job)
    return {tag: sorted(jobs) for tag, jobs in sorted(chosen.items())}


def report_overrides(repo: Path, tag: str, paper: str) -> list[str] | None:
    """The overrides of the committed report that reads ``paper``'s records of ``tag`` (None:
    no committed report does)."""
    import yaml

    manifest = yaml.safe_load((repo / REPORTS_MANIFEST).read_text(encoding="utf-8"))
    for entry in manifest.values():
        if entry["tag"] == tag and f"papers=[{paper}]" in entry["overrides"]:
            return entry["overrides"]
    return None


def print_plan(repo: Path, since: str, also: list[str], scan_of: Callable[[dict], str | None]) -> int:
    """Print each rerun ``selection`` chooses with its price (``rerun_seconds``: its recorded wall
    seconds, and its scan's where it read one), then how many for how many stale records, and
    their price with each scan piece counted once. Returns the exit code."""
    chosen = selection(repo, since, also, scan_of)
    stale = made_stale(repo, committed_records(repo), since)
    picked = {tag: {job: stale[tag][job] for job in jobs} for tag, jobs in chosen.items()}
    pieces = scan_pieces(record_rows(repo, picked), picked, scan_of)
    total = sum(len(jobs) for jobs in stale.values())
    wall, scans = 0.0, {}
    for tag, jobs in chosen.items():
        for job in jobs:
            scan = sum(pieces.get((tag, job), {}).values())
            wall += stale[tag][job].get("wall_seconds", 0.0)
            scans.update(pieces.get((tag, job), {}))
            print(
                f"{tag}/{job}\t{rerun_seconds(stale[tag][job], scan):.0f} s"
                + (f" ({scan:.0f} s of it its scan, shared with the split's other jobs)" if scan else "")
            )
    print(
        f"{sum(map(len, chosen.values()))} reruns for {total} stale records; "
        f"{(wall + sum(scans.values())) / 3600:.2f} h of recorded wall time, each scan they read "
        f"counted once ({sum(scans.values()) / 3600:.2f} h: nothing to pay where the scan store holds them)"
    )
    return 0


def run_reruns(
    repo: Path, since: str, also: list[str], cores: int, scan_of: Callable[[dict], str | None]
) -> int:
    """Run the reruns ``selection`` chooses through Snakemake, one invocation per committed
    report (its tag and overrides). Returns 1 if any failed, else 0."""
    by_report: dict[tuple[str, str], list[str]] = {}
    for tag, jobs in selection(repo, since, also, scan_of).items():
        for job in jobs:
            by_report.setdefault((tag, job.split("/")[0]), []).append(job)
    failed = False
    for (tag, paper), jobs in by_report.items():
        overrides = report_overrides(repo, tag, paper)
        if overrides is None:
            print(
                f"forestrepro equivalence: {REPORTS_MANIFEST}: no committed report reads {paper}'s "
                f"records of tag '{tag}'",
                file=sys.stderr,
            )
            return 1
        command = [
            str(Path(sys.executable).with_name("snakemake")),
            "--cores",
            str(cores),
            "--keep-going",
            "records",
            "--config",
            "profile=paper",
            f"tag={tag}",
            "overrides=" + json.dumps(overrides),
            "only=" + json.dumps(jobs),
        ]
        print(f"{tag}/{paper}: {len(jobs)} jobs", flush=True)
        failed |= subprocess.run(command, cwd=repo, check=False).returncode != 0
    return 1 if failed else 0


def _rows_from_text(text: str, provenance: dict) -> pd.DataFrame:
    """A record's rows from its CSV text (as ``read_rows`` reads a file)."""
    rows = pd.read_csv(io.StringIO(text))
    for column in provenance.get("json_columns", []):
        rows[column] = rows[column].map(lambda cell: json.loads(cell) if isinstance(cell, str) else cell)
    return rows


def attest_reruns(repo: Path, since: str) -> int:
    """Compare each record that differs from HEAD's with HEAD's (``compare``), enter in the
    ledger the changes the reruns show (``attest``) and print what was entered and what is not
    shown. Returns 1 when something is not shown, else 0."""
    from .currency import FileHashes

    head = _git(repo, "rev-parse", "HEAD").strip()
    committed = committed_records(repo, head)
    reruns = []
    for name in _git(repo, "diff", "--name-only", head, "--", str(RUNS)).splitlines():
        if not name.endswith(".provenance.json"):
            continue
        tag, *rest = Path(name).relative_to(RUNS).parts
        job = str(Path(*rest)).removesuffix(".provenance.json")
        if job not in committed.get(tag, {}) or not (repo / name).is_file():
            continue  # a new record, not a rerun; or one deleted (a job that is running)
        csv_name = name.removesuffix(".provenance.json") + ".csv"
        old_prov = committed[tag][job]
        old_rows = _rows_from_text(_git(repo, "show", f"{head}:{csv_name}"), old_prov)
        new_prov = json.loads((repo / name).read_text(encoding="utf-8"))
        reruns.append(compare(tag, job, old_prov, old_rows, new_prov, read_rows(repo / csv_name)))
    hashes = FileHashes(repo / LIBRARY)
    present = {
        path: hashes(path)
        for jobs in committed.values()
        for p in jobs.values()
        for path in p["code"]["files"]
    }
    ledger = Equivalences.read(repo / LEDGER)
    rows, problems = attest(reruns, made_stale(repo, committed, since), present, head, ledger)
    print(f"{len(reruns)} reruns, {sum(not r.difference for r in reruns)} with the same rows")
    for problem in problems:
        print(f"  not shown: {problem}")
    if rows:
        Equivalences(ledger.rows + rows).write(repo / LEDGER)
        for row in rows:
            print(
                f"  entered: {row['path']} {row['from_sha256'][:12]} -> {row['to_sha256'][:12]} ({row['jobs']})"
            )
    return 1 if problems else 0
