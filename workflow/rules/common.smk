# Compose the Hydra configuration, name the results (tag), and write one specification file
# per data set, job and table. Specifications are rewritten only when their content changes,
# so an unchanged rerun does nothing and a changed setting reruns only what it touches.

import os
import sys

from forestrepro.config import ConfigError, compose_config, compute_tag, write_job_specs

RESULTS = "results"
FIGURES = "figures"
PYTHON = sys.executable
FORESTREPRO = f"{PYTHON} -m forestrepro.cli"


def _overrides_from_config():
    raw = config.get("overrides", [])
    if isinstance(raw, str):
        raw = [raw] if raw else []
    if not isinstance(raw, list):
        sys.exit(f"forestrepro: --config overrides must be a list of key=value strings, got {raw!r}")
    return [str(item) for item in raw]


def _partial_from_config():
    raw = config.get("partial", False)
    if raw in (True, False, 0, 1) or str(raw).lower() in ("true", "false"):
        return str(raw).lower() in ("true", "1")
    sys.exit(f"forestrepro: --config partial must be true or false, got {raw!r}")


PARTIAL = _partial_from_config()  # report on the finished runs only (see README)

try:
    CFG = compose_config(_overrides_from_config(), profile=config.get("profile"))
    TAG = compute_tag(CFG, compose_config([], profile=CFG["profile"]), config.get("tag"))
    JOBS = write_job_specs(CFG, TAG, RESULTS)
except ConfigError as err:
    sys.exit(f"forestrepro: {err}")

DATASETS = sorted({job.dataset for job in JOBS})
JOB_BY_PATH = {job.path: job for job in JOBS}
SCAN_JOBS = {}  # scan name -> the first job that reads it, whose spec the scan step runs
for _job in JOBS:
    if _job.scan:
        SCAN_JOBS.setdefault(_job.scan, _job)
TABLES = [(paper, table) for paper in CFG["papers"] for table in CFG["paper"][paper]["tables"]]
RANKED_TABLES = [(p, t) for p, t in TABLES if CFG["paper"][p]["tables"][t].get("rank", True)]
PAPER_FIGURES = [(paper, fig) for paper in CFG["papers"] for fig in CFG["paper"][paper].get("figures", {})]


wildcard_constraints:
    figure="fig[A-Za-z0-9_]*(?<!_cd)",  # not a table's CD diagram, <table>_cd (rule plot_cd)
    dataset="[A-Za-z0-9_]+",
    paper="[a-z0-9]+",
    experiment="[A-Za-z0-9_]+",
    method="[A-Za-z0-9_]+",
    table="[A-Za-z0-9_]+",
    scan="[a-z0-9]+/[A-Za-z0-9_]+/[0-9a-f]+",


def method_resources(method, key, default):
    return CFG["method"][method].get("resources", {}).get(key, default)


def scan_of_job(wildcards):
    """The record of the scan step that a train job reads (none if its data is not scanned)."""
    job = JOB_BY_PATH.get(f"{wildcards.paper}/{wildcards.experiment}/{wildcards.method}/{wildcards.dataset}")
    return [ancient(f"{RESULTS}/runs/{TAG}/scans/{job.scan}.json")] if job and job.scan else []


def runs_of_table(paper, table):
    """The run files of every job of the experiment that ``table`` of ``paper`` reads."""
    return runs_of_experiment(paper, CFG["paper"][paper]["tables"][table]["experiment"])


def runs_of_figure(paper, figure):
    """The run files of every job of the experiment that ``figure`` of ``paper`` draws."""
    return runs_of_experiment(paper, CFG["paper"][paper]["figures"][figure]["experiment"])


def runs_of_experiment(paper, experiment):
    """The run files of the experiment's jobs; with ``partial``, only those already written."""
    runs = [
        f"{RESULTS}/runs/{TAG}/{job.path}.parquet"
        for job in JOBS
        if job.paper == paper and job.experiment == experiment
    ]
    return [run for run in runs if os.path.exists(run)] if PARTIAL else runs


if PARTIAL:  # a table or figure with no finished run is left out of a partial report
    TABLES = [(p, t) for p, t in TABLES if runs_of_table(p, t)]
    RANKED_TABLES = [(p, t) for p, t in RANKED_TABLES if (p, t) in TABLES]
    PAPER_FIGURES = [(p, f) for p, f in PAPER_FIGURES if runs_of_figure(p, f)]
    if not TABLES:
        sys.exit(f"forestrepro: --config partial=true, but no job of tag '{TAG}' has finished yet")
    FINISHED_RUNS = sum(os.path.exists(f"{RESULTS}/runs/{TAG}/{job.path}.parquet") for job in JOBS)
