"""Git ignores every run's local records but the committed tags': a run under a new tag (an
ablation's ``<profile>-<hash>``, a named tag, ``quick``) leaves nothing untracked, while a record
written under a committed tag (those of ``results/report/paper/reports.yaml``) shows as new. It
also ignores what ``pip wheel`` leaves (``build/``)."""

import subprocess
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
RECORD = "brf/main/brf/wine"


def ignored(paths):
    """The paths git's ignore rules exclude, as if none were tracked (``--no-index``)."""
    done = subprocess.run(
        ["git", "check-ignore", "--no-index", "--stdin"],
        cwd=ROOT,
        input="\n".join(paths),
        capture_output=True,
        text=True,
    )
    if done.returncode not in (0, 1):  # 1: none of them is ignored
        pytest.skip(f"not a git work tree: {done.stderr.strip()}")
    return set(done.stdout.splitlines())


def committed_tags():
    """The tags of the committed reports, and every tag git tracks records of."""
    manifest = yaml.safe_load((ROOT / "results/report/paper/reports.yaml").read_text(encoding="utf-8"))
    tracked = subprocess.run(
        ["git", "ls-files", "results/runs"], cwd=ROOT, capture_output=True, text=True
    ).stdout.splitlines()
    return {entry["tag"] for entry in manifest.values()} | {
        path.split("/")[2] for path in tracked if path.count("/") > 2
    }


def test_a_new_tags_records_are_ignored():
    paths = [
        f"results/runs/{tag}/{RECORD}{suffix}"
        for tag in ("quick", "quick-abc123", "paper-0f3e2d1c", "rf500")
        for suffix in (".csv", ".provenance.json")
    ]
    paths += [
        "results/runs/quick-abc123/x.csv",
        "results/runs/quick-abc123/pieces/brf/main/brf/wine/log.json",
    ]
    assert ignored(paths) == set(paths)


def test_a_committed_tags_records_pieces_and_ledger_are_not_ignored():
    tags = committed_tags()
    assert {"paper", "c2rf_10s", "c2rf_600s"} <= tags
    paths = ["results/runs/equivalences.tsv"]
    for tag in tags:
        paths += [f"results/runs/{tag}/{RECORD}.csv", f"results/runs/{tag}/{RECORD}.provenance.json"]
        paths.append(f"results/runs/{tag}/pieces/{RECORD}/manifest.json")
    assert ignored(paths) == set()


def test_a_committed_tags_local_files_and_a_wheels_build_are_ignored():
    local = [f"results/runs/paper/{part}" for part in ("specs/x.json", "scans/x.npz", "config.yaml")]
    build = ["build/lib/forestrepro/__init__.py", "build/bdist.linux-x86_64/x"]
    assert ignored(local + build) == set(local + build)
