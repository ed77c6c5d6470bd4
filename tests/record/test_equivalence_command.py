"""``forestrepro equivalence`` end to end in a scratch git repository: the change since a
commit makes records stale, plan picks one rerun per group, attest enters the change only when
the reruns cover every group with the same rows, and the ledger then makes the rest current."""

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pandas as pd

from forestrepro.record import Equivalences, FileHashes, record_status, write_record

ROOT = Path(__file__).resolve().parents[2]
OLD, NEW = "A = 1\n", "A = 1  # a comment changes no number\n"


def sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True, check=True).stdout.strip()


def record(repo: Path, job: str, code: str, *, commit: str, accuracy: float = 0.5, seconds: float = 1.0):
    paper, experiment, method, dataset = job.split("/")
    spec = {"paper": paper, "experiment": experiment, "method": method, "dataset": dataset}
    write_record(
        pd.DataFrame({"fold": [0, 1], "accuracy": [accuracy, 0.25], "fit_seconds": [seconds, seconds]}),
        {
            "job": job,
            "spec": spec,
            "spec_digest": "digest-" + job,
            "code": {"files": {"a.py": sha(code)}},
            "git": {"commit": commit, "clean": True},
            "wall_seconds": seconds,
        },
        repo / "results" / "runs" / "t" / f"{job}.csv",
    )


def run(repo: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "forestrepro.cli", "equivalence", *args],
        cwd=repo,
        env={
            **os.environ,
            "PYTHONPATH": str(ROOT / "src"),
        },  # this checkout's library, run in the scratch one
        capture_output=True,
        text=True,
        check=False,
    )


def scratch(tmp_path: Path) -> tuple[Path, str, str]:
    repo = tmp_path / "repo"
    (repo / "src" / "forestrepro").mkdir(parents=True)
    (repo / "src" / "forestrepro" / "a.py").write_text(OLD)
    git(repo, "init", "-q")
    git(repo, "config", "user.email", "t@t")
    git(repo, "config", "user.name", "t")
    for job, seconds in (("p/e/m/cheap", 1.0), ("p/e/m/dear", 9.0), ("p/e/n/only", 5.0)):
        record(repo, job, OLD, commit="old", seconds=seconds)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "records")
    before = git(repo, "rev-parse", "HEAD")
    (repo / "src" / "forestrepro" / "a.py").write_text(NEW)
    git(repo, "commit", "-qam", "a comment")
    return repo, before, git(repo, "rev-parse", "HEAD")


def test_reruns_that_cover_every_group_enter_the_change_and_make_the_rest_current(tmp_path):
    repo, before, head = scratch(tmp_path)
    plan = run(repo, "plan", "--since", before)
    assert plan.returncode == 0, plan.stderr
    assert [line.split("\t")[0] for line in plan.stdout.splitlines()[:-1]] == [
        "t/p/e/m/cheap",
        "t/p/e/n/only",
    ]
    assert plan.stdout.splitlines()[-1].startswith("2 reruns for 3 stale records")

    # one group rerun only: nothing is entered, the missing group is named
    record(repo, "p/e/m/cheap", NEW, commit=head, seconds=3.0)
    attest = run(repo, "attest", "--since", before)
    assert attest.returncode == 1 and "t/p/e/n" in attest.stdout
    assert not (repo / "results" / "runs" / "equivalences.tsv").exists()

    record(repo, "p/e/n/only", NEW, commit=head, seconds=4.0)
    attest = run(repo, "attest", "--since", before)
    assert attest.returncode == 0, attest.stdout + attest.stderr
    ledger = Equivalences.read(repo / "results" / "runs" / "equivalences.tsv")
    assert [(r["path"], r["from_sha256"], r["to_sha256"], r["jobs"]) for r in ledger.rows] == [
        ("a.py", sha(OLD), sha(NEW), "2 of 3")
    ]
    # the record that was not rerun is current through the ledger, and only through it
    dear = repo / "results" / "runs" / "t" / "p" / "e" / "m" / "dear.csv"
    hashes = FileHashes(repo / "src" / "forestrepro")
    assert record_status(dear, "digest-p/e/m/dear", hashes, ledger).current
    assert not record_status(dear, "digest-p/e/m/dear", hashes).current


def test_a_rerun_with_another_number_enters_nothing(tmp_path):
    repo, before, head = scratch(tmp_path)
    record(repo, "p/e/m/cheap", NEW, commit=head, accuracy=0.75)
    record(repo, "p/e/n/only", NEW, commit=head)
    attest = run(repo, "attest", "--since", before)
    assert attest.returncode == 1 and "'accuracy'" in attest.stdout
    assert not (repo / "results" / "runs" / "equivalences.tsv").exists()
    json.loads((repo / "results" / "runs" / "t" / "p" / "e" / "m" / "cheap.provenance.json").read_text())


def test_plan_reads_the_committed_records_when_a_stopped_rerun_removed_one(tmp_path):
    # Snakemake removes a job's outputs when it starts it: a rerun stopped midway leaves the
    # working tree without the record, and the plan (of HEAD's records) must still be made
    repo, before, _ = scratch(tmp_path)
    for suffix in (".csv", ".provenance.json"):
        (repo / "results" / "runs" / "t" / "p" / "e" / "m" / f"cheap{suffix}").unlink()
    plan = run(repo, "plan", "--since", before)
    assert plan.returncode == 0, plan.stderr
    assert plan.stdout.splitlines()[-1].startswith("2 reruns for 3 stale records")
