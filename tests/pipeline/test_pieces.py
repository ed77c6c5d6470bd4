"""forestrepro pieces (record/pieces.py): a stopped job's finished pieces, committed in one checkout, let
the same job resume in another (a fresh clone, another machine) with the numbers an
uninterrupted run gives; pieces made by other versions of the code they depend on are not
used."""

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from forestrepro.record import FileHashes, pieces
from forestrepro.record.equivalence import is_time_column
from forestrepro.record.pieces import Pieces, append, read
from forestrepro.record.provenance import PACKAGE_ROOT
from forestrepro.record.store import read_rows

from .test_workflow import snakemake as workflow_run

REPO = Path(__file__).resolve().parents[2]
MIRROR = (REPO.parent / "shared" / "datasets").resolve()
KEY = "6c25034da06017a2878223ff9e99c59893ea5b417d2ed2f3f60d9ea34aafc333"
JOB = "wdf/main/df/yeast"


def test_pieces_whose_code_changed_are_not_restored_other_code_does_not_matter(tmp_path, capsys):
    layout = pieces.Layout(tmp_path / "results", "t")
    committed = layout.pieces(JOB)
    (committed / "cascades" / f"{KEY}.parts").mkdir(parents=True)
    (committed / "cascades" / f"{KEY}.parts" / "level1_forest0.npz").write_bytes(b"piece")
    hashes = FileHashes(PACKAGE_ROOT)
    code = {path: hashes(path) for path in ("cascade/forest.py", "cascade/cache.py")}
    manifest = {"kept": "2026-12-01T20:00:00Z", "commit": "abc", "code": code}
    for listed, why in (
        ({**code, "cascade/forest.py": "0" * 64}, "(cascade/forest.py changed since they were made)"),
        ({}, "(no code listed)"),
    ):
        (committed / "manifest.json").write_text(json.dumps({**manifest, "code": listed}))
        assert pieces.restore(layout, JOB) == 0
        assert f"are not used {why}; the job starts from nothing" in capsys.readouterr().out
        assert not (layout.cache / "cascades").exists() and not layout.piece_log(JOB).exists()
    # every file listed is as it was (what else changed since, another paper's method, say,
    # does not matter): restored, never over a piece already there
    (committed / "manifest.json").write_text(json.dumps(manifest))
    held = layout.cache / "cascades" / f"{KEY}.parts" / "level1_forest1.npz"
    held.parent.mkdir(parents=True)
    held.write_bytes(b"here already")
    pieces.restore(layout, JOB)
    assert "restored 1 committed piece file(s)" in capsys.readouterr().out
    assert (held.parent / "level1_forest0.npz").read_bytes() == b"piece"
    assert held.read_bytes() == b"here already"
    # should the job be kept again, its piece log lists them and their code
    assert read(layout.piece_log(JOB)) == Pieces({path: [sha] for path, sha in code.items()}, [KEY])
    assert pieces.restore(layout, "wdf/main/df/letter") == 0  # no pieces: nothing to say
    assert capsys.readouterr().out == ""


def _a_job_with_cached_pieces(layout):
    spec = {"method_config": {"name": "df"}, "dataset": "yeast"}
    (layout.runs / "specs" / "wdf" / "main" / "df").mkdir(parents=True)
    (layout.runs / "specs" / f"{JOB}.json").write_text(json.dumps(spec))
    fold = layout.cache / "folds" / pieces.fold_stores(spec)[0] / "repeat0_fold0.json"
    cascade = layout.cache / "cascades" / f"{KEY}.parts" / "level1_forest0.npz"
    for piece in (fold, cascade):
        piece.parent.mkdir(parents=True)
        piece.write_text("{}")
    layout.piece_log(JOB).parent.mkdir(parents=True)
    return fold.parent, cascade.parent


def test_keep_leaves_pieces_whose_code_is_unknown_or_mixed(tmp_path, capsys):
    layout = pieces.Layout(tmp_path / "results", "t")
    _a_job_with_cached_pieces(layout)
    for log, why in (
        (None, "no piece log lists their code"),
        (
            f"code cascade/forest.py 1\ncode data/loader.py 2\nparts {KEY}\ncode cascade/forest.py 3\n",
            "two versions of cascade/forest.py made them",
        ),
    ):
        if log is not None:
            layout.piece_log(JOB).write_text(log)
        assert pieces.keep(layout) == 0
        assert f"{JOB}: its cached pieces are not kept ({why})" in capsys.readouterr().out
        assert not layout.pieces(JOB).exists()
    layout.piece_log(JOB).write_text(f"code cascade/forest.py 1\ncode data/loader.py 2\nparts {KEY}\n")
    pieces.keep(layout)
    manifest = json.loads((layout.pieces(JOB) / "manifest.json").read_text())
    assert manifest["code"] == {"cascade/forest.py": "1", "data/loader.py": "2"}
    assert manifest["files"] == {"folds": 1, "cascades": 1}


def test_cached_pieces_whose_code_changed_are_removed_before_the_job_runs(tmp_path, capsys):
    layout = pieces.Layout(tmp_path / "results", "t")
    fold, cascade = _a_job_with_cached_pieces(layout)
    hashes = FileHashes(PACKAGE_ROOT)
    append(layout.piece_log(JOB), code={"cascade/forest.py": hashes("cascade/forest.py")}, parts=[KEY])
    assert pieces.restore(layout, JOB) == 0  # as they were: kept, and nothing said
    assert capsys.readouterr().out == "" and fold.is_dir() and cascade.is_dir()
    append(layout.piece_log(JOB), code={"cascade/cache.py": "0" * 64})
    assert pieces.restore(layout, JOB) == 0
    assert (
        f"{JOB}: removed its 2 cached piece directories: cascade/cache.py changed since they were made"
        in capsys.readouterr().out
    )
    assert not fold.exists() and not cascade.exists() and not layout.piece_log(JOB).exists()


def test_keep_without_the_tags_specs_names_the_directory_and_fails(tmp_path, capsys):
    assert pieces.keep(pieces.Layout(tmp_path / "results", "nosuch")) == 1
    assert (
        f"no job specs under {tmp_path / 'results' / 'runs' / 'nosuch' / 'specs'}" in capsys.readouterr().err
    )


def test_a_piece_still_being_written_is_not_a_piece(tmp_path):
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "level1_forest0.npz").write_bytes(b"done")
    (tmp_path / "d" / ".level1_forest1.npz.x8q2.tmp").write_bytes(b"half")
    assert pieces._files(tmp_path) == [tmp_path / "d" / "level1_forest0.npz"]
    assert pieces._copied([tmp_path / "d" / "gone.npz"], tmp_path, tmp_path / "to") == 0


# Two kinds of pieces: a DF cascade's forests (YEAST, 1 of the quick profile's 2 splits, 100
# trees a forest: stopped at its second level) and a nested-CV job's finished folds (RF on sonar,
# 2 outer folds with a grid of 3: stopped once fold 0 is kept).
CASCADE = (
    "wdf/main/df/yeast",
    [
        "papers=[wdf]",
        "paper.wdf.experiments.main.datasets=[yeast]",
        "method.df.params.n_trees=100",
        "protocol.wdf_holdout.repeats=1",
    ],
    lambda results: "kept level2_forest0" in _log_text(results, "wdf/main/df/yeast"),
    "cascades",
)
# the same on a scanned split (LETTER's 16 features as a sequence): the clone scans again, with
# 2 threads where the stopped run had 1, and must get the same bytes for the cascade's pieces to
# be read (their content key covers the scan)
SCANNED = (
    "wdf/main/df/letter",
    [
        "papers=[wdf]",
        "paper.wdf.experiments.main.datasets=[letter]",
        "paper.wdf.dataset_options.letter.subsample_rows=300",
        "+paper.wdf.dataset_options.letter.scan={shape:[16]}",
        "protocol.wdf_holdout.repeats=1",
        "method.df.params.scanner.n_trees=5",
        "method.df.params.n_trees=100",
    ],
    lambda results: "kept level2_forest0" in _log_text(results, "wdf/main/df/letter"),
    "cascades",
)
FOLDS = (
    "brf/main/rf/sonar",
    [
        "papers=[brf]",
        "paper.brf.experiments.main.datasets=[sonar]",
        "method.rf.params.n_estimators=300",
        "method.rf.grid.k_offset=[-1,0,1]",
    ],
    lambda results: any((results / "cache" / "folds").glob("*/repeat0_fold0.json")),
    "folds",
)


def _log_text(results: Path, job: str) -> str:
    log = results / "logs" / "pieces" / "train" / f"{job}.log"
    return log.read_text() if log.exists() else ""


def snakemake(workdir: Path, job: str, overrides, background=False, cores=1):
    # only= goes with --config's other values, before the options
    return workflow_run(
        workdir,
        f"only={job}",
        "--cores",
        str(cores),
        "records",
        overrides=overrides,
        tag="pieces",
        background=background,
    )


def keep(workdir: Path) -> str:
    proc = subprocess.run(
        [sys.executable, "-m", "forestrepro.cli", "pieces", "--tag", "pieces", "keep"],
        cwd=workdir,
        env={**os.environ, "PYTHONPATH": str(REPO / "src")},
        capture_output=True,
        text=True,
        check=True,
    )
    return proc.stdout


def _rows(workdir: Path, job: str):
    rows = read_rows(workdir / "results" / "runs" / "pieces" / f"{job}.csv")
    return rows[[c for c in rows.columns if not is_time_column(c)]]


@pytest.mark.skipif(not MIRROR.is_dir(), reason=f"data mirror not found at {MIRROR}")
@pytest.mark.parametrize(
    "job, overrides, stop_when, kind", [CASCADE, SCANNED, FOLDS], ids=["cascade", "scanned", "folds"]
)
def test_a_job_stopped_in_one_checkout_resumes_in_another_from_its_committed_pieces(
    tmp_path, job, overrides, stop_when, kind
):
    stopped, resumed, whole = (tmp_path / name for name in ("stopped", "resumed", "whole"))
    proc = snakemake(stopped, job, overrides, background=True)
    try:
        deadline = time.time() + 600
        while time.time() < deadline and proc.poll() is None and not stop_when(stopped / "results"):
            time.sleep(0.05)
        os.killpg(proc.pid, signal.SIGTERM)
        proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode != 0 and not (stopped / "results" / "runs" / "pieces" / f"{job}.csv").exists()

    said = keep(stopped)
    committed = stopped / "results" / "runs" / "pieces" / "pieces" / job
    manifest = json.loads((committed / "manifest.json").read_text())
    assert f"{job}: kept" in said and manifest["files"][kind] >= 1, said
    # the code they depend on: what the job had imported, each file as it is
    hashes = FileHashes(PACKAGE_ROOT)
    assert {"checkpoint/store.py", "runner.py"} <= set(manifest["code"])
    assert all(hashes(path) == sha for path, sha in manifest["code"].items())
    # what a clone carries: the committed pieces, and no cache
    shutil.copytree(committed, resumed / "results" / "runs" / "pieces" / "pieces" / job)
    snakemake(resumed, job, overrides, cores=2)
    text = _log_text(resumed / "results", job)
    assert f"{job}: restored {sum(manifest['files'].values())} committed piece file(s)" in text
    assert ("read kept level1_forest0 from" if kind == "cascades" else "repeat 0 fold 0: read from") in text
    assert not (resumed / "results" / "runs" / "pieces" / "pieces" / job).exists()  # the record replaces them

    snakemake(whole, job, overrides)
    assert _rows(resumed, job).equals(_rows(whole, job))

    # committed pieces of a job whose record is current are removed by keep
    shutil.copytree(committed, resumed / "results" / "runs" / "pieces" / "pieces" / job)
    assert "its record is current; removed its committed pieces" in keep(resumed)
    assert not (resumed / "results" / "runs" / "pieces" / "pieces" / job).exists()
