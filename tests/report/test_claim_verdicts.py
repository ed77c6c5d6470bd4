"""Verdicts no stronger than their evidence (report/claims.py): practically equivalent is a verdict
of its own, a claim the paper's printed table settles is checked on it, and a decided verdict on
few instances or at its threshold says so beside it."""

from types import SimpleNamespace

import pandas as pd
import pytest

from forestrepro.report import claims
from forestrepro.report.claims import (
    EQUIVALENT,
    FAILS,
    HOLDS,
    INCONCLUSIVE,
    UNKNOWN,
    evaluate_claim,
    evaluate_curve_claim,
    verdict_of,
    verdict_text,
)
from forestrepro.report.sections import claim_counts, claims_text

SPEC = {"higher_is_better": True}
COLUMNS = ["dataset", "method", "published_mean", "mean"]


def _pair(diffs: list[float], published: list[float] | None = None) -> pd.DataFrame:
    """Cells of ``a`` and ``b`` on data sets d0, d1, ...: ours ``a - b = diffs``, the paper's
    ``a - b = published`` (missing where None)."""
    rows = []
    for k, d in enumerate(diffs):
        p = float("nan") if published is None else published[k]
        rows += [(f"d{k}", "a", 0.5 + p, 0.5 + d), (f"d{k}", "b", 0.5, 0.5)]
    return pd.DataFrame(rows, columns=COLUMNS)


BAYES = {"text": "t", "kind": "bayes_better", "a": "a", "b": "b", "rope": 0.01}


def test_practically_equivalent_is_a_verdict_of_its_own_counted_apart():
    # 20 data sets, a - b within the rope of 0.01 on each: P(equivalent) ~ 1, so neither the
    # claim nor its reverse: practically equivalent, not "does not hold"
    got = evaluate_claim(BAYES, _pair([0.001, -0.002] * 10), {}, SPEC)
    assert got["ours"] == EQUIVALENT and got["ours_caveat"] == ""
    assert got["ours_evidence"].startswith("our runs on the table's data sets, 20 data sets")
    # b far better is still "does not hold"
    assert evaluate_claim(BAYES, _pair([-0.05] * 20), {}, SPEC)["ours"] == FAILS
    counts = claim_counts([HOLDS, FAILS, EQUIVALENT, EQUIVALENT, UNKNOWN, INCONCLUSIVE])
    assert counts == {"claims": 6, "holds": 1, "fails": 1, "equivalent": 2, "undecided": 2}
    assert claims_text(counts) == "1 / 1 / 2 / 2"


def _printed(scores: dict[str, list[float]]) -> pd.DataFrame:
    """A printed table as published_cells gives it: one column of methods' scores per data set."""
    n = len(next(iter(scores.values())))
    return pd.DataFrame(
        {"mean": [scores[m][k] for k in range(n) for m in scores], "std": float("nan")},
        index=pd.MultiIndex.from_tuples(
            [(f"p{k}", m) for k in range(n) for m in scores], names=["dataset", "method"]
        ),
    )


OURS = {"ours": {"mean_ranks": {"a": 2.0, "b": 1.0, "c": 3.0}, "nemenyi_cd": 0.5, "n_datasets": 30}}


def test_a_rank_claim_the_papers_printed_table_settles_is_checked_on_it(monkeypatch):
    # the paper prints P, Q, R on 6 data sets: P best on each, Q second: mean ranks 1, 2, 3;
    # Nemenyi CD for k = 3, N = 6 is 1.353
    printed = _printed({"P": [0.9] * 6, "Q": [0.8] * 6, "R": [0.7] * 6})
    monkeypatch.setattr(claims, "published_cells", lambda file, metric: printed)
    on = {"file": "x.csv", "metric": "accuracy"}
    best = {"text": "t", "kind": "best_mean_rank", "a": "a", "published": {**on, "a": "P"}}
    got = evaluate_claim(best, _pair([0.1] * 6), {"published": {}, **OURS}, SPEC)
    assert (got["paper"], got["ours"]) == (HOLDS, FAILS)
    assert got["paper_evidence"] == "the paper's printed x.csv, its 6 data sets and 3 methods ranked: P 1.000"
    better = {
        "text": "t",
        "kind": "significantly_better",
        "a": "a",
        "b": "c",
        "published": {**on, "a": "P", "b": "R"},
    }
    got = evaluate_claim(better, _pair([0.1] * 6), {"published": {}, **OURS}, SPEC)
    assert got["paper"] == HOLDS and got["paper_evidence"].endswith("rank gap 2.000 vs CD 1.353")
    # Holm against P: R (rank gap 2, p = 0.0005) is significant, Q (gap 1, p = 0.083) is not
    control = {
        "text": "t",
        "kind": "control_significantly_better",
        "a": "a",
        "others": ["b", "c"],
        "published": {**on, "a": "P", "others": ["Q", "R"]},
    }
    got = evaluate_claim(control, _pair([0.1] * 6), {"published": {}, **OURS}, SPEC)
    assert got["paper"] == FAILS and "Q p_Holm=0.0833" in got["paper_evidence"]
    # without its printed table, the paper's side of a table of data sets the paper never ran
    # has no rank statistics
    unnamed = {key: value for key, value in best.items() if key != "published"}
    assert evaluate_claim(unnamed, _pair([0.1] * 6), {"published": {}, **OURS}, SPEC)["paper"] == UNKNOWN
    with pytest.raises(ValueError, match="its published names no printed method for b"):
        evaluate_claim({**better, "published": {**on, "a": "P"}}, _pair([0.1] * 6), OURS, SPEC)
    with pytest.raises(ValueError, match="x.csv prints no accuracy of S; it has P, Q, R"):
        evaluate_claim({**better, "published": {**on, "a": "P", "b": "S"}}, _pair([0.1] * 6), OURS, SPEC)


def test_a_verdict_on_few_data_sets_or_at_its_threshold_says_so_beside_it(monkeypatch):
    # a at least as good as b on each of 3 data sets: holds, on 3 data sets; the paper's cells
    # are missing: cannot be checked, with no caveat
    dominates = {"text": "t", "kind": "dominates", "a": "a", "b": "b"}
    got = evaluate_claim(dominates, _pair([0.05, 0.1, 0.2]), {}, SPEC)
    assert (got["ours"], got["ours_caveat"], got["paper"], got["paper_caveat"]) == (
        HOLDS,
        "on 3 data sets",
        UNKNOWN,
        "",
    )
    assert verdict_text(got, "ours") == "holds (on 3 data sets)"
    assert verdict_text(got, "paper") == "cannot be checked"
    # ... and by a margin of 0.005 on one of them: at its threshold too
    got = evaluate_claim(dominates, _pair([0.005, 0.1, 0.2]), {}, SPEC)
    assert verdict_text(got, "ours") == "holds (on 3 data sets; at its threshold: smallest margin +0.005)"
    # a count exactly at its threshold: better on 3 of 6 where 3 are needed (ours), and one short
    # of it (the paper's: 2 of 6); 4 of 6 is one data set clear
    count = {"text": "t", "kind": "better_on_count", "a": "a", "b": "b", "count": 3}
    got = evaluate_claim(
        count, _pair([0.1, 0.1, 0.1, -0.1, -0.1, -0.1], [0.1, 0.1, -0.1, -0.1, -0.1, -0.1]), {}, SPEC
    )
    assert verdict_text(got, "ours") == "holds (at its threshold: 3 of the 3 needed)"
    assert verdict_text(got, "paper") == "does not hold (at its threshold: 2 of the 3 needed)"
    got = evaluate_claim(count, _pair([0.1, 0.1, 0.1, 0.1, -0.1, -0.1]), {}, SPEC)
    assert verdict_text(got, "ours") == "holds"
    # a rank gap within 0.01 of the CD: 1.505 against 1.500
    ranks = {
        "published": {},
        "ours": {"mean_ranks": {"a": 1.0, "b": 2.505}, "nemenyi_cd": 1.5, "n_datasets": 20},
    }
    better = {"text": "t", "kind": "significantly_better", "a": "a", "b": "b"}
    got = evaluate_claim(better, _pair([0.1] * 20), ranks, SPEC)
    assert verdict_text(got, "ours") == "holds (at its threshold: rank gap 1.505 against CD 1.500)"
    ranks["ours"]["mean_ranks"]["b"] = 2.52  # 0.02 clear of it
    assert verdict_text(evaluate_claim(better, _pair([0.1] * 20), ranks, SPEC), "ours") == "holds"
    # a posterior probability within 0.01 of 0.95
    test = SimpleNamespace(
        p_a_better=0.955, p_equivalent=0.045, p_b_better=0.0, mean_difference=0.02, wilcoxon_p=0.01
    )
    monkeypatch.setattr(claims, "pairwise_claim", lambda *args, **kwargs: test)
    got = evaluate_claim(BAYES, _pair([0.02] * 20), {}, SPEC)
    assert verdict_text(got, "ours") == "holds (at its threshold: P(a better) 0.955 against 0.95)"


def test_a_claims_table_cell_reads_back_as_its_verdict():
    assert verdict_of("holds (on 3 data sets)") == HOLDS
    assert (
        verdict_of("practically equivalent (at its threshold: P(equivalent) 0.951 against 0.95)")
        == EQUIVALENT
    )
    assert verdict_of("does not hold") == FAILS
    with pytest.raises(ValueError, match="'mostly' is not a verdict"):
        verdict_of("mostly")
    with pytest.raises(ValueError, match="is not a verdict"):
        verdict_of("holdsish")


def test_a_curve_claim_on_few_points_says_so():
    # error falls from 0.30 to 0.20 to 0.195 over 3 training sizes: holds, on 3 points, its
    # last step (-0.005) within 0.01 of flat
    runs = pd.DataFrame({"dataset": "d", "method": "a", "n_train": [10, 20, 40], "error": [0.3, 0.2, 0.195]})
    got = evaluate_curve_claim({"text": "t", "kind": "decreasing", "a": "a"}, runs)
    assert (
        verdict_text(got, "ours")
        == "holds (on 3 points of the curve; at its threshold: largest step -0.0050)"
    )
    assert verdict_text(got, "paper") == "cannot be checked"


def test_the_papers_side_of_a_rank_claim_without_its_ranks_stays_unchecked():
    # the paper prints no cells of c (a variant it only draws), ours leave d5 out of the ranks:
    # the rankings our missing cells could give decide our side only, never the paper's
    cells = pd.concat(
        [
            _pair([0.1] * 6),
            pd.DataFrame([(f"d{k}", "c", float("nan"), 0.55) for k in range(6)], columns=COLUMNS),
        ]
    )
    cells.loc[(cells["dataset"] == "d5") & (cells["method"] == "c"), "mean"] = float("nan")
    ranks = {
        "published": {"excluded_datasets": ["d5"], "n_datasets": 0},
        "ours": {"mean_ranks": {"a": 1.0, "b": 2.8, "c": 2.2}, "excluded_datasets": ["d5"], "n_datasets": 5},
    }
    got = evaluate_claim({"text": "t", "kind": "best_mean_rank", "a": "a"}, cells, ranks, SPEC)
    assert got["paper"] == UNKNOWN and got["ours"] == HOLDS
