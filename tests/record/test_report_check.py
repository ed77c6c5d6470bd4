"""``forestrepro reports --check`` (make report-check) rebuilds the reports from HEAD's records,
so it refuses, before rebuilding anything, a clone whose run records differ from HEAD, naming each."""

import subprocess
import sys
from pathlib import Path

import pytest

from forestrepro import cli
from forestrepro.report import committed

RECORD = "results/runs/paper/brf/main/rf/wine.csv"


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True, check=True).stdout


@pytest.fixture
def clone(tmp_path, monkeypatch):
    """A temporary clone of a repository with one committed report and two committed records,
    as the current directory; its Snakemake writes the report's page as committed."""
    origin = tmp_path / "origin"
    for path, text in {
        RECORD: "fold,accuracy\n0,0.9\n",
        "results/runs/paper/brf/main/rf/sonar.csv": "fold,accuracy\n0,0.8\n",
        "results/report/paper/reports.yaml": "r: {tag: paper, overrides: [], covers: x}\n",
        "results/report/paper/r/index.md": "report\n",
    }.items():
        (origin / path).parent.mkdir(parents=True, exist_ok=True)
        (origin / path).write_text(text)
    _git(origin, "init", "-q")
    _git(origin, "config", "user.email", "t@example.org")
    _git(origin, "config", "user.name", "t")
    _git(origin, "add", ".")
    _git(origin, "commit", "-qm", "records and report")
    repo = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", str(origin), str(repo)], check=True)
    writer = (
        "import pathlib; out = pathlib.Path('results/report/paper/r'); out.mkdir(parents=True, exist_ok=True); "
        "(out / 'index.md').write_text('report\\n')"
    )
    monkeypatch.chdir(repo)
    monkeypatch.setattr(
        committed, "snakemake_command", lambda name, entry, cores: [sys.executable, "-c", writer]
    )
    return repo


CHECK = ["reports", "--cores", "1", "--check"]


def test_a_clean_clone_passes_the_check(clone, monkeypatch, capsys):
    monkeypatch.setattr("forestrepro.report.index.write_index", lambda *args: [])
    assert cli.main(CHECK) == 0
    assert "rebuilt byte for byte" in capsys.readouterr().out


def test_a_record_edited_added_or_deleted_fails_the_check_naming_it(clone, monkeypatch, capsys):
    repo = clone
    (repo / RECORD).write_text("fold,accuracy\n0,0.95\n")  # an uncommitted edit
    (repo / "results/runs/paper/brf/main/rf/sonar.csv").unlink()
    (repo / "results/runs/paper/brf/main/rf/iris.csv").write_text("fold,accuracy\n0,1.0\n")
    monkeypatch.setattr(committed, "rebuild", lambda *args: pytest.fail("rebuilt despite the edits"))
    assert cli.main(CHECK) == 2
    message = capsys.readouterr().err
    assert f"modified: {RECORD}" in message
    assert "deleted: results/runs/paper/brf/main/rf/sonar.csv" in message
    assert "added: results/runs/paper/brf/main/rf/iris.csv" in message
    assert "rebuilt from HEAD's records, so these changes are not checked" in message
