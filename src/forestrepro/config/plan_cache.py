"""A content-keyed cache of a run's plan: the composed configuration, its tag, its jobs and
their specification files.

Planning composes ``conf/`` with Hydra, dumps every job's spec and checks each method's
parameters against its estimator (importing scikit-learn and the estimators): seconds of CPU
that every Snakemake invocation and every ``forestrepro plan`` paid again, for the same answer
as long as nothing it reads changed. So the plan is kept under
``<user cache>/plans/<key>.pickle`` (``checkpoint.location``), keyed by the SHA-256 of all it
depends on:

- every file under the configuration directory (``conf/``: paths and bytes);
- every source file of the library (``src/forestrepro``: the composition, the planning, the
  schemas and the estimators whose parameters are checked);
- the overrides, the profile, the tag asked for and the results directory;
- the environment variables the configuration reads (``FORESTREPRO_*``) and the versions of
  Python, Hydra, OmegaConf and scikit-learn.

A changed byte in any of them is another key, so a stale plan is never read; an error
(``ConfigError``) is never cached, so it is raised again, with its message, every time. The
cached value is the planner's own output (pickle), identical to planning anew (tested). The
store keeps the ``KEEP`` most recently used plans.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import sys
from importlib import metadata
from pathlib import Path

from ..checkpoint.location import user_cache_dir
from ..io import atomic_path

PACKAGE_ROOT = Path(__file__).resolve().parents[1]
KEEP = 32
_SUFFIXES = (".py", ".yaml", ".yml", ".json", ".csv", ".tsv")


def _tree_digest(digest, root: Path) -> None:
    """Feed every file under ``root`` with one of ``_SUFFIXES`` (its relative path and bytes)."""
    for path in sorted(p for p in root.rglob("*") if p.suffix in _SUFFIXES and "__pycache__" not in p.parts):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())


def plan_key(conf_dir: Path, overrides: list[str], profile: str | None, tag: str | None, results: str) -> str:
    """The content key of a plan (module docstring)."""
    digest = hashlib.sha256()
    _tree_digest(digest, Path(conf_dir))
    digest.update(b"\1")
    _tree_digest(digest, PACKAGE_ROOT)
    versions = [sys.version]
    for package in ("hydra-core", "omegaconf", "scikit-learn"):
        try:
            versions.append(f"{package}={metadata.version(package)}")
        except metadata.PackageNotFoundError:
            versions.append(f"{package}=none")
    env = sorted((k, v) for k, v in os.environ.items() if k.startswith("FORESTREPRO_"))
    for part in (overrides, profile, tag, str(results), env, versions):
        digest.update(repr(part).encode() + b"\2")
    return digest.hexdigest()


def plans_dir() -> Path:
    return user_cache_dir() / "plans"


def _load(path: Path):
    try:
        with path.open("rb") as handle:
            value = pickle.load(handle)
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError):
        return None
    try:
        os.utime(path)  # most recently used
    except OSError:
        pass
    return value


def _store(path: Path, value) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with atomic_path(path) as tmp, open(tmp, "wb") as handle:
            pickle.dump(value, handle, protocol=pickle.HIGHEST_PROTOCOL)
        kept = sorted(path.parent.glob("*.pickle"), key=lambda p: p.stat().st_mtime, reverse=True)
        for old in kept[KEEP:]:
            old.unlink(missing_ok=True)
    except OSError:
        pass  # a read-only cache plans every time, as before


def cached_plan(
    overrides: list[str],
    *,
    profile: str | None,
    tag: str | None,
    conf_dir: str | Path,
    results: str = "results",
    before_planning=None,
) -> tuple[dict, str, list, dict]:
    """``(configuration, tag, jobs, spec files)`` as ``compose_config``, ``compute_tag`` and
    ``plan_spec_files`` give them, from the cache where its key was planned before; else planned
    now, after calling ``before_planning`` (the Snakefile turns numba's compilation off there)."""
    conf_dir = Path(conf_dir)
    path = plans_dir() / f"{plan_key(conf_dir, list(overrides), profile, tag, results)}.pickle"
    if (value := _load(path)) is not None:
        return value
    if before_planning is not None:
        before_planning()
    from .compose import compose_config
    from .jobs import compute_tag, plan_spec_files

    cfg = compose_config(overrides, profile=profile, conf_dir=conf_dir)
    run_tag = compute_tag(cfg, tag, overrides=overrides, conf_dir=conf_dir)
    jobs, files = plan_spec_files(cfg, run_tag, results)
    value = (cfg, run_tag, jobs, files)
    _store(path, value)
    return value
