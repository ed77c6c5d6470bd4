"""Records measured both ways (record/both_ways.py), in a scratch git repository: a record
committed as made, a library change, the record rerun at it with other seconds and the
equivalence ledger's row naming the rerun as its evidence; and what ``plan`` says of them."""

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from forestrepro.cli import _print_both_ways
from forestrepro.record.both_ways import BothWays, newest_both_ways
from forestrepro.record.equivalence import COLUMNS

YEAST = "paper/wdf/main/wdf/yeast/repeat3"
ADULT = "paper/wdf/main/wdf/adult/repeat0"
WINE = "paper/brf/main/brf/wine"
MADE_AT = "1234abcd" * 5  # the commit a record was made at (not in the scratch history)


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True, check=True).stdout.strip()


def commit(repo: Path, message: str) -> str:
    """Commit everything, a minute after the last commit (commits are ordered by their date)."""
    last = git(repo, "log", "-1", "--format=%ct") if git(repo, "rev-list", "--all") else "1700000000"
    date = f"@{int(last) + 60} +0000"
    git(repo, "add", "-A")
    subprocess.run(
        ["git", "commit", "-qm", message],
        cwd=repo,
        env={**os.environ, "GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date},
        check=True,
    )
    return git(repo, "rev-parse", "HEAD")


def record(runs: Path, name: str, *, at: str, wall: float, threads: int, cascade: float) -> None:
    """A record's provenance and CSV: made at commit ``at`` in ``wall`` seconds on ``threads``,
    its cascade's seconds in a row (a resumed cascade's, where larger than its wall time)."""
    path = runs / name
    path.parent.mkdir(parents=True, exist_ok=True)
    provenance = {"git": {"commit": at, "clean": True}, "wall_seconds": wall, "threads": threads}
    path.with_name(path.name + ".provenance.json").write_text(json.dumps(provenance, indent=2) + "\n")
    path.with_name(path.name + ".csv").write_text(f"accuracy,cascade_seconds\n0.5,{cascade}\n")


def ledger(runs: Path, *rows: tuple[str, list[str]]) -> None:
    """The equivalence ledger with one row per (commit, evidence)."""
    lines = ["\t".join(COLUMNS)]
    lines += [f"a.py\t{'0' * 64}\t{'1' * 64}\t{sha}\t1 of 9\t{' '.join(evidence)}" for sha, evidence in rows]
    (runs / "equivalences.tsv").write_text("\n".join(lines) + "\n")


@pytest.fixture
def scratch(tmp_path):
    """``(runs, change, rerun-at)``: YEAST made at MADE_AT (772 core-s: 386 s on 2 threads) and
    rerun at the change's commit (540 core-s); ADULT made (its cascade resumed: 900 s on one
    thread) and rerun at an older change (600 core-s); the ledger names both reruns."""
    repo = tmp_path / "repo"
    runs = repo / "results" / "runs"
    runs.mkdir(parents=True)
    git(repo, "init", "-q")
    git(repo, "config", "user.email", "t@t")
    git(repo, "config", "user.name", "t")
    record(runs, YEAST, at=MADE_AT, wall=386.0, threads=2, cascade=380.0)
    record(runs, ADULT, at=MADE_AT, wall=100.0, threads=1, cascade=900.0)
    (repo / "a.py").write_text("A = 1\n")
    commit(repo, "records as made")
    (repo / "a.py").write_text("A = 1  # older change\n")
    older = commit(repo, "an older library change")
    record(runs, ADULT, at=older, wall=600.0, threads=1, cascade=590.0)
    ledger(runs, (older, ["paper/wdf/main/wdf/adult/repeat0"]))
    commit(repo, "adult rerun as the older change's evidence")
    (repo / "a.py").write_text("A = 1  # newer change\n")
    change = commit(repo, "a library change")
    record(runs, YEAST, at=change, wall=270.0, threads=2, cascade=260.0)
    ledger(runs, (older, [ADULT]), (change, [YEAST, WINE]))
    commit(repo, "yeast rerun as the change's evidence")
    return runs, change, older


def test_a_record_rerun_as_ledger_evidence_is_measured_both_ways(scratch):
    runs, change, _ = scratch
    found = newest_both_ways(runs, {YEAST: 540.0, ADULT: 600.0})
    assert found == {"wdf": BothWays(YEAST, change, MADE_AT, 772.0, 540.0)}
    assert found["wdf"].measured


def test_the_newest_ledger_row_is_chosen_and_within_it_the_costliest_record(scratch):
    """ADULT costs more now, but its row is older: the paper's example is YEAST, from the newest
    row reaching it. ADULT alone (YEAST not read): its made version's resumed cascade counts."""
    runs, _, older = scratch
    assert newest_both_ways(runs, {YEAST: 540.0, ADULT: 6000.0})["wdf"].record == YEAST
    assert newest_both_ways(runs, {ADULT: 600.0}) == {"wdf": BothWays(ADULT, older, MADE_AT, 900.0, 600.0)}


def test_a_paper_without_a_rerun_in_the_ledger_is_left_out(scratch):
    runs, _, _ = scratch
    assert newest_both_ways(runs, {"paper/wdf/main/df/yeast/repeat3": 50.0}) == {}
    # the ledger names WINE, but its history has no rerun of it: no figures, said so
    record(runs, WINE, at=MADE_AT, wall=5.0, threads=1, cascade=0.0)
    commit(runs, "wine as made")
    both = newest_both_ways(runs, {WINE: 5.0})["brf"]
    assert both.record == WINE and not both.measured


def test_without_git_history_it_says_so_and_plan_says_none_is_known(scratch, tmp_path, capsys):
    runs, _, _ = scratch
    copy = tmp_path / "no_git" / "runs"
    shutil.copytree(runs, copy)
    assert newest_both_ways(copy, {YEAST: 540.0}) is None
    _print_both_ways(copy, {YEAST: 540.0}, ["wdf"])
    out = capsys.readouterr().out
    assert "the seconds each record took when it was made" in out
    assert f"none known: {copy} has no git history" in out


def test_plan_states_what_measured_means_and_each_papers_record_measured_both_ways(scratch, capsys):
    """WINE is in the ledger, but no version of it in git: plan says so, without figures."""
    runs, change, _ = scratch
    _print_both_ways(runs, {YEAST: 540.0, WINE: 5.0}, ["wdf", "brf", "rcrf"])
    lines = capsys.readouterr().out.splitlines()
    assert "a rerun on today's code can take less or more" in lines[0]
    assert lines[1:] == [
        f"    wdf: {YEAST} took 772 core-s when made (commit 1234abcd) and 540 core-s rerun at "
        f"{change[:8]} (same rows: equivalence ledger)",
        f"    brf: {WINE}, rerun at {change[:8]}: this checkout's git history does not give the seconds "
        "of both its versions",
        "    rcrf: none measured both ways yet (the equivalence ledger reran none of its records)",
    ]
