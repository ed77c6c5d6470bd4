# Compose the Hydra configuration (after checking --config's keys), name the results (tag),
# and plan one specification per data set, job, table and figure. Nothing is written while
# the Snakefile is parsed: the specs are written once the run holds Snakemake's lock
# (onstart), each only when its content changed, and a rule sees a changed spec through its
# `spec_sha256` param (Snakemake's params trigger).
#
# Whether a training job is finished is decided from its committed run record, by content
# (forestrepro.record.currency): a record whose spec digest and library files match is
# current, on any machine and whatever the files' times or Snakemake's metadata, and the
# train rule does not even match its path (PENDING_JOBS), so Snakemake reads it as a source
# file. A stale record gets a marker input (rule stale_record) that makes Snakemake rerun
# that job, and only it.

import fnmatch
import hashlib
import json
import os
import re
import shlex
import sys
from pathlib import Path

from snakemake.utils import validate
from snakemake_interface_executor_plugins.settings import DeploymentMethod

# The library this checkout holds, for planning here and for every job below (FORESTREPRO):
# never another checkout's that happens to be installed in the Python running Snakemake
# (make setup installs the checkout it ran in, editable). A worktree of another commit then
# plans, runs and hashes its own code, and its records name the commit that ran them.
SRC = Path(workflow.basedir) / "src"
sys.path.insert(0, str(SRC))

from forestrepro.config import ConfigError, write_spec_files
from forestrepro.config.plan_cache import cached_plan
from forestrepro.config.jobs import data_key, method_threads as config_method_threads, result_overrides
from forestrepro.record import Equivalences, FileHashes, record_status
from forestrepro.record.currency import SPEC_CHANGED
from forestrepro.record.overwrite import overwritten, refusal, tracked_files
from forestrepro.record.reuse import donors
from forestrepro.report import location as report_location

RESULTS = "results"
FIGURES = "figures"

# Software: every step declares `conda: CONDA_ENV`, the pinned environment.yml, so with
# `--sdm conda` each step runs in that environment; otherwise steps run in the Python that runs
# Snakemake (make setup's .venv). Either way a step imports the library from this checkout's
# src/ (SRC). Rules get the command as a param (snakemake --lint).
CONDA_ENV = "../../environment.yml"
PYTHON = "python" if DeploymentMethod.CONDA in workflow.deployment_settings.deployment_method else sys.executable
FORESTREPRO = f"PYTHONPATH='{SRC}'${{PYTHONPATH:+:$PYTHONPATH}} {PYTHON} -m forestrepro.cli"
# A job's finished pieces committed from another session or machine (forestrepro pieces,
# record/pieces.py)
PIECES = f"{FORESTREPRO} pieces"


def _check_run_config():
    """--config takes only the keys of src/forestrepro/schemas/run_config.schema.yaml: a typo such as
    profil=paper would otherwise run the quick profile."""
    import difflib

    import yaml

    schema_path = os.path.join(workflow.basedir, "src", "forestrepro", "schemas", "run_config.schema.yaml")
    with open(schema_path, encoding="utf-8") as f:
        valid = sorted(yaml.safe_load(f)["properties"])
    for key in sorted(set(config) - set(valid)):
        close = difflib.get_close_matches(key, valid, n=1)
        hint = f" (did you mean '{close[0]}'?)" if close else ""
        sys.exit(f"forestrepro: unknown --config key '{key}'{hint}; valid keys: {', '.join(valid)}")
    validate(config, schema_path)


_check_run_config()


def _overrides_from_config():
    raw = config.get("overrides", [])
    if isinstance(raw, str):
        raw = [raw] if raw else []
    if not isinstance(raw, list):
        sys.exit(f"forestrepro: --config overrides must be a list of key=value strings, got {raw!r}")
    return [str(item) for item in raw]


def _flag(key, default):
    """A true/false --config setting."""
    raw = config.get(key, default)
    if raw in (True, False, 0, 1) or str(raw).lower() in ("true", "false"):
        return str(raw).lower() in ("true", "1")
    sys.exit(f"forestrepro: --config {key} must be true or false, got {raw!r}")


PARTIAL = _flag("partial", False)  # report on the finished runs only (see README)

def _no_compilation():
    """Planning imports every method's estimator to check its parameters and never fits one. The
    split kernels' modules compile at import (numba, eager signatures: the grow loop takes them as
    first-class functions), about 80 s of CPU in a checkout whose numba cache (__pycache__) is
    cold: every fresh clone, CI's worktrees, the tests' copies. So numba compiles nothing in this
    process; the setting is numba's module attribute, not its environment variable, so the jobs
    Snakemake starts compile as usual."""
    import numba

    numba.config.DISABLE_JIT = True


# The plan (configuration, tag, jobs, spec texts), composed and checked anew only when something
# it depends on changed (forestrepro.config.plan_cache: keyed by the content of conf/, the
# library, the overrides and the environment).
try:
    _OVERRIDES = _overrides_from_config()
    CFG, TAG, JOBS, SPEC_FILES = cached_plan(
        _OVERRIDES,
        profile=config.get("profile"),
        tag=config.get("tag"),
        conf_dir=Path(workflow.basedir) / "conf",
        results=RESULTS,
        before_planning=_no_compilation,
    )
except ConfigError as err:
    sys.exit(f"forestrepro: {err}")


# Specifications are planned in memory and written only once this run holds Snakemake's lock
# (onstart: never in a dry run, nor in a run refused because another holds the lock), so no
# invocation changes the inputs of a run in progress. Rules name a spec in `params` with its
# digest, so a changed spec reruns its step through Snakemake's params trigger.
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
# A data set's files are named by its configuration's content (config.jobs.data_key): shared by
# the tags that agree on it, never overwritten by one that does not. Where they are read from
# (the sources, the mirror, the OpenML cache) is not part of what the fetch step computes, so it
# reaches the step through its environment, not its params, which Snakemake's params trigger
# compares: reading the same files from elsewhere, or offline, refetches nothing. (A Slurm job
# parses this file again, so it sets them too.)
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
TABLES = [(paper, table) for paper in CFG["papers"] for table in CFG["paper"][paper]["tables"]]
RANKED_TABLES = [(p, t) for p, t in TABLES if CFG["paper"][p]["tables"][t].get("rank", True)]
PAPER_FIGURES = [(paper, fig) for paper in CFG["papers"] for fig in CFG["paper"][paper].get("figures", {})]


wildcard_constraints:
    data="[A-Za-z0-9_]+-[0-9a-f]{12}",
    scan="[a-z0-9]+/[A-Za-z0-9_]+/[0-9a-f]+",


def stopped_with_its_shell(command):
    """Shell that runs ``command`` so that a signal to the job's shell stops it too. bash does
    not pass TERM or INT on to the command it waits for, and the job's shell is what Snakemake
    signals when it kills a job (group and service jobs) and what a search by command line finds
    (`pkill -f <checkout>` matches the shell, whose command names the checkout's src/, and not
    the command). Signalled alone, the shell died and Snakemake reported the job failed, while
    the command ran on, holding its cores, and later wrote outputs no run tracked (a C2RF job
    stopped at its last sample wrote its record 10 minutes after Snakemake had exited). So the
    command runs in the background, and the shell passes TERM and INT on to it, waits for it to
    end and exits with its status (143 after a TERM); what it kept (results/cache/) stays."""
    return f"{command} & pid=$!; trap 'kill -TERM $pid 2>/dev/null; wait $pid || true' TERM INT; wait $pid"


def noted_if_failed(command, log, note):
    """Shell that runs ``command`` and, if it fails, writes ``note`` (the last line of ``log``
    and the exit status, which a partial report shows) and exits with its status."""
    return f"{command} || {{{{ status=$?; {{{{ tail -n 1 {log}; echo \"(exit status $status)\"; }}}} > {note}; exit $status; }}}}"


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


_HASHES = FileHashes()
# library changes shown by reruns to leave results unchanged (forestrepro/record/equivalence.py)
_EQUIVALENCES = Equivalences.read(f"{RESULTS}/runs/equivalences.tsv")
RECORDS = {
    job.path: record_status(record_of(job), job.spec_digest, _HASHES, _EQUIVALENCES) for job in JOBS
}


# A job is its content, not its tag (forestrepro.record.reuse): a job without a current record
# here whose spec, up to the tag, is the spec of a record current under another tag copies that
# record (rule reuse, train.smk) instead of training, so an ablation computes only the jobs its
# overrides reach. reuse=false trains them all again.
REUSABLE = {  # job path -> the CSV of the record it copies
    path: donor.as_posix()
    for path, donor in donors(JOBS, SPEC_FILES, RECORDS, RESULTS, TAG, _HASHES, _EQUIVALENCES).items()
} if _flag("reuse", True) else {}
# The jobs that training may run: every job whose record is missing or stale and has no
# record of the same content to copy; and those that copy one.
PENDING_JOBS = (
    "|".join(re.escape(p) for p, status in RECORDS.items() if not status.current and p not in REUSABLE) or "(?!)"
)
REUSED_JOBS = "|".join(re.escape(p) for p in REUSABLE) or "(?!)"


# only=<glob> or a list of globs: the jobs this run may train, matched against job paths
# <paper>/<experiment>/<method>/<dataset>, whatever the target. `records` computes them; the report
# (the default target `all`, or `report`) computes them and shows every finished job with them: a
# partial report (PARTIAL), unless they finish the tag. No job outside only= is trained: the train
# rule does not match it (PENDING_JOBS), and a target that needs its record is refused before any
# job runs, naming it (rule outside_only, train.smk).
ONLY_GIVEN = "only" in config
ONLY = config.get("only", "*")
ONLY = [str(g) for g in ONLY] if isinstance(ONLY, list) else [str(ONLY)]
for _glob in ONLY:
    if not any(fnmatch.fnmatchcase(job.path, _glob) for job in JOBS):
        sys.exit(f"forestrepro: --config only: {_glob!r} matches no job of tag '{TAG}'; job paths look like "
                 f"{JOBS[0].path!r}" if JOBS else f"forestrepro: tag '{TAG}' has no jobs")
ONLY_JOBS = [job for job in JOBS if any(fnmatch.fnmatchcase(job.path, g) for g in ONLY)]
_ONLY_PATHS = {job.path for job in ONLY_JOBS} if ONLY_GIVEN else set()
# the pending jobs outside only= (rule outside_only refuses them), then the pending jobs in it
OUTSIDE_ONLY_JOBS = "|".join(
    re.escape(job.path) for job in JOBS
    if ONLY_GIVEN and job.path not in _ONLY_PATHS and re.fullmatch(PENDING_JOBS, job.path)
) or "(?!)"
if ONLY_GIVEN:
    PENDING_JOBS = "|".join(
        re.escape(job.path) for job in ONLY_JOBS if re.fullmatch(PENDING_JOBS, job.path)
    ) or "(?!)"


# Committed records are never replaced by a run of another spec (forestrepro.record.overwrite):
# refused before any job runs, naming them, unless overwrite=true. Only the jobs this run may
# train count: a record outside only= is never replaced.
if not _flag("overwrite", False) and any(s.reason == SPEC_CHANGED for s in RECORDS.values()):
    _replaced = overwritten(
        {job.path: (record_of(job), RECORDS[job.path].reason) for job in (ONLY_JOBS if ONLY_GIVEN else JOBS)},
        tracked_files(f"{RESULTS}/runs/{TAG}"),
    )
    if _replaced:
        sys.exit(refusal(_replaced, TAG))


def finished_by_this_run(job):
    """Whether ``job`` has a record once this run ends: a current one, one it copies from another
    tag (rule reuse), or one that only= computes."""
    return RECORDS[job.path].current or job.path in REUSABLE or job.path in _ONLY_PATHS


def refuse_outside_only(wildcards):
    """The input of outside_only (train.smk), which a target needing the record of a job outside
    only= reaches: refuse it, naming the job."""
    from snakemake.exceptions import WorkflowError

    raise WorkflowError(
        f"forestrepro: this target needs the record of {wildcards.job}, which --config only={ONLY} leaves out "
        f"(only= bounds the jobs a run trains, whatever the target): add it to only=, or drop only="
    )


def only_targets():
    """What the default target asks for of the jobs only= names: their records (an experiment no
    table or figure reads is computed too) and the notes of their stale ones (stale_markers)."""
    return [record_of(job) for job in ONLY_JOBS] + stale_markers(ONLY_JOBS)


# only= that leaves some job unfinished makes the report a partial one: every finished job's
# record, and those of the jobs only= computes
if ONLY_GIVEN and not all(finished_by_this_run(job) for job in JOBS):
    PARTIAL = True


def train_inputs(wildcards):
    """A pending train job's inputs: its data and scan record, and for a stale record
    the marker that says why it reruns."""
    job = JOB_BY_PATH[wildcards.job]
    status = RECORDS[job.path]
    inputs = {"data": data_of(job.dataset)}
    if job.scan:  # ancient(): a scan step run on its own after the job finished does not rerun it
        inputs["scan"] = ancient(f"{RESULTS}/runs/{TAG}/scans/{job.scan}.json")
    if status.state == "stale":
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
    """The notes of the stale records among ``jobs``, which a target asks for itself. Snakemake
    reruns no job whose outputs exist because an input is missing but could be made (the note,
    or a data file a fresh clone has not fetched): asked for by the target, the note is made,
    newer than the record, and the job reruns ("input files updated by another job")."""
    return [stale_marker_of(job) for job in jobs if RECORDS[job.path].state == "stale"]


# A cell is complete when every job it is made of (one, or one per repeat) has a current record.
_CELL_COMPLETE = {}
for _job in JOBS:
    _CELL_COMPLETE[_job.cell] = _CELL_COMPLETE.get(_job.cell, True) and finished_by_this_run(_job)


def shown(job):
    """Whether a report shows ``job``'s record: always, or with ``partial`` only when its
    cell is complete, so that a cell of repeats never shows the mean of some of its splits
    (a mean of 1 split beside a mean of 2 would be compared as if they were alike)."""
    return not PARTIAL or _CELL_COMPLETE[job.cell]


def runs_of_experiment(paper, experiment):
    """The records of the experiment's jobs; with ``partial``, only those of complete cells."""
    jobs = [job for job in JOBS if job.paper == paper and job.experiment == experiment]
    return [record_of(job) for job in jobs if shown(job)]


def failure_note_of(job):
    """The note a failed training job leaves beside where its record would be (rule train)."""
    return f"{RESULTS}/runs/{TAG}/{job.path}.failed.txt"


def committed_pieces(job):
    """What a stopped run of ``job`` committed of its finished pieces (``forestrepro pieces keep``),
    in words, or None."""
    manifest = Path(RESULTS) / "runs" / TAG / "pieces" / job.path / "manifest.json"
    if not manifest.exists():
        return None
    kept = json.loads(manifest.read_text(encoding="utf-8"))
    files = ", ".join(f"{n} {kind} file(s)" for kind, n in kept["files"].items() if n)
    return f"{files} committed as pieces (kept {kept['kept']} at {(kept.get('commit') or '?')[:7]}), for its next run to resume from"


def pending_reason(job):
    """Why ``job`` has no current record, for a partial report: its failure note, its record's
    staleness, or that it has not run (or not to the end: its committed pieces)."""
    status = RECORDS[job.path]
    pieces = committed_pieces(job)
    if os.path.exists(failure_note_of(job)):
        with open(failure_note_of(job), encoding="utf-8") as f:
            return "failed: " + " ".join(f.read().split()) + (f"; {pieces}" if pieces else "")
    if status.state == "stale":
        return f"stale, not rerun yet ({status.reason})" + (f"; {pieces}" if pieces else "")
    if finished_by_this_run(job):
        return "finished, shown once every repeat of its cell has run"
    if job.path in REUSABLE:
        return f"not copied yet from {REUSABLE[job.path]} (the same job under another tag)"
    return f"not finished yet: {pieces}" if pieces else "not run yet"


def provenance_of(run):
    """The provenance JSON beside a record's CSV."""
    return run.removesuffix(".csv") + ".provenance.json"


def has_a_cell_run(paper, table):
    """Whether some shown job of ``table``'s experiment is one of its cells (its method and data
    set are in the table): an experiment's finished runs may all lie outside a table of it."""
    tcfg = CFG["paper"][paper]["tables"][table]
    return any(
        job.paper == paper and job.experiment == tcfg["experiment"] and shown(job)
        and job.method in tcfg["methods"] and (tcfg.get("pool_datasets") or job.dataset in tcfg["datasets"])
        for job in JOBS
    )


def has_a_figure_run(paper, figure):
    """Whether some shown job of ``figure``'s experiment is drawn in it: one of its methods, and
    its data set where the figure names one (``dataset``) or some (``datasets``). Drawn from
    jobs of other methods only (a partial run of KNN alone, BRF's Fig. 3 of BRF and its
    variants), a figure has nothing to draw."""
    fcfg = CFG["paper"][paper]["figures"][figure]
    methods = fcfg.get("methods") or CFG["paper"][paper]["experiments"][fcfg["experiment"]]["methods"]
    datasets = [fcfg["dataset"]] if "dataset" in fcfg else fcfg.get("datasets")
    return any(
        job.paper == paper and job.experiment == fcfg["experiment"] and shown(job)
        and job.method in methods and (datasets is None or job.dataset in datasets)
        for job in JOBS
    )


# A table or figure of an experiment that has no job at all (an override emptied its data sets or
# methods: the 600 s C2RF report leaves out the p-C2RF+ ablation, which c2rf_10s/ holds) has
# nothing to show, partial or not: it is left out, not drawn empty.
_PLANNED = {(job.paper, job.experiment) for job in JOBS}
TABLES = [(p, t) for p, t in TABLES if (p, CFG["paper"][p]["tables"][t]["experiment"]) in _PLANNED]
RANKED_TABLES = [(p, t) for p, t in RANKED_TABLES if (p, t) in TABLES]
PAPER_FIGURES = [(p, f) for p, f in PAPER_FIGURES if (p, CFG["paper"][p]["figures"][f]["experiment"]) in _PLANNED]

if PARTIAL:  # a table with no finished run in its cells, or a figure with none, is left out of a partial report
    # (and named there, with its experiment)
    LEFT_OUT = [(p, t) for p, t in TABLES if not has_a_cell_run(p, t)]
    TABLES = [(p, t) for p, t in TABLES if (p, t) not in LEFT_OUT]
    RANKED_TABLES = [(p, t) for p, t in RANKED_TABLES if (p, t) in TABLES]
    PAPER_FIGURES = [(p, f) for p, f in PAPER_FIGURES if has_a_figure_run(p, f)]
    FINISHED_RUNS = sum(finished_by_this_run(job) for job in JOBS)
    if not TABLES and ONLY_GIVEN:  # only= computes jobs that complete no cell: no report yet
        PAPER_FIGURES = []
    elif not TABLES:
        sys.exit(f"forestrepro: --config partial=true, but no cell of tag '{TAG}' is complete yet: "
                 f"{FINISHED_RUNS} of its {len(JOBS)} jobs have finished")
    # what the report says of each job it shows that has no current record (written in
    # onstart with the other specs, a report input through its digest)
    PARTIAL_SPEC = f"{RESULTS}/runs/{TAG}/specs/partial.json"
    SPEC_FILES[Path(PARTIAL_SPEC)] = json.dumps(
        {"finished": FINISHED_RUNS, "jobs": len(JOBS),
         "pending": {job.path: pending_reason(job) for job in JOBS if not shown(job)},
         "left_out": {f"{p}/{t}": CFG["paper"][p]["tables"][t]["experiment"] for p, t in LEFT_OUT}},
        indent=1, sort_keys=True) + "\n"

# The jobs whose records the report shows: those of the experiments its tables and figures read.
_REPORTED = sorted({(p, CFG["paper"][p]["tables"][t]["experiment"]) for p, t in TABLES}
                   | {(p, CFG["paper"][p]["figures"][f]["experiment"]) for p, f in PAPER_FIGURES})
REPORTED_JOBS = [job for job in JOBS if (job.paper, job.experiment) in _REPORTED]
# each experiment's records in its jobs' order, the order its tables and figures read the rows
REPORT_RUNS = {f"{p}/{e}": runs_of_experiment(p, e) for p, e in _REPORTED}
REPORTED_RUNS = sorted({run for runs in REPORT_RUNS.values() for run in runs})

# Where the report goes (forestrepro.report.location): results/report/<tag>/ (the tag paper's:
# results/report/paper-run/, beside the committed reports' folder, never in it), or --config
# report_dir=... . A committed report (results/report/paper/<name>/, see
# results/report/paper/reports.yaml) is written only by `make report`, from records alone
# (records_only=true); it refuses records made from a dirty tree.
try:
    REPORT_DIR = report_location.report_dir(TAG, config.get("report_dir"), _flag("records_only", False))
except report_location.ReportDirError as err:
    sys.exit(f"forestrepro: {err}")
COMMITTED_REPORT = report_location.is_committed(REPORT_DIR)


def _covers():
    """What a committed report covers, as results/report/paper/reports.yaml says (its entry's
    ``covers``): its page states it under its title. Empty for any other report."""
    import yaml

    committed = report_location.COMMITTED_REPORTS
    manifest = Path(committed) / "reports.yaml"
    if not COMMITTED_REPORT or not manifest.exists():
        return ""
    entries = yaml.safe_load(manifest.read_text(encoding="utf-8")) or {}
    return str(entries.get(os.path.relpath(REPORT_DIR, committed), {}).get("covers", ""))


COVERS = _covers()

# records_only=true (make report): the report must come from current records alone.
if _flag("records_only", False):
    _shown = set(REPORTED_RUNS)  # with partial=true, only the finished ones
    _not_current = [f"{job.path} ({RECORDS[job.path].state}{f': {RECORDS[job.path].reason}' if RECORDS[job.path].reason else ''})"
                    for job in REPORTED_JOBS if record_of(job) in _shown and not RECORDS[job.path].current]
    if _not_current:
        sys.exit(f"forestrepro: records_only=true, but {len(_not_current)} of the report's {len(REPORTED_JOBS)} "
                 "records are missing or stale:\n  " + "\n  ".join(_not_current[:20])
                 + ("\n  ..." if len(_not_current) > 20 else ""))


# The tables and figures that only= leaves without a finished cell, so out of this run's report
# (LEFT_OUT): a target among their files (results/tables/<tag>/<paper>_<table>.csv, its .md, .tex,
# _ranks.json and CD diagram, or a paper figure) is refused naming only= (rule outside_only_report,
# train.smk).
def _left_out_by_only():
    """``{output path: what it is}`` of the tables and figures that have jobs in this tag but
    none that this run finishes, because of only=."""
    if not ONLY_GIVEN:
        return {}
    left_out = {}
    for paper in CFG["papers"]:
        for table, tcfg in CFG["paper"][paper]["tables"].items():
            if (paper, table) in TABLES or (paper, tcfg["experiment"]) not in _PLANNED:
                continue
            stem = f"{paper}_{table}"
            files = [f"{RESULTS}/tables/{TAG}/{stem}{end}" for end in (".csv", ".md", ".tex", "_ranks.json")]
            files += [f"{FIGURES}/{TAG}/{stem}_cd.{ext}" for ext in ("png", "pdf")]
            left_out.update(dict.fromkeys(files, f"table {paper}/{table} (experiment {tcfg['experiment']})"))
        for figure, fcfg in CFG["paper"][paper].get("figures", {}).items():
            if (paper, figure) in PAPER_FIGURES or (paper, fcfg["experiment"]) not in _PLANNED:
                continue
            files = [f"{FIGURES}/{TAG}/{paper}_{figure}.{ext}" for ext in ("png", "pdf", "claims.json")]
            left_out.update(dict.fromkeys(files, f"figure {paper}/{figure} (experiment {fcfg['experiment']})"))
    return left_out


LEFT_OUT_BY_ONLY = _left_out_by_only()
LEFT_OUT_BY_ONLY_PATHS = "|".join(re.escape(path) for path in LEFT_OUT_BY_ONLY) or "(?!)"


def refuse_left_out_by_only(wildcards):
    """The input of outside_only_report: refuse the target, naming only= and what it needs."""
    from snakemake.exceptions import WorkflowError

    raise WorkflowError(
        f"forestrepro: {wildcards.path} is part of {LEFT_OUT_BY_ONLY[wildcards.path]}, none of whose "
        f"cells has a record once this run ends: --config only={ONLY} leaves out the jobs it needs "
        "(only= bounds the jobs a run trains, whatever the target): add them to only=, or drop only="
    )


# An ablation: a run with overrides under a tag of its own is compared with its baseline, the
# tag of the same profile without overrides (report/baseline.py), unless its report is committed
# (results/report/paper/: the C2RF reports' tags are named configurations of their own). A job
# is changed by the overrides when its spec differs, up to the tag, from the baseline's spec of
# the same job path: the report reads the baseline's current record of each changed job (an
# input) and this run's record of every other, and says which changed job has none yet.
# Overrides that change no result (data sources, resources, papers=) make no ablation.
RESULT_OVERRIDES = result_overrides(_OVERRIDES)
ABLATION = bool(RESULT_OVERRIDES) and TAG != CFG["profile"] and not COMMITTED_REPORT
ABLATION_SPEC = f"{RESULTS}/runs/{TAG}/specs/ablation.json"
BASELINE_RUNS = []  # the baseline's records of the changed jobs the report reads
if ABLATION:
    from forestrepro.config.jobs import job_spec_path
    from forestrepro.record.reuse import content_digest

    BASELINE_TAG = CFG["profile"]
    # the papers of this run: overrides of no result (data, resources) leave every spec as it is
    _, _, _BASE_JOBS, _BASE_SPECS = cached_plan(
        [f"papers=[{','.join(CFG['papers'])}]"],
        profile=BASELINE_TAG,
        tag=BASELINE_TAG,
        conf_dir=Path(workflow.basedir) / "conf",
        results=RESULTS,
        before_planning=_no_compilation,
    )
    _BASE_JOB = {job.path: job for job in _BASE_JOBS}

    def _content(spec_files, tag, job):
        """What ``job`` computes under ``tag``: its planned spec's digest without the tag."""
        return content_digest(json.loads(spec_files[job_spec_path(Path(RESULTS), tag, job)]))

    def _baseline_record(job):
        """The baseline's current record of ``job`` (its CSV), or why there is none."""
        base = _BASE_JOB.get(job.path)
        if base is None:
            return None, f"no such job under tag {BASELINE_TAG}"
        run = f"{RESULTS}/runs/{BASELINE_TAG}/{job.path}.csv"
        status = record_status(run, base.spec_digest, _HASHES, _EQUIVALENCES)
        if status.current:
            return run, None
        if status.state == "missing":
            return None, f"no record under tag {BASELINE_TAG} yet"
        return None, f"its record under tag {BASELINE_TAG} is stale ({status.reason})"

    _CHANGED = sorted(
        job.path for job in REPORTED_JOBS
        if job.path not in _BASE_JOB or _content(SPEC_FILES, TAG, job) != _content(_BASE_SPECS, BASELINE_TAG, _BASE_JOB[job.path])
    )
    _BASELINE = {path: _baseline_record(JOB_BY_PATH[path]) for path in _CHANGED}
    BASELINE_RUNS = sorted(run for run, _ in _BASELINE.values() if run)
    SPEC_FILES[Path(ABLATION_SPEC)] = json.dumps(
        {"baseline": BASELINE_TAG, "overrides": RESULT_OVERRIDES, "changed": _CHANGED,
         "missing": {path: why for path, (_, why) in _BASELINE.items() if why},
         # each experiment's rows as the baseline has them, in the order of REPORT_RUNS
         "runs": {experiment: [_BASELINE[job.path][0] if job.path in _BASELINE else record_of(job)
                               for job in REPORTED_JOBS if f"{job.paper}/{job.experiment}" == experiment
                               and shown(job) and (job.path not in _BASELINE or _BASELINE[job.path][0])]
                  for experiment in REPORT_RUNS}},
        indent=1, sort_keys=True) + "\n"
