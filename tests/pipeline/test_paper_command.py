"""The papers' own command on the committed records (issue 76, items 1 and 7).

``snakemake --config profile=paper`` plans no training job that the committed records already
hold (C2RF's at the committed 600 s per solve come from the tags c2rf_600s and c2rf_10s by the
content-keyed reuse), README's all-papers ablation trains only the jobs its override reaches, and
no run writes into the committed reports' folder (``results/report/paper/``), where the tag
``paper``'s own report used to land on the committed index. Dry runs in a scratch directory that
sees the committed records (``results/runs`` linked), so nothing of the checkout is written.
"""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from forestrepro.report import location

REPO = Path(__file__).resolve().parents[2]
MIRROR = (REPO.parent / "shared" / "datasets").resolve()
SNAKEMAKE = str(Path(sys.executable).with_name("snakemake"))
needs_mirror = pytest.mark.skipif(not MIRROR.is_dir(), reason=f"data mirror not found at {MIRROR}")


def dry_run(workdir: Path, *config: str) -> subprocess.CompletedProcess:
    """``snakemake -n`` of this checkout's Snakefile in ``workdir``, whose results/runs is the
    checkout's committed records."""
    (workdir / "results").mkdir(exist_ok=True)
    runs = workdir / "results" / "runs"
    if not runs.exists():
        runs.symlink_to(REPO / "results" / "runs", target_is_directory=True)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["FORESTREPRO_MIRROR"] = str(MIRROR)
    cmd = [
        SNAKEMAKE,
        "--snakefile",
        str(REPO / "Snakefile"),
        "--directory",
        str(workdir),
        "-n",
        "--cores",
        "16",
    ]
    return subprocess.run([*cmd, "--config", *config], env=env, capture_output=True, text=True, check=False)


def jobs_of(proc: subprocess.CompletedProcess, rule: str) -> set[str]:
    """The job paths (wildcard ``job``) of the planned jobs of ``rule``."""
    blocks = re.split(r"\n(?=(?:local)?rule \w+:)", proc.stdout)
    return {
        match.group(1)
        for block in blocks
        if re.match(rf"(?:local)?rule {rule}:", block)
        for match in [re.search(r"wildcards: job=(\S+)", block)]
        if match
    }


def outputs_of(proc: subprocess.CompletedProcess) -> set[str]:
    return {path for line in re.findall(r"^\s+output: (.*)$", proc.stdout, re.M) for path in line.split(", ")}


def tracked() -> set[str]:
    out = subprocess.run(
        ["git", "ls-files", "-z"], cwd=REPO, capture_output=True, text=True, check=True
    ).stdout
    return set(out.split("\0")) - {""}


def test_a_run_report_never_lands_in_the_committed_reports():
    assert location.report_dir("quick") == os.path.join("results", "report", "quick")
    assert location.report_dir("paper-1a2b3c4d") == os.path.join("results", "report", "paper-1a2b3c4d")
    assert location.report_dir("paper") == os.path.join("results", "report", "paper-run")
    committed = os.path.join("results", "report", "paper", "brf")
    assert location.report_dir("paper", committed, records_only=True) == committed
    assert location.is_committed(committed) and not location.is_committed(location.report_dir("paper"))
    with pytest.raises(location.ReportDirError, match="only `make report`"):
        location.report_dir("paper", committed)
    with pytest.raises(location.ReportDirError, match="index"):
        location.report_dir("paper", "results/report/paper/", records_only=True)


@needs_mirror
def test_the_paper_command_trains_nothing_committed_and_writes_no_committed_file(tmp_path):
    """README's paper command, partial (what a user runs first): every job with a committed record of
    the same content is current or copied, and no planned output is a committed file or lies in the
    committed reports' folder. Before: 377 C2RF jobs at 7,200 s per solve were planned, and the
    report step rewrote results/report/paper/index.md."""
    proc = dry_run(tmp_path, "profile=paper", "partial=true")
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert not jobs_of(proc, "train"), sorted(jobs_of(proc, "train"))[:10]
    assert any(job.startswith("c2rf/biased/") for job in jobs_of(proc, "reuse"))
    outputs = outputs_of(proc)
    assert f"{location.report_dir('paper')}/index.md" in outputs
    assert not [p for p in outputs if p.startswith(location.COMMITTED_REPORTS + "/")]
    assert not outputs & tracked()


@needs_mirror
def test_the_all_papers_ablation_trains_only_what_its_override_reaches(tmp_path):
    """README's ablation of RF's trees trains the jobs of method rf (BRF's and the out-of-sample
    suite's), and beside them only the jobs the paper tag itself has not run yet. Before: 455 jobs,
    377 of them C2RF's at 7,200 s."""
    paper = dry_run(tmp_path, "profile=paper")
    ablation = dry_run(
        tmp_path, "profile=paper", "tag=rf500", 'overrides=["method.rf.params.n_estimators=500"]'
    )
    assert paper.returncode == 0 and ablation.returncode == 0, ablation.stderr[-3000:]
    trained = jobs_of(ablation, "train")
    assert trained, ablation.stdout[-2000:]
    assert {job for job in trained if job.split("/")[2] != "rf"} <= jobs_of(paper, "train")
    assert {job.split("/")[0] for job in trained if job.split("/")[2] == "rf"} == {"brf", "outofsample"}


@needs_mirror
def test_a_report_dir_in_the_committed_reports_is_refused_before_any_job(tmp_path):
    proc = dry_run(tmp_path, "profile=paper", "partial=true", "report_dir=results/report/paper/brf")
    assert proc.returncode != 0
    assert "report_dir=results/report/paper/brf" in proc.stderr + proc.stdout
    assert "rule " not in proc.stdout
