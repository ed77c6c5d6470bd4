"""record/attempt.py: one attempt at a training job (``forestrepro train --job``), without
Snakemake: its failure note, a clean stop on a signal, and its committed pieces dropped once its
record is written."""

import signal
import subprocess
import sys
import time

from forestrepro.record.attempt import attempt, failure_note
from forestrepro.record.pieces import Layout

JOB = "brf/main/knn/wine"


def _layout(tmp_path):
    """A tag with committed pieces of JOB (a file without a manifest: nothing to restore)."""
    layout = Layout(tmp_path / "results", "t")
    layout.pieces(JOB).mkdir(parents=True)
    (layout.pieces(JOB) / "folds").mkdir()
    layout.record(JOB).parent.mkdir(parents=True, exist_ok=True)
    return layout


def _python(code: str) -> list[str]:
    return [sys.executable, "-c", code]


def test_a_failed_attempt_writes_its_note_keeps_its_pieces_and_exits_with_its_status(tmp_path):
    layout = _layout(tmp_path)
    log = tmp_path / "logs" / "job.log"
    code = "import sys; print('fitting', file=sys.stderr); print('ValueError: n_neighbors', file=sys.stderr); sys.exit(3)"
    assert attempt(layout, JOB, _python(code), log) == 3
    note = failure_note(layout.record(JOB))
    assert note == layout.runs / "brf/main/knn/wine.failed.txt"
    assert note.read_text() == "ValueError: n_neighbors\n(exit status 3)\n"
    assert "fitting" in log.read_text()  # the job's stderr is its log
    assert layout.pieces(JOB).is_dir()  # kept for the next attempt


def test_a_successful_attempt_removes_an_old_note_and_drops_its_pieces(tmp_path):
    layout = _layout(tmp_path)
    note = failure_note(layout.record(JOB))
    note.write_text("an earlier attempt failed\n")
    code = f"open({str(layout.record(JOB))!r}, 'w').write('accuracy\\n0.9\\n')"
    assert attempt(layout, JOB, _python(code), tmp_path / "job.log") == 0
    assert not note.exists()
    assert not layout.pieces(JOB).exists()  # the record replaces them
    assert layout.record(JOB).exists()


STOPPED = """
import sys
from pathlib import Path
from forestrepro.record.attempt import attempt
from forestrepro.record.pieces import Layout

layout = Layout(Path(sys.argv[1]), "t")
job = "brf/main/knn/wine"
# the training: says it started, then works until it is stopped
command = [sys.executable, "-c", "import sys, time; print('started', file=sys.stderr, flush=True); time.sleep(120)"]
sys.exit(attempt(layout, job, command, sys.argv[2]))
"""


def test_a_signal_stops_the_training_and_the_note_says_so(tmp_path):
    layout = _layout(tmp_path)
    log = tmp_path / "job.log"
    proc = subprocess.Popen([sys.executable, "-c", STOPPED, str(layout.results), str(log)])
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and "started" not in (log.read_text() if log.exists() else ""):
            time.sleep(0.05)
        proc.send_signal(signal.SIGTERM)  # to the attempt alone, as Snakemake signals a job's shell
        assert proc.wait(timeout=30) == 128 + signal.SIGTERM  # the training ended with it, at once
    finally:
        proc.kill()
    note = failure_note(layout.record(JOB)).read_text()
    assert note.startswith("started\nstopped by SIGTERM (exit status 143)")
    assert not layout.record(JOB).exists()  # no record written
    assert layout.pieces(JOB).is_dir()  # its finished pieces kept


def test_train_takes_one_job_or_the_workflows_step_and_says_which_it_lacks(capsys):
    from forestrepro.cli import main

    assert main(["train", "--data", "d.parquet"]) == 2
    assert "give --spec and --out (one job), or --job and --tag" in capsys.readouterr().err
    assert main(["train", "--job", JOB, "--data", "d.parquet"]) == 2
    assert "--job needs --tag and --log" in capsys.readouterr().err
