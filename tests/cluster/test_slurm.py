"""The workflow through Slurm (profiles/slurm) gives the tables of a local run, and each job's
threads, mem_mb and runtime reach sbatch and Slurm.

Skipped unless Slurm's `sinfo` is on PATH and the `slurm` extra is installed. On one machine, as
root: `tests/cluster/start_slurm.sh`, then `pytest tests/cluster -v` (about 1 min local + 3-5 min
through Slurm on 2 cores). SLURM_TEST_PARTITION names the partition (default: `debug`, the one
start_slurm.sh makes). The Slurm cluster has no accounting database: job states come from squeue,
and a job's allocation from `scontrol show job` (start_slurm.sh keeps finished jobs an hour).
"""

import importlib.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
MIRROR = (REPO.parent / "shared" / "datasets").resolve()
if "FORESTREPRO_MIRROR" in os.environ:
    MIRROR = Path(os.environ["FORESTREPRO_MIRROR"])
SNAKEMAKE = str(Path(sys.executable).with_name("snakemake"))
PARTITION = os.environ.get("SLURM_TEST_PARTITION", "debug")
# tests/pipeline/test_workflow.py's tiny configuration; KNN jobs take one thread, so the jobs do
# not all ask for the same CPUs (and mem_mb and runtime differ by method: conf/method/*.yaml)
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
TABLES = ["brf_table2", "brf_table2_textbook_rf", "brf_fig3_variants"]
TARGETS = [f"results/tables/tiny/{t}.{ext}" for t in TABLES for ext in ("csv", "md")]
TIMEOUT = 3600  # a job asking for more than the partition has pends forever: fail, do not hang

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("sinfo") is None, reason="Slurm's sinfo is not on PATH"),
    pytest.mark.skipif(importlib.util.find_spec("snakemake_executor_plugin_slurm") is None,
                       reason='the slurm extra is not installed: pip install -e ".[slurm]" -c constraints.txt'),
    pytest.mark.skipif(not MIRROR.is_dir(), reason=f"data mirror not found at {MIRROR}"),
]


def snakemake(workdir: Path, *args: str) -> str:
    overrides = "overrides=[" + ",".join(f'"{o}"' for o in TINY) + "]"
    cmd = [SNAKEMAKE, "--snakefile", str(REPO / "Snakefile"), "--directory", str(workdir),
           "--config", "tag=tiny", overrides, *args, *TARGETS]
    env = {**os.environ, "FORESTREPRO_MIRROR": str(MIRROR)}
    proc = subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True, timeout=TIMEOUT, check=False)
    out = proc.stdout + proc.stderr
    (workdir / "snakemake.out").write_text(out)
    assert proc.returncode == 0, f"snakemake failed ({proc.returncode}):\n{out[-5000:]}"
    return out


def partition_cpus() -> int:
    out = subprocess.run(["sinfo", "-h", "-p", PARTITION, "-o", "%c"], capture_output=True, text=True, check=True).stdout
    assert out.strip(), f"no partition {PARTITION!r} (sinfo); set SLURM_TEST_PARTITION"
    return min(int(c.rstrip("+")) for c in out.split())


def declared(out: str) -> dict[str, tuple[int, int, int]]:
    """(threads, mem_mb, runtime) of each train job as Snakemake printed it."""
    jobs = {}
    for block in out.split("\nrule train:\n")[1:]:
        block = block.split("\n\n")[0]
        job = re.search(r"wildcards: job=(\S+)", block).group(1)
        threads = re.search(r"threads: (\d+)", block)  # Snakemake prints no "threads: 1"
        threads = int(threads.group(1)) if threads else 1
        resources = re.search(r"resources: (.*)", block).group(1)
        mem = int(re.search(r"\bmem_mb=(\d+)", resources).group(1))
        runtime = int(re.search(r"\bruntime=(\d+)", resources).group(1))
        jobs[job] = (threads, mem, runtime)
    return jobs


def submitted(out: str) -> dict[str, tuple[int, int, int, str]]:
    """(cpus-per-task, --mem, -t, partition) of each sbatch call the plugin logged (--verbose)."""
    calls = {}
    for line in out.splitlines():
        if not line.startswith("sbatch call:"):
            continue
        job = re.search(r"--comment rule_train_wildcards_(\S+)", line)
        assert job, f"an sbatch call for something other than a train job:\n{line}"
        calls[job.group(1)] = (int(re.search(r"--cpus-per-task[= ](\d+)", line).group(1)),
                               int(re.search(r"--mem (\d+)", line).group(1)),
                               int(re.search(r" -t (\d+)", line).group(1)),
                               re.search(r" -p (\S+)", line).group(1))
    return calls


def allocated(out: str) -> dict[str, tuple[int, int, int]]:
    """(NumCPUs, MinMemoryNode in MB, TimeLimit in minutes) Slurm holds for each job."""
    jobs = {}
    for slurm_id, log in re.findall(r"submitted with SLURM jobid (\d+) \(log: (\S+)\)", out):
        job = Path(log).parent.name
        show = subprocess.run(["scontrol", "show", "job", slurm_id], capture_output=True, text=True, check=True).stdout
        cpus = int(re.search(r"NumCPUs=(\d+)", show).group(1))
        mem = re.search(r"MinMemoryNode=(\d+)([MG])", show)
        limit = re.search(r"TimeLimit=(?:(\d+)-)?(\d+):(\d+):(\d+)", show)
        days, hours, minutes = (int(limit.group(i) or 0) for i in (1, 2, 3))
        jobs[job] = (cpus, int(mem.group(1)) * (1024 if mem.group(2) == "G" else 1), (days * 24 + hours) * 60 + minutes)
    return jobs


def test_slurm_run_gives_the_local_tables_and_each_job_its_resources(tmp_path):
    cpus = partition_cpus()
    local = tmp_path / "local"
    snakemake(local, "--cores", str(min(cpus, 4)))
    slurm = tmp_path / "slurm"
    # the partition on the command line (and what this test cluster lacks: an account, sacct)
    out = snakemake(slurm, "--workflow-profile", str(REPO / "profiles" / "slurm"),
                    "--max-threads", str(min(cpus, 4)),
                    "--default-resources", f"slurm_partition={PARTITION}",
                    "--slurm-no-account", "--slurm-status-command", "squeue",
                    "--slurm-init-seconds-before-status-checks", "5", "--verbose")

    for target in TARGETS:
        assert (local / target).read_bytes() == (slurm / target).read_bytes(), target

    jobs = declared(out)
    assert len(jobs) == 16, sorted(jobs)  # 8 methods x 2 data sets, each its own Slurm job
    calls = submitted(out)
    assert sorted(calls) == sorted(j.replace("/", "_") for j in jobs)
    for job, (threads, mem, runtime) in jobs.items():
        assert calls[job.replace("/", "_")] == (threads, mem, runtime, PARTITION), job
    # the values differ between jobs, so a plugin falling back to its defaults would be seen
    assert len({v[0] for v in jobs.values()}) > 1 or cpus == 1
    assert len({v[2] for v in jobs.values()}) > 1 and len({v[1] for v in jobs.values()}) > 1
    # and Slurm holds what sbatch was asked for
    held = allocated(out)
    assert sorted(held) == sorted(calls)
    for job, (cpus_held, mem_held, limit) in held.items():
        assert (cpus_held, mem_held, limit) == calls[job][:3], job
    # the cheap rules (localrules) ran in the Snakemake process, not through the queue
    assert "rule table:" in out and not any("rule_table" in line for line in out.splitlines() if line.startswith("sbatch"))
