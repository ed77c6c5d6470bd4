"""The workflow on a Slurm cluster gives the tables of a local run, and each job's threads,
mem_mb and runtime reach sbatch (issue 26, "Slurm, proven"; issue 67: what the profile plans,
fit times aside). This module holds the full test and the helpers test_slurm_smoke.py shares.

The full test runs only when asked for (conftest.py), and is skipped unless `sinfo` is on PATH
and the slurm extra is installed (with FORESTREPRO_REQUIRE_SLURM=1 it fails instead). Here, a
one-node cluster on this machine: `tests/cluster/start_slurm.sh` (as root), then

    .venv/bin/python -m pytest -v -m slurm_full tests/cluster

runs a tiny configuration of BRF's quick profile three times: dry (`snakemake -n` with the
Slurm run's arguments: the plan the test expects), locally (--cores 2), and with
`--workflow-profile profiles/slurm`. The one job that makes the tables (rule report) needs
every record of the tag, so every training job of the configuration runs (the test prints how
many), each on one thread but KNN's on two. It compares every table byte for byte but the
measured times (a table whose metric is a duration: its values over the folds, `fit_seconds`
per outer fold, differ between any two runs; the rest of it is compared), and checks that
exactly the planned training jobs went to Slurm, each with its planned threads, memory and time
limit. The wall time of a run on Slurm 22.05.8 is in docs/pages/cluster.md. On a real cluster:
SLURM_TEST_PARTITION (default: the cluster's default partition), SLURM_TEST_ACCOUNT (default:
none, --slurm-no-account) and SLURM_TEST_DIR (a directory every node sees; default: pytest's
temporary directory, which only a one-node cluster shares).

The table comparison itself is tested without Slurm (the tests below the Slurm test): a table
that differs fails it, a fit time that differs does not.
"""

import csv
import importlib.util
import io
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from forestrepro.config import compose_config, plan_jobs
from forestrepro.record.equivalence import is_time_column

REPO = Path(__file__).resolve().parents[2]
MIRROR = Path(os.environ.get("FORESTREPRO_MIRROR", REPO.parent / "shared" / "datasets")).resolve()
SNAKEMAKE = str(Path(sys.executable).with_name("snakemake"))
TAG = "tiny"
# tests/pipeline/test_workflow.py's tiny configuration of BRF; on the quick profile every job
# asks for 1 thread, so KNN's ask for 2 (capped at --max-threads): a mix-up of two jobs'
# requests shows
TINY = [
    "papers=[brf]",
    "paper.brf.experiments.main.datasets=[wine,sonar]",
    "method.rf.params.n_estimators=5",
    "method.rf.grid.k_offset=[0]",
    "method.svm.grid.log2_C=[1]",
    "method.svm.grid.log2_gamma=[-1,1]",
    "method.knn.grid.n_neighbors=[1,3]",
    "+method.knn.resources.threads=2",
]
THREADS = 2  # --max-threads: capped further at the partition's smallest node
TIMEOUT = 3600  # a job asking for more than any node has pends forever: fail, do not hang
# the targets: three tables of BRF's main experiment. One local job makes every table of the
# tag (rule report), from every record of the tag: fetch jobs (local), then every training job
# of the configuration (Slurm), then the report (local)
TARGETS = [f"results/tables/{TAG}/brf_{t}.csv" for t in ("table2", "table2_textbook_rf", "fig3_variants")]
# The columns of a table's CSV that hold its metric's values (over the folds: mean, std, min,
# max) or what is computed from them (delta, within: forestrepro.report.compare.compare_cells).
# In a table whose metric is a measured duration they differ between any two runs; every other
# column (data sets, methods, folds, training rows, published values, tolerance) is compared.
METRIC_COLUMNS = ("mean", "std", "min", "max", "delta", "within")
DECIMAL = re.compile(r"\d+\.\d+")  # a duration in the Markdown and LaTeX tables (0.0431 ± 0.0207)


def stdout_of(*cmd):
    """A command's output; its error message if it fails (sinfo: no controller answers)."""
    proc = subprocess.run(cmd, check=False, capture_output=True, text=True)
    assert proc.returncode == 0, f"{' '.join(cmd)} failed ({proc.returncode}): {proc.stderr.strip()}"
    return proc.stdout


def _partition():
    """SLURM_TEST_PARTITION, else the cluster's default partition (sinfo marks it with *)."""
    if os.environ.get("SLURM_TEST_PARTITION"):
        return os.environ["SLURM_TEST_PARTITION"]
    names = stdout_of("sinfo", "-h", "-o", "%P").split()
    assert names, "sinfo lists no partition: is slurmctld up? (tests/cluster/start_slurm.sh)"
    return next((n[:-1] for n in names if n.endswith("*")), names[0])


def max_threads_of(partition):
    cpus = stdout_of("sinfo", "-h", "-p", partition, "-o", "%c").split()
    assert cpus, f"sinfo knows no partition {partition!r}; set SLURM_TEST_PARTITION"
    return min(THREADS, *(int(c.rstrip("+")) for c in cpus))


def _status_command():
    """sacct where accounting works, else squeue (a cluster without slurmdbd, as here)."""
    proc = subprocess.run(
        ["sacct", "-n", "-X", "-o", "JobID", "-S", "now"], check=False, capture_output=True, text=True
    )
    return "sacct" if proc.returncode == 0 and "disabled" not in proc.stdout + proc.stderr else "squeue"


def require_slurm():
    """The cluster's partition to test on; skip where Slurm, the slurm extra or the data mirror is
    missing, or fail there with FORESTREPRO_REQUIRE_SLURM=1 (.ci/run: never a silent skip)."""
    missing = [
        reason
        for absent, reason in (
            (shutil.which("sinfo") is None, "no Slurm here (sinfo not on PATH)"),
            (
                importlib.util.find_spec("snakemake_executor_plugin_slurm") is None,
                'the slurm extra is not installed: pip install -e ".[slurm]" -c constraints.txt',
            ),
            (not MIRROR.is_dir(), f"data mirror not found at {MIRROR} (FORESTREPRO_MIRROR)"),
        )
        if absent
    ]
    if missing:
        (pytest.fail if os.environ.get("FORESTREPRO_REQUIRE_SLURM") == "1" else pytest.skip)(
            "; ".join(missing)
        )
    return _partition()


def runs_dir(tmp_path_factory, partition, name):
    """Where a test's runs go: SLURM_TEST_DIR/<name>, else a temporary directory, which only a
    one-node cluster shares with its node."""
    if os.environ.get("SLURM_TEST_DIR"):
        return Path(os.environ["SLURM_TEST_DIR"]) / name
    if sum(int(n) for n in stdout_of("sinfo", "-h", "-p", partition, "-o", "%D").split()) > 1:
        pytest.skip(
            f"partition {partition!r} has several nodes: set SLURM_TEST_DIR to a directory they all see"
        )
    return tmp_path_factory.mktemp(name)


def snakemake(workdir, *args, config=(), targets=TARGETS, timeout=TIMEOUT):
    """Run the workflow on the tiny configuration (and ``config``, more --config items) in
    ``workdir``; return its log and wall seconds."""
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
        *config,
        "--",
        *targets,
    ]
    env = {**os.environ, "FORESTREPRO_MIRROR": str(MIRROR)}
    start = time.monotonic()
    try:
        proc = subprocess.run(cmd, check=False, env=env, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as err:
        log = "".join(b.decode() if isinstance(b, bytes) else b or "" for b in (err.stdout, err.stderr))
        run_id = re.search(r"SLURM run ID: (\S+)", log)
        if run_id:  # the run's jobs are named by its run ID
            subprocess.run(["scancel", "--name", run_id.group(1)], check=False)
        pytest.fail(
            f"snakemake still running after {timeout} s (a job pending for CPUs or memory no node has?):\n"
            f"{log[-6000:]}"
        )
    seconds = time.monotonic() - start
    log = proc.stdout + proc.stderr
    (Path(workdir) / "snakemake.log").write_text(" ".join(cmd) + "\n\n" + log)
    assert proc.returncode == 0, f"snakemake failed ({proc.returncode}):\n{log[-6000:]}"
    return log, seconds


def slurm_args(partition, max_threads):
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


def fresh_dirs(base, *names):
    """Empty directories ``base/<name>``, one per run (SLURM_TEST_DIR's from an earlier test removed)."""
    dirs = [base / name for name in names]
    for d in dirs:
        shutil.rmtree(d, ignore_errors=True)
        d.mkdir(parents=True)
    return dirs


def _runs(partition, base):
    """The dry run and the two runs (one test calls this: pytest -n 2 would give each test of a
    module fixture its own worker, and so its own runs)."""
    plan, local, slurm = fresh_dirs(base, "plan", "local", "slurm")
    max_threads = max_threads_of(partition)
    # the plan: the Slurm run's own command, dry. A dry run runs its jobs nowhere and caps their
    # threads at --cores (1 unless given), so --cores max-threads leaves the Slurm run's cap
    plan_log, _ = snakemake(
        plan, *slurm_args(partition, max_threads), "--dry-run", "--cores", str(max_threads)
    )
    local_log, local_s = snakemake(local, "--cores", "2")
    slurm_log, slurm_s = snakemake(slurm, *slurm_args(partition, max_threads))
    print(f"\nwall time: local {local_s:.0f} s, Slurm {slurm_s:.0f} s ({base})")
    return {
        "local": local,
        "slurm": slurm,
        "plan_log": plan_log,
        "local_log": local_log,
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


def minutes(limit):
    """Slurm's [D-]HH:MM:SS time limit in minutes."""
    days, _, hms = limit.rpartition("-")
    h, m, s = (int(x) for x in hms.split(":"))
    return int(days or 0) * 1440 + h * 60 + m + (s > 0)


def megabytes(mem):
    return int(float(mem[:-1]) * {"K": 1 / 1024, "M": 1, "G": 1024, "T": 1024**2}[mem[-1]])


def _measured_tables(run):
    """The tables (file stems: <paper>_<table>) of the run's tag whose metric is a measured
    duration (fit_seconds, seconds, ...: forestrepro.record.equivalence.is_time_column), from
    the table specs the workflow wrote for its report."""
    specs = sorted((run / "results" / "runs" / TAG / "specs").glob("*/*.table.json"))
    assert specs, f"no table specs under {run}/results/runs/{TAG}/specs"
    return {
        f"{spec['paper']}_{spec['table']}"
        for spec in (json.loads(path.read_text()) for path in specs)
        if is_time_column(spec["metric"])
    }


def _check_measured_csv(name, local, slurm):
    """A table of durations: the same columns and rows, every cell equal but the durations."""
    local_rows, slurm_rows = (list(csv.DictReader(io.StringIO(t.decode()))) for t in (local, slurm))
    header = local.decode().splitlines()[0]
    assert slurm.decode().splitlines()[0] == header, f"{name}: the columns differ between the runs"
    assert len(slurm_rows) == len(local_rows), f"{name}: the rows differ between the runs"
    measured = [c for c in METRIC_COLUMNS if c in header.split(",")]
    assert measured, f"{name}: none of the metric columns {METRIC_COLUMNS} in {header!r}"
    for local_row, slurm_row in zip(local_rows, slurm_rows, strict=True):
        kept = {c: v for c, v in local_row.items() if c not in measured}
        assert {c: slurm_row[c] for c in kept} == kept, f"{name}: a cell other than a duration differs"


def check_tables(local, slurm):
    """Every table of the tag byte for byte, but the durations in a table of durations (its
    CSV cell by cell but the metric's columns, its Markdown and LaTeX with the decimals masked).
    Returns the files not compared byte for byte."""
    local_dir, slurm_dir = (run / "results" / "tables" / TAG for run in (local, slurm))
    names = sorted(p.name for p in local_dir.iterdir())
    assert names, f"no tables in {local_dir}"
    assert sorted(p.name for p in slurm_dir.iterdir()) == names, "the two runs made different tables"
    measured = _measured_tables(local)
    assert measured == _measured_tables(slurm)
    loose = set()
    for name in names:
        local_bytes, slurm_bytes = (local_dir / name).read_bytes(), (slurm_dir / name).read_bytes()
        stem, ext = os.path.splitext(name)
        if stem not in measured or ext not in (".csv", ".md", ".tex"):
            assert local_bytes == slurm_bytes, f"{name} differs between the local and the Slurm run"
        elif ext == ".csv":
            _check_measured_csv(name, local_bytes, slurm_bytes)
            loose.add(name)
        else:
            masked = [DECIMAL.sub("<t>", t.decode()) for t in (local_bytes, slurm_bytes)]
            assert masked[0] == masked[1], f"{name} differs between the runs in more than its durations"
            loose.add(name)
    return loose


def _configured_jobs():
    """The jobs of the configuration, as `forestrepro plan` lists them: the library's own plan
    (`forestrepro.config.plan_jobs`), not plan's text, which is for people."""
    cfg = compose_config(TINY, conf_dir=REPO / "conf")
    return {f"job={job.path}" for job in plan_jobs(cfg)}


RESOURCES = ("threads", "mem_mb", "runtime")


def _train_jobs(log):
    """The training jobs of a Snakemake log: job=<path> -> its block (_planned_jobs)."""
    return {job["wildcards"]: job for job in _planned_jobs(log).values() if job["rule"] == "train"}


def _check_resources(runs):
    """Exactly the planned training jobs ran, locally and through Slurm, and each reached sbatch
    and slurmctld with its planned threads, memory and time limit. Returns their number."""
    plan = _train_jobs(runs["plan_log"])
    # Snakemake plans the configuration's jobs (all of them in a fresh directory, as here; a
    # subset where records exist)
    assert plan and set(plan) <= _configured_jobs(), "a training job that is no job of the configuration"
    # what the test can tell apart: jobs that ask for different threads, memory and time
    if runs["max_threads"] > 1:
        assert len({job["threads"] for job in plan.values()}) > 1, "every job asks for the same threads"
    assert len({job["mem_mb"] for job in plan.values()}) > 1, "every job asks for the same memory"
    assert len({job["runtime"] for job in plan.values()}) > 1, "every job asks for the same time"
    assert set(_train_jobs(runs["local_log"])) == set(plan), (
        "the local run ran other training jobs than planned"
    )
    planned = _planned_jobs(runs["slurm_log"])
    submitted = _submitted(runs["slurm_log"])
    train = {j for j, job in planned.items() if job["rule"] == "train"}
    assert {planned[j]["wildcards"] for j in train} == set(plan), (
        "the Slurm run ran other training jobs than planned"
    )
    assert set(submitted) == train, (
        "the training jobs, and only they, go to Slurm (fetch and report are localrules)"
    )
    assert all(not planned[j]["local"] for j in train)
    for jobid in sorted(train):
        job, (slurm_id, call) = planned[jobid], submitted[jobid]
        what = f"job {jobid} ({job['wildcards']}), Slurm job {slurm_id}: {call}"
        expected = plan[job["wildcards"]]
        assert [job[k] for k in RESOURCES] == [expected[k] for k in RESOURCES], what
        # what the executor passed to sbatch
        assert f" --cpus-per-task={expected['threads']}" in call, what
        assert f" --mem {expected['mem_mb']}" in call, what
        assert f" -t {expected['runtime']}" in call, what
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
        assert int(fields["NumCPUs"]) == expected["threads"], what
        assert megabytes(fields["MinMemoryNode"]) == expected["mem_mb"], what
        assert minutes(fields["TimeLimit"]) == expected["runtime"], what
    return len(train)


@pytest.mark.slow
@pytest.mark.slurm_full
def test_slurm_run_gives_the_local_tables_and_each_training_job_its_threads_memory_and_runtime(
    tmp_path_factory,
):
    partition = require_slurm()
    runs = _runs(partition, runs_dir(tmp_path_factory, partition, "slurm"))
    loose = check_tables(runs["local"], runs["slurm"])
    jobs = _check_resources(runs)
    print(
        f"{jobs} training jobs through Slurm as planned; tables byte-identical but the durations of {sorted(loose)}"
    )


# The table comparison, without Slurm: two runs' tables as the report writes them


def _tables(run, cells, fit_seconds):
    """A run's tag with two tables as the report writes them: an accuracy table and a table of
    fit times, with their specs."""
    for table, metric in (("table2", "accuracy"), ("fit", "fit_seconds")):
        spec = run / "results" / "runs" / TAG / "specs" / "brf" / f"{table}.table.json"
        spec.parent.mkdir(parents=True, exist_ok=True)
        spec.write_text(json.dumps({"paper": "brf", "table": table, "metric": metric}))
    tables = run / "results" / "tables" / TAG
    tables.mkdir(parents=True, exist_ok=True)
    header = "dataset,method,paper_dataset,paper_method,published_mean,published_std,mean,std,n_folds,min,max,delta,tolerance,within,n_runs,n_train"
    (tables / "brf_table2.csv").write_text(
        f"{header}\nwine,brf,wine,BRFs,0.97,0.02,{cells},0.01,2,0.9,1.0,0.01,0.04,True,2,89\n"
    )
    (tables / "brf_table2.md").write_text(f"| Data set | brf |\n|---|---|\n| wine | {cells} ± 0.0100 |\n")
    (tables / "brf_table2_ranks.json").write_text('{"ours": {"n_datasets": 0}}\n')
    (tables / "brf_fit.csv").write_text(
        f"{header}\nwine,brf,wine,,,,{fit_seconds},0.02,2,0.02,0.05,,0.02,,2,89\n"
    )
    (tables / "brf_fit.md").write_text(
        f"# Fit time (Sec. 6.2)\n\n| Data set | brf |\n|---|---|\n| wine | {fit_seconds} ± 0.0207 |\n"
    )
    (tables / "brf_fit.tex").write_text(f"wine & {fit_seconds} $\\pm$ 0.0207 \\\\\n")
    (tables / "brf_fit_ranks.json").write_text('{"ours": {"note": "this table is not ranked"}}\n')


def test_check_tables_passes_when_only_fit_times_differ(tmp_path):
    _tables(tmp_path / "local", "0.9700", "0.0431")
    _tables(tmp_path / "slurm", "0.9700", "0.1524")
    assert check_tables(tmp_path / "local", tmp_path / "slurm") == {
        "brf_fit.csv",
        "brf_fit.md",
        "brf_fit.tex",
    }


@pytest.mark.parametrize(
    "corrupt",
    [
        ("brf_table2.csv", "0.9700", "0.9701"),  # an accuracy
        ("brf_table2.md", "wine", "sonar"),
        ("brf_table2_ranks.json", "0", "1"),
        ("brf_fit.csv", ",2,89", ",3,89"),  # the folds of a fit-time cell
        ("brf_fit.csv", "wine,brf", "wine,pbrf"),
        ("brf_fit.md", "wine", "sonar"),
        ("brf_fit.md", " 0.0431 ±", " — ±"),  # a cell missing in one run
        ("brf_fit.tex", "wine", "sonar"),
        ("brf_fit_ranks.json", "not", "now"),
    ],
    ids=lambda c: f"{c[0]}:{c[1]}",
)
def test_check_tables_fails_when_anything_but_a_fit_time_differs(tmp_path, corrupt):
    _tables(tmp_path / "local", "0.9700", "0.0431")
    _tables(tmp_path / "slurm", "0.9700", "0.0431")
    name, old, new = corrupt
    path = tmp_path / "slurm" / "results" / "tables" / TAG / name
    assert old in path.read_text()
    path.write_text(path.read_text().replace(old, new, 1))
    with pytest.raises(AssertionError, match=name.rsplit(".", 1)[0]):
        check_tables(tmp_path / "local", tmp_path / "slurm")


def test_check_tables_fails_when_a_table_is_missing(tmp_path):
    _tables(tmp_path / "local", "0.9700", "0.0431")
    _tables(tmp_path / "slurm", "0.9700", "0.0431")
    (tmp_path / "slurm" / "results" / "tables" / TAG / "brf_table2.md").unlink()
    with pytest.raises(AssertionError, match="different tables"):
        check_tables(tmp_path / "local", tmp_path / "slurm")
