"""The C2RF study in the pipeline: approaches as methods, the c2rf_samples protocol, median
tables with the paper's '—' rule, the solved-count claim and Figs. 1-3."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from forestrepro.c2rf import APPROACHES, PAPER_COLUMN
from forestrepro.config import ConfigError, compose_config
from forestrepro.evaluation.c2rf_samples import c2rf_samples
from forestrepro.evaluation.protocol import ProtocolError
from forestrepro.methods import MethodConfigError, build_method
from forestrepro.report.c2rf_figures import paired_differences, runtime_ecdf
from forestrepro.report.claims import evaluate_claim
from forestrepro.report.compare import summarize_runs
from forestrepro.report.paper_figures import draw_figure

OURS = {"c2rf_plus": "p-C2RF+", "c2rf_exact": "C2RF exact"}
"""Our approaches (no column of the paper): method name to library preset."""

PROTOCOL = {
    "name": "tiny",
    "kind": "c2rf_samples",
    "sampling": "biased",
    "repeats": 2,
    "bias": "share",
    "drop_duplicates": True,
    "lower": 1.0,
    "upper": 100.0,
    "time_limit": 20.0,
    "metrics": [],
}


def _approach(name: str, **params):
    return build_method({"name": name, "estimator": "c2rf_approach", "params": params, "grid": {}})


@pytest.fixture(scope="module")
def data():
    """3,000 points of two overlapping Gaussian classes (a 1 % sample labels 30 of them)."""
    rng = np.random.default_rng(5)
    y = (rng.random(3000) < 0.4).astype(int)
    X = rng.normal(size=(3000, 4)) + 0.8 * y[:, None]
    return X, y


def test_each_configured_approach_is_the_library_preset():
    """conf/method/c2rf_*.yaml and c2rf.APPROACHES describe the same switches for the paper's columns."""
    cfg = compose_config()
    by_column = {column: name for name, column in PAPER_COLUMN.items()}
    table = cfg["paper"]["c2rf"]["tables"]["table2"]["methods"]
    for method, column in table.items():
        approach = build_method(cfg["method"][method])
        preset = APPROACHES[by_column[column] if column else OURS[method]]
        assert approach.solve_kwargs == preset


def test_approach_config_errors_name_the_method():
    with pytest.raises(MethodConfigError, match="c2rf_bad.*unknown params \\['presolve'\\]"):
        _approach("c2rf_bad", presolve=True)
    with pytest.raises(MethodConfigError, match="takes no solver or switches"):
        _approach("c2rf_bad", vote=True, preprocess=True)
    with pytest.raises(MethodConfigError, match="unknown solver 'gurobi'; valid: \\['exact', 'milp'\\]"):
        _approach("c2rf_bad", solver="gurobi")
    with pytest.raises(MethodConfigError, match="unknown params \\['big_m'\\] for solver 'exact'"):
        _approach("c2rf_bad", solver="exact", big_m="row")
    with pytest.raises(MethodConfigError, match="no search grid"):
        build_method({"name": "c2rf_bad", "estimator": "c2rf_approach", "params": {}, "grid": {"x": [1]}})


def test_every_approach_solves_the_same_instances(data):
    """The instance seed leaves the approach out: lambda, m and the labeled sample agree (paired (10))."""
    X, y = data
    common = dict(paper="c2rf", dataset="toy", root_seed=7, protocol=PROTOCOL)
    vote = c2rf_samples(_approach("c2rf_rf", vote=True), X, y, **common)
    plus = c2rf_samples(_approach("c2rf_plus", **APPROACHES["p-C2RF+"]), X, y, **common)
    assert len(vote) == len(plus) == PROTOCOL["repeats"]
    for column in ("seed", "lam", "m", "n_labeled", "n_unique_patterns"):
        assert vote[column].tolist() == plus[column].tolist()
    assert vote["seed"].nunique() == PROTOCOL["repeats"]
    assert vote["solved"].all() and (vote["status"] == "majority_vote").all()
    assert np.allclose(vote["accuracy_pct"], 100 * vote["accuracy"])
    solved = plus[plus["solved"]]
    assert (
        len(solved) and (solved["eta"] - solved["best_bound"] < 1).all()
    )  # optimal: eta within 1 of the bound
    again = c2rf_samples(_approach("c2rf_rf", vote=True), X, y, **common)
    pd.testing.assert_frame_equal(vote.drop(columns=["seconds"]), again.drop(columns=["seconds"]))


def test_a_stopped_job_resumes_with_its_first_unfinished_sample(data, tmp_path, monkeypatch):
    """Each finished sample is kept (``fold_store``); a rerun solves only the samples it lacks and
    returns the rows a run without a stop returns (only the solve times are the first run's)."""
    from forestrepro.evaluation import c2rf_samples as protocol
    from forestrepro.evaluation.fold_store import FoldStore

    X, y = data
    common = dict(paper="c2rf", dataset="toy", root_seed=7, protocol={**PROTOCOL, "repeats": 3})
    approach = _approach("c2rf_exact", solver="exact")
    fresh = c2rf_samples(approach, X, y, **common)
    solved, original = [], protocol.run_instance

    def stopped_in_the_third_sample(*args, **kwargs):
        solved.append(kwargs["seed"])
        if len(solved) == 3:
            raise KeyboardInterrupt  # Ctrl-C, a cluster's time limit, the end of a session
        return original(*args, **kwargs)

    monkeypatch.setattr(protocol, "run_instance", stopped_in_the_third_sample)
    store = FoldStore.for_job(tmp_path, {"job": "spec"}, {"method": "c2rf_exact"})
    with pytest.raises(KeyboardInterrupt):
        c2rf_samples(approach, X, y, **common, checkpoint=store)
    assert sorted(p.name for p in store.directory.glob("*.json")) == [
        "repeat0_fold0.json",
        "repeat1_fold0.json",
    ]
    solved.clear()
    resumed = c2rf_samples(approach, X, y, **common, checkpoint=store)
    assert solved == [fresh["seed"].iloc[2]]  # only the third sample was solved again
    pd.testing.assert_frame_equal(resumed.drop(columns=["seconds"]), fresh.drop(columns=["seconds"]))
    assert resumed["seconds"].iloc[:2].tolist() == [store.get(s, 0)["seconds"] for s in (0, 1)]


def test_the_exact_chain_runs_as_an_approach_of_the_protocol(data):
    """``solver: exact`` (conf/method/c2rf_exact.yaml) runs ``solve_exact`` on the same instances as
    p-C2RF+: where both prove an optimum, eta agrees; its record names the chain's step that
    proved it and its switches."""
    X, y = data
    common = dict(paper="c2rf", dataset="toy", root_seed=7, protocol=PROTOCOL)
    plus = c2rf_samples(_approach("c2rf_plus", **APPROACHES["p-C2RF+"]), X, y, **common)
    exact = c2rf_samples(_approach("c2rf_exact", solver="exact"), X, y, **common)
    assert exact["seed"].tolist() == plus["seed"].tolist()
    assert exact["solved"].all(), exact[["status", "eta", "best_bound", "solved_by"]]
    both = exact["solved"] & plus["solved"]
    assert both.any() and (exact["eta"][both] == plus["eta"][both]).all()
    steps = {"preprocessing", "committees", "local_search", "cover", "combinatorial", "realise", "milp"}
    assert set(exact["solved_by"]) <= steps
    assert all('"committees": true' in switches for switches in exact["switches"])


def test_protocol_refuses_multiclass_targets_and_estimators(data):
    X, y = data
    with pytest.raises(ProtocolError, match="'toy'.*binary target"):
        c2rf_samples(
            _approach("c2rf_rf", vote=True),
            X,
            y + 1,
            paper="c2rf",
            dataset="toy",
            root_seed=1,
            protocol=PROTOCOL,
        )
    forest = build_method(
        {"name": "breiman_rf", "estimator": "breiman_rf", "params": {"n_estimators": 2}, "grid": {}}
    )
    with pytest.raises(ProtocolError, match="'breiman_rf' is an estimator"):
        c2rf_samples(forest, X, y, paper="c2rf", dataset="toy", root_seed=1, protocol=PROTOCOL)


def test_config_keeps_approaches_and_their_protocol_together():
    with pytest.raises(ConfigError, match="c2rf_rf' is a C2RF approach"):
        compose_config(["paper.rcrf.experiments.main.methods=[breiman_rf,c2rf_rf]"])
    with pytest.raises(ConfigError, match="runs C2RF approaches only; method 'breiman_rf'"):
        compose_config(["paper.c2rf.experiments.srs.methods=[c2rf_rf,breiman_rf]"])


def _runs() -> pd.DataFrame:
    """Hand-made per-sample rows: 5 samples of one instance, two approaches."""
    return pd.DataFrame(
        {
            "dataset": ["d"] * 10,
            "method": ["a"] * 5 + ["b"] * 5,
            "repeat": list(range(5)) * 2,
            "seconds": [5.0, 1.0, 3.0, 9.0, 2.0, 9.0, 9.0, 1.0, 9.0, 2.0],
            "solved": [True, True, True, False, True, False, False, True, False, True],
            "accuracy": [0.7, 0.8, 0.6, np.nan, 0.9, 0.5, 0.5, 0.6, 0.7, 0.9],
            "mcc": [0.1, 0.2, 0.3, np.nan, 0.4, 0.0, 0.2, 0.1, 0.3, 0.4],
            "time_limit": 8.0,
        }
    )


def test_median_cells_and_the_papers_dash_rule():
    """a: median of (5, 1, 3, 9, 2) = 3, 4 of 5 solved; b: 2 of 5 solved < 3 of 5, so '—'."""
    summary = summarize_runs(_runs(), "seconds", aggregate="median", min_solved_share=0.6)
    assert summary.loc[("d", "a"), "mean"] == 3.0
    assert np.isnan(summary.loc[("d", "a"), "std"])
    assert np.isnan(summary.loc[("d", "b"), "mean"]) and summary.loc[("d", "b"), "n_folds"] == 5
    # a median skips samples without a solution: (0.7, 0.8, 0.6, 0.9) -> 0.75
    assert summarize_runs(_runs(), "accuracy", aggregate="median").loc[("d", "a"), "mean"] == pytest.approx(
        0.75
    )


def test_more_complete_cells_counts_solved_instances():
    cells = pd.DataFrame(
        {
            "dataset": ["x", "y", "x", "y"],
            "method": ["a", "a", "b", "b"],
            "mean": [1.0, 2.0, np.nan, 3.0],
            "published_mean": [1.0, np.nan, 1.0, np.nan],
        }
    )
    claim = {"text": "a solves more", "kind": "more_complete_cells", "a": "a", "b": "b"}
    result = evaluate_claim(claim, cells, {}, {})
    assert result["ours"] == "holds" and result["ours_evidence"] == "a 2 of 2, b 1 of 2"
    assert result["paper"] == "does not hold"


def test_paired_differences_by_hand():
    """Eq. (10) per (instance, sample), left out where either side has no value (sample 3)."""
    diff = paired_differences(_runs(), "a", "b", "accuracy")
    assert diff.index.get_level_values("repeat").tolist() == [0, 1, 2, 4]
    assert np.allclose(diff.to_numpy(), [0.2, 0.3, 0.0, 0.0])


@pytest.mark.parametrize(
    "spec",
    [
        {"kind": "runtime_ecdf", "method_order": ["a", "b"]},
        {"kind": "paired_difference_box", "methods": ["a", "b"], "method_order": ["a", "b"]},
    ],
)
def test_c2rf_figures_render(tmp_path, spec):
    written = draw_figure(_runs(), spec, tmp_path / "fig")
    assert [p.suffix for p in written] == [".png", ".pdf"] and all(p.stat().st_size > 1000 for p in written)


def test_the_runtime_ecdf_counts_each_approachs_own_problems():
    """Each approach's legend gives its solved count over its own problems: a partial run may
    have solved one approach on fewer instances than another (a: 4 of 5, b: 2 of 5 here)."""
    runs = _runs()
    fig = runtime_ecdf(runs[(runs["method"] == "a") | (runs["repeat"] < 3)], {"method_order": ["a", "b"]})
    labels = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert labels[:2] == ["a (4 of 5 solved)", "b (1 of 3 solved)"]


def test_the_runtime_ecdf_names_approaches_by_its_labels_and_dashes_them_apart():
    """A method the spec's labels name shows that name, one it does not keeps its config name;
    two approaches with the same curve stay apart by their dashes."""
    fig = runtime_ecdf(_runs(), {"method_order": ["a", "b"], "labels": {"a": "only BR (stand-in)"}})
    ax = fig.axes[0]
    assert [t.get_text() for t in ax.get_legend().get_texts()][:2] == [
        "only BR (stand-in) (4 of 5 solved)",
        "b (2 of 5 solved)",
    ]
    assert ax.lines[0].get_linestyle() != ax.lines[1].get_linestyle()


def test_the_c2rf_figure_labels_name_configured_methods():
    """Fig. 1's labels (conf/paper/c2rf.yaml) name only methods the figure draws, and mark our
    HiGHS stand-ins for the paper's only BR and p-C2RF as stand-ins."""
    figure = compose_config(profile="paper")["paper"]["c2rf"]["figures"]["fig1_runtime_ecdf"]
    assert set(figure["labels"]) <= set(figure["methods"])
    assert "stand-in" in figure["labels"]["c2rf_only_pd"] and "stand-in" in figure["labels"]["c2rf_pp_pd"]


def test_each_ablation_variant_changes_one_switch_of_p_c2rf_plus():
    cfg = compose_config(profile="paper")
    full = build_method(cfg["method"]["c2rf_plus"]).solve_kwargs
    variants = [m for m in cfg["paper"]["c2rf"]["tables"]["ablation_time"]["methods"] if m != "c2rf_plus"]
    ablation = cfg["paper"]["c2rf"]["experiments"]["ablation"]
    assert len(variants) == 8 and set(variants) | {"c2rf_plus"} == set(ablation["methods"])
    # the same biased samples as the paper's approaches, at the ablation's own limit
    protocols = cfg["protocol"]
    biased, at_60 = protocols["c2rf_biased"], protocols[ablation["protocol"]]
    assert at_60["time_limit"] == 60.0
    assert {k: v for k, v in at_60.items() if k not in ("name", "time_limit")} == {
        k: v for k, v in biased.items() if k not in ("name", "time_limit")
    }
    for name in variants:
        kwargs = build_method(cfg["method"][name]).solve_kwargs
        assert len({k for k in {*full, *kwargs} if full.get(k) != kwargs.get(k)}) == 1, name


def test_a_table_lists_each_sample_left_open_with_its_gap(tmp_path, monkeypatch):
    """``open_samples``: the unsolved samples of the named methods, one row each with eta, bound,
    gap and the step it ended in, under what was tried; solved samples and other methods' are
    left out; a table whose samples were all proven says so (issue 68)."""
    from forestrepro.report.build import build_report
    from forestrepro.report.tables import build_table, write_table

    monkeypatch.chdir(tmp_path)

    def row(dataset, method, repeat, solved, eta, bound):
        gap = None if solved else (eta - bound) / eta
        return {
            "dataset": dataset,
            "method": method,
            "repeat": repeat,
            "fold": 0,
            "solved": solved,
            "solved_pct": 100.0 * solved,
            "eta": eta,
            "best_bound": bound,
            "gap": gap,
            "seconds": 612.5,
            "solved_by": "committees" if solved else "milp",
            "status": "optimal" if solved else "time_limit",
        }

    runs = pd.DataFrame(
        [
            row("b", "exact", 0, True, 3.0, 3.0),
            row("b", "exact", 1, False, 200.0, 150.0),
            row("a", "exact", 4, False, 7.0, 0.0),
            row("a", "plus", 0, False, 9.0, 1.0),  # not a listed method
        ]
    )
    spec = {
        "paper": "c2rf",
        "table": "solved",
        "experiment": "srs",
        "caption": "share solved",
        "metric": "solved_pct",
        "pool_datasets": True,
        "rank": False,
        "digits": 1,
        "claims": [],
        "unplaced": {"datasets": [], "methods": []},
        "methods": {"exact": None, "plus": None},
        "method_order": ["exact", "plus"],
        "datasets": {"all": "all"},
        "dataset_order": ["all"],
        "report": {"tolerance_std_factor": 2.0, "tolerance_abs": 0.02},
        "open_samples": {"methods": ["exact"], "tried": "every step of the chain."},
    }
    result = build_table(runs, spec)
    assert [(r["dataset"], r["repeat"], r["gap"]) for r in result.open_samples["samples"]] == [
        ("a", 4, 1.0),
        ("b", 1, 0.25),
    ]
    assert result.open_samples["pending"] == 0
    write_table(result, tmp_path / "tables" / "solved")
    stored = json.loads((tmp_path / "tables" / "solved_ranks.json").read_text())["open_samples"]
    assert stored == result.open_samples
    record = {
        "job": "c2rf/srs/exact/a",
        "rows": 1,
        "wall_seconds": 1.0,
        "made": "2026-01-01T00:00:00Z",
        "git": {"commit": "abc", "clean": True},
        "code": {"digest": "0" * 64},
        "spec": {"dataset": "a"},
        "data": {},
        "environment": {"machine": "m", "python": "3.11", "packages": {}},
    }
    out = Path("results") / "report" / "t"
    build_report("t", [(tmp_path / "tables" / "solved", spec, None)], [], {}, [record], out, n_jobs=1)
    md = " ".join((out / "index.md").read_text().split())
    assert (
        "2 sample(s) of exact left without a proven optimum. What was tried: every step of the chain." in md
    )
    assert "| a | exact | 4 | 7 | 0 | 100.00 % | 612.5 | milp | time_limit |" in md
    assert "| b | exact | 1 | 200 | 150 | 25.00 % | 612.5 | milp | time_limit |" in md
    # every sample proven: one sentence, no list
    proven = build_table(runs[runs["solved"]], spec)
    assert proven.open_samples == {"samples": [], "pending": 0}
    write_table(proven, tmp_path / "tables" / "solved")
    build_report("t", [(tmp_path / "tables" / "solved", spec, None)], [], {}, [record], out, n_jobs=1)
    md = " ".join((out / "index.md").read_text().split())
    assert "Every sample of exact in this table's experiment was proven optimal." in md
    assert "Samples left open" not in md
    # a partial report: a listed method's job without a record is counted, and nothing is called
    # proven while it waits (another method's or experiment's pending job does not count)
    pending = {
        "c2rf/srs/exact/c": "not run yet",
        "c2rf/srs/plus/c": "not run yet",
        "c2rf/biased/exact/c": "x",
    }
    waiting = build_table(runs[runs["solved"]], spec, pending)
    assert waiting.open_samples == {"samples": [], "pending": 1}
    write_table(waiting, tmp_path / "tables" / "solved")
    partial = {"finished": 1, "jobs": 2, "pending": pending}
    build_report(
        "t", [(tmp_path / "tables" / "solved", spec, None)], [], {}, [record], out, n_jobs=2, partial=partial
    )
    md = " ".join((out / "index.md").read_text().split())
    assert (
        "No finished sample of exact was left open. 1 job(s) of exact in this experiment have no record yet; "
        "their samples are not listed." in md
    )
    assert "proven optimal" not in md
