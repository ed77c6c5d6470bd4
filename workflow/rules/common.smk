# The wiring between Snakemake and the package: what only Snakemake can do (--config, wildcard
# constraints, input functions, onstart) calls forestrepro.workflow for the plan (which records
# are current, copied or to train; only=; the report's contents; an ablation), described in
# docs/pages/architecture.md. Nothing is written while the Snakefile is parsed: the specs are
# written once the run holds Snakemake's lock (onstart), each only when its content changed, and
# a rule sees a changed spec through its `spec_sha256` param (Snakemake's params trigger).

import hashlib
import json
import os
import re
import shlex
import sys
from pathlib import Path

from snakemake.exceptions import WorkflowError
from snakemake.utils import validate
from snakemake_interface_executor_plugins.settings import DeploymentMethod

# The library this checkout holds, for planning here and for every job (FORESTREPRO), never
# another checkout's installed in the Python running Snakemake: a worktree of another commit
# plans, runs and hashes its own code.
SRC = Path(workflow.basedir) / "src"
sys.path.insert(0, str(SRC))

from forestrepro.config import ConfigError, write_spec_files
from forestrepro.config.plan_cache import cached_plan
from forestrepro.config.jobs import data_key, method_threads as config_method_threads, result_overrides
from forestrepro.record.attempt import failure_note
from forestrepro.report import location as report_location
from forestrepro.workflow import ablation, contents, only as only_, run_config, states as states_
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


# --config, checked and read once; the plan (configuration, tag, jobs, spec texts), composed anew
# only when conf/, the library, the overrides or the environment changed (config.plan_cache).
try:
    _SCHEMA = SRC / "forestrepro" / "schemas" / "run_config.schema.yaml"
    run_config.check_keys(config, _SCHEMA)
    validate(config, str(_SCHEMA))
    _OVERRIDES = run_config.overrides(config)
    PARTIAL, REUSE, OVERWRITE, RECORDS_ONLY = (
        run_config.flag(config, key, default)
        for key, default in (("partial", False), ("reuse", True), ("overwrite", False), ("records_only", False))
    )
    CFG, TAG, JOBS, SPEC_FILES = cached_plan(
        _OVERRIDES, profile=config.get("profile"), tag=config.get("tag"), conf_dir=Path(workflow.basedir) / "conf",
        results=RESULTS, before_planning=run_config.no_compilation,
    )
except (ConfigError, PlanError) as err:
    sys.exit(f"forestrepro: {err}")


# Specs are written only once this run holds Snakemake's lock (never in a dry run), so no
# invocation changes the inputs of a run in progress.
onstart:
    guard_run()
    write_spec_files(SPEC_FILES)


def guard_run():
    """Before the first job (onstart: never in a dry run), refuse to run while another live run
    works on this run's files, whatever `snakemake --unlock` did (Snakemake's lock with its holder:
    forestrepro.record.run_guard), and refuse folders this run cannot write, naming them, rather
    than fail in a job, maybe after it trained. With --nolock, there is no lock, as in Snakemake."""
    import atexit

    from snakemake.logging import logger

    from forestrepro.record import run_guard

    needrun = list(workflow.dag.needrun_jobs())
    outputs = {str(f) for job in needrun for f in job.output}
    if workflow.execution_settings.lock:
        inputs = {str(f) for job in workflow.dag.jobs for f in job.input}
        try:
            lock, taken_over = run_guard.acquire(inputs, outputs)
        except run_guard.RunLockError as err:
            sys.exit(f"forestrepro: {err}")
        atexit.register(run_guard.release, lock)
        for stale in taken_over:
            logger.info(f"forestrepro: took over the lock of a run that has ended (process {stale['pid']} "
                        f"on {stale['host']}, started {stale.get('started', '?')})")
    written = outputs | {str(f) for job in needrun for f in [*job.log, job.benchmark] if f}
    problems = run_guard.unwritable(written | {str(path) for path in SPEC_FILES})
    if problems:
        sys.exit(f"forestrepro: {run_guard.unwritable_message(problems)}")
    if ONLY_GIVEN and not TABLES:
        logger.info(f"forestrepro: no cell of tag '{TAG}' is complete even with the jobs of --config only=, "
                    "so this run makes no report: it computes their records")


def _check_workdir_writable():
    """A read-only checkout (or working directory) stops here, named, rather than in a traceback
    of Snakemake's, which keeps its state in .snakemake/ of the working directory."""
    from forestrepro.record.run_guard import unwritable

    for folder, why, _ in unwritable([Path.cwd() / ".snakemake" / "state"]):
        sys.exit(f"forestrepro: cannot write to {folder} ({why}), where Snakemake keeps its state "
                 f"(.snakemake/ of the working directory {Path.cwd()}); nothing has run. Make it writable, "
                 "or run in a writable copy of the checkout, or give --directory a writable folder")


_check_workdir_writable()


def spec_sha256(*paths):
    """The SHA-256 of the planned content of spec files, a rule's param: when it changes,
    Snakemake's params trigger reruns the rule."""
    digest = hashlib.sha256()
    for path in paths:
        digest.update(SPEC_FILES[Path(path)].encode())
    return digest.hexdigest()


DATASETS = sorted({job.dataset for job in JOBS})
# A data set's files are named by its configuration's content (config.jobs.data_key). Where they
# are read from reaches the fetch step through its environment, not its params (no rerun trigger):
# reading the same files from elsewhere, or offline, refetches nothing.
DATA_KEY = {dataset: data_key(CFG["dataset"][dataset]) for dataset in DATASETS}
_sources, _mirror, _openml_cache = " ".join(CFG["data"]["sources"]), CFG["data"]["mirror_dir"], CFG["data"]["openml_cache"]
os.environ["FORESTREPRO_DATA_SOURCES"] = _sources
os.environ["FORESTREPRO_MIRROR_DIR"] = str(_mirror)
os.environ["FORESTREPRO_OPENML_CACHE"] = str(_openml_cache)


envvars:
    "FORESTREPRO_DATA_SOURCES",
    "FORESTREPRO_MIRROR_DIR",
    "FORESTREPRO_OPENML_CACHE",



def data_of(dataset):
    """The parquet file of ``dataset`` (rule fetch)."""
    return f"{RESULTS}/data/{DATA_KEY[dataset]}.parquet"

JOB_BY_PATH = {job.path: job for job in JOBS}
SCAN_JOBS = {}  # scan name -> the first job that reads it, whose spec the scan step runs
for _job in JOBS:
    if _job.scan:
        SCAN_JOBS.setdefault(_job.scan, _job)


wildcard_constraints:
    data="[A-Za-z0-9_]+-[0-9a-f]{12}",
    scan="[a-z0-9]+/[A-Za-z0-9_]+/[0-9a-f]+",


def method_resources(method, key, default):
    return CFG["method"][method].get("resources", {}).get(key, default)


def method_threads(method):
    """Cores a job of ``method`` reserves (config.jobs.method_threads; Snakemake scales it down
    to --cores / --max-threads)."""
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


# Each job's record: current, copied from the same job under another tag (rule reuse, train.smk;
# reuse=false trains them all again) or to train (forestrepro.workflow.states).
STATES = states_.job_states(JOBS, SPEC_FILES, RESULTS, TAG, reuse=REUSE)
RECORDS, REUSABLE = STATES.records, STATES.copies

# only=: the jobs this run may train, whatever the target (forestrepro.workflow.only); the train
# rule matches no other, and a target that needs one's record is refused (rule outside_only).
try:
    ONLY = only_.read_only(config, JOBS, TAG)
except PlanError as err:
    sys.exit(f"forestrepro: {err}")
ONLY_GIVEN = ONLY.given
ONLY_JOBS = [job for job in JOBS if ONLY.matches(job)]
PENDING_JOBS = any_of(only_.trained(JOBS, STATES, ONLY))
REUSED_JOBS = any_of(REUSABLE)
OUTSIDE_ONLY_JOBS = any_of(only_.refused(JOBS, STATES, ONLY))

# Committed records are never replaced by a run of another spec (forestrepro.record.overwrite):
# refused before any job runs, naming them, unless overwrite=true; a record outside only= never is.
if not OVERWRITE and (_refusal := states_.overwrite_refusal(ONLY_JOBS, STATES, RESULTS, TAG)):
    sys.exit(_refusal)


def finished_by_this_run(job):
    """Whether ``job`` has a record once this run ends (forestrepro.workflow.only.finished)."""
    return only_.finished(job, STATES, ONLY)


def refuse_outside_only(wildcards):
    """The input of outside_only (train.smk): refuse the target, naming the job and only=."""
    raise WorkflowError(f"forestrepro: {only_.outside_only_error(wildcards.job, ONLY)}")


def only_targets():
    """What the default target asks for of the jobs only= names: their records (an experiment no
    table or figure reads is computed too) and the notes of their stale ones (stale_markers)."""
    return [record_of(job) for job in ONLY_JOBS] + stale_markers(ONLY_JOBS)


# only= that leaves some job unfinished makes the report a partial one
if ONLY_GIVEN and not all(finished_by_this_run(job) for job in JOBS):
    PARTIAL = True


def train_inputs(wildcards):
    """A pending train job's inputs: its data and scan record, and for a stale record
    the marker that says why it reruns."""
    job = JOB_BY_PATH[wildcards.job]
    inputs = {"data": data_of(job.dataset)}
    if job.scan:  # ancient(): a scan step run on its own after the job finished does not rerun it
        inputs["scan"] = ancient(f"{RESULTS}/runs/{TAG}/scans/{job.scan}.json")
    if RECORDS[job.path].state == "stale":
        inputs["stale"] = stale_marker_of(job)
    return inputs


def reuse_inputs(wildcards):
    """A reused job's inputs: the record it copies, and for a stale record here the marker
    that says why it is replaced."""
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


# The report's tables and figures, and the records it shows (forestrepro.workflow.contents): with
# partial=true only complete cells; a table without one is left out and named on the page, with
# why each job it does not show has no record (a spec written in onstart, a report input).
shown = contents.Shown(JOBS, finished_by_this_run, PARTIAL)
CONTENTS = contents.report_contents(CFG, JOBS, shown)
TABLES, RANKED_TABLES, PAPER_FIGURES = CONTENTS.tables, CONTENTS.ranked_tables, CONTENTS.figures
if PARTIAL and not TABLES and not ONLY_GIVEN:
    sys.exit(f"forestrepro: --config partial=true, but no cell of tag '{TAG}' is complete yet: "
             f"{sum(map(finished_by_this_run, JOBS))} of its {len(JOBS)} jobs have finished")
if PARTIAL and not TABLES:  # only= computes jobs that complete no cell: no report yet
    PAPER_FIGURES = []


def pending_reason(job):
    """Why ``job`` has no record a partial report shows (forestrepro.workflow.contents)."""
    pieces = contents.committed_pieces(Path(RESULTS) / "runs" / TAG / "pieces" / job.path / "manifest.json")
    return contents.pending_reason(RECORDS[job.path], failure_note(record_of(job)), pieces,
                                   finished_by_this_run(job), REUSABLE.get(job.path))


PARTIAL_SPEC = f"{RESULTS}/runs/{TAG}/specs/partial.json"
if PARTIAL:
    _partial = contents.partial_spec(CFG, JOBS, shown, finished_by_this_run, CONTENTS.left_out, pending_reason)
    SPEC_FILES[Path(PARTIAL_SPEC)] = json.dumps(_partial, indent=1, sort_keys=True) + "\n"
REPORT_JOBS = contents.reported_jobs(CFG, CONTENTS, JOBS)  # "<paper>/<experiment>": its jobs
REPORTED_JOBS = [job for job in JOBS if f"{job.paper}/{job.experiment}" in REPORT_JOBS]  # in plan order
REPORT_RUNS = {experiment: [record_of(job) for job in jobs if shown(job)] for experiment, jobs in REPORT_JOBS.items()}
REPORTED_RUNS = sorted({run for runs in REPORT_RUNS.values() for run in runs})

# Where the report goes (report.location); a committed report is written only by `make report`,
# from current records alone (records_only=true), and states what it covers (reports.yaml).
try:
    REPORT_DIR = report_location.report_dir(TAG, config.get("report_dir"), RECORDS_ONLY)
    COMMITTED_REPORT = report_location.is_committed(REPORT_DIR)
    COVERS = contents.covers(REPORT_DIR, report_location.COMMITTED_REPORTS) if COMMITTED_REPORT else ""
    if RECORDS_ONLY:
        contents.check_records_only(REPORTED_JOBS, RECORDS, set(REPORTED_RUNS), record_of)
except (report_location.ReportDirError, PlanError) as err:
    sys.exit(f"forestrepro: {err}")

# The tables and figures that only= leaves without a finished cell: a target among their files is
# refused naming only= (rule outside_only_report, train.smk).
LEFT_OUT_BY_ONLY = only_.left_out_by_only(CFG, contents.planned(JOBS), TABLES, PAPER_FIGURES, TAG, RESULTS,
                                          FIGURES) if ONLY_GIVEN else {}
LEFT_OUT_BY_ONLY_PATHS = any_of(LEFT_OUT_BY_ONLY)


def refuse_left_out_by_only(wildcards):
    """The input of outside_only_report: refuse the target, naming only= and what it needs."""
    raise WorkflowError(f"forestrepro: {only_.left_out_error(wildcards.path, LEFT_OUT_BY_ONLY[wildcards.path], ONLY)}")


# An ablation: a run with overrides of a result under a tag of its own, beside its baseline (the
# profile's tag), unless its report is committed (forestrepro.workflow.ablation).
RESULT_OVERRIDES = result_overrides(_OVERRIDES)
ABLATION = bool(RESULT_OVERRIDES) and TAG != CFG["profile"] and not COMMITTED_REPORT
ABLATION_SPEC = f"{RESULTS}/runs/{TAG}/specs/ablation.json"
BASELINE_RUNS = []  # the baseline's records of the changed jobs the report reads
if ABLATION:
    _, _, _BASE_JOBS, _BASE_SPECS = cached_plan(  # the papers of this run, without its overrides
        [f"papers=[{','.join(CFG['papers'])}]"], profile=CFG["profile"], tag=CFG["profile"],
        conf_dir=Path(workflow.basedir) / "conf", results=RESULTS, before_planning=run_config.no_compilation,
    )
    _ABLATION, BASELINE_RUNS = ablation.ablation_plan(
        (TAG, SPEC_FILES, JOBS), (CFG["profile"], _BASE_SPECS, _BASE_JOBS), RESULT_OVERRIDES, REPORTED_JOBS,
        shown, STATES, RESULTS,
    )
    SPEC_FILES[Path(ABLATION_SPEC)] = json.dumps(_ABLATION, indent=1, sort_keys=True) + "\n"
