"""An ablation's report says what it is (report/baseline.py, workflow/rules/report.smk): its title
and first lines name its overrides and baseline tag, each cell the overrides changed shows the
baseline's value beside this run's, and the other cells are marked as copied."""

import json
import os
import subprocess

import pandas as pd
import pytest

from forestrepro.report.baseline import (
    CHANGED,
    COPIED,
    UNCHANGED,
    Ablation,
    baseline_blocks,
    compare_with_baseline,
)
from forestrepro.report.build import report_title
from forestrepro.report.document import Paragraph, Table

from .test_records_workflow import MIRROR, REPO, SNAKEMAKE

SPEC = {"paper": "brf", "experiment": "main"}


def _cells(rows):
    return pd.DataFrame(rows, columns=["dataset", "method", "published_mean", "mean"])


def _ablation(**fields):
    return Ablation(
        **{
            "baseline": "quick",
            "overrides": ("method.knn.grid.n_neighbors=[15]",),
            "changed": frozenset(),
            "missing": {},
            "recorded": frozenset(),
            "copied_from": {},
            "cells": {},
            **fields,
        }
    )


def test_each_cell_is_changed_copied_or_not_run_with_the_baselines_value_beside_a_changed_one():
    # a worked example: knn's grid changed on wine (its baseline record known), on sonar (none
    # under the baseline yet) and on ionosphere (whose repeats' baseline records are all there);
    # rf's cells are the baseline's, copied from tag quick or run here with the same spec, or,
    # on ionosphere, not run here yet
    cells = _cells(
        [
            ("wine", "knn", 0.94, 0.90),
            ("sonar", "knn", 0.59, 0.77),
            ("ionosphere", "knn", 0.85, 0.80),
            ("wine", "rf", 0.96, 0.95),
            ("sonar", "rf", 0.70, 0.72),
            ("ionosphere", "rf", 0.93, float("nan")),
        ]
    )
    baseline = _cells(
        [
            ("wine", "knn", 0.94, 0.96),
            ("sonar", "knn", 0.59, float("nan")),
            ("ionosphere", "knn", 0.85, 0.84),
            ("wine", "rf", 0.96, 0.95),
            ("sonar", "rf", 0.70, 0.72),
            ("ionosphere", "rf", 0.93, float("nan")),
        ]
    )
    ablation = _ablation(
        changed=frozenset(
            {
                "brf/main/knn/wine",
                "brf/main/knn/sonar",
                "brf/main/knn/ionosphere/repeat0",
                "brf/main/knn/ionosphere/repeat1",
            }
        ),
        missing={"brf/main/knn/sonar": "no record under tag quick yet"},
        recorded=frozenset(
            {
                "brf/main/knn/wine",
                "brf/main/knn/sonar",
                "brf/main/knn/ionosphere/repeat0",
                "brf/main/knn/ionosphere/repeat1",
                "brf/main/rf/wine",
                "brf/main/rf/sonar",
            }
        ),
        copied_from={"brf/main/rf/wine": "quick"},
    )
    got = compare_with_baseline(cells, baseline, SPEC, ablation).set_index(["dataset", "method"])
    assert list(got["state"]) == [CHANGED, CHANGED, CHANGED, COPIED, COPIED, UNCHANGED]
    assert got.loc[("wine", "knn"), "baseline_mean"] == 0.96
    assert got.loc[("wine", "knn"), "delta"] == pytest.approx(0.90 - 0.96)
    assert got.loc[("wine", "knn"), "published_mean"] == 0.94 and got.loc[("wine", "knn"), "note"] == ""
    assert got.loc[("ionosphere", "knn"), "delta"] == pytest.approx(0.80 - 0.84)
    sonar = got.loc[("sonar", "knn")]
    assert pd.isna(sonar["baseline_mean"]) and pd.isna(sonar["delta"])
    assert sonar["note"] == "no record under tag quick yet"
    assert got.loc[("wine", "rf"), "note"] == "from tag quick"
    assert got.loc[("sonar", "rf"), "note"] == "the same specs as tag quick"
    assert got.loc[("ionosphere", "rf"), "note"] == "not run under this tag yet"
    assert got.loc[[("wine", "rf"), ("sonar", "rf")], "baseline_mean"].isna().all()


def test_a_changed_cell_copied_from_another_ablation_says_so():
    cells = _cells([("wine", "knn", 0.94, 0.90)])
    ablation = _ablation(
        changed=frozenset({"brf/main/knn/wine"}),
        recorded=frozenset({"brf/main/knn/wine"}),
        copied_from={"brf/main/knn/wine": "quick-1a2b3c4d"},
    )
    got = compare_with_baseline(cells, _cells([("wine", "knn", 0.94, 0.96)]), SPEC, ablation).iloc[0]
    assert got["state"] == CHANGED and got["delta"] == pytest.approx(-0.06)
    assert got["note"] == "from tag quick-1a2b3c4d, which ran the same specs"


def test_a_table_the_overrides_leave_alone_is_one_sentence_and_a_changed_one_lists_every_cell():
    cells = _cells([("wine", "knn", 0.94, 0.90), ("wine", "rf", 0.96, 0.95)])
    jobs = frozenset({"brf/main/knn/wine", "brf/main/rf/wine"})
    alone = compare_with_baseline(cells, cells, SPEC, _ablation(recorded=jobs))
    heading, counts = baseline_blocks(alone, {}, _ablation())
    assert heading.text == "Against the baseline (tag quick)"
    assert counts == Paragraph(
        "This table's 2 cells: 0 changed by the overrides (a job's spec differs from the baseline's), "
        "2 copied (the baseline's specs and records)."
    )
    ablation = _ablation(recorded=jobs, changed=frozenset({"brf/main/knn/wine"}))
    baseline = _cells([("wine", "knn", 0.94, 0.96), ("wine", "rf", 0.96, 0.95)])
    *_, table = baseline_blocks(compare_with_baseline(cells, baseline, SPEC, ablation), {}, ablation)
    assert isinstance(table, Table) and table.header[3] == "Baseline (quick)"
    knn, rf = table.rows
    assert knn[:6] == ("wine", "knn", "0.9400", "0.9600", "0.9000", "-0.0600") and knn[6].text == "changed"
    assert rf[3:6] == ("the same", "0.9500", "—") and rf[6].text == "copied: the same specs as tag quick"


def test_an_ablations_title_names_its_baseline_and_overrides():
    ablation = _ablation(overrides=("papers=[brf]", "method.knn.grid.n_neighbors=[15]"))
    assert report_title("quick-1a2b3c4d", {"brf": "Banzhaf random forests"}, ablation) == (
        "forestrepro report on BRF (tag quick-1a2b3c4d, an ablation of tag quick: papers=[brf]; "
        "method.knn.grid.n_neighbors=[15]): Banzhaf random forests"
    )
    assert report_title("quick", {"brf": "Banzhaf random forests"}) == (
        "forestrepro report on BRF (tag quick): Banzhaf random forests"
    )


KNN = "method.knn.grid.n_neighbors=[15]"


def _run(workdir, overrides, only, *config):
    """Snakemake's default target on the quick profile in ``workdir`` (no tag: the profile's, or
    ``<profile>-<hash>`` with overrides that change a result)."""
    proc = subprocess.run(
        [
            SNAKEMAKE,
            "--snakefile",
            str(REPO / "Snakefile"),
            "--directory",
            str(workdir),
            "--cores",
            "2",
            "--config",
            "overrides=[" + ",".join(f'"{o}"' for o in overrides) + "]",
            "only=[" + ",".join(f'"brf/main/{job}"' for job in only) + "]",
            *config,
        ],
        env={**{k: v for k, v in os.environ.items() if k != "PYTHONPATH"}, "FORESTREPRO_MIRROR": str(MIRROR)},
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def _rows(report: str, heading: str) -> dict[tuple[str, str], list[str]]:
    """The rows of the first table after ``heading`` in a Markdown report, by (data set, method)."""
    lines = report[report.index(heading) :].splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("| Data set"))
    rows = {}
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip("|").split("|")]
        rows[cells[0], cells[1]] = cells
    return rows


@pytest.mark.skipif(not MIRROR.is_dir(), reason=f"data mirror not found at {MIRROR}")
def test_an_ablation_report_on_the_quick_profile_names_its_override_and_compares_each_changed_cell(tmp_path):
    # the baseline, tag quick: BRF's KNN and gain-ratio forest on wine (a partial report)
    _run(tmp_path, ["papers=[brf]"], ["knn/wine", "rf_gr/wine"])
    plain = (tmp_path / "results/report/quick/index.md").read_text()
    assert "ablation of" not in plain and "Against the baseline" not in plain
    # the ablation: KNN's grid changed, on wine and on sonar (which the baseline has not run)
    _run(tmp_path, ["papers=[brf]", KNN], ["knn/wine", "rf_gr/wine", "knn/sonar"])
    (tag,) = [p.name for p in (tmp_path / "results/report").iterdir() if p.name.startswith("quick-")]
    report = (tmp_path / "results/report" / tag / "index.md").read_text()
    title, _, intro = report.splitlines()[:3]
    assert title.startswith(f"# forestrepro report on BRF (tag {tag}, an ablation of tag quick: {KNN})")
    assert intro.startswith(f"An ablation: tag {tag} is the configuration of tag quick") and KNN in intro

    runs = tmp_path / "results/runs"
    mean = {t: pd.read_csv(runs / t / "brf/main/knn/wine.csv")["accuracy"].mean() for t in ("quick", tag)}
    assert mean["quick"] != mean[tag]  # k = 15 alone, against the quick profile's grid
    rows = _rows(report, "#### Against the baseline (tag quick)")
    published = rows["wine", "knn"][2]
    assert rows["wine", "knn"][2:] == [
        published,
        f"{mean['quick']:.4f}",
        f"{mean[tag]:.4f}",
        f"{mean[tag] - mean['quick']:.4f}",
        "**changed**",
    ]
    assert published != "—"
    assert (
        rows["sonar", "knn"][3] == "—"
        and rows["sonar", "knn"][6] == "**changed: no record under tag quick yet**"
    )
    assert rows["wine", "rf_gr"][6] == "copied: from tag quick"
    assert rows["wine", "svm"][6] == "unchanged: not run under this tag yet"
    # the report rule reads the baseline's record of the changed job, and only it
    plan = json.loads((runs / tag / "specs/ablation.json").read_text())
    assert plan["runs"]["brf/main"] == [
        "results/runs/quick/brf/main/knn/wine.csv",
        f"results/runs/{tag}/brf/main/rf_gr/wine.csv",
    ]
    assert plan["missing"]["brf/main/knn/sonar"] == "no record under tag quick yet"

    # a tag of the user's with the same overrides has the same baseline; its KNN records are
    # copied from the first ablation's tag, which ran the same specs
    _run(tmp_path, ["papers=[brf]", KNN], ["knn/wine", "rf_gr/wine"], "tag=knn15")
    named = (tmp_path / "results/report/knn15/index.md").read_text()
    assert named.startswith(f"# forestrepro report on BRF (tag knn15, an ablation of tag quick: {KNN})")
    row = _rows(named, "#### Against the baseline (tag quick)")["wine", "knn"]
    assert (
        row[3] == f"{mean['quick']:.4f}"
        and row[6] == f"**changed: from tag {tag}, which ran the same specs**"
    )
