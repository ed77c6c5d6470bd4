"""The RCRF paper's protocols (OOB repeats, κ-error CV), its published formats and figures."""

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import make_classification

from forestrepro.evaluation.kappa_error import kappa_error_cv
from forestrepro.evaluation.oob import oob_repeats
from forestrepro.methods import build_method
from forestrepro.report.claims import FAILS, HOLDS, evaluate_claim
from forestrepro.report.paper_figures import draw_figure
from forestrepro.report.published import published_cells


def _method(key="rcrf"):
    return build_method({"name": key, "estimator": key, "params": {"n_estimators": 6}, "grid": {}})


@pytest.fixture(scope="module")
def data():
    return make_classification(n_samples=120, n_features=6, n_informative=4, n_classes=3, random_state=0)


def test_oob_repeats_score_each_regrown_forest(data):
    X, y = data
    rows = oob_repeats(
        _method(),
        X,
        y,
        paper="rcrf",
        dataset="d",
        root_seed=1,
        protocol={"repeats": 2, "metrics": ["accuracy", "f1_macro_min5"]},
    )
    assert list(rows["repeat"]) == [0, 1]
    assert rows["model_seed"].nunique() == 2
    assert ((rows["accuracy"] > 0.4) & (rows["accuracy"] <= 1)).all() and "f1_macro_min5" in rows
    assert (rows["n_scored"] + rows["n_unscored"] == len(y)).all()


@pytest.fixture(scope="module")
def kappa_rows(data):
    X, y = data
    protocol = {"repeats": 1, "outer_folds": 3}
    return kappa_error_cv(
        _method("breiman_rf"), X, y, paper="rcrf", dataset="d", root_seed=1, protocol=protocol
    )


SCATTER = {"kind": "kappa_error_scatter", "dataset": "d", "method_order": ["breiman_rf"]}


def test_kappa_error_rows_and_pairs(kappa_rows):
    rows = kappa_rows
    assert len(rows) == 3
    first = rows.iloc[0]
    assert len(first["pairs_kappa"]) == 6 * 5 // 2
    assert first["mean_pairwise_error"] == pytest.approx(np.mean(first["pairs_error"]))
    assert rows["pairs_kappa"].iloc[1:].isna().all()


def test_figures_draw(kappa_rows, tmp_path):
    rows, spec = kappa_rows, SCATTER
    for kind in ("kappa_error_scatter", "kappa_error_centroids"):
        written = draw_figure(rows, {**spec, "kind": kind}, tmp_path / kind)
        assert all(p.stat().st_size > 1000 for p in written)
    sweep = rows.assign(sweep_value=rows["fold"])
    assert draw_figure(
        sweep, {"kind": "sweep_curve", "metric": "accuracy", "method_order": ["breiman_rf"]}, tmp_path / "s"
    )
    with pytest.raises(ValueError, match="kind"):
        draw_figure(rows, {"kind": "pie"}, tmp_path / "x")


def test_published_formats():
    table5 = published_cells("rcrf_table5_kappa_error.csv", "mean_pairwise_kappa")
    assert ("balance-scale", "RCRF") in table5.index and table5["std"].isna().all()
    table2 = published_cells("rcrf_table2_accuracy.csv", "accuracy")
    assert table2["mean"].dtype.kind == "f" and len(table2) == 21 * 3


def test_control_claim():
    cells = pd.DataFrame(columns=["dataset", "method", "published_mean", "mean"])
    stats = {
        "mean_ranks": {"r": 1.1, "x": 2.5, "y": 2.4},
        "nemenyi_cd": 1.0,
        "control": {
            "method": "r",
            "versus": {
                "x": {"z": 3.0, "p_holm": 0.01, "significant": True},
                "y": {"z": 1.0, "p_holm": 0.2, "significant": False},
            },
        },
    }
    ranks = {
        "published": stats,
        "ours": {
            **stats,
            "control": {
                **stats["control"],
                "versus": {
                    "x": {"z": 3.0, "p_holm": 0.01, "significant": True},
                    "y": {"z": 3.0, "p_holm": 0.02, "significant": True},
                },
            },
        },
    }
    claim = {"text": "t", "kind": "control_significantly_better", "a": "r", "others": ["x", "y"]}
    got = evaluate_claim(claim, cells, ranks, {})
    assert (got["paper"], got["ours"]) == (FAILS, HOLDS)
