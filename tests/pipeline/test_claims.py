"""Claim verdicts on hand-made cells."""

import pandas as pd
import pytest

from forestrepro.report import claims
from forestrepro.report.claims import (
    FAILS,
    HOLDS,
    UNKNOWN,
    evaluate_claim,
    evaluate_curve_claim,
)
from forestrepro.report.compare import score_matrix
from forestrepro.report.tables import rank_statistics

CELLS = pd.DataFrame(
    [
        # dataset, method, published_mean, mean
        ("lo1", "a", 0.80, 0.81),
        ("lo1", "b", 0.79, 0.82),
        ("lo2", "a", 0.70, 0.70),
        ("lo2", "b", 0.70, 0.69),
        ("hi1", "a", 0.90, 0.95),
        ("hi1", "b", 0.85, 0.90),
    ],
    columns=["dataset", "method", "published_mean", "mean"],
)
RANKS = {
    "published": {"mean_ranks": {"a": 1.2, "b": 2.9, "c": 1.9}, "nemenyi_cd": 1.5},
    "ours": {"mean_ranks": {"a": 1.9, "b": 2.0, "c": 2.1}, "nemenyi_cd": 1.5},
}
SPEC = {"higher_is_better": True}


def test_dominates_on_each_side():
    got = evaluate_claim({"text": "t", "kind": "dominates", "a": "a", "b": "b"}, CELLS, RANKS, SPEC)
    assert got["paper"] == HOLDS  # 0.80>=0.79, 0.70>=0.70, 0.90>=0.85
    assert got["ours"] == FAILS and "lo1" in got["ours_evidence"]


def test_lower_is_better_flips_the_comparison():
    got = evaluate_claim(
        {"text": "t", "kind": "dominates", "a": "b", "b": "a"}, CELLS, RANKS, {"higher_is_better": False}
    )
    assert got["paper"] == HOLDS


def test_larger_gain_on_subset():
    claim = {"text": "t", "kind": "larger_gain_on_subset", "a": "a", "b": "b", "subset": ["hi1"]}
    got = evaluate_claim(claim, CELLS, RANKS, SPEC)
    # paper: gain 0.05 on hi1 vs mean(0.01, 0.0) = 0.005 elsewhere; ours: 0.05 vs mean(-0.01, 0.01) = 0.
    assert got["paper"] == HOLDS and got["ours"] == HOLDS


def test_better_on_count():
    # paper: a wins lo1 and hi1 (lo2 is a tie); ours: a wins lo2 and hi1, loses lo1.
    claim = {"text": "t", "kind": "better_on_count", "a": "a", "b": "b", "count": 2}
    got = evaluate_claim(claim, CELLS, RANKS, SPEC)
    assert (got["paper"], got["ours"]) == (HOLDS, HOLDS)
    assert got["paper_evidence"] == got["ours_evidence"] == "better on 2 of 3 (needs 2)"
    got = evaluate_claim({**claim, "count": 3}, CELLS, RANKS, SPEC)
    assert (got["paper"], got["ours"]) == (FAILS, FAILS)


def test_count_of_scales_to_the_data_sets_at_hand():
    # "9 of 13" on 3 data sets needs ceil(9 * 3 / 13) = 3 wins; "8 of 13" needs ceil(1.85) = 2.
    claim = {"text": "t", "kind": "better_on_count", "a": "a", "b": "b", "count": 9, "of": 13}
    got = evaluate_claim(claim, CELLS, RANKS, SPEC)
    assert (got["paper"], got["ours"]) == (FAILS, FAILS) and got["ours_evidence"].endswith("(needs 3)")
    got = evaluate_claim({**claim, "count": 8}, CELLS, RANKS, SPEC)
    assert (got["paper"], got["ours"]) == (HOLDS, HOLDS)


def test_not_worse_on_count_allows_a_margin():
    # ours: a - b = -0.01 (lo1), +0.01, +0.05: within 0.01 everywhere, not within 0.005 on lo1.
    claim = {
        "text": "t",
        "kind": "not_worse_on_count",
        "a": "a",
        "b": "b",
        "within": 0.01 + 1e-12,
        "count": 3,
    }
    assert evaluate_claim(claim, CELLS, RANKS, SPEC)["ours"] == HOLDS
    assert evaluate_claim({**claim, "within": 0.005}, CELLS, RANKS, SPEC)["ours"] == FAILS


def test_mean_relative_reduction_by_hand():
    # "b reduces a": paper (a - b) / a = 0.01/0.80, 0, 0.05/0.90 -> mean 0.0227
    claim = {"text": "t", "kind": "mean_relative_reduction", "a": "b", "b": "a", "value": 0.015}
    got = evaluate_claim(claim, CELLS, RANKS, SPEC)
    expected = ((0.80 - 0.79) / 0.80 + 0.0 + (0.90 - 0.85) / 0.90) / 3
    assert got["paper_evidence"] == f"mean reduction {expected:.0%} over 3 data sets"
    assert got["paper"] == HOLDS
    assert evaluate_claim({**claim, "value": 0.5}, CELLS, RANKS, SPEC)["paper"] == FAILS


def test_rank_claims():
    sig = evaluate_claim(
        {"text": "t", "kind": "significantly_better", "a": "a", "b": "b"}, CELLS, RANKS, SPEC
    )
    assert sig["paper"] == HOLDS and sig["ours"] == FAILS  # gaps 1.7 and 0.1 vs CD 1.5
    best = evaluate_claim({"text": "t", "kind": "best_mean_rank", "a": "c"}, CELLS, RANKS, SPEC)
    assert best["paper"] == FAILS and best["ours"] == FAILS
    close = evaluate_claim(
        {"text": "t", "kind": "not_significantly_different", "a": "a", "others": ["b", "c"]},
        CELLS,
        RANKS,
        SPEC,
    )
    assert close["paper"] == FAILS and close["ours"] == HOLDS


def test_rank_claims_are_not_decided_on_ours_while_data_sets_are_left_out_of_the_ranks(monkeypatch):
    """A partial report ranks the data sets it has complete: a verdict there could change once
    the others run, so where the missing cells' rankings are too many to enumerate (here: any),
    ours says so instead of holding or failing."""
    monkeypatch.setattr(claims, "MAX_RANKINGS", 0)
    partial = {
        "published": {**RANKS["published"], "excluded_datasets": ["d9"], "n_datasets": 8},
        "ours": {**RANKS["ours"], "excluded_datasets": ["d9"], "n_datasets": 8},
    }
    claim = {"text": "t", "kind": "significantly_better", "a": "a", "b": "b"}
    got = evaluate_claim(claim, CELLS, partial, SPEC)
    assert got["ours"] == UNKNOWN and got["paper"] == HOLDS
    assert got["ours_evidence"].startswith("ranked on the 8 data sets ours has complete (1 not: d9)")
    assert "there: does not hold, rank gap 0.100 vs CD 1.500" in got["ours_evidence"]
    assert "8 data sets" in got["paper_evidence"]
    complete = {k: {**v, "excluded_datasets": [], "n_datasets": 9} for k, v in partial.items()}
    assert evaluate_claim(claim, CELLS, complete, SPEC)["ours"] == FAILS


def _ranked(rows):
    """Cells and their rank statistics as the report computes them (report/tables.py)."""
    cells = pd.DataFrame(rows, columns=["dataset", "method", "mean"]).assign(
        published_mean=lambda c: c["mean"]
    )
    ours = score_matrix(cells, "mean")
    ranks = {
        "ours": rank_statistics(ours, higher_is_better=True, alpha=0.05),
        "published": rank_statistics(
            score_matrix(cells, "published_mean").loc[ours.dropna().index], higher_is_better=True, alpha=0.05
        ),
    }
    return cells, ranks


def test_a_rank_claim_is_decided_with_missing_cells_when_every_ranking_they_could_give_agrees():
    # a > b > c on d1-d4 (ranks 1, 2, 3); on d5 a = 0.9 > b = 0.8 and c is missing. c can take 5
    # places there: below b, tied with b, between, tied with a, above a.
    rows = [(d, m, v) for d in ("d1", "d2", "d3", "d4") for m, v in (("a", 0.9), ("b", 0.8), ("c", 0.7))]
    rows += [("d5", "a", 0.9), ("d5", "b", 0.8), ("d5", "c", float("nan"))]
    cells, ranks = _ranked(rows)
    assert ranks["ours"]["excluded_datasets"] == ["d5"]
    # a's mean rank is at most (4 + 2) / 5 = 1.2, b's at least (8 + 2) / 5 = 2.0: a is best in all 5
    best = evaluate_claim({"text": "t", "kind": "best_mean_rank", "a": "a"}, cells, ranks, SPEC)
    assert best["ours"] == HOLDS and "in all 5 rankings the 1 missing cells (d5: c)" in best["ours_evidence"]
    # a vs c against the CD of 3 methods on 5 data sets, 2.343 * sqrt(12 / 30) = 1.482: c above a
    # on d5 gives a 1.2, c 2.6, gap 1.4 (fails); its 4 other places give gaps 1.6 to 2.0 (holds)
    sig = evaluate_claim(
        {"text": "t", "kind": "significantly_better", "a": "a", "b": "c"}, cells, ranks, SPEC
    )
    assert sig["ours"] == UNKNOWN and sig["ours_evidence"].startswith("holds in 4 of the 5 rankings")
    assert "CD 1.482" in sig["ours_evidence"]
    # the paper's side is ranked on the data sets ours has complete, as before
    assert sig["paper"] == HOLDS and "ranked on the 4 data sets ours has complete" in sig["paper_evidence"]
    # b cannot be best however c ranks on d5
    assert (
        evaluate_claim({"text": "t", "kind": "best_mean_rank", "a": "b"}, cells, ranks, SPEC)["ours"] == FAILS
    )


def test_dominates_with_missing_cells_fails_on_a_computed_loss_and_is_otherwise_unknown():
    missing_lo2 = CELLS.assign(mean=CELLS["mean"].where(~((CELLS.dataset == "lo2") & (CELLS.method == "a"))))
    got = evaluate_claim({"text": "t", "kind": "dominates", "a": "a", "b": "b"}, missing_lo2, RANKS, SPEC)
    # ours: a loses on lo1 (0.81 < 0.82), so one missing cell cannot rescue "on every data set".
    assert got["ours"] == FAILS and got["ours_evidence"] == "not on lo1; lo2 not computed"
    # b beats a on lo1 and loses on hi1: no computed loss for "b dominates a" in the subset without hi1 ...
    claim = {"text": "t", "kind": "dominates", "a": "b", "b": "a", "subset": ["lo1", "lo2"]}
    got = evaluate_claim(claim, missing_lo2, RANKS, SPEC)
    # ... so with lo2 missing the verdict is unknown, not "holds".
    assert got["ours"] == UNKNOWN and got["ours_evidence"] == "missing cells: lo2"


def test_a_count_claim_is_decided_with_missing_cells_when_the_computed_ones_decide_it():
    # Five data sets; ours: a wins d1, d2, d3, loses d4, d5 is not computed.
    cells = pd.DataFrame(
        [
            (d, m, 0.5, v)
            for d, (va, vb) in {
                "d1": (0.9, 0.8),
                "d2": (0.9, 0.8),
                "d3": (0.9, 0.8),
                "d4": (0.7, 0.8),
                "d5": (float("nan"), 0.8),
            }.items()
            for m, v in (("a", va), ("b", vb))
        ],
        columns=["dataset", "method", "published_mean", "mean"],
    )
    claim = {"text": "t", "kind": "better_on_count", "a": "a", "b": "b"}
    # 3 wins already decide "3 of 5" ...
    got = evaluate_claim({**claim, "count": 3}, cells, RANKS, SPEC)
    assert got["ours"] == HOLDS and got["ours_evidence"] == "better on 3 of 4 computed, 1 not (d5) (needs 3)"
    # ... d5 could still make "4 of 5" ...
    assert evaluate_claim({**claim, "count": 4}, cells, RANKS, SPEC)["ours"] == UNKNOWN
    # ... but nothing can make "5 of 5" after the loss on d4.
    assert evaluate_claim({**claim, "count": 5}, cells, RANKS, SPEC)["ours"] == FAILS
    # "better or within 0.15" counts d4 too: 4 of 5 hold with d5 missing; 5 of 5 is open.
    close = {**claim, "kind": "not_worse_on_count", "within": 0.15}
    assert evaluate_claim({**close, "count": 4}, cells, RANKS, SPEC)["ours"] == HOLDS
    assert evaluate_claim({**close, "count": 5}, cells, RANKS, SPEC)["ours"] == UNKNOWN
    # The published side (all 0.5: no strict win anywhere) fails "3 of 5" outright.
    assert evaluate_claim({**claim, "count": 3}, cells, RANKS, SPEC)["paper"] == FAILS


def test_missing_cells_and_unknown_kinds():
    got = evaluate_claim({"text": "t", "kind": "dominates", "a": "a", "b": "zzz"}, CELLS, RANKS, SPEC)
    assert got["paper"] == UNKNOWN
    with pytest.raises(ValueError, match="kind"):
        evaluate_claim({"text": "t", "kind": "vibes", "a": "a"}, CELLS, RANKS, SPEC)


def test_better_on_average_by_hand():
    claim = {"text": "t", "kind": "better_on_average", "a": "a", "b": "b", "subset": ["lo1", "hi1"]}
    got = evaluate_claim(claim, CELLS, RANKS, SPEC)
    # paper: a 0.85 vs b 0.82; ours: a 0.88 vs b 0.86
    assert got["paper"] == HOLDS and got["ours"] == HOLDS and "a 0.88, b 0.86" in got["ours_evidence"]
    # on lo1 alone ours is a 0.81 vs b 0.82: not better
    assert evaluate_claim({**claim, "subset": ["lo1"]}, CELLS, RANKS, SPEC)["ours"] == FAILS
    assert evaluate_claim({**claim, "subset": ["lo1", "lo9"]}, CELLS, RANKS, SPEC)["paper"] == UNKNOWN
    missing = CELLS.assign(mean=CELLS["mean"].where(CELLS["dataset"] != "hi1"))
    assert evaluate_claim(claim, missing, RANKS, SPEC)["ours"] == UNKNOWN


def test_the_wdf_papers_average_row_claims_hold_on_its_own_table():
    # Sec. 3.2 states these claims on Table 2's Avg rows; as configured, each must hold on the
    # paper's own cells (read from its published CSV).
    from forestrepro.config import compose_config
    from forestrepro.report.published import published_cells

    paper = compose_config(profile="paper")["paper"]["wdf"]
    for claim in (c for c in paper["claims"] if c["kind"] == "better_on_average"):
        table = paper["tables"][claim["table"]]
        published = published_cells(table["published"], table["metric"])["mean"]
        cells = pd.DataFrame(
            [
                (d, m, published[(table["datasets"][d], name)], float("nan"))
                for d in claim["subset"]
                for m, name in table["methods"].items()
                if name
            ],
            columns=["dataset", "method", "published_mean", "mean"],
        )
        got = evaluate_claim(claim, cells, {}, table)
        assert got["paper"] == HOLDS, (claim["text"], got["paper_evidence"])


def _paired(per_dataset):
    return {"paired": [{"a": "a", "b": "b", "alpha": 0.05, "per_dataset": per_dataset, "across": {}}]}


def _test(mean_diff, p):
    return {
        "n_splits": 5 if p is not None else 1,
        "mean_diff": mean_diff,
        "p": p,
        "significant": None if p is None else p < 0.05,
    }


def test_not_significantly_worse_is_judged_on_the_paired_tests_of_our_splits():
    claim = {"text": "t", "kind": "not_significantly_worse", "a": "a", "b": "b"}
    ranks = _paired({"lo1": _test(-0.01, 0.30), "lo2": _test(0.02, 0.01), "hi1": _test(-0.05, None)})
    got = evaluate_claim(claim, CELLS, ranks, SPEC)
    assert got["paper"] == UNKNOWN  # one value per data set in the paper: no spread
    assert got["ours"] == HOLDS and "hi1" in got["ours_evidence"]  # hi1: one split, named, not tested
    worse = _paired({"lo1": _test(-0.01, 0.01), "lo2": _test(0.02, 0.01)})  # hi1 not computed
    got = evaluate_claim(claim, CELLS, worse, SPEC)
    assert got["ours"] == FAILS and "lo1 (p=0.01)" in got["ours_evidence"]  # a loss decides it
    better = _paired({"lo1": _test(0.01, 0.01), "lo2": _test(0.02, 0.01)})
    assert evaluate_claim(claim, CELLS, better, SPEC)["ours"] == UNKNOWN  # hi1 missing
    assert evaluate_claim(claim, CELLS, {}, SPEC)["ours"] == UNKNOWN  # no paired test configured


def test_average_rows_need_every_cell_of_their_group():
    from forestrepro.report.tables import average_rows

    cells = CELLS.assign(published_mean=CELLS["published_mean"].where(CELLS["dataset"] != "lo2"))
    spec = {
        "averages": [
            {"group": "lo", "datasets": ["lo1", "lo2"]},
            {"group": "hi", "datasets": ["hi1"]},
            {"group": "gone", "datasets": ["hi1", "hi2"]},
        ],
        "method_order": ["a", "b"],
        "report": {"tolerance_abs": 0.02},
    }
    rows = {(r["group"], r["method"]): r for r in average_rows(cells, spec)}
    assert [r["group"] for r in average_rows(cells, spec)][::2] == ["lo", "hi", "gone"]  # configured order
    assert rows["lo", "a"]["mean"] == pytest.approx((0.81 + 0.70) / 2)
    assert rows["lo", "a"]["published_mean"] is None and rows["lo", "a"]["within"] is None  # lo2 unpublished
    assert rows["hi", "b"] == {
        "group": "hi",
        "datasets": ["hi1"],
        "method": "b",
        "mean": 0.90,
        "published_mean": 0.85,
        "delta": pytest.approx(0.05),
        "tolerance": 0.02,
        "within": False,
    }
    assert rows["gone", "a"]["mean"] is None  # hi2 has no cell


def _sweep(curves: dict) -> pd.DataFrame:
    """Runs of a sweep: {(dataset, method): {x: [accuracy per fold]}}."""
    return pd.DataFrame(
        [
            {"dataset": d, "method": m, "sweep_value": x, "accuracy": v}
            for (d, m), curve in curves.items()
            for x, values in curve.items()
            for v in values
        ]
    )


def test_flat_from_by_hand_on_each_data_set():
    """Means: musk2 brf 0.80, 0.90, 0.92, 0.89 at h = 2, 10, 14, 18 (span from 10: 0.03); rf 0.91,
    0.94 (0.03); sonar brf 0.86, 0.82 (0.04, or 0.06 with x = 8 in the window)."""
    claim = {
        "text": "robust from h = 10",
        "kind": "flat_from",
        "a": "brf",
        "methods": ["brf", "rf"],
        "from": 10,
        "within": 0.05,
    }
    runs = _sweep(
        {
            ("musk2", "brf"): {2: [0.8], 10: [0.89, 0.91], 14: [0.92], 18: [0.89]},
            ("musk2", "rf"): {10: [0.91], 14: [0.94]},
            ("sonar", "brf"): {8: [0.80], 10: [0.86], 14: [0.82]},
            ("sonar", "rf"): {10: [0.85], 14: [0.85]},
        }
    )
    got = evaluate_curve_claim(claim, runs, "accuracy", "sweep_value")
    assert got["ours"] == HOLDS and got["paper"] == UNKNOWN
    assert "musk2: holds, brf spans 0.0300, rf spans 0.0300 over x from 10" in got["ours_evidence"]
    assert "sonar: holds, brf spans 0.0400" in got["ours_evidence"]
    assert (
        evaluate_curve_claim({**claim, "from": 8}, runs, "accuracy", "sweep_value")["ours"] == FAILS
    )  # sonar 0.06
    window = evaluate_curve_claim(
        {**claim, "from": 2, "to": 10, "methods": ["brf"]}, runs, "accuracy", "sweep_value"
    )
    assert (
        window["ours"] == FAILS
        and "musk2: does not hold, brf spans 0.1000 over x from 2 to 10" in window["ours_evidence"]
    )
    lonely = evaluate_curve_claim({**claim, "from": 14}, runs, "accuracy", "sweep_value")
    assert lonely["ours"] == UNKNOWN and "fewer than two points" in lonely["ours_evidence"]


def test_larger_gain_against_a_named_group_leaves_the_other_data_sets_out():
    """With ``versus``, a data set in neither group (a row still missing, as MNIST's while its
    cascades run) neither blocks the claim nor counts as the other group."""
    cells = pd.concat(
        [
            CELLS,
            pd.DataFrame(
                [("mid", "a", 0.5, float("nan")), ("mid", "b", 0.5, float("nan"))], columns=CELLS.columns
            ),
        ]
    )
    claim = {"text": "t", "kind": "larger_gain_on_subset", "a": "a", "b": "b", "subset": ["hi1"]}
    assert evaluate_claim(claim, cells, RANKS, SPEC)["ours"] == UNKNOWN  # mid is missing
    claim["versus"] = ["lo1", "lo2"]
    got = evaluate_claim(claim, cells, RANKS, SPEC)
    assert got["ours"] == HOLDS and "+0.050 on the subset vs +0.000 elsewhere" in got["ours_evidence"]


def _two_methods(diffs, missing=()):
    rows = []
    for k, d in enumerate(diffs):
        rows += [(f"d{k}", "a", float("nan"), 0.5 + d), (f"d{k}", "b", float("nan"), 0.5)]
    rows += [(name, m, float("nan"), float("nan")) for name in missing for m in ("a", "b")]
    return pd.DataFrame(rows, columns=CELLS.columns)


BAYES = {"text": "t", "kind": "bayes_better", "a": "a", "b": "b", "rope": 0.01}


def test_bayes_better_decides_each_way_and_names_inconclusive():
    """Far above the rope on 20 data sets: holds; far below: does not hold (b better); all inside
    the rope: practically equivalent; one data set each way: inconclusive."""
    assert evaluate_claim(BAYES, _two_methods([0.05] * 20), {}, SPEC)["ours"] == HOLDS
    worse = evaluate_claim(BAYES, _two_methods([-0.05] * 20), {}, SPEC)
    assert worse["ours"] == FAILS and worse["ours_evidence"].startswith("b better")
    same = evaluate_claim(BAYES, _two_methods([0.001, -0.002] * 10), {}, SPEC)
    assert same["ours"] == claims.EQUIVALENT and same["ours_evidence"].startswith("our runs")
    assert evaluate_claim(BAYES, _two_methods([0.05, -0.05] * 3), {}, SPEC)["ours"] == claims.INCONCLUSIVE
    assert evaluate_claim(BAYES, _two_methods([0.05] * 20), {}, SPEC)["paper"] == UNKNOWN  # no printed table


def test_bayes_better_waits_for_every_data_set_of_the_table():
    got = evaluate_claim(BAYES, _two_methods([0.05] * 20, missing=["late"]), {}, SPEC)
    assert got["ours"] == UNKNOWN and got["ours_evidence"].startswith("so far 20 of 21 data sets")


def test_bayes_better_on_a_papers_printed_table(monkeypatch):
    """The paper side reads the named printed table, under the names it prints for a and b."""
    printed = pd.DataFrame(
        {"mean": [0.9, 0.8] * 12, "std": float("nan")},
        index=pd.MultiIndex.from_tuples(
            [(f"p{k}", m) for k in range(12) for m in ("BRFs", "Biau12")], names=["dataset", "method"]
        ),
    )
    monkeypatch.setattr(claims, "published_cells", lambda file, metric: printed)
    claim = {**BAYES, "published": {"file": "x.csv", "metric": "accuracy", "a": "BRFs", "b": "Biau12"}}
    got = evaluate_claim(claim, _two_methods([-0.05] * 20), {}, SPEC)
    assert got["paper"] == HOLDS and "x.csv, 12 data sets" in got["paper_evidence"]
    assert got["ours"] == FAILS
    claim["published"]["b"] = "Biau"
    with pytest.raises(ValueError, match="prints no accuracy of Biau"):
        evaluate_claim(claim, _two_methods([0.05] * 20), {}, SPEC)
