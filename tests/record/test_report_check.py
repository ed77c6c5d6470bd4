"""``committed_reports.py --check`` (make report-check) rebuilds the reports from HEAD's records,
so it refuses, before rebuilding anything, a clone whose run records differ from HEAD, naming each."""

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "workflow" / "scripts" / "committed_reports.py"
RECORD = "results/runs/paper/brf/main/rf/wine.csv"


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True, check=True).stdout


@pytest.fixture
def clone(tmp_path, monkeypatch):
    """The script as a module, pointed at a temporary clone of a repository with one committed
    report and two committed records; its Snakemake writes the report's page as committed."""
    spec = importlib.util.spec_from_file_location("committed_reports", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
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
    monkeypatch.setattr(module, "REPO", repo)
    monkeypatch.setattr(
        module, "snakemake_command", lambda name, entry, cores: [sys.executable, "-c", writer]
    )
    monkeypatch.setattr(sys, "argv", ["committed_reports.py", "--cores", "1", "--check"])
    return module, repo


def test_a_clean_clone_passes_the_check(clone, monkeypatch, capsys):
    module, repo = clone
    monkeypatch.setattr("forestrepro.report.index.write_index", lambda *args: [])
    module.main()
    assert "rebuilt byte for byte" in capsys.readouterr().out


def test_a_record_edited_added_or_deleted_fails_the_check_naming_it(clone, monkeypatch):
    module, repo = clone
    (repo / RECORD).write_text("fold,accuracy\n0,0.95\n")  # an uncommitted edit
    (repo / "results/runs/paper/brf/main/rf/sonar.csv").unlink()
    (repo / "results/runs/paper/brf/main/rf/iris.csv").write_text("fold,accuracy\n0,1.0\n")
    monkeypatch.setattr(module, "rebuild", lambda *args: pytest.fail("rebuilt despite the edits"))
    with pytest.raises(SystemExit) as failed:
        module.main()
    message = str(failed.value)
    assert f"modified: {RECORD}" in message
    assert "deleted: results/runs/paper/brf/main/rf/sonar.csv" in message
    assert "added: results/runs/paper/brf/main/rf/iris.csv" in message
    assert "rebuilt from HEAD's records, so these changes are not checked" in message
