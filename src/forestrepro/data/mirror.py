"""The offline mirror source: files listed in the config, checked by sha256, then parsed.

The directory is passed in (the workflow passes ``data.mirror_dir`` of its configuration,
by default ``$FORESTREPRO_MIRROR`` or ``../shared/datasets``, see its README and MANIFEST.tsv);
a library user without one may set ``FORESTREPRO_MIRROR`` (``default_mirror_dir``).
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pandas as pd

from .errors import DatasetError, SourceUnavailable
from .formats import parse


def default_mirror_dir() -> Path:
    """``$FORESTREPRO_MIRROR``; without it there is no mirror (``SourceUnavailable``)."""
    directory = os.environ.get("FORESTREPRO_MIRROR")
    if not directory:
        raise SourceUnavailable("no mirror directory given (pass mirror_dir or set FORESTREPRO_MIRROR)")
    return Path(directory)


def sha256_file(path: Path) -> str:
    """Hex sha256 of a file, read in 1 MiB blocks."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def load_mirror(spec: dict, mirror_dir: Path) -> tuple[pd.DataFrame, pd.Series, dict]:
    """Return (features, target, provenance part) from the mirror.

    A missing file raises ``SourceUnavailable`` (the next source is tried); a file whose sha256
    differs from the config raises ``DatasetError`` at once.
    """
    name, files = spec["name"], spec["mirror"]["files"]
    paths = [mirror_dir / entry["path"] for entry in files]
    absent = [entry["path"] for entry, path in zip(files, paths, strict=True) if not path.is_file()]
    if absent:
        raise SourceUnavailable(f"mirror {mirror_dir}: missing {', '.join(absent)}")
    for entry, path in zip(files, paths, strict=True):
        found = sha256_file(path)
        if found != entry["sha256"]:
            raise DatasetError(
                f"{name}: checksum mismatch for mirror file {path}: expected sha256 {entry['sha256']}, "
                f"found {found}. The file is corrupt or not the registered one; no other source is tried."
            )
    features, target = parse(spec["mirror"], paths)
    return features, target, {"source": "mirror", "files": [dict(entry) for entry in files]}
