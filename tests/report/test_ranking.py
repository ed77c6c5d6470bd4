"""Which forest (report/ranking.py): the Pareto front, the best plain baseline and each variant's
verdict against it, the pairwise probability matrix, and the figures drawn from per-fold rows,
on hand-made numbers; and the grid's best cell per data set marked (report/cells.py)."""

import json

import numpy as np
import pandas as pd
import pytest

from forestrepro.report.cells import grid_rows
from forestrepro.report.claims import EQUIVALENT, FAILS, HOLDS, INCONCLUSIVE, UNKNOWN
from forestrepro.report.document import Styled
from forestrepro.report.paper_figures import draw_figure
from forestrepro.report.ranking import (
    NO_PAPER,
    best_baseline,
    method_scores,
    pairwise_probabilities,
    pareto_front,
    time_points,
    verdicts,
)


def test_the_pareto_front_by_hand():
    points = pd.DataFrame(
        {"seconds": [1.0, 10.0, 5.0, 10.0, 100.0, 0.5], "score": [0.80, 0.85, 0.79, 0.84, 0.85, 0.70]},
        index=["fast", "best", "slower_worse", "same_time_worse", "same_score_slower", "fastest"],
    )
    # slower_worse: fast is quicker and better; same_time_worse: best is as quick and better;
    # same_score_slower: best is as good and quicker; fastest is worst but nobody is quicker
    assert pareto_front(points) == ["fast", "best", "fastest"]
    tied = pd.DataFrame({"seconds": [1.0, 1.0], "score": [0.8, 0.8]}, index=["a", "b"])
    assert pareto_front(tied) == ["a", "b"]  # neither beats the other strictly on one


def _scores() -> pd.DataFrame:
    rng = np.random.default_rng(0)
    strong = 0.85 + 0.05 * rng.random(12)  # the best plain baseline
    swing = np.where(np.arange(12) % 2, 0.04, -0.04)
    return pd.DataFrame(
        {
            "weak_baseline": strong - 0.05,
            "strong_baseline": strong,
            "better": strong + 0.05,
            "worse": strong - 0.05,
            "same": strong + 0.001,
            "mixed": strong + swing,
        },
        index=[f"d{i}" for i in range(12)],
    )


def test_each_variant_is_judged_against_the_best_plain_baseline():
    scores = _scores()
    baselines = ["weak_baseline", "strong_baseline"]
    assert best_baseline(scores, baselines) == "strong_baseline"
    assert best_baseline(scores, baselines, higher_is_better=False) == "weak_baseline"
    found = verdicts(scores, ["better", "worse", "same", "mixed"], baselines, rope=0.01)
    assert [v["claim"] for v in found] == [
        f"{m} beats the best plain baseline, strong_baseline" for m in ("better", "worse", "same", "mixed")
    ]
    assert [v["ours"] for v in found] == [HOLDS, FAILS, EQUIVALENT, INCONCLUSIVE]
    assert {(v["paper"], v["paper_evidence"]) for v in found} == {(UNKNOWN, NO_PAPER)}  # no paper ran them
    with pytest.raises(ValueError, match="nope"):
        best_baseline(scores, ["nope"])


def test_the_pairwise_matrix_is_one_test_per_pair_read_both_ways():
    scores = _scores()[["strong_baseline", "better", "same"]]
    better, equivalent = pairwise_probabilities(scores, rope=0.01)
    assert np.isnan(better.loc["better", "better"]) and np.isnan(equivalent.loc["same", "same"])
    for a, b in (("better", "strong_baseline"), ("same", "better")):
        assert better.loc[a, b] + equivalent.loc[a, b] + better.loc[b, a] == pytest.approx(1.0)
        assert equivalent.loc[a, b] == equivalent.loc[b, a]
    assert better.loc["better", "strong_baseline"] > 0.95 and equivalent.loc["same", "strong_baseline"] > 0.95


def _runs() -> pd.DataFrame:
    """Per-fold rows: 2 folds of each of 12 data sets; each method's fit seconds fixed."""
    scores = _scores()
    seconds = {
        "weak_baseline": 1.0,
        "strong_baseline": 2.0,
        "better": 50.0,
        "worse": 0.5,
        "same": 3.0,
        "mixed": 9.0,
    }
    rows = [
        {
            "dataset": d,
            "method": m,
            "fold": f,
            "accuracy": scores.loc[d, m] + (0.01 if f else -0.01),
            "fit_seconds": seconds[m] * (1.5 if f else 0.5),
        }
        for d in scores.index
        for m in scores.columns
        for f in (0, 1)
    ]
    rows.append({"dataset": "incomplete", "method": "better", "fold": 0, "accuracy": 0.0, "fit_seconds": 1e6})
    return pd.DataFrame(rows)


def test_scores_and_times_are_means_over_the_folds_of_the_complete_data_sets():
    runs = _runs()
    spec = {"metric": "accuracy", "method_order": list(_scores().columns)}
    expected = _scores().sort_index().rename_axis(index="dataset", columns="method")
    pd.testing.assert_frame_equal(method_scores(runs, "accuracy", spec["method_order"]), expected)
    points = time_points(runs, spec)
    assert points.loc["better", "seconds"] == pytest.approx(50.0)  # "incomplete" is left out
    # weak_baseline: worse scores the same in less time; mixed (mean swing 0): same is quicker and better
    assert pareto_front(points) == ["strong_baseline", "better", "worse", "same"]


def test_the_figures_draw_and_write_the_verdicts_as_their_claims(tmp_path):
    runs = _runs()
    spec = {
        "kind": "bayes_matrix",
        "metric": "accuracy",
        "rope": 0.01,
        "baselines": ["weak_baseline", "strong_baseline"],
        "method_order": list(_scores().columns),
    }
    written = draw_figure(runs, spec, tmp_path / "matrix")
    assert [p.suffix for p in written] == [".png", ".pdf"]
    claims = json.loads((tmp_path / "matrix.claims.json").read_text())
    assert [c["ours"] for c in claims] == [HOLDS, FAILS, EQUIVALENT, INCONCLUSIVE]
    draw_figure(runs, {**spec, "kind": "time_accuracy"}, tmp_path / "time")
    assert (tmp_path / "time.png").stat().st_size > 0
    assert json.loads((tmp_path / "time.claims.json").read_text()) == []
    few = runs[runs["dataset"] == "d0"]  # one complete data set: no test, no claim
    draw_figure(few, spec, tmp_path / "few")
    assert json.loads((tmp_path / "few.claims.json").read_text()) == []
    partial = runs[runs["method"] != "mixed"]  # a method without any run yet (a partial report)
    assert time_points(partial, spec).empty
    for kind in ("bayes_matrix", "time_accuracy"):
        assert draw_figure(partial, {**spec, "kind": kind}, tmp_path / f"partial_{kind}")


def test_the_grid_marks_each_data_sets_best_cell_ties_all():
    cells = pd.DataFrame(
        {
            "dataset": ["a", "a", "a", "b", "b"],
            "method": ["x", "y", "z", "x", "y"],
            "paper_method": [None] * 5,
            "mean": [0.9, 0.95, 0.95, 0.7, np.nan],
            "published_mean": [np.nan] * 5,
        }
    )
    header, rows = grid_rows(cells, {"digits": 2, "mark_best": True})
    assert header == ("Data set", "x", "y", "z")
    assert rows[0][1] == "0.90" and rows[0][2] == rows[0][3] == Styled("0.95 ★", "ok")
    assert rows[1][1] == Styled("0.70 ★", "ok")
    _, plain = grid_rows(cells, {"digits": 2})
    assert plain[0][2] == "0.95"  # marked only where the table asks
