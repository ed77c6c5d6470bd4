"""One attempt at a training job, as the workflow's train step runs it (``forestrepro train --job``).

In order: remove the job's failure note of an earlier attempt; restore its committed pieces
(``pieces.restore``), so that it resumes from what a session elsewhere finished; train it in a
process of its own, its stderr appended to the job's log; then

- on success, drop its committed pieces (the record replaces them);
- on failure, write its failure note beside where its record would be (``<job>.failed.txt``: the
  log's last line and the exit status, which a partial report shows) and exit with its status;
- on TERM or INT (what Snakemake sends a job it kills, what ``pkill`` sends), pass the signal on
  to the training process, wait for it to end (it writes no record), keep the pieces it finished
  for its next run, and write a note that says it was stopped.

The workflow's shell ``exec``s this command, so a signal to the job's shell is a signal to it:
bash alone would die and leave the training running on to write a record no run tracks. Like
every module of ``record/``, nothing here changes a number (``provenance.NOT_RESULT_CODE``).
"""

from __future__ import annotations

import contextlib
import shutil
import signal
import subprocess
from pathlib import Path

from .pieces import Layout, restore

STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)


def failure_note(record: str | Path) -> Path:
    """The note a failed attempt leaves beside the job's record (its CSV) would be."""
    record = Path(record)
    return record.with_name(record.name.removesuffix(".csv") + ".failed.txt")


def exit_status(returncode: int) -> int:
    """A process's exit status as a shell gives it: 128 + the signal that ended it."""
    return 128 - returncode if returncode < 0 else returncode


def _last_line(log: Path) -> str:
    lines = log.read_text(encoding="utf-8", errors="replace").splitlines() if log.exists() else []
    return lines[-1] if lines else ""


def run_stoppable(command: list[str], log: Path) -> tuple[int, signal.Signals | None]:
    """Run ``command``, its stderr appended to ``log``, passing on each TERM or INT this process
    receives; return its exit status and the first signal received (None if none)."""
    received: list[signal.Signals] = []
    child: list[subprocess.Popen] = []

    def pass_on(signum, _frame) -> None:
        received.append(signal.Signals(signum))
        for process in child:
            process.send_signal(signum)

    previous = {signum: signal.signal(signum, pass_on) for signum in STOP_SIGNALS}
    try:
        with open(log, "a", encoding="utf-8") as stderr:
            child.append(subprocess.Popen(command, stderr=stderr))
            if received:  # a signal before the process started: it stops at once
                child[0].send_signal(received[0])
            returncode = child[0].wait()
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
    return exit_status(returncode), (received[0] if received else None)


def attempt(layout: Layout, job: str, command: list[str], log: str | Path) -> int:
    """Run ``command``, which trains ``job`` of ``layout``'s tag and writes its record, as one
    attempt (see the module's docstring); its log ``log`` is written anew. Returns the exit
    status: 0, the restore's or the training's."""
    log, note = Path(log), failure_note(layout.record(job))
    note.unlink(missing_ok=True)
    log.parent.mkdir(parents=True, exist_ok=True)
    with (
        open(log, "w", encoding="utf-8") as out,
        contextlib.redirect_stdout(out),
        contextlib.redirect_stderr(out),
    ):
        status = restore(layout, job)
    stopped = None
    if status == 0:
        status, stopped = run_stoppable(command, log)
    if status == 0:  # finished, even if a signal came as it ended: the record replaces the pieces
        shutil.rmtree(layout.pieces(job), ignore_errors=True)
        return 0
    note.parent.mkdir(parents=True, exist_ok=True)
    if stopped is not None:
        note.write_text(
            f"{_last_line(log)}\nstopped by {stopped.name} (exit status {status}); its finished pieces are kept "
            "for its next attempt\n",
            encoding="utf-8",
        )
    else:
        note.write_text(f"{_last_line(log)}\n(exit status {status})\n", encoding="utf-8")
    return status
