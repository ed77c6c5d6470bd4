"""The Snakemake workflow end to end on a tiny configuration (two small data sets, 2 folds).

Checks what a user relies on: the report is made; a rerun with nothing changed does nothing;
`--cores 1` and `--cores 2` give byte-identical tables; a run killed with SIGKILL resumes (after
README's `--unlock`) without redoing finished jobs; a signal to a job's shell stops its command;
bad input stops with a clear message.
"""

import fcntl
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from forestrepro.record.equivalence import is_time_column
from forestrepro.record.store import read_rows

REPO = Path(__file__).resolve().parents[2]
MIRROR = (REPO.parent / "shared" / "datasets").resolve()
SNAKEMAKE = str(Path(sys.executable).with_name("snakemake"))
TINY = [
    "papers=[brf]",
    "paper.brf.experiments.main.datasets=[wine,sonar]",
    "method.rf.params.n_estimators=5",
    "method.rf.grid.k_offset=[0]",
    "method.svm.grid.log2_C=[1]",
    "method.svm.grid.log2_gamma=[-1,1]",
    "method.knn.grid.n_neighbors=[1,3]",
]

pytestmark = pytest.mark.skipif(not MIRROR.is_dir(), reason=f"data mirror not found at {MIRROR}")


def _overrides(extra=(), base=TINY):
    return "overrides=[" + ",".join(f'"{o}"' for o in [*base, *extra]) + "]"


def snakemake(
    workdir: Path,
    *args: str,
    check: bool = True,
    extra_overrides=(),
    background=False,
    mirror=MIRROR,
    overrides=TINY,
    tag="tiny",
):
    """Snakemake on this checkout's Snakefile in ``workdir``, with ``overrides`` (the tiny
    configuration unless given) and ``extra_overrides`` after them."""
    cmd = [
        SNAKEMAKE,
        "--snakefile",
        str(REPO / "Snakefile"),
        "--directory",
        str(workdir),
        "--config",
        f"tag={tag}",
        _overrides(extra_overrides, overrides),
        *args,
    ]
    env = {**os.environ, "FORESTREPRO_MIRROR": str(mirror)}
    if background:
        return subprocess.Popen(
            cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True
        )
    proc = subprocess.run(cmd, check=False, env=env, capture_output=True, text=True)
    if check and proc.returncode != 0:
        raise AssertionError(f"snakemake failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}")
    return proc


@pytest.fixture(scope="module")
def finished_run(tmp_path_factory):
    """One whole tiny run at --cores 2 (minutes), made once per test session: pytest-xdist's
    workers share it through the session's common temporary directory, the first to ask making
    it under an exclusive lock while the others wait (the pattern pytest-xdist documents for a
    fixture made once), instead of each worker making its own. The tests read it; one that
    changes a run works on a copy."""
    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent
    workdir = root / "finished_run_cores2"
    with open(root / "finished_run_cores2.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (workdir / "results" / "report" / "tiny" / "index.md").exists():
            shutil.rmtree(workdir, ignore_errors=True)
            workdir.mkdir()
            snakemake(workdir, "--cores", "2")
    return workdir


def test_report_is_made(finished_run):
    report = (finished_run / "results" / "report" / "tiny" / "index.md").read_text()
    assert "wine" in report and "sonar" in report and "SVMs" in report
    assert (finished_run / "results" / "report" / "tiny" / "index.html").exists()
    embedded = (
        finished_run / "results" / "snakemake_report" / "tiny" / "tiny.html"
    ).read_text()  # snakemake --report's
    assert "data:image/png;base64," in embedded and 'src="figures/' not in embedded
    assert (finished_run / "results" / "report" / "tiny" / "figures" / "brf_table2_cd.png").exists()
    assert (finished_run / "figures" / "tiny" / "brf_table2_cd.pdf").exists()
    for suffix in ("csv", "md", "tex"):
        assert (finished_run / "results" / "tables" / "tiny" / f"brf_table2.{suffix}").exists()
    # finished jobs leave no kept folds behind (evaluation/fold_store.py)
    folds = finished_run / "results" / "cache" / "folds"
    assert not folds.exists() or not any(folds.iterdir())
    provenance = next((finished_run / "results" / "data").glob("wine-*.provenance.json")).read_text()
    assert "sha256" in provenance


def test_snakemake_report_embeds_our_report_with_its_figures(finished_run, tmp_path):
    # issue 26 #4: `snakemake --report` shows the pipeline's own report, figures working
    import zipfile

    snakemake(finished_run, "--report", str(tmp_path / "report.zip"))
    with zipfile.ZipFile(tmp_path / "report.zip") as archive:
        names = archive.namelist()
        page = next(n for n in names if n.endswith("/tiny.html"))
        html = archive.read(page).decode()
    assert "data:image/png;base64," in html and 'src="figures/' not in html
    assert any(n.endswith("/brf_table2.csv") for n in names)


def test_unchanged_rerun_does_nothing(finished_run):
    proc = snakemake(finished_run, "--cores", "2", "--dry-run")
    assert "Nothing to be done" in proc.stdout + proc.stderr


def test_run_killed_hard_resumes_after_unlock_without_redoing_finished_jobs_and_cores_do_not_change_the_numbers(
    finished_run, tmp_path
):
    """One run of Table 2's wine jobs at --cores 1, killed with SIGKILL (a lost machine) after
    two jobs: the same command is refused and names ``--unlock`` (Snakemake's lock outlives its
    owner); README's resume, ``--unlock`` with the same ``--config`` and then the same command,
    finishes without redoing the finished jobs, and every record's rows are the --cores 2 run's
    to the last bit but for the measured durations. One run checks both, since a run costs
    minutes; wine's 8 jobs rather than the whole table, which is made from such rows alone."""
    command = ("only=brf/main/*/wine", "--cores", "1", "records")
    proc = snakemake(tmp_path, *command, background=True)
    runs = tmp_path / "results" / "runs" / "tiny" / "brf" / "main"

    def whole_records():
        # a job writes its CSV, then its provenance (record/store.py): killed between the two,
        # it left half a record, which is stale and rightly reruns; finished means both halves
        return [p for p in runs.glob("*/*.csv") if p.with_suffix(".provenance.json").exists()]

    deadline = time.time() + 1200  # generous: a loaded machine (CI beside a long run) is slow
    while time.time() < deadline and proc.poll() is None and len(whole_records()) < 2:
        time.sleep(0.2)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=60)
    finished = {p: p.stat().st_mtime_ns for p in whole_records()}
    assert finished, "no job finished before the interruption"
    refused = snakemake(tmp_path, *command, check=False)
    assert refused.returncode != 0 and "--unlock" in refused.stdout + refused.stderr
    snakemake(tmp_path, "--unlock")
    snakemake(tmp_path, *command)
    for path, mtime in finished.items():
        assert path.stat().st_mtime_ns == mtime, f"{path} was redone"
    made = sorted(p.relative_to(runs) for p in runs.glob("*/*.csv"))
    assert len(made) == 8 and all(p.name == "wine.csv" for p in made), made
    reference = finished_run / "results" / "runs" / "tiny" / "brf" / "main"
    for path in made:  # every column but the measured durations, to the last bit
        ours, theirs = read_rows(runs / path), read_rows(reference / path)
        numbers = [c for c in ours.columns if not is_time_column(c)]
        assert list(ours.columns) == list(theirs.columns), path
        assert ours[numbers].to_csv() == theirs[numbers].to_csv(), path


def test_a_run_elsewhere_without_a_tag_is_tagged_by_the_checkouts_profile(tmp_path):
    # --directory away from the checkout and no tag=: the profile's defaults, which decide the
    # tag, are the Snakefile's conf/, not conf/ under the working directory (there is none)
    cmd = [SNAKEMAKE, "--snakefile", str(REPO / "Snakefile"), "--directory", str(tmp_path), "--dry-run"]
    cmd += ["--cores", "1", "--config", 'overrides=["papers=[brf]"]']
    env = {k: v for k, v in os.environ.items() if k != "FORESTREPRO_CONF"}  # tests/conftest.py's
    proc = subprocess.run(cmd, cwd=tmp_path, env=env, capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert "results/runs/quick/brf/main/" in proc.stdout


def test_planning_compiles_no_numba_kernel(tmp_path):
    # Planning imports every estimator (parameter checks), but numba compiles nothing there
    # (common.smk sets numba's module attribute, not its environment variable, so the jobs
    # still compile: the tiny runs above would crawl otherwise). An empty numba cache directory
    # stays empty through a dry run; before, it filled with every split kernel (about 80 s).
    cache = tmp_path / "numba_cache"
    cache.mkdir()
    cmd = [SNAKEMAKE, "--snakefile", str(REPO / "Snakefile"), "--directory", str(tmp_path / "run")]
    cmd += ["--cores", "1", "--dry-run", "--config", "tag=tiny", _overrides()]
    env = {**os.environ, "FORESTREPRO_MIRROR": str(MIRROR), "NUMBA_CACHE_DIR": str(cache)}
    dry = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    assert dry.returncode == 0 and "rule train" in dry.stdout, dry.stdout[-2000:] + dry.stderr[-2000:]
    assert not any(cache.rglob("*.nbi")), "planning compiled numba functions"


def test_bad_override_stops_with_the_valid_keys(tmp_path):
    proc = snakemake(
        tmp_path, "--cores", "1", "--dry-run", check=False, extra_overrides=["method.rf.params.n_trees=3"]
    )
    assert proc.returncode != 0
    assert "n_trees" in proc.stderr + proc.stdout and "n_estimators" in proc.stderr + proc.stdout


def test_unknown_dataset_stops_with_the_valid_names(tmp_path):
    proc = snakemake(
        tmp_path,
        "--cores",
        "1",
        "--dry-run",
        check=False,
        extra_overrides=["paper.brf.experiments.main.datasets=[wnie]"],
    )
    assert proc.returncode != 0
    assert "unknown data set 'wnie'" in proc.stderr + proc.stdout


def test_a_target_outside_only_is_refused_naming_only(tmp_path):
    """A record, or a table or figure none of whose cells only= computes, asked for as a target:
    one error naming only= and what the target needs, while planning (a dry run shows it)."""
    only = 'only=["brf/main/knn/wine"]'  # after the helper's --config tag=... overrides=...
    targets = {
        "results/runs/tiny/brf/main/rf/wine.csv": "needs the record of brf/main/rf/wine",
        "results/tables/tiny/brf_readings_accuracy.csv": "table brf/readings_accuracy (experiment readings)",
        "figures/tiny/brf_fig4_accuracy_vs_h.png": "figure brf/fig4_accuracy_vs_h (experiment sweep_h)",
    }
    for target, needs in targets.items():
        proc = snakemake(tmp_path, only, "--dry-run", target, check=False)
        out = proc.stdout + proc.stderr
        assert proc.returncode != 0 and needs in out, out
        assert "--config only=['brf/main/knn/wine'] leaves out" in out and "No rule to produce" not in out
    # a table that only= gives a finished cell is made, partial
    proc = snakemake(tmp_path, only, "--dry-run", "results/tables/tiny/brf_table2.csv")
    assert "rule report:" in proc.stdout


def test_partial_report_is_made_from_the_finished_jobs(finished_run, tmp_path):
    workdir = tmp_path / "partial"
    shutil.copytree(finished_run, workdir, symlinks=True)
    unfinished = workdir / "results" / "runs" / "tiny" / "brf" / "main" / "svm" / "sonar.csv"
    unfinished.unlink()
    snakemake(workdir, "partial=true", "--cores", "1")
    assert not unfinished.exists()  # a partial report runs no job
    report = (workdir / "results" / "report" / "tiny" / "index.md").read_text()
    assert "Partial report:" in report and "not computed" in report
    complete = (finished_run / "results" / "report" / "tiny" / "index.md").read_text()
    assert "Partial report:" not in complete
    plan = snakemake(workdir, "--cores", "1", "--dry-run").stdout  # a full run then completes it
    assert "results/runs/tiny/brf/main/svm/sonar.csv" in plan and "rule report" in plan
    proc = snakemake(workdir, "partial=maybe", "--cores", "1", "--dry-run", check=False)
    assert proc.returncode != 0 and "partial must be true or false" in proc.stdout + proc.stderr


def test_plain_snakemake_keeps_going_past_a_failed_job_and_exits_non_zero(tmp_path):
    # profiles/default sits where Snakemake looks for it (beside the Snakefile), so a plain
    # run keeps going: KNN with more neighbours than wine has training rows fails at fit
    # time, every other job finishes, the failure is named, and the exit code says so.
    overrides = ["paper.brf.experiments.main.datasets=[wine]", "method.knn.grid.n_neighbors=[1000]"]
    proc = snakemake(
        tmp_path, "only=brf/main/*", "--cores", "2", "records", check=False, extra_overrides=overrides
    )
    out = proc.stdout + proc.stderr
    assert proc.returncode != 0
    assert "Error in rule train" in out and "job=brf/main/knn/wine" in out
    runs = tmp_path / "results" / "runs" / "tiny" / "brf" / "main"
    finished = sorted(p.parent.name for p in runs.glob("*/wine.csv"))
    assert finished == ["biau12", "biau12v", "brf", "pbrf", "rf", "rf_gr", "svm"]  # all but knn
    # the failed job leaves a note with its error, and a partial report says it failed
    note = (runs / "knn" / "wine.failed.txt").read_text()
    assert "n_neighbors" in note and "(exit status 1)" in note
    snakemake(tmp_path, "partial=true", "--cores", "1", extra_overrides=overrides)
    report = (tmp_path / "results" / "report" / "tiny" / "index.md").read_text()
    assert "1 failed, 0 have a stale record, 0 have run in part" in report
    assert "brf/main/knn/wine: failed: " in report and report.count("failed: ") >= 2  # the list and the cell


@pytest.mark.parametrize("typo, meant", [("profil=paper", "profile"), ("overide=[]", "overrides")])
def test_unknown_config_key_stops_with_the_valid_ones(tmp_path, typo, meant):
    proc = snakemake(tmp_path, typo, "--cores", "1", "--dry-run", check=False)
    out = proc.stdout + proc.stderr
    assert proc.returncode != 0 and f"did you mean '{meant}'" in out and "valid keys: only, overrides" in out
    assert not (tmp_path / "results").exists()  # stopped before writing anything


def test_a_deleted_table_or_figure_is_made_again(finished_run, tmp_path):
    run = tmp_path / "run"
    shutil.copytree(finished_run, run, symlinks=True)
    (run / "results" / "tables" / "tiny" / "brf_table2.tex").unlink()
    (run / "figures" / "tiny" / "brf_table2_cd.pdf").unlink()
    plan = snakemake(run, "--cores", "1", "--dry-run").stdout
    assert "rule report:" in plan and "rule train:" not in plan
    snakemake(run, "--cores", "1")
    assert (run / "results" / "tables" / "tiny" / "brf_table2.tex").exists()
    assert (run / "figures" / "tiny" / "brf_table2_cd.pdf").exists()


def test_planning_writes_nothing_so_a_dry_run_cannot_change_a_running_tag(tmp_path):
    # Specs are written under Snakemake's lock (onstart), never while the Snakefile is parsed:
    # a dry run, or a second run refused for the lock, leaves a running tag's inputs alone.
    proc = snakemake(
        tmp_path, "--cores", "1", "--dry-run", extra_overrides=["method.rf.params.n_estimators=3"]
    )
    assert "rule train:" in proc.stdout
    assert not (tmp_path / "results").exists(), sorted(p for p in tmp_path.rglob("*") if p.is_file())[:5]


def test_data_files_are_keyed_by_content_and_not_refetched_for_where_they_are_read_from(
    finished_run, tmp_path
):
    data = finished_run / "results" / "data"
    made = {p.name: p.stat().st_mtime_ns for p in data.glob("*.parquet")}
    assert made and all(re.fullmatch(r"[a-z0-9_]+-[0-9a-f]{12}\.parquet", name) for name in made)
    # the same mirror at another path, or OpenML only (offline here): nothing reruns, nothing is lost
    (tmp_path / "elsewhere").symlink_to(MIRROR, target_is_directory=True)
    for kwargs in ({"mirror": tmp_path / "elsewhere"}, {"extra_overrides": ["data.sources=[openml]"]}):
        out = snakemake(finished_run, "--cores", "1", "--dry-run", **kwargs)
        assert "Nothing to be done" in out.stdout + out.stderr, out.stdout
    # a tag that changes a data set gets files of its own and leaves the shared ones alone
    plan = snakemake(
        finished_run, "tag=other", "--cores", "1", "--dry-run", extra_overrides=["dataset.wine.notes=changed"]
    ).stdout
    fetched = set(re.findall(r"results/data/(wine-[0-9a-f]{12})\.parquet", plan))
    assert len(fetched) == 1 and f"{fetched.pop()}.parquet" not in made
    assert {p.name: p.stat().st_mtime_ns for p in data.glob("*.parquet")} == made


def test_a_c2rf_job_reserves_one_core_and_a_forest_job_the_profiles_threads(tmp_path):
    # A C2RF approach solves on one HiGHS thread: reserving 4 cores would leave 3 idle.
    proc = snakemake(
        tmp_path,
        "--cores",
        "8",
        "--dry-run",
        extra_overrides=["papers=[brf,c2rf]", "resources.threads=4"],
    )
    threads = dict(re.findall(r"--job (\S+) --data \S+ --threads (\d+)", proc.stdout))
    assert threads["c2rf/biased/c2rf_plus/phoneme"] == "1" and threads["c2rf/srs/c2rf_rf/phoneme"] == "1"
    assert threads["brf/main/rf/wine"] == "4"
    # the quick profile's (1), and a method's resources.threads for its own jobs (a cluster's
    # smaller nodes)
    proc = snakemake(
        tmp_path, "--cores", "8", "--dry-run", extra_overrides=["+method.rf.resources.threads=2"]
    )
    threads = dict(re.findall(r"--job (\S+) --data \S+ --threads (\d+)", proc.stdout))
    assert threads["brf/main/rf/wine"] == "2" and threads["brf/main/knn/wine"] == "1"


def test_snakemake_lint_is_clean(tmp_path):
    """`snakemake --lint` finds nothing: every rule has its conda environment, a log, and takes
    what its shell command uses from params, input or output (issue 26)."""
    proc = snakemake(tmp_path, "--lint", check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Congratulations, your workflow is in a good condition" in proc.stdout + proc.stderr


def _running_commands(workdir: Path, word: str):
    """Pids of the ``forestrepro.cli <word>`` processes running in ``workdir``."""
    pids = []
    for proc in Path("/proc").iterdir():
        try:
            cmdline = (proc / "cmdline").read_bytes().split(b"\0")
            cwd = os.readlink(proc / "cwd")
        except OSError:
            continue
        if b"forestrepro.cli" in cmdline and word.encode() in cmdline and cwd == str(workdir):
            pids.append(int(proc.name))
    return pids


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads running commands from /proc")
def test_a_signal_to_a_jobs_shell_stops_its_command_and_the_job_is_reported_failed(tmp_path):
    """SIGTERM to the training job's shell alone (what Snakemake sends a job it kills, and what
    `pkill -f <checkout>` hits): the shell is the train step itself (exec), which passes it on to
    the training (record/attempt.py), so the training ends with it, writes no record, and the
    job is reported failed, with the stop in its failure note. bash alone would die and leave
    the command running to write its record."""
    slow = ["method.rf.params.n_estimators=20000", "method.rf.grid.k_offset=[-1,0,1]"]
    proc = snakemake(
        tmp_path, "only=brf/main/rf/sonar", "--cores", "1", "records", background=True, extra_overrides=slow
    )
    try:
        deadline = time.time() + 600
        while (
            time.time() < deadline and proc.poll() is None and len(_running_commands(tmp_path, "train")) < 2
        ):
            time.sleep(0.2)
        step, training = sorted(_running_commands(tmp_path, "train"))  # the step starts the training
        assert int(Path(f"/proc/{training}/stat").read_text().rsplit(")", 1)[1].split()[1]) == step
        shell = int(Path(f"/proc/{step}/stat").read_text().rsplit(")", 1)[1].split()[1])
        assert b"forestrepro.cli" not in Path(f"/proc/{shell}/cmdline").read_bytes().split(b"\0")  # Snakemake
        os.kill(step, signal.SIGTERM)  # the job's shell, exec'd into the train step
        out, _ = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode != 0 and "Error in rule train" in out, out
    deadline = time.time() + 30
    while time.time() < deadline and _running_commands(tmp_path, "train"):
        time.sleep(0.2)
    outlived = _running_commands(tmp_path, "train")
    for pid in outlived:
        os.kill(pid, signal.SIGKILL)
    assert not outlived, "the training command outlived its job's shell"
    job = tmp_path / "results" / "runs" / "tiny" / "brf" / "main" / "rf" / "sonar"
    assert not job.with_suffix(".csv").exists()
    assert "stopped by SIGTERM (exit status 143)" in job.with_suffix(".failed.txt").read_text()
