"""A committed report pinned to a commit is rebuilt by that commit's code (``forestrepro
reports``, report/committed.py), in a worktree that is removed afterwards, and copied back here."""

import subprocess
import sys

import pytest

from forestrepro import cli
from forestrepro.report import committed
from forestrepro.report.committed import CommittedReportError


@pytest.fixture
def reports(tmp_path, monkeypatch):
    """A fresh repository whose library says which commit it is (a file src/version.txt), as
    the current directory, and a fake Snakemake that writes that file into the report."""
    repo = tmp_path / "repo"
    (repo / "src").mkdir(parents=True)

    def git(*args):
        return subprocess.run(
            ["git", *args], cwd=repo, capture_output=True, text=True, check=True
        ).stdout.strip()

    git("init", "-q")
    git("config", "user.email", "t@example.org")
    git("config", "user.name", "t")
    commits = []
    for version in ("old", "new"):
        (repo / "src" / "version.txt").write_text(version)
        git("add", ".")
        git("commit", "-qm", version)
        commits.append(git("rev-parse", "HEAD"))
    writer = (
        "import os, pathlib, sys; out = pathlib.Path(sys.argv[1]); out.mkdir(parents=True, exist_ok=True); "
        "src = os.environ.get('PYTHONPATH', 'src').split(os.pathsep)[0]; "
        "(out / 'index.md').write_text(pathlib.Path(src, 'version.txt').read_text())"
    )
    monkeypatch.delenv("PYTHONPATH", raising=False)  # the fake reads the library PYTHONPATH names, else src/
    monkeypatch.chdir(repo)
    monkeypatch.setattr(
        committed,
        "snakemake_command",
        lambda name, entry, cores: [sys.executable, "-c", writer, f"results/report/paper/{name}"],
    )
    return repo, commits


def test_a_pinned_report_is_made_by_its_commits_code_and_the_worktree_goes(reports):
    repo, (old, _) = reports
    committed.rebuild(repo, "r", {"tag": "t", "overrides": [], "covers": "x", "commit": old}, cores=1)
    assert (repo / "results/report/paper/r/index.md").read_text() == "old"
    committed.rebuild(
        repo, "r", {"tag": "t", "overrides": [], "covers": "x"}, cores=1
    )  # unpinned: this checkout
    assert (repo / "results/report/paper/r/index.md").read_text() == "new"
    worktrees = subprocess.run(
        ["git", "worktree", "list"], cwd=repo, capture_output=True, text=True, check=True
    ).stdout
    assert len(worktrees.splitlines()) == 1, worktrees


def test_a_pin_to_an_unknown_or_later_commit_is_refused(reports):
    repo, (old, new) = reports
    with pytest.raises(CommittedReportError, match="which this clone lacks"):
        committed.rebuild(
            repo, "r", {"tag": "t", "overrides": [], "covers": "x", "commit": "0" * 40}, cores=1
        )
    subprocess.run(["git", "checkout", "-q", old], cwd=repo, check=True)
    with pytest.raises(CommittedReportError, match="not an ancestor of HEAD"):
        committed.rebuild(repo, "r", {"tag": "t", "overrides": [], "covers": "x", "commit": new}, cores=1)


def test_reports_are_rebuilt_side_by_side_each_in_its_own_worktree(reports, monkeypatch, capsys):
    repo, (old, _) = reports
    manifest = repo / "results/report/paper/reports.yaml"
    manifest.parent.mkdir(parents=True, exist_ok=True)
    manifest.write_text(
        "a: {tag: t, overrides: [], covers: x}\n"
        f"b: {{tag: t, overrides: [], covers: x, commit: {old}}}\n"
        "c: {tag: t, overrides: [], covers: x}\n"
    )
    monkeypatch.setattr("forestrepro.report.index.write_index", lambda *args: [])
    assert cli.main(["reports", "--cores", "2"]) == 0
    read = {name: (repo / f"results/report/paper/{name}/index.md").read_text() for name in "abc"}
    assert read == {"a": "new", "b": "old", "c": "new"}
    assert "3 committed reports in" in capsys.readouterr().out
    worktrees = subprocess.run(
        ["git", "worktree", "list"], cwd=repo, capture_output=True, text=True, check=True
    ).stdout
    assert len(worktrees.splitlines()) == 1, worktrees
