"""A job is its content, not its tag (record/reuse.py, rule reuse): an ablation computes only the
jobs its overrides reach and copies the rest from other tags; committed records of another spec
are never overwritten unless asked for (record/overwrite.py)."""

import json
import os
import re
import subprocess

import pandas as pd
import pytest

from forestrepro.config import compose_config
from forestrepro.config.jobs import plan_jobs

from .test_records_workflow import MIRROR, REPO, SMALL, SNAKEMAKE, planned, snakemake

pytestmark = pytest.mark.skipif(not MIRROR.is_dir(), reason=f"data mirror not found at {MIRROR}")

ONLY = ["only=[" + ",".join(f'"brf/main/{m}/wine"' for m in ("knn", "rf_gr")) + "]"]


def jobs_of(output: str, rule: str) -> set[str]:
    """The job paths a dry run's ``rule`` jobs have (their ``wildcards: job=`` line)."""
    return {
        m.group(1)
        for block in re.split(r"^(?=(?:local)?rule )", output, flags=re.MULTILINE)
        if re.match(rf"(?:local)?rule {rule}:", block)
        for m in re.finditer(r"wildcards: job=(\S+)", block)
    }


def test_an_ablation_of_brfs_rf_trains_17_jobs_and_copies_every_other_one(tmp_path):
    # the example on the committed records: one parameter of the textbook RF, which BRF's
    # main table and its two data-size experiments run; every other job (SVM, KNN, BRF, its
    # readings...) is the same under the ablation's tag and is copied from tag paper
    (tmp_path / "results" / "runs").mkdir(parents=True)
    (tmp_path / "results" / "runs" / "paper").symlink_to(REPO / "results" / "runs" / "paper")
    (tmp_path / "results" / "runs" / "equivalences.tsv").symlink_to(REPO / "results/runs/equivalences.tsv")
    out = subprocess.run(
        [
            SNAKEMAKE,
            "--snakefile",
            str(REPO / "Snakefile"),
            "--directory",
            str(tmp_path),
            "records",
            "--dry-run",
            "--config",
            "profile=paper",
            'overrides=["papers=[brf]","method.rf.params.n_estimators=50"]',
        ],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "FORESTREPRO_MIRROR": str(MIRROR)},
    ).stdout
    trained, copied = jobs_of(out, "train"), jobs_of(out, "reuse")
    assert len(trained) == 17 and all(path.split("/")[2] == "rf" for path in trained), sorted(trained)
    # every other job BRF plans (with the second implementations of its baselines) is copied
    brf_jobs = plan_jobs(compose_config(["papers=[brf]"], profile="paper"))
    assert len(copied) == len(brf_jobs) - 17 and not any(path.split("/")[2] == "rf" for path in copied)


def test_a_run_copies_what_it_can_and_never_overwrites_a_committed_record(tmp_path):
    snakemake(tmp_path, "records", "--cores", "2", config=ONLY)
    runs = tmp_path / "results" / "runs" / "small" / "brf" / "main"
    ablation = [o for o in SMALL if not o.startswith("method.knn")] + ["method.knn.grid.n_neighbors=[1,5]"]

    # the ablation of the KNN's grid under tag small would replace its KNN record. A local record
    # is the user's own and is replaced; a committed one is refused, named, unless overwrite=true
    out = snakemake(tmp_path, "records", "--dry-run", overrides=ablation, config=ONLY)
    assert planned(out) == ["train"] and "record of brf/main/knn/wine is stale: the job's spec changed" in out
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    subprocess.run(["git", "-C", str(tmp_path), "add", "results/runs/small"], check=True)
    out = snakemake(tmp_path, "records", "--dry-run", overrides=ablation, config=ONLY, check=False)
    assert "would overwrite 1 committed record(s) of tag 'small'" in out and ": brf/main/knn/wine." in out, (
        out
    )
    assert planned(out) == []
    out = snakemake(tmp_path, "records", "--dry-run", overrides=ablation, config=[*ONLY, "overwrite=true"])
    assert planned(out) == ["train"], out
    # a run whose only= leaves the KNN job out cannot replace its record: not refused
    rf_only = ['only=["brf/main/rf_gr/wine"]']
    out = snakemake(tmp_path, "records", "--dry-run", overrides=ablation, config=rf_only)
    assert "would overwrite" not in out and planned(out) == [], out

    # under a tag of its own, the KNN job trains and the gain-ratio forest's record is copied
    out = snakemake(tmp_path, "records", "--cores", "2", overrides=ablation, config=[*ONLY, "tag=knn15"])
    assert sorted(planned(out)) == ["reuse", "train"], out
    copy = tmp_path / "results" / "runs" / "knn15" / "brf" / "main" / "rf_gr" / "wine.csv"
    assert copy.read_bytes() == (runs / "rf_gr" / "wine.csv").read_bytes()
    provenance = json.loads(copy.with_suffix(".provenance.json").read_text())
    assert provenance["reused"]["from"] == "results/runs/small/brf/main/rf_gr/wine.csv"
    assert provenance["spec"]["tag"] == "knn15"
    knn = tmp_path / "results/runs/knn15/brf/main/knn/wine.csv"
    assert "reused" not in json.loads(knn.with_suffix(".provenance.json").read_text())
    assert len(pd.read_csv(knn)) == len(pd.read_csv(runs / "knn" / "wine.csv"))
    # copied, a record is current under its tag: nothing more to do
    assert (
        planned(snakemake(tmp_path, "records", "--dry-run", overrides=ablation, config=[*ONLY, "tag=knn15"]))
        == []
    )
    # now tag knn15 holds the ablation's KNN job: replacing small's, asked for, copies it
    out = snakemake(tmp_path, "records", "--dry-run", overrides=ablation, config=[*ONLY, "overwrite=true"])
    assert planned(out) == ["reuse"], out
    # reuse=false trains every job again
    out = snakemake(
        tmp_path, "records", "--dry-run", overrides=ablation, config=[*ONLY, "tag=fresh", "reuse=false"]
    )
    assert planned(out) == ["train", "train"], out
