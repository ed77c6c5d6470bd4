"""Snakemake's ``--config`` settings of a run, read once, each with one clear error.

The keys are those of ``schemas/run_config.schema.yaml``; a typo such as ``profil=paper`` would
otherwise run the quick profile.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable
from pathlib import Path

from .errors import PlanError


def check_keys(config: dict, schema: str | Path) -> None:
    """Refuse (``PlanError``) a key that is not one of ``schema``'s, naming the closest one and
    every valid one."""
    import yaml

    valid = sorted(yaml.safe_load(Path(schema).read_text(encoding="utf-8"))["properties"])
    for key in sorted(set(config) - set(valid)):
        close = difflib.get_close_matches(key, valid, n=1)
        hint = f" (did you mean '{close[0]}'?)" if close else ""
        raise PlanError(f"unknown --config key '{key}'{hint}; valid keys: {', '.join(valid)}")


def overrides(config: dict) -> list[str]:
    """The Hydra overrides of ``overrides=``: a list of key=value strings, or one."""
    raw = config.get("overrides", [])
    if isinstance(raw, str):
        raw = [raw] if raw else []
    if not isinstance(raw, list):
        raise PlanError(f"--config overrides must be a list of key=value strings, got {raw!r}")
    return [str(item) for item in raw]


def flag(config: dict, key: str, default: bool) -> bool:
    """A true/false setting (``partial``, ``reuse``, ``overwrite``, ``records_only``)."""
    raw = config.get(key, default)
    if raw in (True, False, 0, 1) or str(raw).lower() in ("true", "false"):
        return str(raw).lower() in ("true", "1")
    raise PlanError(f"--config {key} must be true or false, got {raw!r}")


def settings(
    config: dict, schema: str | Path, validate: Callable
) -> tuple[list[str], bool, bool, bool, bool]:
    """``(overrides, partial, reuse, overwrite, records_only)`` of Snakemake's ``config``, after
    ``check_keys`` and ``validate`` (Snakemake's ``snakemake.utils.validate``) against ``schema``."""
    check_keys(config, schema)
    validate(config, str(schema))
    flags = (("partial", False), ("reuse", True), ("overwrite", False), ("records_only", False))
    return (overrides(config), *(flag(config, key, default) for key, default in flags))


def no_compilation() -> None:
    """Planning imports every method's estimator to check its parameters and never fits one. The
    split kernels' modules compile at import (numba, eager signatures: the grow loop takes them as
    first-class functions), about 80 s of CPU in a checkout whose numba cache (__pycache__) is
    cold: every fresh clone, CI's worktrees, the tests' copies. So numba compiles nothing in the
    planning process; the setting is numba's module attribute, not its environment variable, so
    the jobs Snakemake starts compile as usual."""
    import numba

    numba.config.DISABLE_JIT = True
