"""A run's data sets: the name of each one's files, and where the fetch step reads them from.

A data set's files are named by its configuration's content (``config.jobs.data_key``). Where they
are read from (the sources, the mirror's folder, the OpenML cache) reaches the fetch step through
its environment, not its params (no rerun trigger): reading the same files from elsewhere, or
offline, refetches nothing.
"""

from __future__ import annotations

from ..config.jobs import data_key


def data_files(cfg: dict, jobs: list) -> tuple[dict[str, str], dict[str, str]]:
    """``({data set: its files' key}, {environment variable: value})`` for the data sets of
    ``jobs``, sorted by name; the variables are ``FORESTREPRO_DATA_SOURCES`` (space-separated),
    ``FORESTREPRO_MIRROR_DIR`` and ``FORESTREPRO_OPENML_CACHE``, from ``cfg["data"]``."""
    keys = {dataset: data_key(cfg["dataset"][dataset]) for dataset in sorted({job.dataset for job in jobs})}
    environment = {
        "FORESTREPRO_DATA_SOURCES": " ".join(cfg["data"]["sources"]),
        "FORESTREPRO_MIRROR_DIR": str(cfg["data"]["mirror_dir"]),
        "FORESTREPRO_OPENML_CACHE": str(cfg["data"]["openml_cache"]),
    }
    return keys, environment
