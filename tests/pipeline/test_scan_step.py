"""The scan step: one scan per split, run before the split's cascade jobs, which read it.

``config.jobs.scan_name`` groups the jobs that make the same scan; the workflow's ``scan`` rule
(``workflow/rules/scan.smk``) runs it once, and the DF, WDF and WDF-oob jobs then read the
stored scan instead of scanning (or waiting, holding their cores, for another job's scan).
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from forestrepro.cli import main
from forestrepro.config import compose_config, write_job_specs
from forestrepro.config.jobs import dataset_spec_path, job_spec_path

REPO = Path(__file__).resolve().parents[2]
MIRROR = (REPO.parent / "shared" / "datasets").resolve()
SNAKEMAKE = str(Path(sys.executable).with_name("snakemake"))
CASCADES = ("df", "wdf", "wdf_oob")
# LETTER's 16 features scanned as a sequence (windows of 1, 2 and 4), on 300 rows, 5 trees
SCANNED_LETTER = [
    "papers=[wdf]",
    "paper.wdf.experiments.main.datasets=[letter]",
    "paper.wdf.dataset_options.letter.subsample_rows=300",
    "+paper.wdf.dataset_options.letter.scan={shape:[16]}",
    "protocol.wdf_holdout.repeats=1",
    *(f"method.{m}.params.{p}n_trees=5" for m in CASCADES for p in ("", "scanner.")),
]


def _scans(cfg, tmp_path):
    return {job.path: job.scan for job in write_job_specs(cfg, "t", tmp_path)}


def test_the_cascades_of_a_scanned_split_share_one_scan_and_others_have_none(tmp_path):
    # the paper profile runs one job per split (job_per_repeat), SEMG and MNIST one split each
    scans = _scans(compose_config(["papers=[wdf]"], profile="paper"), tmp_path)
    semg = {scans[f"wdf/main/{m}/semg/repeat0"] for m in CASCADES}
    mnist = {scans[f"wdf/main/{m}/mnist_test/repeat0"] for m in CASCADES}
    assert len(semg) == 1 and len(mnist) == 1 and semg != mnist
    assert semg.pop().startswith("wdf/semg/")
    assert all(
        scans[f"wdf/main/{m}/{d}/repeat{k}"] is None
        for m in CASCADES
        for d in ("adult", "yeast", "letter", "gtzan", "imdb")
        for k in range(5)
    )
    # two splits of a scanned data set: each its own scan, shared by the split's cascades
    two = _scans(
        compose_config(["papers=[wdf]", "paper.wdf.dataset_options.semg.repeats=2"], profile="paper"),
        tmp_path,
    )
    splits = [{two[f"wdf/main/{m}/semg/repeat{k}"] for m in CASCADES} for k in range(2)]
    assert all(len(s) == 1 for s in splits) and splits[0] != splits[1]


def test_a_changed_scanner_setting_makes_a_scan_of_its_own(tmp_path):
    scans = _scans(
        compose_config(["papers=[wdf]", "method.wdf.params.scanner.n_trees=7"], profile="paper"), tmp_path
    )
    assert scans["wdf/main/df/semg/repeat0"] == scans["wdf/main/wdf_oob/semg/repeat0"]
    assert scans["wdf/main/wdf/semg/repeat0"] != scans["wdf/main/df/semg/repeat0"]


def test_scanning_a_job_whose_data_is_not_scanned_is_a_clear_error(tmp_path, capsys):
    cfg = compose_config(["papers=[wdf]"])
    jobs = write_job_specs(cfg, "t", tmp_path)
    yeast = next(job for job in jobs if job.path == "wdf/main/df/yeast")
    data = tmp_path / "data" / "yeast.parquet"
    assert (
        main(
            [
                "fetch",
                "--spec",
                str(dataset_spec_path(tmp_path, cfg["dataset"]["yeast"])),
                "--out",
                str(data),
                "--provenance",
                str(tmp_path / "p.json"),
                "--sources",
                "mirror",
                "--mirror-dir",
                str(MIRROR),
                "--openml-cache",
                str(tmp_path / "openml"),
            ]
        )
        == 0
    )
    spec = job_spec_path(tmp_path, "t", yeast)
    assert main(["scan", "--spec", str(spec), "--data", str(data), "--out", str(tmp_path / "scan.json")]) == 2
    err = capsys.readouterr().err
    assert "'df'" in err and "no 'scan'" in err
    assert not (tmp_path / "scan.json").exists()


@pytest.mark.skipif(not MIRROR.is_dir(), reason=f"data mirror not found at {MIRROR}")
def test_the_workflow_scans_once_and_the_cascade_jobs_read_the_scan(tmp_path):
    runs = [f"results/runs/tiny/wdf/main/{m}/letter.csv" for m in CASCADES]
    overrides = "overrides=[" + ",".join(f'"{o}"' for o in SCANNED_LETTER) + "]"
    proc = subprocess.run(
        [
            SNAKEMAKE,
            *runs,
            "--snakefile",
            str(REPO / "Snakefile"),
            "--directory",
            str(tmp_path),
            "--cores",
            "2",
            "--config",
            "tag=tiny",
            overrides,
        ],
        check=False,
        env={**os.environ, "FORESTREPRO_MIRROR": str(MIRROR)},
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.count("rule scan:") + proc.stderr.count("rule scan:") == 1
    (record,) = (tmp_path / "results" / "runs" / "tiny" / "scans" / "wdf" / "letter").glob("*.json")
    (scan,) = json.loads(record.read_text())["scans"]
    assert scan["features"] > 16
    (scan_log,) = (tmp_path / "results" / "logs" / "tiny" / "scan").rglob("*.log")
    assert "kept window" in scan_log.read_text()
    for method, run in zip(CASCADES, runs):
        log = tmp_path / "results" / "logs" / "tiny" / "train" / "wdf" / "main" / method / "letter.log"
        assert "] kept window" not in log.read_text(), f"{method} scanned again"
        assert "another job is scanning" not in log.read_text()
        row = pd.read_csv(tmp_path / run).iloc[0]
        assert row["scan_seconds"] == scan["scan_seconds"] and row["split_seed"] == scan["split_seed"]


def _workflow(workdir, store, targets):
    overrides = "overrides=[" + ",".join(f'"{o}"' for o in SCANNED_LETTER) + "]"
    proc = subprocess.run(
        [
            SNAKEMAKE,
            *targets,
            "--snakefile",
            str(REPO / "Snakefile"),
            "--directory",
            str(workdir),
            "--cores",
            "1",
        ]
        + ["--config", "tag=tiny", overrides],
        check=False,
        env={**os.environ, "FORESTREPRO_MIRROR": str(MIRROR), "FORESTREPRO_CACHE": str(store)},
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    (scan_log,) = (workdir / "results" / "logs" / "tiny" / "scan").rglob("*.log")
    return scan_log.read_text()


def _numbers(workdir, run):
    """A record's rows without its times (wall seconds differ from run to run)."""
    rows = pd.read_csv(workdir / run)
    return rows[[c for c in rows.columns if "seconds" not in c and "time" not in c]]


@pytest.mark.skipif(not MIRROR.is_dir(), reason=f"data mirror not found at {MIRROR}")
def test_a_job_that_finds_the_scan_store_gives_the_record_of_a_scan_from_nothing(tmp_path):
    """A later session (another work tree, the same user cache) finds the scan's pieces outside
    the work tree, grows only those it lacks, and writes the record a scan from nothing wrote."""
    run = "results/runs/tiny/wdf/main/df/letter.csv"
    store = tmp_path / "cache"
    first = _workflow(tmp_path / "first", store, [run])
    assert "] kept window" in first and "read kept" not in first
    (scan_dir,) = (store / "scans").iterdir()
    pieces = sorted(scan_dir.glob("*.npz"))
    assert len(pieces) == 3 * 2 * 3 and (scan_dir / "scan.json").exists()  # window sizes x forests x folds
    for piece in pieces[::2]:  # a session stopped mid-scan: half its pieces, no marker
        piece.unlink()
    (scan_dir / "scan.json").unlink()
    later = _workflow(tmp_path / "later", store, [run])
    assert later.count("] kept window") == len(pieces[::2]) and later.count("read kept") == len(pieces[1::2])
    pd.testing.assert_frame_equal(_numbers(tmp_path / "later", run), _numbers(tmp_path / "first", run))
    again = _workflow(tmp_path / "again", store, [run])  # a whole scan: read, nothing grown
    assert "] kept window" not in again and again.count("read kept") == len(pieces)
    pd.testing.assert_frame_equal(_numbers(tmp_path / "again", run), _numbers(tmp_path / "first", run))
