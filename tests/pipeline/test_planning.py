"""forestrepro.workflow: what the workflow plans from a tag's jobs and their records, and the
guards it takes (forestrepro.record.run_guard), without Snakemake (the workflow end to end:
test_workflow.py, test_records_workflow.py, test_reuse.py, test_run_guards.py)."""

import dataclasses
import json
from pathlib import Path
from types import SimpleNamespace

import pandas as pd
import pytest

from forestrepro.config.jobs import JobSpec, job_spec_path
from forestrepro.record import imported_code, run_guard, write_record
from forestrepro.record.store import spec_digest
from forestrepro.resources import schema_path
from forestrepro.workflow import ablation, contents, data, only, run_config, states
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
    "report": {"show": None},
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


def test_report_show_selects_and_orders_the_pages_tables_and_figures_and_names_an_unknown_one():
    jobs = [_job("knn", "wine"), _job("rf", "wine")]
    everything = contents.Shown(jobs, lambda job: False, partial=False)

    def held(*show):
        return contents.report_contents({**CFG, "report": {"show": list(show)}}, jobs, everything)

    assert (held("fig", "rf_table").tables, held("fig", "rf_table").figures) == (
        [("brf", "rf_table")],
        [("brf", "fig")],
    )
    assert held("rf_table", "knn_table").tables == [("brf", "rf_table"), ("brf", "knn_table")]
    assert (
        held("rf_table", "knn_table").ranked_tables == [("brf", "knn_table")]
        and held("rf_table").figures == []
    )
    # other_table is a table of brf's, but its experiment has no job: named, and left out as ever
    assert held("other_table").tables == []
    with pytest.raises(
        PlanError, match=r"report.show names 'no_such': no table or figure of papers \['brf'\]"
    ):
        held("fig", "no_such")


def test_a_page_reads_the_jobs_of_the_methods_its_tables_and_figures_read():
    """reported_jobs: a page narrowed by report.show to knn_table waits for KNN's records alone;
    the figure adds RF's; a figure that names no methods reads its whole experiment."""
    jobs = [_job("knn", "wine"), _job("rf", "wine"), _job("svm", "wine")]
    everything = contents.Shown(jobs, lambda job: False, partial=False)

    def read(cfg, *show):
        held = contents.report_contents({**cfg, "report": {"show": list(show) or None}}, jobs, everything)
        return {
            e: [job.method for job in members]
            for e, members in contents.reported_jobs(cfg, held, jobs).items()
        }

    assert read(CFG, "knn_table") == {"brf/main": ["knn"]}
    assert read(CFG, "knn_table", "fig") == read(CFG) == {"brf/main": ["knn", "rf"]}
    whole = {**CFG, "paper": {"brf": {**CFG["paper"]["brf"], "figures": {"fig": {"experiment": "main"}}}}}
    assert read(whole, "knn_table", "fig") == {"brf/main": ["knn", "rf", "svm"]}


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


def _report_plan(jobs, found, only_, **given):
    """The report plan of ``jobs`` under tag ``t`` of ``results``; ``given``: --config's settings."""
    settings = {"partial": False, "report_dir": None, "records_only": False, **given}
    return contents.report_plan(CFG, jobs, found, only_, "results", "t", **settings)


def test_a_report_plan_is_partial_while_only_leaves_a_job_without_a_record(tag):
    results, jobs, _ = tag
    found = states.job_states(jobs, _spec_files(results, "t", jobs), results, "t")
    runs = [states.record_of(results, "t", job) for job in jobs]
    full = _report_plan(jobs, found, only.read_only({}, jobs, "t"))
    assert not full.partial and full.partial_spec is None and full.reported_jobs == jobs
    assert full.tables == [("brf", "knn_table"), ("brf", "rf_table")] and full.figures == [("brf", "fig")]
    assert full.runs == {"brf/main": runs} and full.reported_runs == sorted(runs)
    assert (full.dir, full.committed, full.covers) == ("results/report/t", False, "")
    one = only.read_only({"only": "brf/main/rf/w*"}, jobs, "t")  # rf/sonar never trains
    part = _report_plan(jobs, found, one)
    assert part.partial and part.runs == {"brf/main": runs[:3]}
    assert json.loads(part.partial_spec) == {
        "finished": 3,
        "jobs": 4,
        "pending": {"brf/main/rf/sonar": "not run yet"},
        "left_out": {},
    }


def test_a_report_plan_refuses_an_empty_partial_report_the_committed_folder_and_stale_records(tag):
    results, jobs, _ = tag
    found = states.job_states(jobs, _spec_files(results, "t", jobs), results, "t")
    everything = only.read_only({}, jobs, "t")

    def plan(jobs, **given):
        return _report_plan(jobs, found, everything, **given)

    with pytest.raises(
        PlanError, match="partial=true, but no cell of tag 't' is complete yet: 0 of its 2 jobs"
    ):
        plan(jobs[2:], partial=True)  # rf/wine and rf/sonar: not run
    with pytest.raises(PlanError, match="report_dir=results/report/paper/brf is a committed report"):
        plan(jobs, report_dir="results/report/paper/brf")
    committed = plan(jobs[:1], report_dir="results/report/paper/brf", records_only=True)
    assert committed.committed and committed.dir == "results/report/paper/brf"
    with pytest.raises(PlanError, match="records_only=true, but 3 of the report's 4 records"):
        plan(jobs, report_dir="results/report/paper/brf", records_only=True)


def test_an_ablation_is_a_result_override_under_a_tag_of_its_own_beside_its_profiles(tag, monkeypatch):
    results, jobs, _ = tag
    found = states.job_states(jobs, _spec_files(results, "t", jobs), results, "t")
    report = _report_plan(jobs, found, only.read_only({}, jobs, "t"))
    base = [_job("knn", "wine", tag="paper")]
    asked = []

    def cached_plan(overrides, **given):
        asked.append((overrides, given["profile"], given["tag"]))
        return (
            {},
            "paper",
            base,
            {job_spec_path(Path(results), "paper", base[0]): json.dumps(_spec(base[0], "paper"))},
        )

    monkeypatch.setattr(ablation, "cached_plan", cached_plan)
    cfg = {**CFG, "profile": "paper"}
    spec_files = _spec_files(results, "t", jobs)

    def plan(tag, overrides):
        return ablation.plan_ablation(
            cfg, (tag, spec_files, jobs), overrides, report, found, results, Path("c")
        )

    changed = ["method.rf.params.n_estimators=500"]
    assert plan("t", ["resources.threads=1"]) == (None, [])  # changes no result
    assert plan("paper", changed) == (None, [])  # the profile's own tag
    report = dataclasses.replace(report, committed=True)
    assert plan("t", changed) == (None, []) and asked == []  # a committed report
    report = dataclasses.replace(report, committed=False)
    text, baseline_runs = plan("t", changed)
    assert asked == [(["papers=[brf]"], "paper", "paper")] and baseline_runs == []
    assert json.loads(text)["changed"] == ["brf/main/knn/sonar", "brf/main/rf/sonar", "brf/main/rf/wine"]
    assert json.loads(text)["overrides"] == changed and text.endswith("}\n")


def test_the_data_sets_files_are_named_by_content_and_read_from_the_environment():
    cfg = {
        "dataset": {"wine": {"name": "wine", "rows": 178}, "sonar": {"name": "sonar", "rows": 208}},
        "data": {"sources": ["mirror", "openml"], "mirror_dir": Path("/m"), "openml_cache": "/c"},
    }
    keys, environment = data.data_files(cfg, [_job("rf", "wine"), _job("knn", "sonar"), _job("knn", "wine")])
    assert list(keys) == ["sonar", "wine"] and keys["wine"].startswith("wine-") and len(keys["wine"]) == 17
    assert environment == {
        "FORESTREPRO_DATA_SOURCES": "mirror openml",
        "FORESTREPRO_MIRROR_DIR": "/m",
        "FORESTREPRO_OPENML_CACHE": "/c",
    }


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


def test_the_run_settings_are_read_once_each_key_checked_then_validated():
    validated = []
    schema = schema_path("run_config.schema.yaml")
    given = {"overrides": "papers=[brf]", "partial": "true", "reuse": False}
    found = run_config.settings(given, schema, lambda config, path: validated.append(path))
    assert found == (["papers=[brf]"], True, False, False, False) and validated == [str(schema)]
    with pytest.raises(PlanError, match="unknown --config key 'profil' \\(did you mean 'profile'\\?\\)"):
        run_config.settings({"profil": "paper"}, schema, lambda config, path: validated.append(path))
    assert len(validated) == 1  # refused before Snakemake's validation
