"""What a Snakemake run checks before its first job (``guard_run``, workflow/rules/common.smk's
``onstart``): that no other live run is working on its files, and that it can write every folder
it writes to; and, while the Snakefile is parsed, that Snakemake can keep its state
(``check_workdir``).

**The run lock.** Snakemake's own lock (``.snakemake/locks/``) holds the files a run reads and
the files it writes; a second run whose files meet them is refused (an input of one written by
the other, or a file both write). ``snakemake --unlock`` deletes those locks, whoever holds them:
run during a live run, it lets a second run plan and redo the first one's jobs (one deleted a
record the first had just finished). So each run also writes a lock of its own with the same
files and the same rule for meeting (``conflicts``), and with its holder: the process id, host,
process start time and command. A later run whose files meet a lock whose holder still lives is
refused, naming the holder; ``--unlock`` does not touch these locks. A lock whose holder has
died (a lost machine, SIGKILL: the process id is gone or belongs to a process started later) is
stale, and the next run takes it over. A holder on another host (a shared file system) cannot be
checked from here: it counts as alive, and the message says which file to delete once it has
ended. A run releases its lock when its process exits.

**Writable folders.** ``unwritable`` tries to create a file in the nearest existing folder of
every path a run writes (its jobs' outputs, logs and benchmarks, the specs it writes in
``onstart``), so an unwritable ``results/``, ``results/runs/<tag>``, a read-only checkout or file
system, or a file where a folder should be, stops the run before any job, naming the folder;
``os.access`` alone is no test, since it says yes to root on a read-only mount's folder and on
an immutable one.
"""

from __future__ import annotations

import atexit
import contextlib
import fcntl
import json
import os
import socket
import sys
import tempfile
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from pathlib import Path

from ..io import write_text_atomic

LOCK_DIR = Path(".snakemake") / "forestrepro" / "locks"


class RunGuardError(RuntimeError):
    """A run that must not start: the message says why, naming the files or folders."""


class RunLockError(RunGuardError):
    """Another live run is working on some of this run's files."""


def _process_start(pid: int) -> str | None:
    """The start time of process ``pid`` in clock ticks since boot (``/proc/<pid>/stat``), which
    tells a process from a later one given the same id; None where there is no ``/proc``."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return stat.rsplit(")", 1)[1].split()[19]


def holder_alive(lock: dict) -> bool | None:
    """Whether the process holding ``lock`` still runs: True or False on this host, None on
    another (which cannot be checked from here)."""
    if lock.get("host") != socket.gethostname():
        return None
    pid = int(lock["pid"])
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # alive, another user's
        pass
    started = _process_start(pid)
    return not (started is not None and lock.get("process_start") not in (None, started))


def conflicts(lock: dict, inputs: Iterable[str], outputs: Iterable[str]) -> list[str]:
    """The files by which a run reading ``inputs`` and writing ``outputs`` meets ``lock``: by
    Snakemake's rule (persistence.locked), a file the lock's run writes that this run reads or
    writes, or a file this run writes that the lock's run reads."""
    inputs, outputs = set(inputs), set(outputs)
    theirs_out, theirs_in = set(lock.get("outputs", ())), set(lock.get("inputs", ()))
    return sorted((theirs_out & (inputs | outputs)) | (theirs_in & outputs))


def _describe(lock: dict) -> str:
    return (
        f"process {lock['pid']} on host {lock['host']}, started {lock.get('started', '?')} "
        f"in {lock.get('cwd', '?')} (`{lock.get('command', '?')}`)"
    )


def acquire(
    inputs: Iterable[str], outputs: Iterable[str], lock_dir: str | Path = LOCK_DIR
) -> tuple[Path, list[dict]]:
    """Take this process's run lock on ``inputs`` and ``outputs`` in ``lock_dir``; return the
    lock file and the stale locks taken over. Raises RunLockError, naming the holder, when a
    live run's lock meets these files (``conflicts``). Taking it (reading every lock, writing
    this one) is atomic among runs: under an exclusive ``flock`` of ``lock_dir/.mutex``."""
    inputs, outputs = sorted(set(map(str, inputs))), sorted(set(map(str, outputs)))
    lock_dir = Path(lock_dir)
    lock_dir.mkdir(parents=True, exist_ok=True)
    host, pid = socket.gethostname(), os.getpid()
    mine = lock_dir / f"{host}.{pid}.json"
    taken_over = []
    with open(lock_dir / ".mutex", "a") as mutex:
        fcntl.flock(mutex, fcntl.LOCK_EX)
        for path in sorted(lock_dir.glob("*.json")):
            if path == mine:
                continue
            try:
                lock = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError):  # written atomically: gone meanwhile
                continue
            alive = holder_alive(lock)
            if alive is False:
                path.unlink(missing_ok=True)
                taken_over.append(lock)
                continue
            shared = conflicts(lock, inputs, outputs)
            if not shared:
                continue
            how = (
                f"stop it (kill {lock['pid']}) or wait for it to end"
                if alive
                else f"this host cannot tell whether it still runs: once it has ended, delete {path}"
            )
            raise RunLockError(
                f"another run is working on {len(shared)} of this run's files, e.g. "
                f"{', '.join(shared[:3])}: {_describe(lock)}. Snakemake's --unlock does not release "
                f"it (it would let both runs do the same jobs): {how}."
            )
        record = {
            "pid": pid,
            "host": host,
            "process_start": _process_start(pid),
            "started": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "cwd": os.getcwd(),
            "command": " ".join(sys.argv),
            "inputs": inputs,
            "outputs": outputs,
        }
        write_text_atomic(mine, json.dumps(record, indent=1) + "\n")
    return mine, taken_over


def release(path: str | Path) -> None:
    """Give up the run lock ``path`` (``acquire``'s), if this process still holds it."""
    with contextlib.suppress(OSError):
        if json.loads(Path(path).read_text(encoding="utf-8"))["pid"] == os.getpid():
            Path(path).unlink()


def _nearest_existing(path: Path) -> Path:
    """``path`` or its nearest ancestor that exists (a file, too: then no folder can be made)."""
    while not os.path.lexists(path) and path != path.parent:
        path = path.parent
    return path


def _cannot_write(folder: Path) -> str | None:
    """Why no file can be created in ``folder`` (tried, then removed), or None."""
    if not folder.is_dir():
        return "a file, not a folder"
    try:
        fd, name = tempfile.mkstemp(prefix=".forestrepro-write-check.", dir=folder)
    except OSError as err:
        return err.strerror or type(err).__name__
    os.close(fd)
    os.unlink(name)
    return None


def unwritable(paths: Iterable[str | os.PathLike]) -> list[tuple[Path, str, list[str]]]:
    """The folders a run writing ``paths`` cannot write to: (the nearest existing folder of some
    of the paths, why, those paths), each folder tried once."""
    wanted: dict[Path, list[str]] = {}
    for path in paths:
        wanted.setdefault(_nearest_existing(Path(path).parent), []).append(str(path))
    problems = []
    for folder in sorted(wanted):
        why = _cannot_write(folder)
        if why is not None:
            problems.append((folder, why, sorted(wanted[folder])))
    return problems


def unwritable_message(problems: list[tuple[Path, str, list[str]]]) -> str:
    """What a run that cannot write says, before any job: each folder, why, and what it writes there."""
    lines = [
        f"  {folder} ({why}): {len(paths)} file(s) of this run go there, e.g. {paths[0]}"
        for folder, why, paths in problems
    ]
    return (
        f"this run (in {os.getcwd()}) cannot write to {len(problems)} folder(s); no job has run:\n"
        + "\n".join(lines)
        + "\nmake them writable, or run in a writable copy of the checkout (or --directory elsewhere)"
    )


def check_workdir(workdir: str | Path) -> None:
    """Refuse (``RunGuardError``) a read-only checkout or working directory by name, rather than in
    a traceback of Snakemake's, which keeps its state in ``.snakemake/`` of ``workdir``."""
    for folder, why, _ in unwritable([Path(workdir) / ".snakemake" / "state"]):
        raise RunGuardError(
            f"cannot write to {folder} ({why}), where Snakemake keeps its state (.snakemake/ of the "
            f"working directory {workdir}); nothing has run. Make it writable, or run in a writable copy "
            "of the checkout, or give --directory a writable folder"
        )


def guard_run(
    jobs: Iterable,
    needrun: Iterable,
    specs: Iterable[str | os.PathLike],
    lock: bool = True,
    log: Callable[[str], None] = print,
) -> None:
    """Before the first job of a run (never in a dry run): with ``lock`` (Snakemake's, off with
    ``--nolock``), take this run's lock (``acquire``) on what the DAG's ``jobs`` read and what its
    ``needrun`` jobs write, released when the process exits, and ``log`` each stale lock taken
    over; then refuse the folders it cannot write (``unwritable``: the ``needrun`` jobs' outputs,
    logs and benchmarks and the ``specs`` it writes), rather than fail in a job, maybe after it
    trained. A job is Snakemake's (its ``input``, ``output``, ``log``, ``benchmark``). Raises
    ``RunGuardError``."""
    needrun = list(needrun)
    outputs = {str(f) for job in needrun for f in job.output}
    if lock:
        held, taken_over = acquire({str(f) for job in jobs for f in job.input}, outputs)
        atexit.register(release, held)
        for stale in taken_over:
            log(
                f"forestrepro: took over the lock of a run that has ended (process {stale['pid']} "
                f"on {stale['host']}, started {stale.get('started', '?')})"
            )
    written = outputs | {str(f) for job in needrun for f in [*job.log, job.benchmark] if f}
    problems = unwritable(written | {str(path) for path in specs})
    if problems:
        raise RunGuardError(unwritable_message(problems))
