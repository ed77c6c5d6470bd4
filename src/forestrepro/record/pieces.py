"""A job's finished pieces: the piece log a running job keeps, and ``forestrepro pieces keep``
and ``restore``, which carry a stopped job's pieces through git.

A long job keeps each finished piece in ``results/cache/`` as it goes, and a rerun resumes from
them: a C2RF sample or a cross-validation fold (``folds/<digest>/``,
``evaluation/fold_store.py``), a cascade forest's class vectors (``cascades/<key>.parts/``,
``cascade/cache.py``). ``results/cache/`` is not committed, so on a fresh clone, or on another
machine, a stopped job would begin again from nothing, and a job longer than a session would
never end. ``keep`` carries those pieces through git:

    forestrepro pieces --tag c2rf_600s keep    # results/cache -> results/runs/<tag>/pieces/<job>/
    git add results/runs/c2rf_600s/pieces && git commit -m "Pieces only: ..."

and the train rule runs ``forestrepro pieces --tag <tag> restore --job <job>`` before each job:
it copies the job's committed pieces into ``results/cache/`` (never over a piece already there),
so the job resumes from them on any machine, and once the job's record is written the rule
removes them (the record replaces them). ``keep`` also removes the committed pieces of a job
whose record is current.

A piece is only as good as the code that made it, and that code is among the library files the
job's process had imported when it wrote the piece. ``PieceLog`` (the train command's
``--piece-log``) appends to a text file, as the job goes, one line per:

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

``keep`` copies the log's list of code into the manifest beside the pieces (``manifest.json``,
with the commit, whether the library had uncommitted changes, the machine and the time);
``restore`` uses a job's committed pieces only where every file on the list has the same SHA-256
in the running library now, and otherwise names the files that changed and leaves the pieces:
the job starts from nothing. A change to code the job never imported (another paper's method,
the report) leaves them usable. ``restore`` first checks the job's own cached pieces in the same
way, and removes them if code they depend on has changed since they were made (the cache is
keyed by spec and data, not code). Which directories are a job's: its fold stores are named by
its spec (the same digest the job computes), and its cascades' by the content keys its piece
log names.

Scans are not kept here: a scan's output is hundreds of MB, more than a repository should
carry. They live in the content-keyed scan store outside the work tree ($FORESTREPRO_CACHE/scans,
by default ~/.cache/forestrepro/scans; cascade/scan_cache.py), in pieces, where a later session
on the same machine (or with the same cache) finds them; elsewhere the split is scanned again.
The cascade's content key covers the scan's bytes, so its pieces are read only where the scan
is identical to the one they grew on.

A training job imports this module for ``PieceLog``; ``keep`` and ``restore`` import what else
they need when they run, so the job imports nothing more.
"""

from __future__ import annotations

import importlib.abc
import json
import logging
import re
import shutil
import socket
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

from .provenance import PACKAGE_ROOT, file_sha256, imported_code, result_code, utc_now

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


MANIFEST = "manifest.json"
KINDS = ("folds", "cascades")  # the stores under results/cache/ whose pieces are a job's own


def _git(*args: str) -> str | None:
    """git's output in the running library's checkout, or None where git cannot say."""
    try:
        return subprocess.run(
            ["git", *args], cwd=PACKAGE_ROOT, capture_output=True, text=True, check=True
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        return None


def fold_stores(spec: dict) -> list[str]:
    """The names of the job's fold stores under ``results/cache/folds/``, as ``runner.train``
    names them (one per value of the experiment's sweep)."""
    from ..evaluation.fold_store import FoldStore
    from ..runner import _sweep_configs

    return [
        FoldStore.for_job(Path("."), spec, config).directory.name
        for _, config in _sweep_configs(spec["method_config"], spec.get("sweep"))
    ]


class Layout:
    """Where a tag's specs, records, logs, cache and committed pieces are, under ``results``."""

    def __init__(self, results: Path, tag: str):
        self.results, self.tag = Path(results), tag
        self.cache = self.results / "cache"
        self.runs = self.results / "runs" / tag

    def pieces(self, job: str) -> Path:
        return self.runs / "pieces" / job

    def piece_log(self, job: str) -> Path:
        """The job's piece log (the train command's ``--piece-log``)."""
        return self.cache / "piece-logs" / self.tag / f"{job}.txt"

    def record(self, job: str) -> Path:
        return self.runs / f"{job}.csv"

    def jobs(self) -> dict[str, dict]:
        """``{job: spec}`` of the training jobs whose specs the workflow wrote for this tag (the
        specs of tables, figures and the partial report are left out)."""
        specs = self.runs / "specs"
        found = {}
        for path in sorted(specs.rglob("*.json")):
            spec = json.loads(path.read_text(encoding="utf-8"))
            if "method_config" in spec:
                found[path.relative_to(specs).with_suffix("").as_posix()] = spec
        return found

    def spec(self, job: str) -> dict:
        return json.loads((self.runs / "specs" / f"{job}.json").read_text(encoding="utf-8"))

    def cached(self, job: str, spec: dict, parts: list[str]) -> dict[str, list[Path]]:
        """The job's piece directories in the cache, by kind (those that exist), its cascades'
        named by the content keys ``parts``."""
        names = {"folds": fold_stores(spec), "cascades": [f"{key}.parts" for key in parts]}
        return {kind: [d for n in names[kind] if (d := self.cache / kind / n).is_dir()] for kind in KINDS}

    def logged(self, job: str) -> Pieces:
        """What the job's piece log says (empty without one)."""
        path = self.piece_log(job)
        return read(path) if path.exists() else Pieces()


def _files(directory: Path) -> list[Path]:
    """The pieces under ``directory``; a piece being written (``io.atomic_path``'s hidden
    ``.<name>.<random>.tmp``) is not one yet."""
    if not directory.is_dir():
        return []
    return sorted(
        p
        for p in directory.rglob("*")
        if p.is_file() and not (p.name.startswith(".") and p.name.endswith(".tmp"))
    )


def _copied(files: list[Path], source: Path, target: Path) -> int:
    """Copy each of ``files`` from under ``source`` to the same place under ``target``; one
    that is gone by then (its job finished and cleared its store) is skipped. Returns how many
    were copied."""
    copied = 0
    for f in files:
        to = target / f.relative_to(source)
        to.parent.mkdir(parents=True, exist_ok=True)
        try:
            shutil.copyfile(f, to)
        except FileNotFoundError:
            continue
        copied += 1
    return copied


def _is_current(layout: Layout, job: str, spec: dict) -> bool:
    from .currency import FileHashes, record_status
    from .equivalence import LEDGER_NAME, Equivalences
    from .store import spec_digest

    ledger = layout.results / "runs" / LEDGER_NAME
    return record_status(
        layout.record(job), spec_digest(spec), FileHashes(PACKAGE_ROOT), Equivalences.read(ledger)
    ).current


def keep(layout: Layout) -> int:
    """Copy the cached pieces of every unfinished job of the tag into its committed pieces, and
    remove the committed pieces of finished jobs; print what was done. Returns the exit code."""
    if not (layout.runs / "specs").is_dir():
        print(
            f"forestrepro pieces: no job specs under {layout.runs / 'specs'}: run the workflow for tag "
            f"{layout.tag!r} in this checkout first (or name the tag its jobs ran under)",
            file=sys.stderr,
        )
        return 1
    dirty = _git("status", "--porcelain", "--", str(PACKAGE_ROOT))
    commit = (_git("rev-parse", "HEAD") or "").strip() or None
    for job, spec in layout.jobs().items():
        committed = layout.pieces(job)
        if _is_current(layout, job, spec):
            if committed.exists():
                shutil.rmtree(committed)
                print(f"{job}: its record is current; removed its committed pieces")
            continue
        logged = layout.logged(job)
        cached = layout.cached(job, spec, logged.parts)
        files = {kind: [f for d in dirs for f in _files(d)] for kind, dirs in cached.items()}
        if not any(files.values()):
            continue  # nothing made here: committed pieces (from elsewhere) stay as they are
        twice = sorted(path for path, shas in logged.code.items() if len(shas) > 1)
        if not logged.code or twice:
            why = (
                f"two versions of {', '.join(twice)} made them" if twice else "no piece log lists their code"
            )
            print(f"{job}: its cached pieces are not kept ({why})")
            continue
        shutil.rmtree(committed, ignore_errors=True)
        counts = {
            kind: _copied(kind_files, layout.cache / kind, committed / kind)
            for kind, kind_files in files.items()
        }
        manifest = {
            "job": job,
            "tag": layout.tag,
            "code": {path: shas[0] for path, shas in logged.code.items()},
            "commit": commit,
            "library_clean": None if dirty is None else not dirty.strip(),
            "machine": socket.gethostname(),
            "kept": utc_now(),
            "files": counts,
        }
        (committed / MANIFEST).write_text(
            json.dumps(manifest, indent=2, sort_keys=True) + "\n", encoding="utf-8"
        )
        print(
            f"{job}: kept {', '.join(f'{n} {kind} file(s)' for kind, n in manifest['files'].items())} in {committed}"
        )
    return 0


def _changed(code: dict[str, list[str]], hashes) -> list[str]:
    """The files of ``code`` (``{path: [sha256, ...]}``) that are not, now, each hash listed."""
    return sorted(path for path, shas in code.items() if any(sha != hashes(path) for sha in shas))


def restore(layout: Layout, job: str) -> int:
    """Before the job runs: remove its cached pieces if code they depend on has changed since
    they were made, then copy its committed pieces into the cache where they are absent, if every
    library file they depend on is as it was, and add them to its piece log (should the job be
    stopped and kept again); print what was done. Returns the exit code."""
    from .currency import FileHashes

    hashes = FileHashes(PACKAGE_ROOT)
    logged = layout.logged(job)
    if changed := _changed(logged.code, hashes):
        stale = [d for dirs in layout.cached(job, layout.spec(job), logged.parts).values() for d in dirs]
        for directory in stale:
            shutil.rmtree(directory)
        layout.piece_log(job).unlink()
        print(
            f"{job}: removed its {len(stale)} cached piece directories: {', '.join(changed)} "
            "changed since they were made"
        )
    committed = layout.pieces(job)
    manifest_path = committed / MANIFEST
    if not manifest_path.exists():
        return 0
    try:
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    except ValueError as err:
        print(f"forestrepro pieces: {manifest_path} is not valid JSON ({err})", file=sys.stderr)
        return 1
    code = manifest.get("code", {})
    changed = _changed({path: [sha] for path, sha in code.items()}, hashes)
    if changed or not code:
        why = f"{', '.join(changed)} changed since they were made" if changed else "no code listed"
        print(
            f"{job}: its committed pieces (kept {manifest.get('kept')} at {manifest.get('commit')}) "
            f"are not used ({why}); the job starts from nothing"
        )
        return 0
    restored = 0
    for kind in KINDS:
        absent = [
            f
            for f in _files(committed / kind)
            if not (layout.cache / kind / f.relative_to(committed / kind)).exists()
        ]
        restored += _copied(absent, committed / kind, layout.cache / kind)
    parts = [d.name.removesuffix(".parts") for d in sorted((committed / "cascades").glob("*.parts"))]
    layout.piece_log(job).parent.mkdir(parents=True, exist_ok=True)
    append(layout.piece_log(job), code=code, parts=parts)
    print(
        f"{job}: restored {restored} committed piece file(s) into {layout.cache} "
        f"(kept {manifest.get('kept')} at {manifest.get('commit')} on {manifest.get('machine')})"
    )
    return 0
