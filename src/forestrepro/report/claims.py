"""Verdicts on a paper's claims, from its own published cells and from ours.

A claim is configured in ``paper.<p>.claims`` as a kind plus its arguments, and is checked
twice: on the published numbers (does the paper's own table support it?) and on the
regenerated ones. Kinds:

- ``dominates``: method ``a`` is at least as good as ``b`` on every data set (of ``subset``);
- ``larger_gain_on_subset``: the mean gain of ``a`` over ``b`` is larger on ``subset`` than on
  the other data sets;
- ``best_mean_rank``: ``a`` has the lowest mean rank;
- ``significantly_better``: ``a``'s mean rank beats ``b``'s by at least the Nemenyi CD;
- ``not_significantly_different``: ``a``'s mean rank is within the CD of each of ``others``;
- ``better_on_count``: ``a`` beats ``b`` strictly on at least ``count`` data sets;
- ``control_significantly_better``: ``a`` (the table's ``control``) ranks better than each of
  ``others`` and Holm's post-hoc test finds the difference significant.

"Better" follows the table's ``higher_is_better``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

HOLDS, FAILS, UNKNOWN = "holds", "does not hold", "cannot be checked"


def _sign(spec: dict) -> float:
    return 1.0 if spec.get("higher_is_better", True) else -1.0


def _scores(cells: pd.DataFrame, column: str, subset: list[str] | None) -> pd.DataFrame:
    scores = cells.pivot(index="dataset", columns="method", values=column)
    return scores.loc[[d for d in scores.index if subset is None or d in subset]]


def _paired(scores: pd.DataFrame, a: str, b: str) -> pd.DataFrame | None:
    if a not in scores or b not in scores:
        return None
    pair = scores[[a, b]]
    return None if pair.isna().any().any() or pair.empty else pair


def _dominates(cells, column, claim, table_spec):
    pair = _paired(_scores(cells, column, claim.get("subset")), claim["a"], claim["b"])
    if pair is None:
        return UNKNOWN, "missing cells"
    diff = _sign(table_spec) * (pair[claim["a"]] - pair[claim["b"]])
    losses = list(diff[diff < 0].index)
    return (HOLDS, f"on all {len(diff)} data sets") if not losses else (FAILS, "not on " + ", ".join(losses))


def _larger_gain(cells, column, claim, table_spec):
    pair = _paired(_scores(cells, column, None), claim["a"], claim["b"])
    if pair is None:
        return UNKNOWN, "missing cells"
    gain = _sign(table_spec) * (pair[claim["a"]] - pair[claim["b"]])
    inside = gain[gain.index.isin(claim["subset"])]
    outside = gain[~gain.index.isin(claim["subset"])]
    if inside.empty or outside.empty:
        return UNKNOWN, "needs data sets inside and outside the subset"
    verdict = HOLDS if inside.mean() > outside.mean() else FAILS
    return verdict, f"mean gain {inside.mean():+.3f} on the subset vs {outside.mean():+.3f} elsewhere"


def _better_on_count(cells, column, claim, table_spec):
    pair = _paired(_scores(cells, column, claim.get("subset")), claim["a"], claim["b"])
    if pair is None:
        return UNKNOWN, "missing cells"
    wins = int((_sign(table_spec) * (pair[claim["a"]] - pair[claim["b"]]) > 0).sum())
    verdict = HOLDS if wins >= claim["count"] else FAILS
    return verdict, f"better on {wins} of {len(pair)}"


def _control_claim(stats: dict, claim: dict):
    control = stats.get("control")
    if not control or control["method"] != claim["a"] or any(o not in control["versus"] for o in claim["others"]):
        return UNKNOWN, f"no post-hoc test against {claim['a']} (set the table's control)"
    ranks = stats["mean_ranks"]
    wins = {o: ranks[claim["a"]] < ranks[o] and control["versus"][o]["significant"] for o in claim["others"]}
    evidence = ", ".join(f"{o} p_Holm={control['versus'][o]['p_holm']:.3g}" for o in claim["others"])
    return (HOLDS if all(wins.values()) else FAILS), evidence


def _rank_claim(stats: dict, claim: dict):
    ranks, cd = stats.get("mean_ranks"), stats.get("nemenyi_cd")
    if not ranks or any(m not in ranks for m in [claim["a"], *claim.get("others", []), *([claim["b"]] if "b" in claim else [])]):
        return UNKNOWN, "no rank statistics for these methods"
    a = ranks[claim["a"]]
    if claim["kind"] == "best_mean_rank":
        best = min(ranks.values())
        leaders = sorted(m for m, r in ranks.items() if np.isclose(r, best))
        if not np.isclose(a, best):
            return FAILS, f"{claim['a']} {a:.3f}; best {', '.join(leaders)} {best:.3f}"
        tie = f" (tied with {', '.join(m for m in leaders if m != claim['a'])})" if len(leaders) > 1 else ""
        return HOLDS, f"{claim['a']} {a:.3f}{tie}"
    if claim["kind"] == "significantly_better":
        gap = ranks[claim["b"]] - a
        return (HOLDS if gap >= cd else FAILS), f"rank gap {gap:.3f} vs CD {cd:.3f}"
    gaps = {o: abs(ranks[o] - a) for o in claim["others"]}
    close = all(g < cd for g in gaps.values())
    return (HOLDS if close else FAILS), ", ".join(f"{o} {g:.3f}" for o, g in gaps.items()) + f" vs CD {cd:.3f}"


PAIR_KINDS = {"dominates": _dominates, "larger_gain_on_subset": _larger_gain, "better_on_count": _better_on_count}
RANK_KINDS = {"best_mean_rank", "significantly_better", "not_significantly_different"}


def evaluate_claim(claim: dict, cells: pd.DataFrame, ranks: dict, table_spec: dict) -> dict:
    """The claim's verdict and evidence on the published and on the regenerated numbers."""
    result = {"claim": claim["text"]}
    for side, column, stats_key in (("paper", "published_mean", "published"), ("ours", "mean", "ours")):
        if claim["kind"] in PAIR_KINDS:
            verdict, evidence = PAIR_KINDS[claim["kind"]](cells, column, claim, table_spec)
        elif claim["kind"] in RANK_KINDS:
            verdict, evidence = _rank_claim(ranks[stats_key], claim)
        elif claim["kind"] == "control_significantly_better":
            verdict, evidence = _control_claim(ranks[stats_key], claim)
        else:
            valid = sorted([*PAIR_KINDS, *RANK_KINDS, "control_significantly_better"])
            raise ValueError(f"unknown claim kind {claim['kind']!r}; valid: {valid}")
        result[side] = verdict
        result[f"{side}_evidence"] = evidence
    return result
