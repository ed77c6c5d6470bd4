"""Lazy package exports (PEP 562): a name is imported from its module on first use.

A job's record hashes the library modules the job imported (``record/provenance.py``).
Packages whose ``__init__`` imported every submodule made every job depend on every module;
with lazy exports a job imports, and so depends on, only the modules it uses.
"""

from __future__ import annotations

from importlib import import_module


def lazy_exports(package: str, exports: dict[str, str]):
    """``(__getattr__, __dir__)`` for ``package``, whose public ``name`` lives in the
    submodule ``exports[name]`` (relative to the package)."""

    def __getattr__(name: str):
        if name not in exports:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(import_module(f".{exports[name]}", package), name)

    def __dir__() -> list[str]:
        return sorted(exports)

    return __getattr__, __dir__
