"""What a run record says about where it came from: the code, the commit, the machine.

The code a job depends on is the set of ``forestrepro`` source files the job's process had
imported when it wrote its record (``imported_code``), each with its SHA-256: a job that
never imported a module does not depend on it, so editing one method's module reruns the
jobs of the methods that import it and no other (``record/currency.py``). Module-level
imports are kept lazy where a registry dispatches (methods, protocols) for that reason.

The commit is the one checked out in the repository that holds the package; the tree is
*clean* when no file that can change a result (``RESULT_PATHS``: the library, the
configuration and the workflow) differs from that commit. Records and outputs elsewhere in
the tree do not make it dirty, so a long run stays clean while its finished records are
committed beside it.
"""

from __future__ import annotations

import hashlib
import platform
import subprocess
import sys
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path

PACKAGE_ROOT = Path(__file__).resolve().parents[1]  # src/forestrepro
PACKAGES = ("numpy", "pandas", "scipy", "scikit-learn", "numba", "highspy", "pyarrow", "matplotlib")
RESULT_PATHS = ("src", "conf", "workflow", "Snakefile", "pyproject.toml", "constraints.txt")
# Code a job imports that cannot change its numbers, so editing it leaves records current:
# the command line (it parses arguments and calls ``runner.py``), the progress lines it logs
# (``progress.py``: it reads log records and the clock, and no library module imports it), the
# check of a job's class sizes against its folds that the command line makes before training
# (``evaluation/folds.py``: it refuses a job or lets it run, and no training module imports it)
# and this package, which writes and checks records (a change of what a record holds bumps
# ``store.FORMAT``).
NOT_RESULT_CODE = ("cli.py", "progress.py", "evaluation/folds.py", "record/")


def file_sha256(path: str | Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def result_code(source: str | Path) -> str | None:
    """A module file's path relative to the package if it is one of ours that can change a
    number (not ``NOT_RESULT_CODE``), else None."""
    try:
        relative = Path(source).resolve().relative_to(PACKAGE_ROOT).as_posix()
    except ValueError:  # a forestrepro module loaded from somewhere else: not ours to hash
        return None
    return None if relative.startswith(NOT_RESULT_CODE) else relative


def imported_code(modules: dict | None = None) -> dict[str, str]:
    """``{path relative to the package: sha256}`` of every imported ``forestrepro`` module file."""
    modules = sys.modules if modules is None else modules
    files = {}
    for name, module in list(modules.items()):
        if name != "forestrepro" and not name.startswith("forestrepro."):
            continue
        source = getattr(module, "__file__", None)
        if source and (relative := result_code(source)):
            files[relative] = file_sha256(source)
    return dict(sorted(files.items()))


def code_digest(files: dict[str, str]) -> str:
    """One hash of a ``{path: sha256}`` file set (order-independent)."""
    text = "\n".join(f"{path} {sha}" for path, sha in sorted(files.items()))
    return hashlib.sha256(text.encode()).hexdigest()


def _git(root: Path, *args: str) -> str | None:
    try:
        proc = subprocess.run(
            ["git", "-C", str(root), *args], capture_output=True, text=True, timeout=30, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return proc.stdout if proc.returncode == 0 else None


def git_state(package_root: Path = PACKAGE_ROOT) -> dict:
    """``{"commit": sha or None, "clean": bool or None, "changed": [...]}`` of the checkout
    holding the package (None where the package is not in a git checkout)."""
    top = _git(package_root, "rev-parse", "--show-toplevel")
    commit = _git(package_root, "rev-parse", "HEAD")
    if top is None or commit is None:
        return {"commit": None, "clean": None, "changed": []}
    status = _git(Path(top.strip()), "status", "--porcelain", "--untracked-files=all", "--", *RESULT_PATHS)
    changed = sorted(line[3:] for line in (status or "").splitlines() if line.strip())
    return {"commit": commit.strip(), "clean": status is not None and not changed, "changed": changed}


def environment() -> dict:
    """The machine, Python and the versions of the numerical packages."""
    versions = {}
    for name in PACKAGES:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return {
        "machine": f"{platform.machine()}, {platform.system()} {platform.release()}",
        "python": platform.python_version(),
        "packages": versions,
    }


def utc_now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
