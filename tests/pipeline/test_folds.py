"""Folds that a data set cannot fill (``evaluation/folds.py``): more folds than rows is refused
while the jobs are planned, naming the data set, the experiment, the protocol and the option; a
class with fewer rows than stratified folds is refused by the job before any fitting, unless the
data set's option ``allow_small_classes`` runs it anyway, which its record and the report say."""

import json
from pathlib import Path

import numpy as np
import pytest

from forestrepro.cli import main
from forestrepro.config import ConfigError, compose_config, plan_spec_files
from forestrepro.evaluation.base import ProtocolError
from forestrepro.evaluation.folds import check_class_sizes, fold_rows_problem, small_classes
from forestrepro.report.build import paper_notes

from .test_progress import _job, needs_mirror

REPO = Path(__file__).resolve().parents[2]


def test_more_outer_folds_than_rows_is_refused_at_planning(tmp_path):
    cfg = compose_config(["papers=[brf]", "protocol.brf_cv5.outer_folds=200"])
    with pytest.raises(ConfigError) as err:
        plan_spec_files(cfg, "t", tmp_path)
    assert (
        "data set 'wine' in paper.brf.experiments.main (protocol 'brf_cv5'): 178 rows are fewer than "
        "its 200 folds (protocol.brf_cv5.outer_folds; rows: dataset.wine.expected.rows)"
    ) in str(err.value)
    assert "sonar" not in str(err.value)  # 208 rows
    assert not any(tmp_path.iterdir())  # nothing written


def test_an_experiments_own_folds_and_a_subsample_are_named(tmp_path):
    cfg = compose_config(
        [
            "papers=[rcrf]",
            "+paper.rcrf.experiments.diversity.protocol_options.outer_folds=160",
            "+paper.rcrf.dataset_options.balance_scale.subsample_rows=150",
        ]
    )
    with pytest.raises(ConfigError) as err:
        plan_spec_files(cfg, "t", tmp_path)
    message = str(err.value)
    assert (
        "data set 'tae' in paper.rcrf.experiments.diversity (protocol 'rcrf_kappa_error'): 151 rows are "
        "fewer than its 160 folds (paper.rcrf.experiments.diversity.protocol_options.outer_folds; "
        "rows: dataset.tae.expected.rows)"
    ) in message
    assert "'balance_scale' in paper.rcrf.experiments.diversity" in message
    assert "150 rows are fewer than its 160 folds" in message
    assert "the subsample_rows of its dataset_options" in message
    assert "'wine'" not in message  # 178 rows


def test_inner_folds_count_only_where_a_grid_is_searched():
    protocol = {"kind": "nested_cv", "outer_folds": 2, "inner_folds": 60}
    assert fold_rows_problem(100, protocol, searches_grid=True) == (
        "inner_folds: the smallest outer training part of 100 rows in 2 folds has 50 rows, "
        "fewer than its 60 inner folds"
    )
    assert fold_rows_problem(100, protocol, searches_grid=False) is None
    assert fold_rows_problem(100, {"kind": "holdout", "test_size": 0.2}, searches_grid=True) is None


def test_inner_folds_beyond_the_training_rows_are_refused_at_planning(tmp_path):
    cfg = compose_config(["papers=[brf]", "protocol.brf_cv5.inner_folds=100"])
    with pytest.raises(
        ConfigError,
        match=r"data set 'wine' in paper\.brf\.experiments\.main .*89 rows, "
        r"fewer than its 100 inner folds \(protocol\.brf_cv5\.inner_folds",
    ):
        plan_spec_files(cfg, "t", tmp_path)


def _spec(**options):
    protocol = {"name": "rcrf_kappa_error", "kind": "kappa_error_cv", "outer_folds": 3, "repeats": 1}
    return {
        "paper": "rcrf",
        "experiment": "diversity",
        "dataset": "toy",
        "protocol": protocol,
        "method_config": {"grid": {}},
        "dataset_options": options,
    }


def test_a_class_smaller_than_the_folds_is_refused_unless_the_data_set_allows_it():
    y = np.array(["a"] * 10 + ["b"] * 10 + ["c"] * 2)
    assert small_classes(y, 3) == {"c": 2}
    with pytest.raises(ProtocolError) as err:
        check_class_sizes(y, _spec())
    assert (
        "data set 'toy' (paper.rcrf.experiments.diversity, protocol 'rcrf_kappa_error', outer_folds 3): "
        "class(es) 'c' (2 rows) have fewer rows than the 3 folds"
    ) in str(err.value)
    assert "+paper.rcrf.dataset_options.toy.allow_small_classes=true" in str(err.value)
    assert check_class_sizes(y, _spec(allow_small_classes=True)) == {"c": 2}
    assert check_class_sizes(y[:20], _spec()) == {}
    unstratified = {**_spec(), "protocol": {"kind": "nested_cv", "outer_folds": 3, "stratified": False}}
    assert check_class_sizes(y, unstratified) == {}


def test_a_class_smaller_than_the_inner_folds_counts_where_a_grid_is_searched():
    y = np.array(["a"] * 10 + ["b"] * 4)  # b: 4 rows, 2 of them in the smaller outer training part
    nested = {"name": "brf_cv5", "kind": "nested_cv", "outer_folds": 2, "inner_folds": 3, "repeats": 1}
    spec = {**_spec(), "protocol": nested, "method_config": {"grid": {"k": [1, 2]}}}
    assert small_classes(y, 2, 3) == {"b": 2}
    with pytest.raises(
        ProtocolError, match=r"'b' \(2 rows\) have fewer rows than the 2 folds \(or, in an outer "
    ):
        check_class_sizes(y, spec)
    assert check_class_sizes(y, {**spec, "method_config": {"grid": {"k": [1]}}}) == {}


DIVERSITY_ON_ECOLI = [  # ECOLI's classes imL and imS have 2 rows each, fewer than the 3 folds
    "papers=[rcrf]",
    "paper.rcrf.experiments.diversity.datasets=[wine,ecoli]",
    "protocol.rcrf_kappa_error.repeats=1",
    "method.crf.params.n_estimators=3",
]


@needs_mirror
def test_a_job_with_a_class_smaller_than_its_folds_is_refused_before_fitting(tmp_path, capsys):
    # the paper's configuration permits it on Table 5's protocol (as the paper ran it); without
    # the option the job is refused
    refused = [
        *DIVERSITY_ON_ECOLI,
        "paper.rcrf.experiments.diversity.dataset_options.ecoli.allow_small_classes=false",
    ]
    spec, data = _job(tmp_path, refused, "rcrf/diversity/crf/ecoli")
    out = tmp_path / "crf.csv"
    capsys.readouterr()
    assert main(["train", "--spec", str(spec), "--data", str(data), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "data set 'ecoli' (paper.rcrf.experiments.diversity, protocol 'rcrf_kappa_error'" in err
    assert "'imL' (2 rows)" in err and "allow_small_classes" in err and "Traceback" not in err
    assert "repeat 0 fold" not in err  # no fold ran
    assert not out.exists()


@needs_mirror
def test_with_the_option_the_job_runs_and_its_record_and_the_report_say_so(tmp_path, capsys):
    overrides = [*DIVERSITY_ON_ECOLI, "+paper.rcrf.dataset_options.ecoli.allow_small_classes=true"]
    spec, data = _job(tmp_path, overrides, "rcrf/diversity/crf/ecoli")
    out = tmp_path / "crf.csv"
    capsys.readouterr()
    assert main(["train", "--spec", str(spec), "--data", str(data), "--out", str(out)]) == 0
    log = capsys.readouterr().err
    assert "ecoli: class(es) {'imL': 2, 'imS': 2} have fewer rows than the 3 folds" in log
    provenance = json.loads(out.with_suffix(".provenance.json").read_text())
    assert provenance["spec"]["dataset_options"] == {"allow_small_classes": True}
    assert "evaluation/folds.py" not in provenance["code"]["files"]  # it refuses, computes nothing
    table = json.loads((tmp_path / "runs/t/specs/rcrf/table5_kappa.table.json").read_text())
    notes = paper_notes(table, {}, {})
    assert any(
        n.startswith("ecoli in experiment diversity: run although some class has fewer rows") for n in notes
    )
