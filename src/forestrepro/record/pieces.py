"""A running job's piece log: the library files its kept pieces depend on, and where they are.

A stopped job's kept pieces (``workflow/scripts/pieces.py``: C2RF samples, cross-validation
folds, cascade forests) are only as good as the code that made them, and that code is among the
library files the job's process had imported when it wrote them. ``PieceLog`` appends to a text
file, as the job goes, one line per:

- library file imported, at the moment the import finds it (before the module runs), with its
  SHA-256 (``code <path> <sha256>``): so whenever a piece is written, even if the process is
  then killed without warning, the file lists every library file the piece can depend on. Files
  that cannot change a number (``provenance.NOT_RESULT_CODE``) are left out, as from a record's
  ``code.files``;
- cascade part kept or read (``parts <key>``), from the line ``checkpoint/parts.py`` logs for
  each (the job's own log is emptied by Snakemake before each attempt, this file is not).

Lines are flushed as written. A job resumed several times appends to the same file; a path
listed with two hashes means its pieces were made by two versions of that file. The file is
removed once the job's record is written.
"""

from __future__ import annotations

import importlib.abc
import logging
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

from .provenance import file_sha256, imported_code, result_code

# KeptParts' log lines (checkpoint/parts.py): "kept <name> (<s> s) in <key>.parts", "read kept <name> from <key>.parts"
PART_LINE = re.compile(r"(?:\bkept \S+ \(\d+ s\) in|\bread kept \S+ from) ([0-9a-f]{64})\.parts\b")


class PieceLog:
    """Writes a running job's piece log at ``path`` (``install`` ... ``uninstall``)."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self._finder, self._handler = _ImportNoter(self.path), _PartsNoter(self.path)

    def install(self, files: dict[str, str] | None = None) -> PieceLog:
        """Write down ``files`` (``{path: sha256}`` the job depends on besides its imports, such
        as the code that made its data) and the library files imported so far, then every one
        imported and every cascade part kept or read from now on."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        append(self.path, code={**(files or {}), **imported_code()})
        sys.meta_path.insert(0, self._finder)
        logger = logging.getLogger("forestrepro")
        if logger.getEffectiveLevel() > logging.INFO:  # the parts' lines are INFO
            logger.setLevel(logging.INFO)
        logger.addHandler(self._handler)
        return self

    def uninstall(self) -> None:
        logging.getLogger("forestrepro").removeHandler(self._handler)
        if self._finder in sys.meta_path:
            sys.meta_path.remove(self._finder)


class _ImportNoter(importlib.abc.MetaPathFinder):
    """A finder that finds nothing itself: it asks the finders after it, as the import system
    would, and writes down the library file each ``forestrepro`` module is found in."""

    def __init__(self, path: Path):
        self.path = path

    def find_spec(self, name, path, target=None):
        if name != "forestrepro" and not name.startswith("forestrepro."):
            return None
        for finder in sys.meta_path:
            find = getattr(finder, "find_spec", None)
            if finder is self or find is None:
                continue
            found = find(name, path, target)
            if found is not None:
                self._note(found.origin)
                return found
        return None

    def _note(self, origin: str | None) -> None:
        if origin and Path(origin).is_file() and (relative := result_code(origin)):
            append(self.path, code={relative: file_sha256(origin)})


class _PartsNoter(logging.Handler):
    """A handler of the ``forestrepro`` logger that writes down each cascade part kept or read."""

    def __init__(self, path: Path):
        super().__init__()
        self.path = path

    def emit(self, record: logging.LogRecord) -> None:
        if key := PART_LINE.search(record.getMessage()):
            append(self.path, parts=[key.group(1)])


def append(path: str | Path, code: dict[str, str] | None = None, parts: list[str] = ()) -> None:
    """Add ``code`` (``{path: sha256}``) and cascade ``parts`` (content keys) to the piece log at
    ``path``."""
    lines = [f"code {relative} {sha}\n" for relative, sha in sorted((code or {}).items())]
    with Path(path).open("a", encoding="utf-8") as out:
        out.writelines(lines + [f"parts {key}\n" for key in parts])


@dataclass
class Pieces:
    """What a piece log says: ``code`` ``{path: [sha256, ...]}``, each path's distinct hashes in
    the order first written (more than one: the job ran on two versions of that file), and the
    content keys of the cascade ``parts`` kept or read, in order, once each."""

    code: dict[str, list[str]] = field(default_factory=dict)
    parts: list[str] = field(default_factory=list)


def read(path: str | Path) -> Pieces:
    found = Pieces()
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        kind, _, rest = line.partition(" ")
        if kind == "code":
            relative, _, sha = rest.rpartition(" ")
            if sha not in found.code.setdefault(relative, []):
                found.code[relative].append(sha)
        elif kind == "parts" and rest not in found.parts:
            found.parts.append(rest)
    return found
