# The wiring between Snakemake and the package, which plans (docs/pages/architecture.md): what only
# Snakemake can do (--config, wildcard constraints, input functions, onstart). Nothing is written
# while the Snakefile is parsed: the specs are written in onstart, each only when its content
# changed, and a rule sees a changed spec through its `spec_sha256` param (the params trigger).

import hashlib
import os
import re
import shlex
import sys
from pathlib import Path

from snakemake.exceptions import WorkflowError
from snakemake.logging import logger
from snakemake.utils import validate
from snakemake_interface_executor_plugins.settings import DeploymentMethod

# The library this checkout holds, for planning and every job (FORESTREPRO), never another
# checkout's installed in Snakemake's Python: a worktree of another commit runs its own code.
SRC = Path(workflow.basedir) / "src"
sys.path.insert(0, str(SRC))

from forestrepro.config import ConfigError, write_spec_files
from forestrepro.config.plan_cache import cached_plan
from forestrepro.config.jobs import method_threads as config_method_threads
from forestrepro.record import run_guard
from forestrepro.workflow import ablation, contents, data, only as only_, run_config, states as states_
from forestrepro.workflow.errors import PlanError

RESULTS = "results"
FIGURES = "figures"

# Every step declares `conda: CONDA_ENV` (with `--sdm conda` it runs there; otherwise in the
# Python that runs Snakemake) and imports the library from SRC. Rules get the command as a param.
CONDA_ENV = "../../environment.yml"
PYTHON = "python" if DeploymentMethod.CONDA in workflow.deployment_settings.deployment_method else sys.executable
# Each rule's command is one `forestrepro` command that replaces the job's shell (exec): a signal
# to the shell (Snakemake killing a job, `pkill -f <checkout>`) reaches the command itself.
FORESTREPRO = f"PYTHONPATH='{SRC}'${{PYTHONPATH:+:$PYTHONPATH}} exec {PYTHON} -m forestrepro.cli"


# --config read once (workflow.run_config.settings); the plan, composed anew only when its inputs changed (cached_plan)
try:
    _OVERRIDES, PARTIAL, REUSE, OVERWRITE, RECORDS_ONLY = run_config.settings(
        config, SRC / "forestrepro" / "schemas" / "run_config.schema.yaml", validate
    )
    CFG, TAG, JOBS, SPEC_FILES = cached_plan(
        _OVERRIDES, profile=config.get("profile"), tag=config.get("tag"), conf_dir=Path(workflow.basedir) / "conf",
        results=RESULTS, before_planning=run_config.no_compilation,
    )
    run_guard.check_workdir(Path.cwd())  # Snakemake's state: forestrepro.record.run_guard.check_workdir
except (ConfigError, PlanError, run_guard.RunGuardError) as err:
    sys.exit(f"forestrepro: {err}")


# Before the first job (never in a dry run): the run's guards (forestrepro.record.run_guard.guard_run),
# then the specs, so no invocation changes the inputs of a run in progress.
onstart:
    try:
        run_guard.guard_run(workflow.dag.jobs, workflow.dag.needrun_jobs(), SPEC_FILES,
                            workflow.execution_settings.lock, logger.info)
    except run_guard.RunGuardError as err:
        sys.exit(f"forestrepro: {err}")
    if ONLY_GIVEN and not TABLES:
        logger.info(f"forestrepro: no cell of tag '{TAG}' is complete even with the jobs of --config only=, "
                    "so this run makes no report: it computes their records")
    write_spec_files(SPEC_FILES)


def spec_sha256(*paths):
    """The SHA-256 of the planned content of spec files (a rule's param)."""
    digest = hashlib.sha256()
    for path in paths:
        digest.update(SPEC_FILES[Path(path)].encode())
    return digest.hexdigest()


# Each data set's files, and where the fetch step reads them (forestrepro.workflow.data.data_files)
DATA_KEY, _data_environment = data.data_files(CFG, JOBS)
DATASETS = list(DATA_KEY)
os.environ.update(_data_environment)


envvars:
    "FORESTREPRO_DATA_SOURCES",
    "FORESTREPRO_MIRROR_DIR",
    "FORESTREPRO_OPENML_CACHE",


def data_of(dataset):
    """The parquet file of ``dataset`` (rule fetch)."""
    return f"{RESULTS}/data/{DATA_KEY[dataset]}.parquet"


JOB_BY_PATH = {job.path: job for job in JOBS}
SCAN_JOBS = {job.scan: job for job in reversed(JOBS) if job.scan}  # the first job that reads a scan runs it


wildcard_constraints:
    data="[A-Za-z0-9_]+-[0-9a-f]{12}",
    scan="[a-z0-9]+/[A-Za-z0-9_]+/[0-9a-f]+",


def method_resources(method, key, default):
    return CFG["method"][method].get("resources", {}).get(key, default)


def method_threads(method):
    """Cores a job of ``method`` reserves (config.jobs.method_threads; at most --cores)."""
    return config_method_threads(CFG, method)


def train_threads(wildcards):
    """Cores a training job reserves."""
    return method_threads(JOB_BY_PATH[wildcards.job].method)


def record_of(job):
    """The CSV of ``job``'s run record (its provenance JSON sits beside it)."""
    return f"{RESULTS}/runs/{TAG}/{job.path}.csv"


def provenance_of(run):
    """The provenance JSON beside a record's CSV."""
    return run.removesuffix(".csv") + ".provenance.json"


def any_of(paths):
    """A wildcard constraint matching exactly ``paths`` (none when empty)."""
    return "|".join(re.escape(path) for path in paths) or "(?!)"


# Each job's record: current, copied from another tag (rule reuse) or to train (forestrepro.workflow.states.job_states)
STATES = states_.job_states(JOBS, SPEC_FILES, RESULTS, TAG, reuse=REUSE)
RECORDS, REUSABLE = STATES.records, STATES.copies

# only=: the jobs a run may train, whatever the target; a target needing another is refused (workflow.only)
try:
    ONLY = only_.read_only(config, JOBS, TAG)
except PlanError as err:
    sys.exit(f"forestrepro: {err}")
ONLY_GIVEN = ONLY.given
ONLY_JOBS = [job for job in JOBS if ONLY.matches(job)]
PENDING_JOBS = any_of(only_.trained(JOBS, STATES, ONLY))
REUSED_JOBS = any_of(REUSABLE)
OUTSIDE_ONLY_JOBS = any_of(only_.refused(JOBS, STATES, ONLY))

# A committed record replaced by one of another spec is refused, unless overwrite=true (states_.overwrite_refusal)
if not OVERWRITE and (_refusal := states_.overwrite_refusal(ONLY_JOBS, STATES, RESULTS, TAG)):
    sys.exit(_refusal)


def refuse_outside_only(wildcards):
    """The input of outside_only (train.smk): refuse the target, naming the job and only=."""
    raise WorkflowError(f"forestrepro: {only_.outside_only_error(wildcards.job, ONLY)}")


def only_targets():
    """The default target under only=: its jobs' records (read by the report or not) and stale notes."""
    return [record_of(job) for job in ONLY_JOBS] + stale_markers(ONLY_JOBS)


def train_inputs(wildcards):
    """A pending train job's inputs: its data, its scan's record and its stale record's note."""
    job = JOB_BY_PATH[wildcards.job]
    inputs = {"data": data_of(job.dataset)}
    if job.scan:  # ancient(): a scan step run on its own after the job finished does not rerun it
        inputs["scan"] = ancient(f"{RESULTS}/runs/{TAG}/scans/{job.scan}.json")
    if RECORDS[job.path].state == "stale":
        inputs["stale"] = stale_marker_of(job)
    return inputs


def reuse_inputs(wildcards):
    """A reused job's inputs: the record it copies, and its stale record's note."""
    job = JOB_BY_PATH[wildcards.job]
    donor = REUSABLE[job.path]
    inputs = {"runs": donor, "provenance": provenance_of(donor)}
    if RECORDS[job.path].state == "stale":
        inputs["stale"] = stale_marker_of(job)
    return inputs


def stale_marker_of(job):
    """The note (rule stale_record) that says why ``job``'s record reruns."""
    return f"{RESULTS}/logs/{TAG}/stale/{job.path}.txt"


def stale_markers(jobs):
    """The notes of the stale records among ``jobs``, which a target asks for itself: Snakemake
    reruns no job whose outputs exist for a missing input that could be made."""
    return [stale_marker_of(job) for job in jobs if RECORDS[job.path].state == "stale"]


# The report: its tables, figures, shown records and folder (forestrepro.workflow.contents.report_plan)
try:
    REPORT = contents.report_plan(CFG, JOBS, STATES, ONLY, RESULTS, TAG, partial=PARTIAL,
                                  report_dir=config.get("report_dir"), records_only=RECORDS_ONLY)
except PlanError as err:
    sys.exit(f"forestrepro: {err}")
PARTIAL, TABLES, RANKED_TABLES, PAPER_FIGURES = REPORT.partial, REPORT.tables, REPORT.ranked_tables, REPORT.figures
REPORTED_JOBS, REPORT_RUNS, REPORTED_RUNS = REPORT.reported_jobs, REPORT.runs, REPORT.reported_runs
REPORT_DIR, COMMITTED_REPORT, COVERS = REPORT.dir, REPORT.committed, REPORT.covers
PARTIAL_SPEC = f"{RESULTS}/runs/{TAG}/specs/partial.json"
if PARTIAL:
    SPEC_FILES[Path(PARTIAL_SPEC)] = REPORT.partial_spec

# The tables and figures that only= leaves without a finished cell: a target among their files is
# refused naming only= (rule outside_only_report, train.smk).
LEFT_OUT_BY_ONLY = only_.left_out_by_only(CFG, contents.planned(JOBS), TABLES, PAPER_FIGURES, TAG, RESULTS,
                                          FIGURES) if ONLY_GIVEN else {}
LEFT_OUT_BY_ONLY_PATHS = any_of(LEFT_OUT_BY_ONLY)


def refuse_left_out_by_only(wildcards):
    """The input of outside_only_report: refuse the target, naming only= and what it needs."""
    raise WorkflowError(f"forestrepro: {only_.left_out_error(wildcards.path, LEFT_OUT_BY_ONLY[wildcards.path], ONLY)}")


# An ablation beside its baseline tag (forestrepro.workflow.ablation.plan_ablation)
ABLATION_SPEC = f"{RESULTS}/runs/{TAG}/specs/ablation.json"
_ablation_spec, BASELINE_RUNS = ablation.plan_ablation(
    CFG, (TAG, SPEC_FILES, JOBS), _OVERRIDES, REPORT, STATES, RESULTS, Path(workflow.basedir) / "conf"
)
ABLATION = _ablation_spec is not None
if ABLATION:
    SPEC_FILES[Path(ABLATION_SPEC)] = _ablation_spec
