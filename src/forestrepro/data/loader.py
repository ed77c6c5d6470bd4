"""Load a data set from the first configured source that has it, with its provenance."""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

import pandas as pd

from .errors import DatasetError, SourceUnavailable
from .mirror import default_mirror_dir, load_mirror
from .openml_source import load_openml
from .synthetic import generate
from .tabular import finalize

RECORDED_PACKAGES = ("numpy", "pandas", "scipy", "openml", "pyarrow", "h5py", "liac-arff")


@dataclass(frozen=True)
class LoadedDataset:
    """``frame``: float64 features (text columns as str) plus the label column ``target``;
    ``provenance``: where it came from (no timestamp, so reruns are byte-identical)."""

    frame: pd.DataFrame
    provenance: dict


def _package_versions() -> dict[str, str | None]:
    versions = {}
    for package in RECORDED_PACKAGES:
        try:
            versions[package] = version(package)
        except PackageNotFoundError:
            versions[package] = None
    return versions


def _origin(part: dict) -> str:
    if part["source"] == "synthetic":
        return f"synthetic generator {part['synthetic']['generator']}"
    if part["source"] == "mirror":
        return "mirror file(s) " + ", ".join(entry["path"] for entry in part["files"])
    return f"OpenML data set {part['openml']['id']}"


def _loaded(spec: dict, features, target, part: dict, skipped: list) -> LoadedDataset:
    text_columns = spec.get("mirror", {}).get("text_columns", [])
    frame, info = finalize(features, target, spec, text_columns=text_columns, origin=_origin(part))
    canonical = json.dumps(spec, sort_keys=True, separators=(",", ":")).encode()
    provenance = {
        "dataset": spec["name"],
        "config_sha256": hashlib.sha256(canonical).hexdigest(),
        **part,
        **info,
        "skipped_sources": skipped,
        "packages": _package_versions(),
    }
    return LoadedDataset(frame=frame, provenance=provenance)


def load_dataset(
    spec: dict,
    *,
    sources: tuple[str, ...] = ("mirror", "openml"),
    mirror_dir: str | Path | None = None,
    openml_cache: str | Path | None = None,
) -> LoadedDataset:
    """Load the data set ``spec`` (from ``load_spec``) from the first of ``sources`` that has it.

    ``mirror_dir`` defaults to ``$FORESTREPRO_MIRROR`` (without it the mirror is skipped),
    ``openml_cache`` to ``$FORESTREPRO_OPENML_CACHE`` or ``results/openml_cache`` under the
    working directory (the workflow passes both). A source that lacks the data (missing file, no OpenML id,
    OpenML unreachable) is skipped and recorded; a checksum or shape mismatch raises
    ``DatasetError`` at once. If no source delivers, the error lists every source tried and why.

    A synthetic data set (``spec["synthetic"]``: no mirror, no OpenML id) is drawn by its
    generator (``forestrepro.data.synthetic``) whatever ``sources`` says; its provenance has
    ``source: synthetic`` and the generator, sample size and seed.
    """
    if "synthetic" in spec:
        features, target, part = generate(spec)
        return _loaded(spec, features, target, part, [])
    readers = {
        "mirror": lambda: load_mirror(spec, default_mirror_dir() if mirror_dir is None else Path(mirror_dir)),
        "openml": lambda: load_openml(
            spec,
            Path(
                openml_cache
                if openml_cache is not None
                else os.environ.get("FORESTREPRO_OPENML_CACHE", "results/openml_cache")
            ),
        ),
    }
    unknown = [s for s in sources if s not in readers]
    if unknown or not sources:
        raise DatasetError(f"unknown sources {unknown or '(none given)'}; choose from {sorted(readers)}")
    skipped = []
    for source in sources:
        try:
            features, target, part = readers[source]()
        except SourceUnavailable as error:
            skipped.append({"source": source, "reason": str(error)})
            continue
        return _loaded(spec, features, target, part, skipped)
    tried = "\n".join(f"  - {s['source']}: {s['reason']}" for s in skipped)
    raise DatasetError(f"{spec['name']}: no source could provide the data set; tried:\n{tried}")
