"""A new PMLB file as an entry of a collection: what ``forestrepro dataset-entry`` shows and writes.

``propose`` reads ``pmlb/<PMLB name>.tsv.gz`` from the mirror and derives the collection entry
of docs/pages/extending.md: its name (the collection's naming rule), checksum, shape, the
number of nominal features and ``missing: none``. The features' types come from the mirror's
``pmlb/feature_types.tsv`` where it lists the data set (PMLB's metadata); otherwise they are
inferred from the values by PMLB's own rule (``infer_type``) and marked *inferred*, to be
confirmed by the user. A file with a missing cell, or whose data equal a data set of the papers
up to row order, column order and label names (``fingerprint.py``), is refused with an error
naming the cell's column or the paper's data set. ``append_entry`` adds the entry to the
collection's file, an inferred count of nominal features with the comment ``inferred ...:
confirm``. No training job imports this module.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pandas as pd
import yaml

from .collection import COLLECTIONS, NOMINAL_TYPES
from .errors import DatasetError
from .fingerprint import paper_matches
from .formats import parse
from .mirror import sha256_file

FEATURE_TYPES = "pmlb/feature_types.tsv"
# PMLB's rule for a feature's type where its metadata has none: two values, binary; whole
# numbers with at most this many distinct values, categorical; anything else, continuous
MAX_CATEGORICAL_LEVELS = 10
INFERRED = f"inferred from the values (2 values: binary; whole numbers, at most {MAX_CATEGORICAL_LEVELS} values: categorical; else continuous)"
PMLB_OPTIONS = {"format": "tsv.gz", "separator": "\t", "header": True, "target_column": "target"}


@dataclass(frozen=True)
class Proposal:
    """A new collection entry: its ``name``, the ``entry`` to write, each feature's type in the
    file's column order, and where the types came from (``FEATURE_TYPES`` or ``INFERRED``)."""

    name: str
    entry: dict
    types: dict[str, str]
    types_source: str

    @property
    def inferred(self) -> bool:
        return self.types_source == INFERRED


def registry_name(pmlb: str, registry: Path) -> str:
    """The collection's naming rule: PMLB's name with each character other than a letter, a
    digit or ``_`` made ``_``, and ``_pmlb`` appended where ``registry`` has a file of that name."""
    name = re.sub(r"[^A-Za-z0-9_]", "_", pmlb)
    return f"{name}_pmlb" if (registry / f"{name}.yaml").is_file() else name


def infer_type(column: pd.Series) -> str:
    """A feature's type by PMLB's rule (``MAX_CATEGORICAL_LEVELS``)."""
    values = column.dropna().unique()
    if len(values) == 2:
        return "binary"
    numbers = pd.to_numeric(pd.Series(values), errors="coerce")
    whole = numbers.notna().all() and bool((numbers == numbers.round()).all())
    return "categorical" if whole and len(values) <= MAX_CATEGORICAL_LEVELS else "continuous"


def feature_types(features: pd.DataFrame, pmlb: str, mirror_dir: Path) -> tuple[dict[str, str], str]:
    """Each feature's type and where it came from: the mirror's ``FEATURE_TYPES`` where it lists
    data set ``pmlb`` (its features must then be the file's columns, in order), else ``INFERRED``."""
    table_path = mirror_dir / FEATURE_TYPES
    if table_path.is_file():
        table = pd.read_csv(table_path, sep="\t", dtype=str)
        rows = table[table["dataset"] == pmlb]
        if len(rows):
            if list(rows["feature"]) != [str(c) for c in features.columns]:
                raise DatasetError(
                    f"{table_path} lists features {list(rows['feature'])} for '{pmlb}', but its file has "
                    f"{[str(c) for c in features.columns]}"
                )
            return dict(zip(rows["feature"], rows["type"], strict=True)), FEATURE_TYPES
    return {str(c): infer_type(features[c]) for c in features.columns}, INFERRED


def propose(file: str, mirror_dir: Path, registry: Path) -> Proposal:
    """The collection entry of the mirror's PMLB ``file`` (``pmlb/<PMLB name>.tsv.gz``), for a
    collection of ``registry``; see the module docstring for what is refused."""
    if not re.fullmatch(r"pmlb/[^/]+\.tsv\.gz", file):
        raise DatasetError(
            f"{file}: a collection entry is a PMLB file of the mirror, pmlb/<PMLB name>.tsv.gz"
        )
    path = mirror_dir / file
    if not path.is_file():
        raise DatasetError(
            f"{file}: no such file in the mirror {mirror_dir} (set FORESTREPRO_MIRROR or --mirror)"
        )
    pmlb = file.removeprefix("pmlb/").removesuffix(".tsv.gz")
    features, target = parse(PMLB_OPTIONS, [path])
    holes = [str(c) for c in features.columns if features[c].isna().any()]
    if holes or target.isna().any():
        raise DatasetError(
            f"{file}: missing cells in {holes or ['target']}; write its entry by hand with "
            "missing: drop_incomplete_rows (docs/pages/extending.md)"
        )
    same = paper_matches(features, target, mirror_dir, registry)
    if same:
        raise DatasetError(
            f"{file} holds the same data as the papers' data set {', '.join(repr(n) for n in same)} (up to "
            "row order, column order and label names): it is not out of sample, and is refused"
        )
    types, source = feature_types(features, pmlb, mirror_dir)
    entry = {
        "file": file,
        "sha256": sha256_file(path),
        "expected": {"rows": len(features), "features": features.shape[1], "classes": int(target.nunique())},
        "nominal": sum(kind in NOMINAL_TYPES for kind in types.values()),
        "missing": "none",
    }
    return Proposal(registry_name(pmlb, registry), entry, types, source)


def entry_text(proposal: Proposal) -> str:
    """The entry as the lines to put under the collection's ``datasets:`` (indented by two)."""
    entry = proposal.entry
    shape = ", ".join(f"{key}: {value}" for key, value in entry["expected"].items())
    confirm = f"  # {INFERRED}: confirm" if proposal.inferred else ""
    return (
        f"  {proposal.name}:\n"
        f"    file: {entry['file']}\n"
        f"    sha256: {entry['sha256']}\n"
        f"    expected: {{{shape}}}\n"
        f"    nominal: {entry['nominal']}{confirm}\n"
        f"    missing: {entry['missing']}\n"
    )


def append_entry(proposal: Proposal, registry: Path, collection: str) -> Path:
    """Append the entry to ``registry``/collections/``collection``.yaml (its ``datasets`` are the
    file's last block); a name the collection has is an error. Returns the file."""
    path = registry / COLLECTIONS / f"{collection}.yaml"
    if not path.is_file():
        raise DatasetError(f"no collection '{collection}': {path} does not exist")
    text = path.read_text(encoding="utf-8")
    if proposal.name in yaml.safe_load(text)["datasets"]:
        raise DatasetError(f"{path} has an entry '{proposal.name}' already")
    path.write_text(text.rstrip("\n") + "\n" + entry_text(proposal), encoding="utf-8")
    return path
