"""The data set registry: one YAML file per data set, or one entry of a collection, validated on load.

The registry is the package's ``datasets/`` (``conf/dataset/`` of the checkout), or the
directory that ``config_dir`` or ``FORESTREPRO_DATASETS`` names (``forestrepro.resources``);
the schema is the packaged ``schemas/dataset.schema.yaml`` (JSON Schema written in YAML). The
collections in its ``collections/`` (``collection.py``) add data sets by name, each expanded
into the same config a ``<name>.yaml`` would hold.
"""

from __future__ import annotations

import difflib
import functools
from pathlib import Path

import jsonschema
import yaml

from ..resources import dataset_dir, schema_path
from .collection import COLLECTIONS, collection_entries
from .errors import DatasetError

SCHEMA_PATH = schema_path("dataset.schema.yaml")


def _config_dir(config_dir: str | Path | None) -> Path:
    return Path(config_dir) if config_dir is not None else dataset_dir()


@functools.cache
def _validator() -> jsonschema.Draft202012Validator:
    schema = yaml.safe_load(SCHEMA_PATH.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def list_datasets(config_dir: str | Path | None = None) -> list[str]:
    """Names of all registered data sets (the ``*.yaml`` stems of ``config_dir`` and the entries of
    its collections), sorted.

    ``config_dir`` defaults to the packaged registry (``forestrepro.resources.dataset_dir``).
    """
    directory = _config_dir(config_dir)
    return sorted([*(p.stem for p in directory.glob("*.yaml")), *collection_entries(directory)])


def validate_spec(spec: object, source: str) -> None:
    """Raise ``DatasetError`` listing every schema violation of ``spec`` (read from ``source``)."""
    errors = sorted(_validator().iter_errors(spec), key=lambda e: list(e.absolute_path))
    if errors:
        lines = [f"  - at '{'/'.join(map(str, e.absolute_path)) or '<top>'}': {e.message}" for e in errors]
        raise DatasetError(f"{source} does not match {SCHEMA_PATH.name}:\n" + "\n".join(lines))


def load_spec(name: str, config_dir: str | Path | None = None) -> dict:
    """Read and validate the config of data set ``name`` (its file, or its collection entry); an
    unknown name lists close and valid names."""
    directory = _config_dir(config_dir)
    entries = collection_entries(directory)
    path = directory / f"{name}.yaml"
    if name in entries:
        spec, source = entries[name].spec, entries[name].origin
    elif path.is_file():
        spec, source = yaml.safe_load(path.read_text(encoding="utf-8")), str(path)
    else:
        names = list_datasets(directory)
        close = difflib.get_close_matches(name, names, n=3, cutoff=0.6)
        hint = f" Did you mean: {', '.join(close)}?" if close else ""
        raise DatasetError(
            f"unknown data set '{name}' (no {path}, nor an entry of {directory / COLLECTIONS})."
            f"{hint} Valid names: {', '.join(names) or 'none'}"
        )
    validate_spec(spec, source)
    if spec["name"] != name:
        raise DatasetError(f"{path}: field name is '{spec['name']}', expected '{name}' (the file name)")
    return spec
