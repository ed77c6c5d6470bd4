"""The evidence ledger end to end: finished is finished on a fresh clone, a report is rebuilt
from run records alone byte for byte, and a change reruns only the jobs it touches."""

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from forestrepro.report.build import DirtyRecordError, build_report

REPO = Path(__file__).resolve().parents[2]
MIRROR = (REPO.parent / "shared" / "datasets").resolve()
SNAKEMAKE = str(Path(sys.executable).with_name("snakemake"))
SMALL = [
    "papers=[brf]",
    "paper.brf.experiments.main.datasets=[wine]",
    "method.brf.params.n_estimators=5",
    "method.knn.grid.n_neighbors=[1,3]",
    "method.rf_gr.params.n_estimators=5",
]
ONLY = ["only=[" + ",".join(f'"brf/main/{m}/wine"' for m in ("knn", "rf_gr", "brf")) + "]"]
RCRF = [
    "papers=[rcrf]",
    "paper.rcrf.experiments.main.datasets=[wine]",
    "paper.rcrf.experiments.diversity.datasets=[wine]",
    "paper.rcrf.experiments.diversity_grown.datasets=[wine]",
]

pytestmark = pytest.mark.skipif(not MIRROR.is_dir(), reason=f"data mirror not found at {MIRROR}")


def snakemake(workdir, *args, repo=REPO, overrides=SMALL, config=(), check=True):
    cmd = [
        SNAKEMAKE,
        "--snakefile",
        str(repo / "Snakefile"),
        "--directory",
        str(workdir),
        *args,
        "--config",
        "tag=small",
        "overrides=[" + ",".join(f'"{o}"' for o in overrides) + "]",
        *config,
    ]
    # no PYTHONPATH: the Snakefile plans and runs its own checkout's library (src/), not the one
    # installed in this Python, so that a copy's edits are seen
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["FORESTREPRO_MIRROR"] = str(MIRROR)
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    if check and proc.returncode != 0:
        raise AssertionError(f"snakemake failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}")
    return proc.stdout + proc.stderr


def planned(output: str) -> list[str]:
    """The rules a dry run would run, one entry per job (not the target rule ``records``)."""
    rules = [m.group(1) for m in re.finditer(r"^(?:local)?rule (\w+):", output, re.MULTILINE)]
    return [rule for rule in rules if rule != "records"]


def only_records(source: Path, target: Path) -> None:
    """What a fresh clone holds of a finished run: the run records, nothing else."""
    for path in (source / "results" / "runs").rglob("*"):
        if (path.suffix == ".csv" or path.name.endswith(".provenance.json")) and "specs" not in path.parts:
            (target / path.relative_to(source)).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, target / path.relative_to(source))


@pytest.fixture(scope="module")
def library_copy(tmp_path_factory):
    """A copy of the checkout's library, configuration and workflow, free to edit."""
    repo = tmp_path_factory.mktemp("repo")
    for part in ("src", "conf", "workflow"):
        # numba's cache files in __pycache__ are kept (copied with their sources' mtimes, which
        # their index checks), so the copy's jobs do not compile every kernel again
        shutil.copytree(REPO / part, repo / part, ignore=shutil.ignore_patterns("*.pyc", "*.egg-info"))
    for name in ("Snakefile", "environment.yml"):  # every rule names environment.yml (conda:)
        shutil.copy(REPO / name, repo / name)
    return repo


def test_a_fresh_clone_reruns_nothing_and_rebuilds_the_report_byte_for_byte(tmp_path):
    first = tmp_path / "first"
    snakemake(first, "--cores", "2", overrides=RCRF)
    clone = tmp_path / "clone"
    only_records(first, clone)
    overrides = RCRF
    plan = planned(snakemake(clone, "--cores", "2", "--dry-run", overrides=overrides))
    assert "train" not in plan and "fetch" not in plan and "report" in plan
    snakemake(clone, "--cores", "2", overrides=overrides)
    for name in ("index.md", "index.html"):
        assert (first / "results/report/small" / name).read_bytes() == (
            clone / "results/report/small" / name
        ).read_bytes()
    figures = sorted(p.name for p in (first / "results/report/small/figures").iterdir())
    assert figures == sorted(p.name for p in (clone / "results/report/small/figures").iterdir())
    for name in figures:  # PNGs too: no time stamp or software string in them
        assert (first / "results/report/small/figures" / name).read_bytes() == (
            clone / "results/report/small/figures" / name
        ).read_bytes(), name
    report = (clone / "results/report/small/index.md").read_text()
    assert "## Run records" in report and "(../../runs/small/rcrf/main/rcrf/wine.csv)" in report
    assert set(figures) == set(re.findall(r"figures/([\w.]+\.png)", report))  # only the figures it shows


def test_editing_library_code_reruns_only_the_jobs_that_imported_it(tmp_path, library_copy):
    snakemake(tmp_path, "records", "--cores", "2", repo=library_copy, config=ONLY)
    assert (
        planned(snakemake(tmp_path, "records", "--cores", "2", "--dry-run", repo=library_copy, config=ONLY))
        == []
    )
    # The Banzhaf index: BRF's, and the gain-ratio forest's, whose base class sits in
    # ensembles/brf.py; the KNN job never imports it (each record lists its files).
    runs = tmp_path / "results/runs/small/brf/main"
    importers = {
        m
        for m in ("knn", "rf_gr", "brf")
        if "trees/banzhaf.py" in json.loads((runs / m / "wine.provenance.json").read_text())["code"]["files"]
    }
    assert importers == {"rf_gr", "brf"}
    banzhaf = library_copy / "src" / "forestrepro" / "trees" / "banzhaf.py"
    original = banzhaf.read_text()
    try:
        banzhaf.write_text(original + "\n# an edit\n")
        out = snakemake(tmp_path, "records", "--cores", "2", "--dry-run", repo=library_copy, config=ONLY)
        assert planned(out) == ["train", "train"], out
        for method in ("brf", "rf_gr"):  # the dry run says why
            assert (
                f"record of brf/main/{method}/wine is stale: library code it ran changed: trees/banzhaf.py"
                in out
            )
        assert "job=brf/main/knn/wine" not in out
        # the same on a fresh clone: records only, no data fetched, no Snakemake metadata (whose
        # record of each job's inputs was what reran them above)
        clone = tmp_path / "clone"
        only_records(tmp_path, clone)
        out = snakemake(clone, "records", "--cores", "2", "--dry-run", repo=library_copy, config=ONLY)
        assert planned(out).count("train") == 2 and "job=brf/main/knn/wine" not in out, out
        # a ledger row that shows the edit changes no result makes both records current again
        # (record/equivalence.py); it names the file by its recorded and present content
        row = {
            "path": "trees/banzhaf.py",
            "from_sha256": hashlib.sha256(original.encode()).hexdigest(),
            "to_sha256": hashlib.sha256(banzhaf.read_bytes()).hexdigest(),
            "commit": "c",
            "jobs": "1 of 2",
            "evidence": "small/brf/main/brf/wine",
        }
        (clone / "results/runs/equivalences.tsv").write_text(
            "\t".join(row) + "\n" + "\t".join(row.values()) + "\n"
        )
        assert (
            planned(snakemake(clone, "records", "--cores", "2", "--dry-run", repo=library_copy, config=ONLY))
            == []
        )
    finally:
        banzhaf.write_text(original)
    assert (
        planned(snakemake(tmp_path, "records", "--cores", "2", "--dry-run", repo=library_copy, config=ONLY))
        == []
    )
    changed = [*SMALL[:-2], "method.knn.grid.n_neighbors=[1,5]", SMALL[-1]]  # a config edit: knn only
    out = snakemake(
        tmp_path, "records", "--cores", "2", "--dry-run", repo=library_copy, overrides=changed, config=ONLY
    )
    assert (
        planned(out) == ["train"] and "record of brf/main/knn/wine is stale: the job's spec changed" in out
    ), out


def test_a_checkout_runs_and_records_its_own_library(tmp_path, library_copy):
    # the Python running Snakemake has this checkout installed (editable); a copy of another
    # commit (here: one edited file) must plan with, run and hash the copy's files
    seeds = library_copy / "src" / "forestrepro" / "evaluation" / "seeds.py"
    original = seeds.read_text()
    try:
        seeds.write_text(original + "\n# a copy's own edit\n")
        only = ['only=["brf/main/knn/wine"]']
        snakemake(tmp_path, "records", "--cores", "1", repo=library_copy, config=only)
        record = json.loads((tmp_path / "results/runs/small/brf/main/knn/wine.provenance.json").read_text())
        ran = record["code"]["files"]["evaluation/seeds.py"]
        assert ran == hashlib.sha256(seeds.read_bytes()).hexdigest()
        assert ran != hashlib.sha256((REPO / "src/forestrepro/evaluation/seeds.py").read_bytes()).hexdigest()
        assert planned(snakemake(tmp_path, "records", "--dry-run", repo=library_copy, config=only)) == []
    finally:
        seeds.write_text(original)


def test_records_only_names_each_missing_record(tmp_path):
    out = snakemake(tmp_path, "--dry-run", config=["records_only=true"], check=False)
    assert "records_only=true, but" in out and "brf/main/knn/wine (missing)" in out


def test_a_committed_report_refuses_records_from_a_dirty_tree(tmp_path):
    record = {
        "job": "p/e/m/d",
        "git": {"commit": "abc", "clean": False},
        "spec": {"dataset": "d"},
        "data": {},
    }
    with pytest.raises(DirtyRecordError, match="p/e/m/d"):
        build_report("paper", [], [], {}, [record], tmp_path, n_jobs=1, committed=True)


def test_a_cell_of_long_splits_is_computed_and_committed_split_by_split(tmp_path):
    """job_per_repeat: one job and one record per split; a stopped run keeps the finished
    splits, the report's cell reads every split's record and links to their directory."""
    cascade = "{n_rf: 1, n_crf: 1, n_trees: 5, n_folds: 2, early_stopping_rounds: 1, max_levels: 2}"
    wdf = [
        "papers=[wdf]",
        "paper.wdf.experiments.main.datasets=[yeast]",
        "paper.wdf.experiments.main.methods=[df,wdf]",
        "protocol.wdf_holdout.repeats=2",
        "protocol.wdf_holdout.job_per_repeat=true",
        f"method.df.params={cascade}",
        f"method.wdf.params={{{cascade[1:-1]}, weighting: accuracy}}",
    ]
    first = ['only="wdf/main/*/yeast/repeat0"']  # the first split only, as a session would
    snakemake(tmp_path, "records", "--cores", "2", overrides=wdf, config=first)
    runs = tmp_path / "results/runs/small/wdf/main"
    assert sorted(p.relative_to(runs).as_posix() for p in runs.rglob("*.csv")) == [
        "df/yeast/repeat0.csv",
        "wdf/yeast/repeat0.csv",
    ]
    out = snakemake(
        tmp_path, "--cores", "2", overrides=wdf, config=["partial=true", "records_only=true"], check=False
    )
    assert "no cell of tag 'small' is complete yet: 2 of its 4 jobs have finished" in out
    # a partial report holds back a cell until all its splits have run: no mean of 1 split beside 2
    snakemake(tmp_path, "records", "--cores", "2", overrides=wdf, config=['only="wdf/main/df/yeast/repeat1"'])
    # a stopped run of the other split committed its finished pieces (forestrepro pieces keep)
    manifest = tmp_path / "results/runs/small/pieces/wdf/main/wdf/yeast/repeat1/manifest.json"
    manifest.parent.mkdir(parents=True)
    manifest.write_text(
        json.dumps(
            {"files": {"folds": 0, "cascades": 2}, "kept": "2026-12-01T20:00:00Z", "commit": "abcdef0123"}
        )
    )
    snakemake(tmp_path, "--cores", "2", overrides=wdf, config=["partial=true", "records_only=true"])
    held = (tmp_path / "results/report/small/index.md").read_text()
    assert re.search(
        r"\| yeast \| wdf \(WDF\) \| [^|]+ \| — \|.*finished, shown once every repeat of its cell has "
        r"run: 1 of 2 repeat jobs; not finished yet: 2 cascades file\(s\) committed as pieces \(kept "
        r"2026-12-01T20:00:00Z at abcdef0\), for its next run to resume from: 1 of 2 repeat jobs",
        held,
    ), held
    assert re.search(r"\| yeast \| df \(DF\) \| [^|]+ \| \[[^]]+ ± ", held), held
    assert "wdf/main/wdf/yeast/repeat0.csv" not in held and "wdf/main/df/yeast/repeat0.csv" in held
    assert (  # the provenance counts the records read and says what it leaves out
        "tag: small; 2 run records of the 4 jobs" in held
        and "not read, as their cells wait for other repeats: the records of 1 more finished job\n" in held
    ), held
    assert (
        planned(snakemake(tmp_path, "--cores", "2", "--dry-run", overrides=wdf)).count("train") == 1
    )  # wdf's repeat1
    snakemake(tmp_path, "--cores", "2", overrides=wdf)
    report = (tmp_path / "results/report/small/index.md").read_text()
    cell = re.search(r"\| yeast \| df \(DF\) \| [^|]+ \| \[([^]]+)\]\(([^)]+)\)", report)
    assert cell and " ± " in cell.group(1) and cell.group(2) == "../../runs/small/wdf/main/df/yeast/"
    assert "[wdf/main/wdf/yeast/repeat1.csv](../../runs/small/wdf/main/wdf/yeast/repeat1.csv)" in report
    assert re.search(r"\| yeast \| 2 \| -?\d+\.\d+ \|", report)  # the paired test over the 2 splits
    assert planned(snakemake(tmp_path, "--cores", "2", "--dry-run", overrides=wdf)) == []


def test_an_experiment_an_override_empties_leaves_its_tables_and_figures_out(tmp_path):
    """A report, partial or not, shows no table or figure of an experiment with no job (the 600 s
    C2RF report empties the p-C2RF+ ablation, which c2rf_10s/ holds): before, such a table was
    written empty and the report failed reading it."""
    emptied = ["readings", "multiway", "diversity_readings", "diversity_grown", "nominal_declared"]
    emptied += ["nominal_declared_diversity"]
    overrides = ["papers=[rcrf]", "paper.rcrf.experiments.main.datasets=[wine]"]
    overrides += ["paper.rcrf.experiments.diversity.datasets=[wine]"]
    overrides += [f"paper.rcrf.experiments.{name}.datasets=[]" for name in emptied]
    snakemake(tmp_path, "--cores", "2", overrides=overrides)
    report = (tmp_path / "results/report/small/index.md").read_text()
    shown = re.findall(r"^### (\w+)", report, re.MULTILINE)
    assert {"table2", "table4", "table5_kappa", "fig2_kappa_error"} <= set(shown)
    assert not any(name.startswith(("readings", "multiway", "grown", "nominal")) for name in shown), shown
