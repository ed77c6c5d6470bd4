"""Cores a job uses against the cores it reserves, per kind of job (issue 24: aim at >= 90 %).

Runs the workflow on a small configuration in a scratch directory (default: the quick profile,
every paper) with ``--cores N``, then reads Snakemake's own measurement of every training and
scan job (the rules' ``benchmark:`` files, ``results/benchmarks/<tag>/...``: wall seconds ``s``
and ``cpu_time``, summed over the job's processes) and the threads Snakemake gave it (from its
log of the run), and prints per paper / experiment / method: the jobs, their threads, wall and
CPU seconds, the cores used (CPU / wall) and the share of the reserved cores that were busy
(CPU / (wall x threads)). Jobs shorter than ``--min-seconds`` are left out (Snakemake samples
a job's processes about once a second, so a job of a few seconds is measured coarsely).

    .venv/bin/python benchmarks/cores_used.py [--cores 2] [--overrides '["papers=[rcrf]"]']
        [--profile quick] [--keep DIR] [--min-seconds 5]

The load average before and after is printed: on a shared machine the cores used fall with
the load, so compare kinds of job measured in the same run.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import pandas as pd

REPO = Path(__file__).resolve().parents[1]
SNAKEMAKE = Path(sys.executable).with_name("snakemake")


def run_workflow(workdir: Path, cores: int, profile: str, overrides: list[str]) -> str:
    """Run every job of the configuration in ``workdir``; return Snakemake's log of the run."""
    cmd = [
        str(SNAKEMAKE),
        "--snakefile",
        str(REPO / "Snakefile"),
        "--directory",
        str(workdir),
        "--cores",
        str(cores),
        "--config",
        f"profile={profile}",
        "tag=bench",
        "overrides=" + json.dumps(overrides),
    ]
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        sys.exit(f"the workflow failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
    return proc.stdout + proc.stderr


def threads_by_benchmark(log: str) -> dict[str, int]:
    """The threads of each job, by its benchmark file, read from the log's job blocks."""
    found = {}
    for block in re.split(r"\n(?=(?:local)?rule \w+:)", log):
        bench = re.search(r"^\s+benchmark: (\S+)", block, re.MULTILINE)
        threads = re.search(r"^\s+threads: (\d+)", block, re.MULTILINE)
        if bench:
            found[bench.group(1)] = int(threads.group(1)) if threads else 1
    return found


def measurements(workdir: Path, threads: dict[str, int]) -> pd.DataFrame:
    rows = []
    for bench, n in threads.items():
        path = workdir / bench
        if not path.exists():
            continue
        row = pd.read_csv(path, sep="\t").iloc[-1]
        parts = Path(bench).relative_to("results/benchmarks/bench")
        kind, job = parts.parts[0], parts.with_suffix("").relative_to(parts.parts[0]).as_posix()
        label = "/".join(job.split("/")[:3]) if kind == "train" else "scan"
        rows.append(
            {
                "kind": label,
                "job": job,
                "threads": n,
                "wall_s": float(row["s"]),
                "cpu_s": float(row["cpu_time"]),
                "max_rss_mb": float(row["max_rss"]),
            }
        )
    return pd.DataFrame(rows)


def summary(jobs: pd.DataFrame, min_seconds: float) -> pd.DataFrame:
    kept = jobs[jobs["wall_s"] >= min_seconds].assign(reserved_s=lambda d: d["wall_s"] * d["threads"])
    table = kept.groupby("kind").agg(
        jobs=("job", "size"),
        threads=("threads", "max"),
        wall_s=("wall_s", "sum"),
        cpu_s=("cpu_s", "sum"),
        reserved_s=("reserved_s", "sum"),
    )
    table["cores_used"] = table["cpu_s"] / table["wall_s"]
    table["used_of_reserved"] = table["cpu_s"] / table["reserved_s"]
    return table.drop(columns="reserved_s").sort_values("used_of_reserved")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--cores", type=int, default=2)
    parser.add_argument("--profile", default="quick")
    parser.add_argument("--overrides", default="[]", help="Hydra overrides, a JSON list")
    parser.add_argument("--min-seconds", type=float, default=5.0)
    parser.add_argument("--keep", type=Path, default=None, help="run in this directory and keep it")
    args = parser.parse_args()
    workdir = args.keep or Path(tempfile.mkdtemp(prefix="cores-used-"))
    workdir.mkdir(parents=True, exist_ok=True)
    print(f"load average before: {os.getloadavg()[0]:.2f}; {os.cpu_count()} CPUs; --cores {args.cores}")
    log = run_workflow(workdir, args.cores, args.profile, json.loads(args.overrides))
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    jobs = measurements(workdir, threads_by_benchmark(log))
    if jobs.empty:
        sys.exit("no job was measured (were they all finished already?)")
    table = summary(jobs, args.min_seconds)
    left_out = int((jobs["wall_s"] < args.min_seconds).sum())
    print(f"\n{len(jobs)} jobs measured; {left_out} shorter than {args.min_seconds:g} s left out\n")
    with pd.option_context("display.width", 160, "display.float_format", "{:.2f}".format):
        print(table.to_string())
    kept = jobs[jobs["wall_s"] >= args.min_seconds]
    print(
        f"\nall kinds: {kept['cpu_s'].sum() / (kept['wall_s'] * kept['threads']).sum():.0%} of the reserved cores busy"
    )
    print(
        f"peak memory of a job: {jobs['max_rss_mb'].max():.0f} MB ({jobs.loc[jobs['max_rss_mb'].idxmax(), 'job']})"
    )


if __name__ == "__main__":
    main()
