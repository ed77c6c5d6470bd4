"""The workflow on a Slurm cluster gives the tables of a local run, and each job's threads,
mem_mb and runtime reach sbatch (issue 26, "Slurm, proven").

Skipped unless `sinfo` is on PATH (and the slurm extra is installed). Here, a one-node cluster
on this machine: `tests/cluster/start_slurm.sh` (as root), then

    .venv/bin/python -m pytest -v tests/cluster

runs a tiny subset of the quick profile twice (one test), locally (--cores 2) and with
`--workflow-profile profiles/slurm`, and compares the tables byte for byte (here, under load:
about 1 min locally, 4 min through Slurm: 16 training jobs of ~12 s each, one at a time on the
2-CPU node, plus the executor's status checks). On a real cluster:
SLURM_TEST_PARTITION (default: the cluster's default partition), SLURM_TEST_ACCOUNT (default:
none, --slurm-no-account) and SLURM_TEST_DIR (a directory every node sees; default: pytest's
temporary directory, which only a one-node cluster shares).
"""

import importlib.util
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
MIRROR = Path(os.environ.get("FORESTREPRO_MIRROR", REPO.parent / "shared" / "datasets")).resolve()
SNAKEMAKE = str(Path(sys.executable).with_name("snakemake"))
TAG = "tiny"
# tests/pipeline/test_workflow.py's tiny configuration; KNN jobs ask for 1 thread, the others for
# the 2 they are capped at, so a mix-up of two jobs' requests shows
TINY = [
    "papers=[brf]",
    "paper.brf.experiments.main.datasets=[wine,sonar]",
    "method.rf.params.n_estimators=5",
    "method.rf.grid.k_offset=[0]",
    "method.svm.grid.log2_C=[1]",
    "method.svm.grid.log2_gamma=[-1,1]",
    "method.knn.grid.n_neighbors=[1,3]",
    "+method.knn.resources.threads=1",
]
THREADS = 2  # capped further at the partition's smallest node (--max-threads)
TIMEOUT = 3600  # a job asking for more than any node has pends forever: fail, do not hang
# the three tables of BRF's main experiment: 2 fetch jobs (local), 16 training jobs (Slurm),
# 3 table jobs (local)
TABLES = [
    f"results/tables/{TAG}/brf_{t}.{ext}"
    for t in ("table2", "table2_textbook_rf", "fig3_variants")
    for ext in ("csv", "md")
]

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("sinfo") is None, reason="no Slurm here (sinfo not on PATH)"),
    pytest.mark.skipif(
        importlib.util.find_spec("snakemake_executor_plugin_slurm") is None,
        reason='the slurm extra is not installed: pip install -e ".[slurm]" -c constraints.txt',
    ),
    pytest.mark.skipif(not MIRROR.is_dir(), reason=f"data mirror not found at {MIRROR}"),
]


def _out(*cmd):
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def _partition():
    """SLURM_TEST_PARTITION, else the cluster's default partition (sinfo marks it with *)."""
    if os.environ.get("SLURM_TEST_PARTITION"):
        return os.environ["SLURM_TEST_PARTITION"]
    names = _out("sinfo", "-h", "-o", "%P").split()
    assert names, "sinfo lists no partition: is slurmctld up? (tests/cluster/start_slurm.sh)"
    return next((n[:-1] for n in names if n.endswith("*")), names[0])


def _max_threads(partition):
    cpus = _out("sinfo", "-h", "-p", partition, "-o", "%c").split()
    assert cpus, f"sinfo knows no partition {partition!r}; set SLURM_TEST_PARTITION"
    return min(THREADS, *(int(c.rstrip("+")) for c in cpus))


def _status_command():
    """sacct where accounting works, else squeue (a cluster without slurmdbd, as here)."""
    proc = subprocess.run(
        ["sacct", "-n", "-X", "-o", "JobID", "-S", "now"], check=False, capture_output=True, text=True
    )
    return "sacct" if proc.returncode == 0 and "disabled" not in proc.stdout + proc.stderr else "squeue"


def _snakemake(workdir, *args):
    cmd = [
        SNAKEMAKE,
        "--snakefile",
        str(REPO / "Snakefile"),
        "--directory",
        str(workdir),
        *args,
        "--config",
        f"tag={TAG}",
        "overrides=[" + ",".join(f'"{o}"' for o in TINY) + "]",
        "--",
        *TABLES,
    ]
    env = {**os.environ, "FORESTREPRO_MIRROR": str(MIRROR)}
    start = time.monotonic()
    try:
        proc = subprocess.run(cmd, check=False, env=env, capture_output=True, text=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired as err:
        log = "".join(b.decode() if isinstance(b, bytes) else b or "" for b in (err.stdout, err.stderr))
        run_id = re.search(r"SLURM run ID: (\S+)", log)
        if run_id:  # the run's jobs are named by its run ID
            subprocess.run(["scancel", "--name", run_id.group(1)], check=False)
        pytest.fail(
            f"snakemake still running after {TIMEOUT} s (a job pending for CPUs or memory no node has?):\n"
            f"{log[-6000:]}"
        )
    seconds = time.monotonic() - start
    log = proc.stdout + proc.stderr
    (Path(workdir) / "snakemake.log").write_text(" ".join(cmd) + "\n\n" + log)
    assert proc.returncode == 0, f"snakemake failed ({proc.returncode}):\n{log[-6000:]}"
    return log, seconds


def _slurm_args(partition, max_threads):
    args = [
        "--workflow-profile",
        str(REPO / "profiles" / "slurm"),
        "--max-threads",
        str(max_threads),
        "--default-resources",
        f"slurm_partition={partition}",
    ]
    if os.environ.get("SLURM_TEST_ACCOUNT"):
        args.append(f"slurm_account={os.environ['SLURM_TEST_ACCOUNT']}")
    else:
        args.append("--slurm-no-account")
    return [
        *args,
        "--slurm-status-command",
        _status_command(),
        "--slurm-init-seconds-before-status-checks",
        "5",
        "--verbose",
    ]  # --verbose: the executor logs each sbatch call


def _runs(tmp_path_factory):
    """The two runs (one test calls this: pytest -n 2 would give each test of a module fixture
    its own worker, and so its own pair of runs)."""
    partition = _partition()
    if os.environ.get("SLURM_TEST_DIR"):
        base = Path(os.environ["SLURM_TEST_DIR"])
    elif sum(int(n) for n in _out("sinfo", "-h", "-p", partition, "-o", "%D").split()) > 1:
        pytest.skip(
            f"partition {partition!r} has several nodes: set SLURM_TEST_DIR to a directory they all see"
        )
    else:
        base = tmp_path_factory.mktemp("slurm")
    local, slurm = base / "local", base / "slurm"
    for d in (local, slurm):
        shutil.rmtree(d, ignore_errors=True)
        d.mkdir(parents=True)
    max_threads = _max_threads(partition)
    _, local_s = _snakemake(local, "--cores", "2")
    slurm_log, slurm_s = _snakemake(slurm, *_slurm_args(partition, max_threads))
    print(f"\nwall time: local {local_s:.0f} s, Slurm {slurm_s:.0f} s ({base})")
    return {
        "local": local,
        "slurm": slurm,
        "slurm_log": slurm_log,
        "partition": partition,
        "max_threads": max_threads,
    }


def _planned_jobs(log):
    """Snakemake's job blocks: jobid -> (rule, wildcards, threads, mem_mb, runtime)."""
    jobs = {}
    for block in re.split(r"\n(?=(?:local)?rule \w+:\n)", log):
        head = re.match(r"(local)?rule (\w+):\n", block)
        jobid = re.search(r"^\s+jobid: (\d+)$", block, re.MULTILINE)
        if not head or not jobid:
            continue
        resources = re.search(r"^\s+resources: (.*)$", block, re.MULTILINE).group(1)
        wildcards = re.search(r"^\s+wildcards: (.*)$", block, re.MULTILINE)
        threads = re.search(r"^\s+threads: (\d+)$", block, re.MULTILINE)  # not printed when 1
        jobs[int(jobid.group(1))] = {
            "local": bool(head.group(1)),
            "rule": head.group(2),
            "wildcards": wildcards and wildcards.group(1),
            "threads": int(threads.group(1)) if threads else 1,
            "mem_mb": int(re.search(r"\bmem_mb=(\d+)", resources).group(1)),
            "runtime": int(re.search(r"\bruntime=(\d+)", resources).group(1)),
        }
    return jobs


def _submitted(log):
    """The executor's submissions: Snakemake jobid -> (Slurm job id, the sbatch call's options)."""
    # submissions run in a thread pool, so a job's call and its "submitted" line are paired by
    # the job's Slurm log directory (.snakemake/slurm_logs/rule_<rule>/<wildcards>/), not by order
    calls = {}
    for call in re.findall(r"^sbatch call: (sbatch .*)$", log, re.MULTILINE):
        options = call.split(" --wrap=")[0]
        calls[re.search(r"--output (\S+)/%j\.log", options).group(1)] = options
    submitted = {}
    for job, slurm_id, logdir in re.findall(
        r"Job (\d+) has been submitted with SLURM jobid (\d+) \(log: (\S+)/\d+\.log\)", log
    ):
        submitted[int(job)] = (slurm_id, calls.pop(logdir))
    assert not calls, f"sbatch calls with no submitted job: {sorted(calls)}"
    return submitted


def _minutes(limit):
    """Slurm's [D-]HH:MM:SS time limit in minutes."""
    days, _, hms = limit.rpartition("-")
    h, m, s = (int(x) for x in hms.split(":"))
    return int(days or 0) * 1440 + h * 60 + m + (s > 0)


def _megabytes(mem):
    return int(float(mem[:-1]) * {"K": 1 / 1024, "M": 1, "G": 1024, "T": 1024**2}[mem[-1]])


def _check_tables(runs):
    for name in TABLES:
        local = (runs["local"] / name).read_bytes()
        slurm = (runs["slurm"] / name).read_bytes()
        assert local == slurm, f"{name} differs between the local and the Slurm run"
    tables = sorted(p.name for p in (runs["slurm"] / "results" / "tables" / TAG).glob("*.*"))
    assert tables == sorted(p.name for p in (runs["local"] / "results" / "tables" / TAG).glob("*.*"))
    for path in (runs["slurm"] / "results" / "tables" / TAG).glob("*.*"):
        assert path.read_bytes() == (runs["local"] / "results" / "tables" / TAG / path.name).read_bytes(), (
            path.name
        )


def _check_resources(runs):
    planned = _planned_jobs(runs["slurm_log"])
    submitted = _submitted(runs["slurm_log"])
    train = {j for j, job in planned.items() if job["rule"] == "train"}
    assert len(train) == 16
    assert set(submitted) == train, (
        "the training jobs, and only they, go to Slurm (fetch and table are localrules)"
    )
    assert all(not planned[j]["local"] for j in train)
    # KNN 1, the others capped at max-threads; memory and runtime differ by method
    assert {planned[j]["threads"] for j in train} == {1, runs["max_threads"]}
    assert len({planned[j]["mem_mb"] for j in train}) > 1 and len({planned[j]["runtime"] for j in train}) > 1
    for jobid in sorted(train):
        job, (slurm_id, call) = planned[jobid], submitted[jobid]
        what = f"job {jobid} ({job['wildcards']}), Slurm job {slurm_id}: {call}"
        # what the executor passed to sbatch
        assert f" --cpus-per-task={job['threads']}" in call, what
        assert f" --mem {job['mem_mb']}" in call, what
        assert f" -t {job['runtime']}" in call, what
        assert f" -p {runs['partition']} " in call, what
        # what slurmctld made of it (it forgets a job MinJobAge seconds after it ends: 300 by
        # default, 3600 in start_slurm.sh's slurm.conf)
        proc = subprocess.run(
            ["scontrol", "-o", "show", "job", slurm_id], check=False, capture_output=True, text=True
        )
        if proc.returncode != 0:
            continue
        fields = dict(f.split("=", 1) for f in proc.stdout.split() if "=" in f)
        assert fields["JobState"] == "COMPLETED", what
        assert int(fields["NumCPUs"]) == job["threads"], what
        assert _megabytes(fields["MinMemoryNode"]) == job["mem_mb"], what
        assert _minutes(fields["TimeLimit"]) == job["runtime"], what


def test_slurm_run_gives_the_local_tables_and_each_training_job_its_threads_memory_and_runtime(
    tmp_path_factory,
):
    runs = _runs(tmp_path_factory)
    _check_tables(runs)
    _check_resources(runs)
