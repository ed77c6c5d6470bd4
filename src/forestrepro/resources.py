"""Files shipped inside the package: the JSON Schemas and the data set registry.

``schemas/*.schema.yaml`` validate a composed configuration (``config/schema.py``), a data set's
configuration (``data/registry.py``) and Snakemake's ``--config`` (``workflow/rules/common.smk``).
``datasets/`` is the registry, one YAML file per data set: in a checkout a link to
``conf/dataset`` (the Hydra group the workflow composes), in an installed package a copy of it
(package data). ``FORESTREPRO_DATASETS`` points the registry at another directory.
"""

from __future__ import annotations

import os
from importlib import resources
from pathlib import Path


def schema_path(name: str) -> Path:
    """The packaged JSON Schema ``name`` (e.g. ``"dataset.schema.yaml"``)."""
    return Path(str(resources.files("forestrepro") / "schemas" / name))


def dataset_dir() -> Path:
    """The data set registry: ``$FORESTREPRO_DATASETS``, else the packaged ``datasets/``."""
    override = os.environ.get("FORESTREPRO_DATASETS")
    return Path(override) if override else Path(str(resources.files("forestrepro") / "datasets"))


def default_conf_dir() -> Path:
    """``$FORESTREPRO_CONF``, else ``conf/`` in the working directory (the checkout's root, where
    the workflow and the command line run; the workflow passes its own)."""
    return Path(os.environ.get("FORESTREPRO_CONF") or "conf")
