"""A committed report pinned to a commit is rebuilt by that commit's code (workflow/scripts/
committed_reports.py), in a worktree that is removed afterwards, and copied back here."""

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "workflow" / "scripts" / "committed_reports.py"


@pytest.fixture
def reports(tmp_path, monkeypatch):
    """The script as a module, pointed at a fresh repository whose library says which commit
    it is: a file src/version.txt and a fake Snakemake that writes it into the report."""
    spec = importlib.util.spec_from_file_location("committed_reports", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
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
    monkeypatch.setattr(module, "REPO", repo)
    monkeypatch.setattr(
        module,
        "snakemake_command",
        lambda name, entry, cores: [sys.executable, "-c", writer, f"results/report/paper/{name}"],
    )
    return module, repo, commits


def test_a_pinned_report_is_made_by_its_commits_code_and_the_worktree_goes(reports):
    module, repo, (old, _) = reports
    module.rebuild("r", {"tag": "t", "overrides": [], "covers": "x", "commit": old}, cores=1)
    assert (repo / "results/report/paper/r/index.md").read_text() == "old"
    module.rebuild("r", {"tag": "t", "overrides": [], "covers": "x"}, cores=1)  # unpinned: this checkout
    assert (repo / "results/report/paper/r/index.md").read_text() == "new"
    worktrees = subprocess.run(
        ["git", "worktree", "list"], cwd=repo, capture_output=True, text=True, check=True
    ).stdout
    assert len(worktrees.splitlines()) == 1, worktrees


def test_a_pin_to_an_unknown_or_later_commit_is_refused(reports):
    module, repo, (old, new) = reports
    with pytest.raises(SystemExit, match="which this clone lacks"):
        module.rebuild("r", {"tag": "t", "overrides": [], "covers": "x", "commit": "0" * 40}, cores=1)
    subprocess.run(["git", "checkout", "-q", old], cwd=repo, check=True)
    with pytest.raises(SystemExit, match="not an ancestor of HEAD"):
        module.rebuild("r", {"tag": "t", "overrides": [], "covers": "x", "commit": new}, cores=1)


def test_reports_are_rebuilt_side_by_side_each_in_its_own_worktree(reports, monkeypatch, capsys):
    module, repo, (old, _) = reports
    manifest = repo / "results/report/paper/reports.yaml"
    manifest.parent.mkdir(parents=True, exist_ok=True)
    manifest.write_text(
        "a: {tag: t, overrides: [], covers: x}\n"
        f"b: {{tag: t, overrides: [], covers: x, commit: {old}}}\n"
        "c: {tag: t, overrides: [], covers: x}\n"
    )
    monkeypatch.setattr(sys, "argv", ["committed_reports.py", "--cores", "2"])
    module.main()
    read = {name: (repo / f"results/report/paper/{name}/index.md").read_text() for name in "abc"}
    assert read == {"a": "new", "b": "old", "c": "new"}
    assert "3 committed reports in" in capsys.readouterr().out
    worktrees = subprocess.run(
        ["git", "worktree", "list"], cwd=repo, capture_output=True, text=True, check=True
    ).stdout
    assert len(worktrees.splitlines()) == 1, worktrees
