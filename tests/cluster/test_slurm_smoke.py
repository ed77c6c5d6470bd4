"""A handful of quick training jobs through Slurm give the local run's records and tables, and
each asks Slurm for the CPUs, memory and time its configuration gives it (issue 76: "Slurm
cannot rot"). At most 3 minutes on a one-node cluster of 2 busy cores, so CI runs it:

    tests/cluster/start_slurm.sh                        # as root, after apt-get install slurm-wlm munge
    .venv/bin/python -m pytest -v -m slurm_smoke tests/cluster

It runs three jobs of BRF's Table 2 on wine in the tiny configuration of test_slurm.py (`--config
only=`: KNN on two threads, the SVM and BRF on one, no two with the same threads, memory and time
limit, so a mix-up of two jobs' requests shows), locally (--cores 2) and through `profiles/slurm`,
side by side. Each record's rows are equal but the measured times
(`forestrepro.record.equivalence.rows_differ`), and so is the partial report's every table
(test_slurm.check_tables). What went to Slurm is read from slurmctld (`scontrol show job`), the
jobs named by the run's `--slurm-jobname-prefix`: exactly the three training jobs, each completed
with the CPUs, memory and time limit of its method's `resources` (capped at --max-threads).
"""

import sys
import uuid
from concurrent.futures import ThreadPoolExecutor

import pytest

from forestrepro.config import compose_config, plan_jobs
from forestrepro.config.jobs import method_threads
from forestrepro.record.equivalence import rows_differ
from forestrepro.record.store import read_rows

from .test_slurm import (
    REPO,
    TAG,
    TINY,
    check_tables,
    fresh_dirs,
    max_threads_of,
    megabytes,
    minutes,
    require_slurm,
    runs_dir,
    slurm_args,
    snakemake,
    stdout_of,
)

SMOKE = [f"brf/main/{method}/wine" for method in ("knn", "svm", "brf")]
TIMEOUT = 600  # a run still going after 10 minutes is stuck (a job pending for what no node has)


def expected_requests(max_threads):
    """Each smoke job's request (threads, mem_mb, runtime in minutes) from its method's
    `resources` in the configuration; the methods name their memory and time themselves."""
    cfg = compose_config(TINY, conf_dir=REPO / "conf")
    methods = {job.path: job.method for job in plan_jobs(cfg)}
    assert set(SMOKE) <= set(methods), f"smoke jobs that are no job of the configuration: {SMOKE}"
    requests = {}
    for path in SMOKE:
        own = cfg["method"][methods[path]].get("resources", {})
        assert {"mem_mb", "runtime_min"} <= set(own), f"{methods[path]}: no mem_mb or runtime_min of its own"
        threads = min(method_threads(cfg, methods[path]), max_threads)
        requests[path] = (threads, own["mem_mb"], own["runtime_min"])
    return requests


def slurm_jobs(name_prefix):
    """slurmctld's record of every job whose name starts with ``name_prefix`` (the executor names
    a run's jobs ``<prefix>_<run uuid>``): its fields, one dict a job."""
    jobs = []
    for line in stdout_of("scontrol", "-o", "show", "job").splitlines():
        fields = dict(f.split("=", 1) for f in line.split() if "=" in f)
        if fields.get("JobName", "").startswith(f"{name_prefix}_"):
            jobs.append(fields)
    return jobs


def check_requests(jobs, requests):
    """Exactly the smoke jobs' training went to Slurm (fetch and the report run locally), each
    completed with its planned CPUs, memory and time limit."""
    # the executor's comment names a job's rule and wildcards (its job path, "/" as "_")
    by_comment = {f"rule_train_wildcards_{path.replace('/', '_')}": path for path in requests}
    comments = sorted(job.get("Comment", "") for job in jobs)
    assert comments == sorted(by_comment), f"Slurm ran {comments}, not the training jobs {sorted(by_comment)}"
    for job in jobs:
        path = by_comment[job["Comment"]]
        what = f"Slurm job {job['JobId']} ({path})"
        assert job["JobState"] == "COMPLETED", what
        granted = (int(job["NumCPUs"]), megabytes(job["MinMemoryNode"]), minutes(job["TimeLimit"]))
        assert granted == requests[path], (
            f"{what}: (cpus, mem_mb, minutes) {granted}, planned {requests[path]}"
        )


@pytest.mark.slurm_smoke
def test_a_few_jobs_through_slurm_give_the_local_records_and_ask_for_their_planned_resources(
    tmp_path_factory,
):
    partition = require_slurm()
    max_threads = max_threads_of(partition)
    requests = expected_requests(max_threads)
    # no two jobs ask for the same (threads, memory, time), so a mix-up of two jobs' requests shows
    assert len(set(requests.values())) == len(requests), requests
    local, slurm = fresh_dirs(runs_dir(tmp_path_factory, partition, "slurm_smoke"), "local", "slurm")
    only = ["only=[" + ",".join(SMOKE) + "]"]
    prefix = f"forestrepro-smoke-{uuid.uuid4().hex[:8]}"
    # side by side: the Slurm run waits on sbatch, the scheduler and its status checks
    with ThreadPoolExecutor(2) as pool:
        local_run = pool.submit(snakemake, local, "--cores", "2", config=only, targets=(), timeout=TIMEOUT)
        slurm_run = pool.submit(
            snakemake,
            slurm,
            *slurm_args(partition, max_threads),
            "--slurm-jobname-prefix",
            prefix,
            config=only,
            targets=(),
            timeout=TIMEOUT,
        )
        (_, local_s), (_, slurm_s) = local_run.result(), slurm_run.result()
    print(f"\nwall time: local {local_s:.0f} s, Slurm {slurm_s:.0f} s ({slurm.parent})")
    for path in SMOKE:
        rows = [read_rows(run / "results" / "runs" / TAG / f"{path}.csv") for run in (local, slurm)]
        assert rows_differ(*rows) == "", f"{path}: the Slurm run's record differs: {rows_differ(*rows)}"
    check_tables(local, slurm)
    check_requests(slurm_jobs(prefix), requests)


# The request check, without Slurm: slurmctld's records of a run's jobs as `scontrol -o show job`
# gives them

PLANNED = {"brf/main/knn/wine": (2, 2000, 30), "brf/main/brf/wine": (1, 4000, 480)}


def _scontrol(**changed):
    """`scontrol -o show job` of the two PLANNED jobs as slurmctld ran them (``changed``: the
    fields of the first job that differ)."""
    lines = [
        "JobId=7 JobName=smoke_1a2b UserId=root(0) JobState=COMPLETED Reason=None TimeLimit=00:30:00 "
        "NumCPUs=2 MinMemoryNode=2000M Comment=rule_train_wildcards_brf_main_knn_wine WorkDir=/tmp/s",
        "JobId=8 JobName=smoke_1a2b UserId=root(0) JobState=COMPLETED Reason=None TimeLimit=08:00:00 "
        "NumCPUs=1 MinMemoryNode=4000M Comment=rule_train_wildcards_brf_main_brf_wine WorkDir=/tmp/s",
        "JobId=6 JobName=other_9f8e JobState=RUNNING TimeLimit=01:00:00 NumCPUs=1 MinMemoryNode=1G",
    ]
    for field, value in changed.items():
        lines[0] = " ".join(f"{field}={value}" if f.startswith(f"{field}=") else f for f in lines[0].split())
    return "\n".join(lines) + "\n"


def test_check_requests_passes_when_each_job_ran_as_planned(monkeypatch):
    monkeypatch.setattr(sys.modules[__name__], "stdout_of", lambda *cmd: _scontrol())
    jobs = slurm_jobs("smoke")
    assert [job["JobId"] for job in jobs] == ["7", "8"]
    check_requests(jobs, PLANNED)


@pytest.mark.parametrize(
    "changed",
    [
        {"NumCPUs": "1"},
        {"MinMemoryNode": "4000M"},
        {"TimeLimit": "02:00:00"},
        {"JobState": "FAILED"},
        {"Comment": "rule_report"},  # the report went to Slurm
        {"Comment": "rule_train_wildcards_brf_main_svm_wine"},  # another job than planned
        {"JobName": "other_1a2b"},  # the planned job missing from the run
    ],
    ids=lambda changed: next(iter(changed.items()))[1],
)
def test_check_requests_fails_when_a_job_ran_otherwise(monkeypatch, changed):
    monkeypatch.setattr(sys.modules[__name__], "stdout_of", lambda *cmd: _scontrol(**changed))
    with pytest.raises(AssertionError):
        check_requests(slurm_jobs("smoke"), PLANNED)
