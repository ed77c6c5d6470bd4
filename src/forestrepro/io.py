"""Atomic file output: every rule writes to a temporary file and renames it into place.

An interrupted job therefore never leaves a half-written output that a rerun would take
for finished work. The file gets the mode a plain ``open`` would give it (0666 less the
umask), not ``mkstemp``'s private 0600, so collaborators sharing a results directory can
read what the pipeline wrote.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path


def _umask() -> int:
    """The process's umask (read by setting it and putting it back at once)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike) -> Iterator[Path]:
    """Yield a temporary path next to ``path``; rename it to ``path`` if the block succeeds.

    The temporary file lives in the same directory so that the final ``os.replace`` is atomic.
    On an exception the temporary file is removed and ``path`` is left untouched.
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        yield tmp
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, target)
    finally:
        if tmp.exists():
            tmp.unlink()


def write_text_atomic(path: str | os.PathLike, text: str) -> None:
    """Write ``text`` to ``path`` atomically (UTF-8)."""
    with atomic_path(path) as tmp:
        tmp.write_text(text, encoding="utf-8")


def write_text_if_changed(path: str | os.PathLike, text: str) -> bool:
    """Write ``text`` only when it differs from the file's content; return whether it wrote.

    Used for job specifications, so that an unchanged rerun keeps their modification times
    and Snakemake finds nothing to do.
    """
    target = Path(path)
    if target.exists() and target.read_text(encoding="utf-8") == text:
        return False
    write_text_atomic(target, text)
    return True
