"""forestrepro.workflow: what the workflow plans from a tag's jobs and their records, and the
guards it takes (forestrepro.record.run_guard), without Snakemake (the workflow end to end:
test_workflow.py, test_records_workflow.py, test_reuse.py, test_run_guards.py)."""

import json
from pathlib import Path
from types import SimpleNamespace

import pandas as pd
import pytest

from forestrepro.config.jobs import JobSpec, job_spec_path
from forestrepro.record import imported_code, run_guard, write_record
from forestrepro.record.store import spec_digest
from forestrepro.workflow import ablation, contents, only, states
from forestrepro.workflow.errors import PlanError


def _spec(job: JobSpec, tag: str, **changed) -> dict:
    return {
        "tag": tag,
        "paper": job.paper,
        "experiment": job.experiment,
        "method": job.method,
        "dataset": job.dataset,
        "repeat": job.repeat,
        "root_seed": 0,
        **changed,
    }


def _job(method, dataset, repeat=None, tag="t", **changed) -> JobSpec:
    job = JobSpec("brf", "main", method, dataset, repeat)
    return JobSpec(**{**job.__dict__, "spec_digest": spec_digest(_spec(job, tag, **changed))})


def _record(results: str, tag: str, job: JobSpec, **changed) -> str:
    path = states.record_of(results, tag, job)
    spec = _spec(job, tag, **changed)
    write_record(
        pd.DataFrame({"accuracy": [0.5]}),
        {"spec": spec, "spec_digest": spec_digest(spec), "code": {"files": imported_code()}},
        Path(path),
    )
    return path


def _spec_files(results: str, tag: str, jobs: list) -> dict:
    return {job_spec_path(Path(results), tag, job): json.dumps(_spec(job, tag)) for job in jobs}


@pytest.fixture
def tag(tmp_path, monkeypatch):
    """Tag ``t`` of four jobs: knn/wine current; knn/sonar with a record of the same content
    under tag ``other`` (copied); rf/wine and rf/sonar without a record (to train)."""
    monkeypatch.chdir(tmp_path)
    results = "results"
    jobs = [_job("knn", "wine"), _job("knn", "sonar"), _job("rf", "wine"), _job("rf", "sonar")]
    _record(results, "t", jobs[0])
    donor = _record(results, "other", jobs[1])
    return results, jobs, donor


def test_each_job_is_current_copied_or_to_train(tag):
    results, jobs, donor = tag
    found = states.job_states(jobs, _spec_files(results, "t", jobs), results, "t")
    assert [found.records[j.path].current for j in jobs] == [True, False, False, False]
    assert found.copies == {"brf/main/knn/sonar": donor}
    assert found.to_train() == ["brf/main/rf/wine", "brf/main/rf/sonar"]
    alone = states.job_states(jobs, _spec_files(results, "t", jobs), results, "t", reuse=False)
    assert alone.copies == {} and alone.to_train() == [
        "brf/main/knn/sonar",
        "brf/main/rf/wine",
        "brf/main/rf/sonar",
    ]
    assert states.overwrite_refusal(jobs, found, results, "t") is None  # no record of another spec


def test_only_bounds_the_jobs_a_run_trains(tag):
    results, jobs, _ = tag
    found = states.job_states(jobs, _spec_files(results, "t", jobs), results, "t")
    everything = only.read_only({}, jobs, "t")
    assert not everything.given and only.trained(jobs, found, everything) == found.to_train()
    assert only.refused(jobs, found, everything) == []
    one = only.read_only({"only": "brf/main/rf/w*"}, jobs, "t")
    assert only.trained(jobs, found, one) == ["brf/main/rf/wine"]
    assert only.refused(jobs, found, one) == ["brf/main/rf/sonar"]
    assert [only.finished(j, found, one) for j in jobs] == [True, True, True, False]
    with pytest.raises(PlanError, match="'brf/main/svm/\\*' matches no job of tag 't'; job paths look like"):
        only.read_only({"only": ["brf/main/rf/*", "brf/main/svm/*"]}, jobs, "t")
    with pytest.raises(PlanError, match="tag 't' has no jobs"):
        only.read_only({}, [], "t")


def test_a_partial_report_shows_a_cell_of_repeats_only_once_every_repeat_has_run():
    jobs = [_job("rf", "wine", 0), _job("rf", "wine", 1), _job("knn", "wine")]
    finished = {"brf/main/rf/wine/repeat0", "brf/main/knn/wine"}
    shown = contents.Shown(jobs, lambda job: job.path in finished, partial=True)
    assert [shown(job) for job in jobs] == [False, False, True]
    assert all(contents.Shown(jobs, lambda job: False, partial=False)(job) for job in jobs)


CFG = {
    "papers": ["brf"],
    "paper": {
        "brf": {
            "experiments": {"main": {"methods": ["knn", "rf"]}, "other": {"methods": ["rf"]}},
            "tables": {
                "knn_table": {"experiment": "main", "methods": ["knn"], "datasets": ["wine"]},
                "rf_table": {"experiment": "main", "methods": ["rf"], "datasets": ["wine"], "rank": False},
                "other_table": {"experiment": "other", "methods": ["rf"], "datasets": ["wine"]},
            },
            "figures": {"fig": {"experiment": "main", "methods": ["rf"], "dataset": "wine"}},
        }
    },
}


def test_a_report_leaves_out_what_has_no_job_and_a_partial_one_what_has_no_finished_cell():
    jobs = [_job("knn", "wine"), _job("rf", "wine")]
    full = contents.report_contents(CFG, jobs, contents.Shown(jobs, lambda job: False, partial=False))
    # other_table's experiment has no job: left out of any report
    assert full.tables == [("brf", "knn_table"), ("brf", "rf_table")] and full.left_out == []
    assert full.ranked_tables == [("brf", "knn_table")] and full.figures == [("brf", "fig")]
    shown = contents.Shown(jobs, lambda job: job.method == "knn", partial=True)
    partial = contents.report_contents(CFG, jobs, shown)
    assert partial.tables == [("brf", "knn_table")] and partial.left_out == [("brf", "rf_table")]
    assert partial.figures == []  # RF draws the figure, and it has not run
    left = only.left_out_by_only(
        CFG, contents.planned(jobs), partial.tables, partial.figures, "t", "results", "figs"
    )
    assert left["results/tables/t/brf_rf_table.csv"] == "table brf/rf_table (experiment main)"
    assert left["figs/t/brf_fig.png"] == "figure brf/fig (experiment main)"
    assert not any("knn_table" in path or "other_table" in path for path in left)


def test_why_a_job_has_no_record(tmp_path):
    class Status:
        state, reason = "missing", None

    note = tmp_path / "wine.failed.txt"
    assert contents.pending_reason(Status, note, None, False, None) == "not run yet"
    assert contents.pending_reason(Status, note, None, True, None) == (
        "finished, shown once every repeat of its cell has run"
    )
    assert "not copied yet from results/runs/o/x.csv" in contents.pending_reason(
        Status, note, None, False, "results/runs/o/x.csv"
    )
    manifest = tmp_path / "manifest.json"
    manifest.write_text(
        json.dumps({"files": {"folds": 3, "cascades": 0}, "kept": "2026-01-01", "commit": "abcdef12"})
    )
    pieces = contents.committed_pieces(manifest)
    assert (
        pieces
        == "3 folds file(s) committed as pieces (kept 2026-01-01 at abcdef1), for its next run to resume from"
    )
    assert contents.pending_reason(Status, note, pieces, False, None) == f"not finished yet: {pieces}"
    note.write_text("ValueError: bad\n(exit status 1)\n")
    assert contents.pending_reason(Status, note, pieces, False, None) == (
        f"failed: ValueError: bad (exit status 1); {pieces}"
    )


def test_records_only_names_each_record_that_is_not_current(tag):
    results, jobs, _ = tag
    found = states.job_states(jobs, _spec_files(results, "t", jobs), results, "t")

    def record_of(job):
        return states.record_of(results, "t", job)

    contents.check_records_only(jobs[:1], found.records, {record_of(jobs[0])}, record_of)
    with pytest.raises(
        PlanError, match="3 of the report's 4 records are missing or stale:\n  brf/main/knn/sonar"
    ):
        contents.check_records_only(jobs, found.records, {record_of(j) for j in jobs}, record_of)


def test_an_ablation_reads_the_baselines_record_of_each_changed_job(tag):
    results, jobs, _ = tag
    base = [_job("knn", "wine", tag="paper"), _job("rf", "wine", tag="paper", root_seed=1)]
    _record(results, "paper", base[1], root_seed=1)
    base_specs = {
        job_spec_path(Path(results), "paper", base[0]): json.dumps(_spec(base[0], "paper")),
        job_spec_path(Path(results), "paper", base[1]): json.dumps(_spec(base[1], "paper", root_seed=1)),
    }
    found = states.job_states(jobs, _spec_files(results, "t", jobs), results, "t")
    spec, baseline_runs = ablation.ablation_plan(
        ("t", _spec_files(results, "t", jobs), jobs),
        ("paper", base_specs, base),
        ["x=1"],
        jobs,
        lambda job: True,
        found,
        results,
    )
    # rf/wine's spec differs from the baseline's; knn/sonar and rf/sonar have no baseline job
    assert spec["changed"] == ["brf/main/knn/sonar", "brf/main/rf/sonar", "brf/main/rf/wine"]
    assert baseline_runs == ["results/runs/paper/brf/main/rf/wine.csv"]
    assert spec["missing"] == {
        "brf/main/knn/sonar": "no such job under tag paper",
        "brf/main/rf/sonar": "no such job under tag paper",
    }
    assert spec["runs"] == {
        "brf/main": ["results/runs/t/brf/main/knn/wine.csv", "results/runs/paper/brf/main/rf/wine.csv"]
    }


def test_a_target_outside_only_is_refused_naming_only_and_the_job():
    one = only.Only(("brf/main/rf/*",), True)
    assert only.outside_only_error("brf/main/knn/wine", one).startswith(
        "this target needs the record of brf/main/knn/wine, which --config only=['brf/main/rf/*'] leaves out"
    )
    assert "--config only=['brf/main/rf/*'] leaves out the jobs it needs" in only.left_out_error(
        "results/tables/t/brf_knn_table.csv", "table brf/knn_table (experiment main)", one
    )


def _dag_job(inputs=(), outputs=(), log=(), benchmark=None):
    return SimpleNamespace(input=list(inputs), output=list(outputs), log=list(log), benchmark=benchmark)


def test_a_run_locks_what_it_reads_and_writes_and_names_the_folders_it_cannot_write(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    locks = tmp_path / run_guard.LOCK_DIR
    locks.mkdir(parents=True)
    # a lock whose holder has ended: no process id exceeds Linux's largest pid_max, 2**22
    stale = {"pid": 2**22 + 1, "host": run_guard.socket.gethostname(), "started": "then"}
    (locks / "stale.json").write_text(json.dumps({**stale, "inputs": [], "outputs": ["b.csv"]}))
    train = _dag_job(["data.parquet"], ["a.csv"], ["a.log"], "a.tsv")
    done = _dag_job(["old.parquet"], ["b.csv"])  # its output current: no need to run
    said = []
    run_guard.guard_run([train, done], [train], ["specs/a.json"], lock=True, log=said.append)
    (mine,) = locks.glob("*.json")
    held = json.loads(mine.read_text())
    assert held["inputs"] == ["data.parquet", "old.parquet"] and held["outputs"] == ["a.csv"]
    assert len(said) == 1 and "took over the lock of a run that has ended (process 4194305" in said[0]
    run_guard.release(mine)
    (tmp_path / "specs").write_text("a file where a folder should be")
    with pytest.raises(
        run_guard.RunGuardError, match=r"(?s)cannot write to 1 folder\(s\).*\n  specs \(a file, not"
    ):
        run_guard.guard_run([train], [train], ["specs/a.json"], lock=False, log=said.append)
    assert not list(locks.glob("*.json"))  # --nolock: no lock taken


def test_a_working_directory_where_snakemake_cannot_keep_its_state_is_named(tmp_path):
    run_guard.check_workdir(tmp_path)
    (tmp_path / ".snakemake").write_text("a file where a folder should be")
    with pytest.raises(
        run_guard.RunGuardError, match=r"cannot write to .*\.snakemake \(a file, not a folder\)"
    ):
        run_guard.check_workdir(tmp_path)
