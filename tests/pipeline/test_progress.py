"""Live progress (``forestrepro/progress.py``): a job's log counts its units "k of N" with the
time spent and the time left, up to "N of N"; the terminal gets the same lines, as often as
``FORESTREPRO_PROGRESS_SECONDS`` lets it; a job that logs nothing for a while says what it is on.
"""

import json
import logging
import re
import sys
import time
from pathlib import Path

import pytest

from forestrepro import progress
from forestrepro.cli import main
from forestrepro.config import compose_config, write_job_specs
from forestrepro.config.jobs import dataset_spec_path, job_spec_path

from .test_scan_step import SCANNED_LETTER  # LETTER scanned as a sequence: 300 rows, 5 trees

REPO = Path(__file__).resolve().parents[2]
MIRROR = (REPO.parent / "shared" / "datasets").resolve()
needs_mirror = pytest.mark.skipif(not MIRROR.is_dir(), reason=f"data mirror not found at {MIRROR}")
# "[forestrepro 12:00:00] progress <job>: <unit> k of N ..."
PROGRESS = re.compile(r"^\[forestrepro [0-9:]+\] progress (\S+): ([a-z ]+?) (\d+) of (\d+)\b(.*)$")


def _job(tmp_path, overrides, path):
    """The spec and data of job ``path`` of the quick profile under ``overrides``."""
    cfg = compose_config(overrides)
    job = next(job for job in write_job_specs(cfg, "t", tmp_path) if job.path == path)
    data = tmp_path / "data" / f"{job.dataset}.parquet"
    spec = dataset_spec_path(tmp_path, cfg["dataset"][job.dataset])
    fetch = ["fetch", "--spec", str(spec), "--out", str(data), "--provenance"]
    fetch += [str(data.with_suffix(".provenance.json")), "--sources", "mirror", "--mirror-dir", str(MIRROR)]
    assert main([*fetch, "--openml-cache", str(tmp_path / "openml")]) == 0
    return job_spec_path(tmp_path, "t", job), data


def _run(command, spec, data, out, capsys):
    """Run ``command`` on the job; its log (stderr) and terminal (stdout)."""
    capsys.readouterr()
    assert main([command, "--spec", str(spec), "--data", str(data), "--out", str(out)]) == 0
    captured = capsys.readouterr()
    return captured.err, captured.out


def _counts(log: str, job: str) -> list[tuple[str, int, int, str]]:
    """``(unit, k, N, rest)`` of each progress line of ``job`` in ``log``, checking that each
    says the time spent and the time left."""
    counts = []
    for line in log.splitlines():
        if (match := PROGRESS.match(line)) is None:
            continue
        name, unit, k, n, rest = match.groups()
        assert name == job, line
        assert re.search(r" · \d+[hms].* elapsed · .*left", rest), line
        counts.append((unit, int(k), int(n), rest))
    return counts


def _check_units(counts, unit: str, total: int) -> None:
    """The units count up to ``total`` of ``total`` in order, each finished once."""
    assert counts, "no progress line"
    assert {c[:1] + c[2:3] for c in counts} == {(unit, total)}
    ks = [k for _, k, _, _ in counts]
    assert ks == sorted(ks)
    done = [k for _, k, _, rest in counts if rest.startswith(" done")]
    assert done == list(range(1, total + 1))
    assert counts[-1][1:3] == (total, total) and counts[-1][3].startswith(" done")


@needs_mirror
def test_a_cross_validation_job_logs_each_fold_out_of_all_folds_and_repeats(tmp_path, capsys):
    overrides = ["papers=[brf]", "protocol.brf_cv5.repeats=2", "protocol.brf_cv5.outer_folds=3"]
    spec, data = _job(tmp_path, [*overrides, "method.rf.params.n_estimators=5"], "brf/main/rf/wine")
    log, _ = _run("train", spec, data, tmp_path / "rf.csv", capsys)
    _check_units(_counts(log, "brf/main/rf/wine"), "fold", 6)
    # the progress lines cannot change a number: the job imported their code, and the record
    # does not depend on it (which other modules count depends on what this test process has
    # imported before, so only progress.py is checked)
    files = json.loads((tmp_path / "rf.provenance.json").read_text())["code"]["files"]
    assert "forestrepro.progress" in sys.modules
    assert "progress.py" not in files and "runner.py" in files


@needs_mirror
def test_a_c2rf_job_logs_each_sample(tmp_path, capsys):
    overrides = ["papers=[c2rf]", "protocol.c2rf_biased.repeats=2"]
    spec, data = _job(tmp_path, overrides, "c2rf/biased/c2rf_rf/phoneme")
    log, _ = _run("train", spec, data, tmp_path / "c2rf.csv", capsys)
    _check_units(_counts(log, "c2rf/biased/c2rf_rf/phoneme"), "sample", 2)


@needs_mirror
def test_a_cascade_job_logs_its_levels_within_each_split(tmp_path, capsys):
    spec, data = _job(tmp_path, ["papers=[wdf]", "method.df.params.n_trees=5"], "wdf/main/df/yeast")
    log, _ = _run("train", spec, data, tmp_path / "df.csv", capsys)
    counts = _counts(log, "wdf/main/df/yeast")
    _check_units(counts, "split", 2)
    for split in (1, 2):
        levels = [
            (int(m.group(1)), int(m.group(2)))
            for _, k, _, rest in counts
            if k == split and (m := re.match(r" · level (\d+) of at most (\d+) grown", rest))
        ]
        assert [level for level, _ in levels] == list(range(1, len(levels) + 1)) and levels
        assert {most for _, most in levels} == {4}  # the quick profile's max_levels


@needs_mirror
def test_a_scan_job_logs_each_piece_of_its_scan(tmp_path, capsys):
    """LETTER's 16 features: windows of 1, 2 and 4 features x 1 RF + 1 CRF x 3 folds."""
    spec, data = _job(tmp_path, SCANNED_LETTER, "wdf/main/df/letter")
    log, _ = _run("scan", spec, data, tmp_path / "scan.json", capsys)
    _check_units(_counts(log, "wdf/main/df/letter"), "scan piece", 18)


@needs_mirror
def test_the_terminal_gets_the_lines_as_often_as_asked(tmp_path, capsys, monkeypatch):
    spec, data = _job(tmp_path, ["papers=[brf]", "method.rf.params.n_estimators=5"], "brf/main/rf/wine")
    monkeypatch.setenv("FORESTREPRO_PROGRESS_SECONDS", "0")
    log, terminal = _run("train", spec, data, tmp_path / "a.csv", capsys)
    logged = [line.split("] progress ", 1)[1] for line in log.splitlines() if "] progress " in line]
    assert [line.split("] ", 1)[1] for line in terminal.splitlines()] == logged
    assert logged[-1].startswith("brf/main/rf/wine: fold 2 of 2 done")
    monkeypatch.setenv("FORESTREPRO_PROGRESS_SECONDS", "3600")
    log, terminal = _run("train", spec, data, tmp_path / "b.csv", capsys)
    assert terminal == "" and "] progress brf/main/rf/wine: fold 2 of 2 done" in log


def test_a_job_that_logs_nothing_for_a_while_says_what_it_is_on(monkeypatch):
    """A C2RF sample solving after one an earlier run kept: the heartbeat names the sample and,
    no sample timed yet, the bound the time limit gives."""
    monkeypatch.setattr(progress, "HEARTBEAT", 0.05)
    plan = progress.Plan("c2rf/biased/c2rf/sonar", "sample", 3, "c2rf/c2rf/sonar ", time_limit=7200.0)
    lines = []
    handler = logging.Handler()
    handler.emit = lambda record: lines.append(record.getMessage())
    logging.getLogger("forestrepro.progress").addHandler(handler)
    try:
        with progress.Progress(plan):
            logging.getLogger("forestrepro").info(
                "c2rf/c2rf/sonar biased sample 0: read from x (finished by an earlier run of this job)"
            )
            deadline = time.monotonic() + 30
            while len(lines) < 2 and time.monotonic() < deadline:
                time.sleep(0.01)
    finally:
        logging.getLogger("forestrepro.progress").removeHandler(handler)
    assert lines[0].startswith("progress c2rf/biased/c2rf/sonar: sample 1 of 3 done")
    assert re.match(r"progress c2rf/biased/c2rf/sonar: sample 2 of 3 for \d+s · \d+s elapsed · ", lines[1])
    assert lines[1].endswith(("at most 4h 00m left", "at most 3h 59m left"))
