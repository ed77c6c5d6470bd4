"""Collections: many PMLB data sets in one file, each entry expanded into an ordinary data set config.

A collection is ``<registry>/collections/<name>.yaml`` (``conf/dataset/collections/`` of the
checkout), checked by ``schemas/dataset_collection.schema.yaml``. Its entries differ only in the
mirror file, its checksum, the shape and the handling the data needs, so one line-group each
replaces a near-copy of a hand-written ``<name>.yaml``: ``collection_entries`` turns each entry
into the very dict such a file would hold, and the registry (``registry.py``), the composed
configuration (``config/compose.py``), the loader and the checksums take it unchanged. A name a
file of the registry or another collection also defines is an error naming both.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

import jsonschema
import yaml

from ..resources import schema_path
from .errors import DatasetError

COLLECTIONS = "collections"
SCHEMA_PATH = schema_path("dataset_collection.schema.yaml")

# PMLB's metadata types of a feature it ships integer-coded (pmlb/feature_types.tsv in the mirror)
NOMINAL_TYPES = ("categorical", "binary", "nominal", "ordinal")


@dataclass(frozen=True)
class Entry:
    """One expanded entry: its data set ``spec`` and ``origin``, the collection file and entry
    it came from (for error messages)."""

    spec: dict
    origin: str


@functools.cache
def _validator() -> jsonschema.Draft202012Validator:
    schema = yaml.safe_load(SCHEMA_PATH.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def _read(path: Path) -> dict:
    """The collection at ``path``, validated; its ``collection`` field must be its file name."""
    collection = yaml.safe_load(path.read_text(encoding="utf-8"))
    errors = sorted(_validator().iter_errors(collection), key=lambda e: list(e.absolute_path))
    if errors:
        lines = [f"  - at '{'/'.join(map(str, e.absolute_path)) or '<top>'}': {e.message}" for e in errors]
        raise DatasetError(f"{path} does not match {SCHEMA_PATH.name}:\n" + "\n".join(lines))
    if collection["collection"] != path.stem:
        raise DatasetError(
            f"{path}: field collection is '{collection['collection']}', expected '{path.stem}' (the file name)"
        )
    return collection


def _notes(entry: dict) -> str:
    """The handling of the entry's data, in words, for the report's notes."""
    features = entry["expected"]["features"]
    nominal = entry["nominal"]
    parts = ["No OpenML copy of PMLB's file is registered: the mirror is the only source."]
    if nominal:
        parts.append(
            f"{nominal} of {features} features are nominal by PMLB's metadata ({', '.join(NOMINAL_TYPES)}), "
            "integer-coded by PMLB and read as their codes."
        )
    else:
        parts.append("Every feature is numeric by PMLB's metadata.")
    if entry["missing"] == "none":
        parts.append("No cell is missing.")
    elif entry["missing"] == "drop_incomplete_rows":
        markers = entry.get("missing_values", [])
        read_as = f" (read from {', '.join(map(repr, markers))})" if markers else ""
        parts.append(f"Rows with a missing cell{read_as} are dropped before the shape check.")
    else:
        parts.append(
            "No cell is missing in the file, but PMLB coded the source's missing-value marker as one more "
            f"value of {', '.join(entry['coded_columns'])} (a column of numbers then follows the order of its "
            "strings, '10' before '2'); kept as PMLB ships it."
        )
    if "same_data_as" in entry:
        parts.append(
            f"Holds the records of the registered data set {entry['same_data_as']} (coded as PMLB ships them), "
            "so it is not out of sample for that data set's papers."
        )
    return " ".join(parts)


def _spec(name: str, entry: dict, source: dict) -> dict:
    """The data set config of entry ``name``: what a hand-written ``<name>.yaml`` would hold."""
    pmlb = entry["file"].rsplit("/", 1)[-1].removesuffix(".tsv.gz")
    note = f" ({source['note']})" if source["note"] else ""
    mirror = {
        "format": "tsv.gz",
        "files": [{"path": entry["file"], "sha256": entry["sha256"]}],
        "separator": "\t",
        "header": True,
        "target_column": "target",
    }
    if "missing_values" in entry:
        mirror["missing_values"] = list(entry["missing_values"])
    return {
        "name": name,
        "description": (
            f"PMLB's {pmlb} as PMLB ships it: file datasets/{pmlb}/{pmlb}.tsv.gz, {source['repository']} "
            f"commit {source['commit']}{note}. Used by none of the papers (out of sample)."
        ),
        "papers": [],
        "variant_of": None,
        "stand_in": None,
        "openml": {"id": None, "version": None, "target": None, "drop_columns": []},
        "mirror": mirror,
        "target_transform": None,
        "paper_targets": {},
        "drop_incomplete_rows": entry["missing"] == "drop_incomplete_rows",
        "expected": dict(entry["expected"]),
        "published": {},
        "notes": _notes(entry),
    }


def collection_entries(directory: Path) -> dict[str, Entry]:
    """Every entry of the collections in ``directory``/collections, by data set name.

    A name that a ``<name>.yaml`` of ``directory`` or an earlier collection (in file name order)
    also defines raises ``DatasetError`` naming the data set and both places.
    """
    files = {p.stem: str(p) for p in directory.glob("*.yaml")}
    entries: dict[str, Entry] = {}
    for path in sorted((directory / COLLECTIONS).glob("*.yaml")):
        collection = _read(path)
        for name, entry in collection["datasets"].items():
            taken = files.get(name) or (entries[name].origin if name in entries else None)
            if taken:
                raise DatasetError(
                    f"data set '{name}' of {path} clashes with {taken}, which defines it too: name the "
                    f"entry '{name}_pmlb' (PMLB's name, with _pmlb where it is taken)"
                )
            entries[name] = Entry(_spec(name, entry, collection["source"]), f"{path}, entry '{name}'")
    return entries


def collection_members(directory: Path) -> dict[str, list[str]]:
    """Each collection of ``directory``/collections by its name, with its data sets' names in the
    order its file gives them: what ``${collection:<name>}`` in a paper's config stands for."""
    return {
        (collection := _read(path))["collection"]: list(collection["datasets"])
        for path in sorted((directory / COLLECTIONS).glob("*.yaml"))
    }
