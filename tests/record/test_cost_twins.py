"""A method without records priced from its twin under another protocol (record/cost.py's
``protocol_fits`` and ``estimate``'s ``twin_scales``; cli.py's ``_twins``), on hand-made numbers."""

import json

import pytest

from forestrepro.cli import _twins
from forestrepro.config.jobs import JobSpec
from forestrepro.record.cost import estimate, measured, protocol_fits

CV5 = {"kind": "nested_cv", "outer_folds": 5, "inner_folds": 5, "repeats": 1}
SPLIT = {"kind": "holdout", "test_size": 0.2, "repeats": 1}
OOB = {"kind": "oob_repeats", "repeats": 10}


def test_protocol_fits_counts_the_fits_of_one_job():
    assert protocol_fits(CV5) == 5
    assert protocol_fits({**CV5, "repeats": 2}) == 10
    assert protocol_fits({**SPLIT, "repeats": 5}) == 5
    assert protocol_fits({**SPLIT, "repeats": 5, "job_per_repeat": True}) == 1  # one split per job
    assert protocol_fits(OOB) == 10
    assert protocol_fits({"kind": "c2rf_samples", "repeats": 5}) is None  # not counted


def _cfg(grid: dict) -> dict:
    return {
        "protocol": {"cv5": CV5, "split": SPLIT, "oob": OOB},
        "method": {"df": {"grid": {}}, "rf": {"grid": grid}},
        "paper": {
            "other": {"experiments": {"main": {"protocol": "oob", "methods": ["df"], "datasets": ["a"]}}},
            "suite": {
                "experiments": {
                    "cv": {"protocol": "cv5", "methods": ["df", "rf"], "datasets": ["a"]},
                    "wdf": {"protocol": "split", "methods": ["df", "rf"], "datasets": ["a"]},
                }
            },
        },
    }


def test_twins_prefer_the_same_protocol_else_another_of_the_own_paper_scaled_by_their_fits():
    twins, scales = _twins(_cfg(grid={}))
    assert twins[("suite", "cv", "df")] == ("suite", "wdf", "df")  # own paper before 'other'
    assert scales[("suite", "cv", "df")] == 5.0  # 5 folds for 1 split
    assert scales[("suite", "wdf", "df")] == pytest.approx(0.2)  # 1 split for 5 folds
    assert scales[("other", "main", "df")] == 2.0  # 10 out-of-bag repeats for 5 folds
    cfg = _cfg(grid={})
    cfg["paper"]["other"]["experiments"]["main"]["protocol"] = "cv5"
    twins, scales = _twins(cfg)
    assert twins[("suite", "cv", "df")] == ("other", "main", "df") and ("suite", "cv", "df") not in scales


def test_a_method_with_a_grid_gets_no_twin_under_another_protocol():
    twins, scales = _twins(_cfg(grid={"max_depth": [2, 4]}))
    assert twins[("suite", "cv", "rf")] is None and ("suite", "cv", "rf") not in scales


def test_a_twin_prices_a_job_from_its_record_of_the_same_data_set_else_its_model(tmp_path):
    for dataset, rows in (("a", 100), ("b", 500), ("c", 1000)):  # 1 core-s per 100 rows
        prov = tmp_path / "suite" / "wdf" / "df" / f"{dataset}.provenance.json"
        prov.parent.mkdir(parents=True, exist_ok=True)
        prov.write_text(
            json.dumps(
                {"wall_seconds": rows / 100, "threads": 1, "data": {"shape": {"rows": rows, "features": 1}}}
            )
        )
    jobs = [JobSpec("suite", "cv", "df", d) for d in ("a", "d")]
    twins, scales = {("suite", "cv", "df"): ("suite", "wdf", "df")}, {("suite", "cv", "df"): 5.0}
    costs = estimate(
        jobs,
        dict.fromkeys((j.path for j in jobs), 1),
        measured(tmp_path),
        {"d": {"rows": 200, "features": 1}},
        twins=twins,
        twin_scales=scales,
    )
    assert (costs[0].source, costs[0].core_seconds) == ("model from suite/wdf/df/a x 5", pytest.approx(5.0))
    assert (costs[1].source, costs[1].core_seconds) == ("model of suite/wdf x 5", pytest.approx(10.0))
