"""The entry point of the Snakemake fetch rule: load one registered data set and write it."""

from __future__ import annotations

import os
from pathlib import Path

from .loader import load_dataset
from .registry import load_spec
from .store import write_dataset


def fetch(
    name: str,
    out_parquet: str | os.PathLike,
    out_provenance: str | os.PathLike,
    *,
    sources: tuple[str, ...] = ("mirror", "openml"),
    mirror_dir: str | Path | None = None,
    openml_cache: str | Path | None = None,
    config_dir: str | Path | None = None,
) -> dict:
    """Load data set ``name`` from ``sources`` and write it to ``out_parquet`` / ``out_provenance``.

    Returns the provenance. Raises ``DatasetError`` naming the data set and what was tried.
    """
    loaded = load_dataset(load_spec(name, config_dir), sources=tuple(sources), mirror_dir=mirror_dir,
                          openml_cache=openml_cache)
    write_dataset(loaded, out_parquet, out_provenance)
    return loaded.provenance
