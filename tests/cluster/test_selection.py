"""The Slurm tests run only when asked for by marker (conftest.py), and where Slurm is missing
they are skipped, or fail under FORESTREPRO_REQUIRE_SLURM=1 (what .ci/run sets)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from .test_slurm import REPO, require_slurm

SLURM_TESTS = ["tests/cluster/test_slurm.py", "tests/cluster/test_slurm_smoke.py"]


def _pytest(*args, path):
    """pytest on the two Slurm tests alone, with ``path`` as PATH: its summary of skips."""
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider", *args, *SLURM_TESTS],
        cwd=REPO,
        env={**os.environ, "PATH": path, "FORESTREPRO_REQUIRE_SLURM": ""},
        capture_output=True,
        text=True,
        check=False,
    )
    return proc.stdout


def test_the_slurm_tests_run_only_when_asked_for_by_marker():
    here = os.environ["PATH"]
    unasked = _pytest("-k", "through_slurm or slurm_run", path=here)
    assert "2 skipped" in unasked, unasked
    for marker in ("slurm_smoke", "slurm_full"):
        assert f"runs only when asked for: pytest -m {marker} tests/cluster" in unasked, unasked
    # asked for, each reaches its own checks: here, with no sinfo on PATH, a skip saying so
    asked = _pytest("-m", "slurm_smoke or slurm_full", path=str(Path(sys.executable).parent))
    assert "2 skipped" in asked and "no Slurm here (sinfo not on PATH)" in asked, asked
    assert "runs only when asked for" not in asked, asked


def test_without_slurm_a_test_skips_or_fails_when_slurm_is_required(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))  # no sinfo
    monkeypatch.delenv("FORESTREPRO_REQUIRE_SLURM", raising=False)
    with pytest.raises(pytest.skip.Exception, match="sinfo not on PATH"):
        require_slurm()
    monkeypatch.setenv("FORESTREPRO_REQUIRE_SLURM", "1")
    with pytest.raises(pytest.fail.Exception, match="sinfo not on PATH"):
        require_slurm()
