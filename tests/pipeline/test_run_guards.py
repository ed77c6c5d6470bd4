"""What a run refuses or bounds before its first job (issue 67, item 2): ``only=`` for every
target, the partial report of whatever subset has finished, a second live run on the same files
after ``--unlock``, and folders the run cannot write."""

import contextlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from forestrepro.record import run_guard
from forestrepro.report.paper_figures import accuracy_bars

REPO = Path(__file__).resolve().parents[2]
MIRROR = (REPO.parent / "shared" / "datasets").resolve()
SNAKEMAKE = str(Path(sys.executable).with_name("snakemake"))
SMALL = [
    "papers=[brf]",
    "paper.brf.experiments.main.datasets=[wine]",
    "method.brf.params.n_estimators=5",
    "method.rf.params.n_estimators=5",
    "method.knn.grid.n_neighbors=[1,3]",
]
needs_mirror = pytest.mark.skipif(not MIRROR.is_dir(), reason=f"data mirror not found at {MIRROR}")


def snakemake(workdir, *args, overrides=SMALL, background=False, check=True):
    """Snakemake on this checkout's Snakefile in ``workdir``, tag ``small``, one core; the
    ``key=value`` items of ``args`` go to --config, the others (options, targets) before it."""
    config = [a for a in args if "=" in a and not a.startswith("-")]
    cmd = [SNAKEMAKE, "--snakefile", str(REPO / "Snakefile"), "--directory", str(workdir), "--cores", "1"]
    cmd += [a for a in args if a not in config]
    cmd += ["--config", "tag=small", "overrides=[" + ",".join(f'"{o}"' for o in overrides) + "]", *config]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["FORESTREPRO_MIRROR"] = str(MIRROR)
    if background:
        return subprocess.Popen(
            cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True
        )
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    if check and proc.returncode != 0:
        raise AssertionError(f"snakemake failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}")
    return proc


def planned(proc) -> list[str]:
    return re.findall(r"^(?:local)?rule (\w+):", proc.stdout, re.MULTILINE)


def records(workdir):
    runs = workdir / "results" / "runs" / "small"
    return sorted(p.relative_to(runs).as_posix() for p in runs.rglob("*.csv") if "specs" not in p.parts)


# -- (a) only= works for every target, or is refused where it cannot apply -------------------------


@needs_mirror
def test_only_bounds_the_jobs_of_every_target(tmp_path):
    """The default target (the report) with only= computes only the matching jobs and renders a
    partial report of what has finished; a target that needs a job outside only= is refused,
    naming it, before any job. Before: only= was ignored but by `records`, and the report target
    planned every job of the profile and exited 0."""
    only = "only=brf/main/knn/wine"
    plan = snakemake(tmp_path, "--dry-run", only)
    assert planned(plan).count("train") == 1 and "job=brf/main/knn/wine" in plan.stdout, plan.stdout
    assert "report" in planned(plan)
    outside = snakemake(tmp_path, "--dry-run", only, "results/runs/small/brf/main/rf/wine.csv", check=False)
    out = outside.stdout + outside.stderr
    assert outside.returncode != 0 and "brf/main/rf/wine" in out and "only=" in out, out
    assert "rule train" not in out
    snakemake(tmp_path, only)
    assert records(tmp_path) == ["brf/main/knn/wine.csv"]
    report = (tmp_path / "results" / "report" / "small" / "index.md").read_text()
    assert "Partial report: 1 of the" in report and "knn/wine.csv" in report, report[:3000]
    # the same only= again: nothing to do, as for `records`
    assert "Nothing to be done" in (lambda p: p.stdout + p.stderr)(snakemake(tmp_path, "--dry-run", only))


# -- (b) the partial report renders whatever subset has finished ------------------------------------


def test_accuracy_bars_of_methods_none_of_which_has_finished_is_drawn_empty():
    runs = pd.DataFrame({"dataset": ["wine", "wine"], "method": ["knn", "knn"], "accuracy": [0.9, 0.8]})
    fig = accuracy_bars(runs, {"method_order": ["brf", "pbrf"]})  # before: ValueError, zero-size array
    assert "no finished run" in " ".join(t.get_text() for t in fig.axes[0].texts)


@needs_mirror
def test_a_partial_report_renders_whatever_subset_has_finished(tmp_path):
    """Issue 67's case: KNN alone of BRF's main experiment has finished; the partial report crashed
    drawing Fig. 3 (BRF and its variants: none finished). It now leaves the figure out, and draws
    it once one of its methods has finished."""
    snakemake(tmp_path, "records", "only=brf/main/knn/wine")
    snakemake(tmp_path, "partial=true")
    report = (tmp_path / "results" / "report" / "small" / "index.md").read_text()
    assert "Partial report:" in report and "### table2" in report
    assert "fig3_banzhaf_vs_gain_ratio" not in report
    snakemake(tmp_path, "records", "only=brf/main/brf/wine")
    snakemake(tmp_path, "partial=true")
    report = (tmp_path / "results" / "report" / "small" / "index.md").read_text()
    assert "### fig3_banzhaf_vs_gain_ratio" in report
    assert (
        tmp_path / "results" / "report" / "small" / "figures" / "brf_fig3_banzhaf_vs_gain_ratio.png"
    ).exists()


# -- (c) --unlock cannot let two live runs share work -----------------------------------------------


def _dead_pid() -> int:
    child = subprocess.Popen(["true"])
    child.wait()
    return child.pid


def _lock(lock_dir: Path, pid: int, outputs=(), inputs=(), host=None) -> Path:
    lock_dir.mkdir(parents=True, exist_ok=True)
    host = host or socket.gethostname()
    path = lock_dir / f"{host}.{pid}.json"
    record = {"pid": pid, "host": host, "started": "then", "command": "snakemake x", "cwd": "/w"}
    path.write_text(json.dumps({**record, "inputs": list(inputs), "outputs": list(outputs)}))
    return path


def test_a_live_holder_is_refused_by_name_a_dead_one_taken_over(tmp_path):
    locks = tmp_path / "locks"
    live = subprocess.Popen(["sleep", "60"])
    try:
        held = _lock(locks, live.pid, outputs=["results/runs/t/a.csv"])
        with pytest.raises(run_guard.RunLockError, match=rf"process {live.pid} on host .*kill {live.pid}"):
            run_guard.acquire(["results/data/x.parquet"], ["results/runs/t/a.csv"], locks)
        # Snakemake's rule for meeting: this run reading what the other writes meets it too
        with pytest.raises(run_guard.RunLockError):
            run_guard.acquire(["results/runs/t/a.csv"], ["results/report/t/index.md"], locks)
        # files apart: both run
        mine, _ = run_guard.acquire(["results/data/x.parquet"], ["results/runs/t/b.csv"], locks)
        assert held.exists() and mine.exists()
        run_guard.release(mine)
        assert not mine.exists()
    finally:
        live.kill()
        live.wait()
    dead = _lock(locks, _dead_pid(), outputs=["results/runs/t/a.csv"])
    elsewhere = _lock(locks, 1, outputs=["results/runs/t/c.csv"], host="another-host")
    mine, taken_over = run_guard.acquire([], ["results/runs/t/a.csv"], locks)
    # the sleep's lock too, now that it has been killed
    assert {lock["pid"] for lock in taken_over} == {live.pid, int(dead.stem.split(".")[-1])}
    assert not dead.exists() and not held.exists()
    run_guard.release(mine)
    with pytest.raises(run_guard.RunLockError, match=f"delete {elsewhere}"):  # cannot tell: refused
        run_guard.acquire([], ["results/runs/t/c.csv"], locks)


def _train_commands(workdir: Path) -> list[int]:
    """Pids of the ``forestrepro.cli train --job`` steps running in ``workdir``: one per job
    (each starts its training in a process of its own, record/attempt.py)."""
    pids = []
    for proc in Path("/proc").iterdir():
        try:
            cmdline = (proc / "cmdline").read_bytes().split(b"\0")
            cwd = os.readlink(proc / "cwd")
        except OSError:
            continue
        if (
            b"forestrepro.cli" in cmdline
            and b"train" in cmdline
            and b"--job" in cmdline
            and cwd == str(workdir)
        ):
            pids.append(int(proc.name))
    return pids


@needs_mirror
@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads running commands from /proc")
def test_unlock_during_a_live_run_cannot_let_a_second_run_do_its_jobs(tmp_path):
    """A run trains a slow job; `snakemake --unlock` deletes its Snakemake lock; the same command
    again must not train that job a second time (before: it did, and a finished record was lost):
    it is refused before any job, naming the live run's process."""
    slow = [*SMALL, "method.rf.params.n_estimators=20000"]
    command = ("records", "only=brf/main/rf/wine")
    first = snakemake(tmp_path, *command, overrides=slow, background=True)
    second = None
    try:
        deadline = time.time() + 600
        while time.time() < deadline and first.poll() is None and not _train_commands(tmp_path):
            time.sleep(0.2)
        assert _train_commands(tmp_path), "the first run never started its job"
        snakemake(tmp_path, "--unlock", overrides=slow)
        second = snakemake(tmp_path, *command, overrides=slow, background=True)
        deadline = time.time() + 600  # refused, or (before) a second train command of the same job
        while time.time() < deadline and second.poll() is None and len(_train_commands(tmp_path)) < 2:
            time.sleep(0.2)
        assert second.poll() is not None, "the second run trains the first run's job"
        out = second.stdout.read()
        assert second.returncode != 0 and f"process {first.pid} on host" in out, out
        assert "--unlock does not release it" in out and first.poll() is None
    finally:
        for proc in (first, second):
            if proc is not None and proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        for pid in _train_commands(tmp_path):
            os.kill(pid, signal.SIGKILL)


# -- (d) an unwritable folder fails before any job, named -------------------------------------------


@contextlib.contextmanager
def unwritable(folder: Path):
    """``folder`` made unwritable, even to root: chmod, or (as root, whom permissions do not
    stop) the immutable attribute; skips the test where neither works."""
    folder.mkdir(parents=True, exist_ok=True)
    if os.geteuid() != 0:
        folder.chmod(0o555)
        undo = lambda: folder.chmod(0o755)
    elif subprocess.run(["chattr", "+i", str(folder)], capture_output=True, check=False).returncode == 0:
        undo = lambda: subprocess.run(["chattr", "-i", str(folder)], check=True)
    else:
        pytest.skip("cannot make a folder unwritable to root here (no chattr +i)")
    try:
        if run_guard.unwritable([folder / "x"]) == []:
            pytest.skip(f"{folder} is still writable")
        yield folder
    finally:
        undo()


@needs_mirror
@pytest.mark.parametrize("folder", ["results/runs/small", "results/runs/small/brf/main/knn", "."])
def test_an_unwritable_folder_fails_before_any_job_naming_it(tmp_path, folder):
    """results/runs/<tag> unwritable: before, a traceback naming a temporary file; the job's own
    folder unwritable: before, the job trained, then failed writing its record; a read-only
    working directory (checkout): before, Snakemake's traceback. Now each stops before any job,
    naming the folder."""
    workdir = tmp_path / "work"
    workdir.mkdir()
    with unwritable(workdir / folder) as made:
        proc = snakemake(workdir, "records", "only=brf/main/knn/wine", check=False)
    out = proc.stdout + proc.stderr
    name = str(workdir) if folder == "." else folder
    assert proc.returncode != 0 and "cannot write to" in out and f"{name} (" in out, out
    assert "Traceback" not in out and ".tmp" not in out, out
    assert "nothing has run" in out or "no job has run" in out
    assert not (workdir / "results" / "logs").exists() and records(workdir) == [], made
