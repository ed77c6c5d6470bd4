"""Verdicts on a paper's claims, from its own published cells and from ours.

A claim is configured in ``paper.<p>.claims`` as a kind plus its arguments, and is checked
twice: on the published numbers (does the paper's own table support it?) and on the
regenerated ones. Its verdict on each (``VERDICTS``) is one of

- ``holds``, ``does not hold``;
- ``practically equivalent``: ``a`` and ``b`` differ by less than the claim's region of
  practical equivalence (``bayes_better``): neither better nor worse, so neither the claim nor
  its reverse, and counted apart from both;
- undecided: ``cannot be checked`` (cells or numbers missing, or a side that gives none, as a
  paper that shows no curve's numbers) or ``inconclusive`` (the test decides none of the above).

A decided verdict carries a caveat, printed beside it ("holds (on 2 data sets)"), where its
evidence is thin: it rests on fewer than ``FEW`` (5) instances (the data sets the claim
compares or ranks; a curve's points), or its statistic lies at its threshold: within ``NEAR``
(0.01) of it, in the claim's own units, namely

- a margin, mean gain, average or curve step of ``a`` over ``b`` (``dominates``: the smallest
  margin; ``larger_gain_on_subset``, ``better_on_average``, ``decreasing``; the curves' ``final``
  value and span) within 0.01 of its bound, in the table's or figure's units (for a table in
  percent, 0.01 points);
- a mean rank within 0.01 of the runner-up's (``best_mean_rank``), a rank gap within 0.01 of the
  Nemenyi CD (``significantly_better``, ``not_significantly_different``: the gap closest to it);
- a p-value within 0.01 of alpha (``control_significantly_better``: Holm's; ``not_significantly_worse``:
  the p of a data set where ``a`` is behind); a posterior probability within 0.01 of 0.95
  (``bayes_better``); a mean relative reduction within 0.01 (one percentage point) of its ``value``;
- a count one data set from the other verdict (``better_on_count``, ``not_worse_on_count``: a
  claim that holds with exactly the count needed, or fails one short of it; ``more_complete_cells``:
  one cell more, or as many).

Kinds:

- ``dominates``: method ``a`` is at least as good as ``b`` on every data set (of ``subset``);
- ``larger_gain_on_subset``: the mean gain of ``a`` over ``b`` is larger on ``subset`` than on
  the other data sets (or, with ``versus``, than on those);
- ``best_mean_rank``: ``a`` has the lowest mean rank;
- ``significantly_better``: ``a``'s mean rank beats ``b``'s by at least the Nemenyi CD;
- ``not_significantly_different``: ``a``'s mean rank is within the CD of each of ``others``;
  these three rank kinds are decided on our side while cells are missing when every ranking
  the missing cells could take gives the same verdict (``_over_rankings``), and with
  ``published`` (file, metric, and the names it prints for ``a`` and ``b`` or ``others``) on the
  paper's side by the paper's printed table, every method it prints ranked over its data sets
  (the out-of-sample suite, whose own data sets the paper never ran);
- ``better_on_count``: ``a`` beats ``b`` strictly on at least ``count`` data sets (with ``of``,
  "``count`` of ``of``" is scaled to the data sets the table has, rounding up, so a profile
  that runs a subset checks the same proportion); decided while cells are missing as soon as
  the computed ones decide it (enough wins in, or too many non-wins for the rest to make up);
- ``control_significantly_better``: ``a`` (the table's ``control``) ranks better than each of
  ``others`` and Holm's post-hoc test finds the difference significant; with ``published``, on
  the paper's side by its printed table, as the rank kinds;
- ``more_complete_cells``: ``a`` has more non-missing cells than ``b`` (e.g. the C2RF paper's
  Table 2, where a missing cell means fewer than 3 of 5 samples solved);
- ``not_worse_on_count``: ``a`` is better than ``b`` or within ``within`` of it on at least
  ``count`` data sets ("better or very similar");
- ``mean_relative_reduction``: over the data sets where both have a cell, the mean of
  (b - a) / b is at least ``value`` (e.g. "cuts run time by 89 % on average": value 0.89);
- ``better_on_average``: ``a``'s mean over the data sets of ``subset`` is better than ``b``'s, as a
  paper states a claim on its table's average rows (the WDF paper's "Avg" rows); decided only
  when every data set of the subset has both cells;
- ``not_significantly_worse``: on no data set is ``a`` significantly worse than ``b`` by the
  paired test over the splits (the table's ``paired``, stats/paired.py); data sets with one
  split cannot be tested and are named, data sets without runs leave it undecided unless a
  tested one refutes it. The paper side cannot be checked: a paper with one split per data set
  gives no spread.
- ``bayes_better``: ``a`` beats ``b`` across the data sets by the Bayesian signed-rank test
  with a region of practical equivalence ``rope`` in the table's units (``stats/bayes.py``):
  holds when P(a better) >= 0.95, does not hold when P(b better) >= 0.95, practically
  equivalent when P(equivalent) >= 0.95, else inconclusive; the Wilcoxon signed-rank test is given beside it. Its paper side is the same
  test on a paper's printed table (``published``: file, metric, the names it prints for a and
  b), so a claim of one paper can be judged on data sets it never ran (the out-of-sample
  suite); on ours it is decided only once every data set of the table has both cells.

"Better" follows the table's ``higher_is_better``.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pandas as pd

from ..stats.bayes import pairwise_claim
from ..stats.nemenyi import nemenyi_cd
from ..stats.ranks import rank_scores
from .compare import score_matrix
from .published import published_cells
from .tables import rank_statistics

HOLDS, FAILS, EQUIVALENT = "holds", "does not hold", "practically equivalent"
UNKNOWN, INCONCLUSIVE = "cannot be checked", "inconclusive"
VERDICTS = (HOLDS, FAILS, EQUIVALENT, UNKNOWN, INCONCLUSIVE)
"""Every verdict a claim can get; the last two are undecided."""
DECIDED = (HOLDS, FAILS, EQUIVALENT)
DECISIVE = 0.95  # bayes_better: the posterior probability that decides a claim
FEW = 5  # a decided verdict on fewer instances says how many
NEAR = 0.01  # a decided verdict whose statistic lies this close to its threshold says so


def _caveat(
    n: int | None, near: str | None = None, instances: tuple[str, str] = ("data set", "data sets")
) -> str:
    """What a decided verdict rests on thinly, to print beside it: ``on <n> <instances>`` (the
    singular and plural noun) when fewer than ``FEW``, and ``at its threshold: <near>`` when
    ``near`` says how its statistic lies at its threshold (``_near``); empty otherwise."""
    parts = [f"on {n} {instances[n != 1]}"] if n is not None and n < FEW else []
    return "; ".join(parts + ([f"at its threshold: {near}"] if near else []))


def _near(statistic: float, threshold: float, text: str) -> str | None:
    """``text`` if ``statistic`` lies within ``NEAR`` of ``threshold``, else None."""
    return text if abs(statistic - threshold) <= NEAR + 1e-9 else None


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
    """A claim on every data set: one computed loss refutes it even while other cells are missing."""
    scores = _scores(cells, column, claim.get("subset"))
    a, b = claim["a"], claim["b"]
    if a not in scores or b not in scores:
        return UNKNOWN, "missing cells"
    complete = scores[[a, b]].dropna()
    missing = [d for d in scores.index if d not in complete.index]
    diff = _sign(table_spec) * (complete[a] - complete[b])
    losses = list(diff[diff < 0].index)
    caveat = _caveat(
        len(diff), None if diff.empty else _near(diff.min(), 0.0, f"smallest margin {diff.min():+.4g}")
    )
    if losses:
        unseen = f"; {', '.join(missing)} not computed" if missing else ""
        return FAILS, "not on " + ", ".join(losses) + unseen, caveat
    if missing or complete.empty:
        return UNKNOWN, "missing cells: " + (", ".join(missing) or "no data set")
    return HOLDS, f"on all {len(diff)} data sets", caveat


def _larger_gain(cells, column, claim, table_spec):
    among = None if "versus" not in claim else [*claim["subset"], *claim["versus"]]
    pair = _paired(_scores(cells, column, among), claim["a"], claim["b"])
    if pair is None:
        return UNKNOWN, "missing cells"
    gain = _sign(table_spec) * (pair[claim["a"]] - pair[claim["b"]])
    inside = gain[gain.index.isin(claim["subset"])]
    outside = gain[~gain.index.isin(claim["subset"])]
    if inside.empty or outside.empty:
        return UNKNOWN, "needs data sets inside and outside the subset"
    difference = inside.mean() - outside.mean()
    verdict = HOLDS if difference > 0 else FAILS
    return (
        verdict,
        f"mean gain {inside.mean():+.3f} on the subset vs {outside.mean():+.3f} elsewhere",
        _caveat(len(gain), _near(difference, 0.0, f"difference of the mean gains {difference:+.4g}")),
    )


def _count_claim(cells, column, claim, table_spec, counts, wording):
    """A claim "``a`` is <wording> ``b`` on at least ``count`` data sets", decided with missing cells
    whenever the computed ones decide it: it holds once enough data sets count, and fails once too
    many data sets are computed and do not count for the rest to reach the number needed.
    ``counts`` maps the signed margins ``a - b`` to booleans."""
    scores = _scores(cells, column, claim.get("subset"))
    a, b = claim["a"], claim["b"]
    if a not in scores or b not in scores or scores.empty:
        return UNKNOWN, "missing cells"
    complete = scores[[a, b]].dropna()
    missing = [d for d in scores.index if d not in complete.index]
    ok = int(counts(_sign(table_spec) * (complete[a] - complete[b])).sum())
    needed = _needed(claim, len(scores))
    evidence = f"{wording} on {ok} of {len(complete)}"
    if missing:
        evidence += f" computed, {len(missing)} not ({', '.join(missing)})"
    evidence += f" (needs {needed})"
    at = ok == needed or ok + len(missing) == needed - 1  # one data set from the other verdict
    caveat = _caveat(len(complete), f"{ok} of the {needed} needed" if at else None)
    if ok >= needed:
        return HOLDS, evidence, caveat
    if ok + len(missing) < needed:
        return FAILS, evidence, caveat
    return UNKNOWN, evidence


def _better_on_count(cells, column, claim, table_spec):
    return _count_claim(cells, column, claim, table_spec, lambda margin: margin > 0, "better")


def _needed(claim: dict, n: int) -> int:
    """The claim's ``count``, or with ``of`` the same share of the ``n`` data sets at hand (rounded up)."""
    return claim["count"] if "of" not in claim else int(np.ceil(claim["count"] * n / claim["of"] - 1e-9))


def _more_complete_cells(cells, column, claim, table_spec):
    scores = _scores(cells, column, claim.get("subset"))
    if claim["a"] not in scores or claim["b"] not in scores:
        return UNKNOWN, "missing methods"
    a, b = (int(scores[m].notna().sum()) for m in (claim["a"], claim["b"]))
    at = f"{a} against {b} cells" if a - b in (0, 1) else None  # one cell from the other verdict
    return (
        HOLDS if a > b else FAILS,
        f"{claim['a']} {a} of {len(scores)}, {claim['b']} {b} of {len(scores)}",
        _caveat(len(scores), at),
    )


def _not_worse_on_count(cells, column, claim, table_spec):
    return _count_claim(
        cells,
        column,
        claim,
        table_spec,
        lambda margin: margin >= -claim["within"],
        f"better or within {claim['within']:g}",
    )


def _mean_relative_reduction(cells, column, claim, table_spec):
    scores = _scores(cells, column, claim.get("subset"))
    if claim["a"] not in scores or claim["b"] not in scores:
        return UNKNOWN, "missing methods"
    pair = scores[[claim["a"], claim["b"]]].dropna()
    pair = pair[pair[claim["b"]] > 0]
    if pair.empty:
        return UNKNOWN, "no data set with both cells"
    reduction = float(((pair[claim["b"]] - pair[claim["a"]]) / pair[claim["b"]]).mean())
    verdict = HOLDS if reduction >= claim["value"] else FAILS
    near = _near(reduction, claim["value"], f"mean reduction {reduction:.1%} against {claim['value']:.0%}")
    return verdict, f"mean reduction {reduction:.0%} over {len(pair)} data sets", _caveat(len(pair), near)


def _better_on_average(cells, column, claim, table_spec):
    scores = _scores(cells, column, claim["subset"])
    a, b = claim["a"], claim["b"]
    if a not in scores or b not in scores or len(scores) < len(claim["subset"]):
        return UNKNOWN, "missing data sets of the subset"
    missing = sorted(scores.index[scores[[a, b]].isna().any(axis=1)])
    if missing:
        return UNKNOWN, f"missing cells on {', '.join(missing)}"
    mean_a, mean_b = float(scores[a].mean()), float(scores[b].mean())
    margin = _sign(table_spec) * (mean_a - mean_b)
    return (
        HOLDS if margin > 0 else FAILS,
        f"average over {len(scores)} data sets: {a} {mean_a:.2f}, {b} {mean_b:.2f}",
        _caveat(len(scores), _near(margin, 0.0, f"difference of the averages {margin:+.4g}")),
    )


def _paired_claim(ranks: dict, claim: dict, cells: pd.DataFrame):
    tests = [t for t in ranks.get("paired") or [] if (t["a"], t["b"]) == (claim["a"], claim["b"])]
    if not tests:
        return UNKNOWN, f"no paired test of {claim['a']} against {claim['b']} (set the table's paired)"
    per_dataset = tests[0]["per_dataset"]
    datasets = [
        d for d in dict.fromkeys(cells["dataset"]) if claim.get("subset") is None or d in claim["subset"]
    ]
    worse = [
        f"{d} (p={per_dataset[d]['p']:.3g})"
        for d in datasets
        if d in per_dataset and per_dataset[d]["significant"] and per_dataset[d]["mean_diff"] < 0
    ]
    tested = [d for d in datasets if d in per_dataset and per_dataset[d]["p"] is not None]
    untested = [d for d in datasets if d in per_dataset and per_dataset[d]["p"] is None]
    missing = [d for d in datasets if d not in per_dataset]
    notes = (f"; one split or no spread, not tested: {', '.join(untested)}" if untested else "") + (
        f"; not computed: {', '.join(missing)}" if missing else ""
    )
    behind = [(per_dataset[d]["p"], d) for d in tested if per_dataset[d]["mean_diff"] < 0]
    closest = min(behind, key=lambda pd_: abs(pd_[0] - tests[0]["alpha"]), default=None)
    near = closest and _near(
        closest[0],
        tests[0]["alpha"],
        f"p = {closest[0]:.3g} on {closest[1]} against α = {tests[0]['alpha']:g}",
    )
    caveat = _caveat(len(tested), near)
    if worse:
        return FAILS, "significantly worse on " + ", ".join(worse) + notes, caveat
    if missing or not tested:
        return UNKNOWN, f"not significantly worse on the {len(tested)} data sets tested" + notes
    return HOLDS, f"not significantly worse on any of the {len(tested)} data sets tested" + notes, caveat


def _control_claim(stats: dict, claim: dict):
    control = stats.get("control")
    if (
        not control
        or control["method"] != claim["a"]
        or any(o not in control["versus"] for o in claim["others"])
    ):
        return UNKNOWN, f"no post-hoc test against {claim['a']} (set the table's control)"
    ranks, alpha = stats["mean_ranks"], stats.get("alpha", 0.05)
    wins = {o: ranks[claim["a"]] < ranks[o] and control["versus"][o]["significant"] for o in claim["others"]}
    p_holm = {o: control["versus"][o]["p_holm"] for o in claim["others"]}
    evidence = ", ".join(f"{o} p_Holm={p:.3g}" for o, p in p_holm.items())
    closest = min(p_holm, key=lambda o: abs(p_holm[o] - alpha))
    near = _near(p_holm[closest], alpha, f"{closest} p_Holm {p_holm[closest]:.3g} against α = {alpha:g}")
    return (HOLDS if all(wins.values()) else FAILS), evidence, _caveat(stats.get("n_datasets"), near)


def _rank_claim(stats: dict, claim: dict):
    ranks, cd = stats.get("mean_ranks"), stats.get("nemenyi_cd")
    if not ranks or any(
        m not in ranks
        for m in [claim["a"], *claim.get("others", []), *([claim["b"]] if "b" in claim else [])]
    ):
        return UNKNOWN, "no rank statistics for these methods"
    a, n = ranks[claim["a"]], stats.get("n_datasets")
    if claim["kind"] == "best_mean_rank":
        best = min(ranks.values())
        leaders = sorted(m for m, r in ranks.items() if np.isclose(r, best))
        runner = min((m for m in ranks if m != claim["a"]), key=ranks.get)
        near = _near(a, ranks[runner], f"{claim['a']} {a:.3f} against {runner} {ranks[runner]:.3f}")
        if not np.isclose(a, best):
            return FAILS, f"{claim['a']} {a:.3f}; best {', '.join(leaders)} {best:.3f}", _caveat(n, near)
        tie = f" (tied with {', '.join(m for m in leaders if m != claim['a'])})" if len(leaders) > 1 else ""
        return HOLDS, f"{claim['a']} {a:.3f}{tie}", _caveat(n, near)
    if claim["kind"] == "significantly_better":
        gap = ranks[claim["b"]] - a
        near = _near(gap, cd, f"rank gap {gap:.3f} against CD {cd:.3f}")
        return (HOLDS if gap >= cd else FAILS), f"rank gap {gap:.3f} vs CD {cd:.3f}", _caveat(n, near)
    gaps = {o: abs(ranks[o] - a) for o in claim["others"]}
    closest = min(gaps, key=lambda o: abs(gaps[o] - cd))
    near = _near(gaps[closest], cd, f"{closest} {gaps[closest]:.3f} against CD {cd:.3f}")
    close = all(g < cd for g in gaps.values())
    return (
        HOLDS if close else FAILS,
        ", ".join(f"{o} {g:.3f}" for o, g in gaps.items()) + f" vs CD {cd:.3f}",
        _caveat(n, near),
    )


MAX_RANKINGS = 20_000
"""Rankings of the missing cells enumerated before a rank claim is left undecided."""


def _stand_ins(known: np.ndarray, n_missing: int) -> list[float]:
    """Values for a data set's missing cells that between them take every place in its ranking:
    the known values themselves (a tie) and ``n_missing`` points in each gap below, between and
    above them (so missing cells can also fall in any order among themselves)."""
    edges = [known[0] - 1.0, *known, known[-1] + 1.0] if len(known) else [0.0, 1.0]
    points = [float(v) for v in known]
    for lo, hi in itertools.pairwise(edges):
        points += [float(v) for v in np.linspace(lo, hi, n_missing + 2)[1:-1]]
    return sorted(points)


def _over_rankings(cells: pd.DataFrame, claim: dict, stats: dict, table_spec: dict):
    """A rank claim on our cells while some are missing: every data set, with each missing cell
    given each place it could take in that data set's ranking (ties included), is ranked, and
    the claim judged on each such table with the Nemenyi CD of all data sets. The verdict is the
    claim's when all agree, else undecided; None where more than ``MAX_RANKINGS`` tables."""
    scores = score_matrix(cells, "mean")
    higher = table_spec.get("higher_is_better", True)
    complete = scores.dropna()
    partial = scores.loc[scores.isna().any(axis=1)]
    options = []
    for dataset, row in partial.iterrows():
        known = np.unique(row.dropna().to_numpy(dtype=float))
        missing = list(row.index[row.isna()])
        options.append((dataset, row, missing, _stand_ins(known, len(missing))))
    n_tables = math.prod(len(values) ** len(missing) for _, _, missing, values in options)
    if n_tables > MAX_RANKINGS or len(scores) < 2:
        return None
    base = rank_scores(complete, higher_is_better=higher).sum().to_numpy() if len(complete) else 0.0
    k, n = scores.shape[1], len(scores)
    cd = float(nemenyi_cd(k, n, stats.get("alpha", 0.05)))
    per_row = [
        [
            rank_scores(row.to_frame(dataset).T.assign(**dict(zip(missing, choice))), higher_is_better=higher)
            .iloc[0]
            .to_numpy()
            for choice in itertools.product(values, repeat=len(missing))
        ]
        for dataset, row, missing, values in options
    ]
    verdicts = {}
    for chosen in itertools.product(*per_row):
        mean = (base + sum(chosen)) / n
        verdict = _rank_claim({"mean_ranks": dict(zip(scores.columns, mean)), "nemenyi_cd": cd}, claim)[0]
        verdicts[verdict] = verdicts.get(verdict, 0) + 1
    where = "; ".join(f"{d}: {', '.join(scores.columns[scores.loc[d].isna()])}" for d in partial.index)
    scope = (
        f"rankings the {int(partial.isna().sum().sum())} missing cells ({where}) could give, "
        f"each ranked on all {n} data sets (CD {cd:.3f})"
    )
    if len(verdicts) == 1:
        (verdict,) = verdicts
        return verdict, f"{verdict} in all {n_tables} {scope}", _caveat(n)
    return UNKNOWN, f"holds in {verdicts.get(HOLDS, 0)} of the {n_tables} {scope}"


def _on_complete_datasets(side: str, ranks: dict, verdict: str, evidence: str, caveat: str = "") -> tuple:
    """A rank claim is about the whole table, and ranks need every method's cell, so they leave
    out a data set with one missing (``rank_statistics``): while ours leave some out, the claim
    cannot be checked on ours (the missing rows could move every mean rank), and the paper's
    side, ranked on the same data sets for comparison, says which those are."""
    excluded = ranks.get("ours", {}).get("excluded_datasets", [])
    if not excluded or verdict == UNKNOWN:
        return verdict, evidence, caveat
    n = ranks["ours"].get("n_datasets")
    scope = f"ranked on the {n} data sets ours has complete ({len(excluded)} not: {', '.join(excluded)})"
    if side == "ours":
        return UNKNOWN, f"{scope}; there: {verdict}, {evidence}"
    return verdict, f"{scope}: {evidence}", caveat


PAIR_KINDS = {
    "dominates": _dominates,
    "larger_gain_on_subset": _larger_gain,
    "better_on_count": _better_on_count,
    "more_complete_cells": _more_complete_cells,
    "not_worse_on_count": _not_worse_on_count,
    "mean_relative_reduction": _mean_relative_reduction,
    "better_on_average": _better_on_average,
}
RANK_KINDS = {"best_mean_rank", "significantly_better", "not_significantly_different"}


def _bayes_scores(side: str, cells: pd.DataFrame, claim: dict) -> tuple[pd.DataFrame, int, str]:
    """``(scores, n_table, source)``: the cells of ``a`` and ``b`` (columns) per data set on
    ``side``, how many data sets the side has, and where they come from."""
    a, b = claim["a"], claim["b"]
    if side == "ours":
        scores = cells.pivot(index="dataset", columns="method", values="mean").reindex(columns=[a, b])
        return scores, len(scores), "our runs on the table's data sets"
    printed = claim["published"]
    found = published_cells(printed["file"], printed["metric"])["mean"].unstack("method")
    missing = [name for name in (printed["a"], printed["b"]) if name not in found]
    if missing:
        raise ValueError(
            f"claim {claim['text']!r}: {printed['file']} prints no {printed['metric']} of "
            f"{', '.join(missing)}; it has {', '.join(map(str, found.columns))}"
        )
    scores = found[[printed["a"], printed["b"]]].set_axis([a, b], axis=1)
    return scores, len(scores), f"the paper's printed {printed['file']}"


def _bayes_claim(side: str, cells: pd.DataFrame, claim: dict, spec: dict) -> tuple[str, str]:
    """``bayes_better`` on one side (see the module's text)."""
    if side == "paper" and "published" not in claim:
        return UNKNOWN, "no printed table named (published)"
    scores, n_table, source = _bayes_scores(side, cells, claim)
    both = scores.dropna()
    if len(both) < 2:
        return UNKNOWN, f"{len(both)} data set(s) with both cells in {source}"
    test = pairwise_claim(
        both, claim["a"], claim["b"], rope=claim["rope"], higher_is_better=spec.get("higher_is_better", True)
    )
    evidence = (
        f"{source}, {len(both)} data sets: P({claim['a']} better) {test.p_a_better:.3f}, "
        f"P(equivalent, rope {claim['rope']:g}) {test.p_equivalent:.3f}, "
        f"P({claim['b']} better) {test.p_b_better:.3f}; mean difference {test.mean_difference:+.4g}; "
        f"one-sided Wilcoxon signed-rank p = {test.wilcoxon_p:.3g} for {claim['a']} better"
    )
    if len(both) < n_table:
        return UNKNOWN, f"so far {len(both)} of {n_table} data sets: {evidence}"
    deciding = {
        HOLDS: (f"P({claim['a']} better)", test.p_a_better),
        FAILS: (f"P({claim['b']} better)", test.p_b_better),
        EQUIVALENT: ("P(equivalent)", test.p_equivalent),
    }
    for verdict, (name, p) in deciding.items():
        if p >= DECISIVE:
            near = _near(p, DECISIVE, f"{name} {p:.3f} against {DECISIVE:g}")
            return (
                verdict,
                (f"{claim['b']} better: " if verdict == FAILS else "") + evidence,
                _caveat(len(both), near),
            )
    return INCONCLUSIVE, evidence


def _printed_ranks(claim: dict, table_spec: dict) -> tuple[dict, dict, str]:
    """``(stats, claim, source)`` of a rank or post-hoc claim on the paper's printed table
    (``published``: file, metric, and the names it prints for the claim's ``a`` and its ``b`` or
    ``others``): the rank statistics of every method the table prints, over its data sets (those
    with every cell), the claim in the printed names, and where they come from."""
    printed = claim["published"]
    scores = published_cells(printed["file"], printed["metric"])["mean"].unstack("method")
    keys = [key for key in ("a", "b", "others") if key in claim]
    unnamed = [key for key in keys if key not in printed]
    if unnamed:
        raise ValueError(
            f"claim {claim['text']!r}: its published names no printed method for {', '.join(unnamed)}"
        )
    names = [printed["a"], *([printed["b"]] if "b" in printed else []), *printed.get("others", [])]
    missing = [name for name in names if name not in scores]
    if missing:
        raise ValueError(
            f"claim {claim['text']!r}: {printed['file']} prints no {printed['metric']} of "
            f"{', '.join(missing)}; it has {', '.join(map(str, scores.columns))}"
        )
    control = printed["a"] if claim["kind"] == "control_significantly_better" else None
    stats = rank_statistics(
        scores,
        higher_is_better=table_spec.get("higher_is_better", True),
        alpha=table_spec.get("alpha", 0.05),
        control=control,
    )
    source = (
        f"the paper's printed {printed['file']}, its {stats['n_datasets']} data sets and "
        f"{scores.shape[1]} methods ranked"
    )
    return stats, {**claim, **{key: printed[key] for key in keys}}, source


def _side_verdict(claim: dict, side: str, cells: pd.DataFrame, ranks: dict, table_spec: dict) -> tuple:
    """``(verdict, evidence)`` or ``(verdict, evidence, caveat)`` of the claim on one side."""
    column, stats_key = {"paper": ("published_mean", "published"), "ours": ("mean", "ours")}[side]
    kind = claim["kind"]
    if kind in PAIR_KINDS:
        return PAIR_KINDS[kind](cells, column, claim, table_spec)
    if kind in RANK_KINDS or kind == "control_significantly_better":
        judge = _rank_claim if kind in RANK_KINDS else _control_claim
        if side == "paper" and "published" in claim:
            stats, printed, source = _printed_ranks(claim, table_spec)
            verdict, evidence, *caveat = judge(stats, printed)
            return verdict, f"{source}: {evidence}", *caveat
        found = _on_complete_datasets(side, ranks, *judge(ranks[stats_key], claim))
        if (
            side == "ours"
            and kind in RANK_KINDS
            and found[0] == UNKNOWN
            and ranks[stats_key].get("excluded_datasets")
        ):
            ranked = _over_rankings(cells, claim, ranks[stats_key], table_spec)
            if ranked is not None:
                return ranked[0], f"{ranked[1]}; {found[1]}", *ranked[2:]
        return found
    if kind == "bayes_better":
        return _bayes_claim(side, cells, claim, table_spec)
    if kind == "not_significantly_worse":
        if side == "paper":
            return UNKNOWN, "the paper gives one value per data set, no spread"
        return _paired_claim(ranks, claim, cells)
    valid = sorted(
        [*PAIR_KINDS, *RANK_KINDS, "control_significantly_better", "not_significantly_worse", "bayes_better"]
    )
    raise ValueError(f"unknown claim kind {kind!r}; valid: {valid}")


def evaluate_claim(claim: dict, cells: pd.DataFrame, ranks: dict, table_spec: dict) -> dict:
    """The claim's verdict, evidence and caveat on the published (``paper``, ``paper_evidence``,
    ``paper_caveat``) and on the regenerated numbers (``ours``, ...): the caveat says what a
    decided verdict rests on thinly (``_caveat``; empty when nothing, and on an undecided one)."""
    result = {"claim": claim["text"]}
    for side in ("paper", "ours"):
        verdict, evidence, *caveat = _side_verdict(claim, side, cells, ranks, table_spec)
        result[side] = verdict
        result[f"{side}_evidence"] = evidence
        result[f"{side}_caveat"] = caveat[0] if caveat and verdict in DECIDED else ""
    return result


def verdict_text(result: dict, side: str) -> str:
    """A claim's verdict on ``side`` (``paper`` or ``ours``) as the claims tables print it, with
    its caveat beside it: "holds (on 2 data sets)", "does not hold (at its threshold: ...)"."""
    caveat = result[f"{side}_caveat"]
    return f"{result[side]} ({caveat})" if caveat else result[side]


def verdict_of(text: str) -> str:
    """The verdict of a claims table's cell written by ``verdict_text``; ``ValueError`` naming the
    cell and the vocabulary if it holds none."""
    for verdict in VERDICTS:
        if text == verdict or text.startswith(f"{verdict} ("):
            return verdict
    raise ValueError(f"'{text}' is not a verdict, one of {list(VERDICTS)}, with or without its caveat")


# Claims on a curve (a figure's ``claims``: the paper draws or argues it, with no table):
# ``metric`` (mean over repeats and folds) of method ``a`` against ``x``: the training size
# ``n_train`` of a learning curve, or the swept value ``sweep_value`` of a sweep.
# - ``decreasing``: it falls from every training size to the next;
# - ``final_at_most`` / ``final_at_least``: at the largest size it is at most / at least
#   ``bound``, or, with ``b`` instead of ``bound``, at most / at least ``b``'s there;
# - ``flat_from``: for each method of ``methods`` (default: ``a``), the curve over x from
#   ``from`` (to ``to``, if given) spans at most ``within`` (max - min): "robust to h once h
#   approaches 10", "quite robust for 100 to 1000 trees".
# A figure of several data sets holds a claim when it holds on each, fails when it fails on
# one. The paper side is "cannot be checked": the paper shows no numbers for such a curve.
CURVE_POINTS = ("point of the curve", "points of the curve")  # what a curve claim counts
CURVE_KINDS = ("decreasing", "final_at_most", "final_at_least", "flat_from")


def curve_means(runs: pd.DataFrame, metric: str, x: str = "n_train") -> pd.DataFrame:
    """Mean ``metric`` per ``x`` (rows, ascending) and method (columns)."""
    return runs.groupby([x, "method"])[metric].mean().unstack("method").sort_index()


def _flat_from(means: pd.DataFrame, claim: dict):
    low, high = claim["from"], claim.get("to", np.inf)
    spans = {}
    for method in claim.get("methods", [claim["a"]]):
        if method not in means:
            return UNKNOWN, f"no curve for {method}"
        part = means[method][(means.index >= low) & (means.index <= high)].dropna()
        if len(part) < 2:
            return UNKNOWN, f"{method}: fewer than two points with x from {low:g}" + (
                f" to {high:g}" if np.isfinite(high) else ""
            )
        spans[method] = float(part.max() - part.min())
    window = f"x from {low:g}" + (f" to {high:g}" if np.isfinite(high) else "")
    evidence = (
        ", ".join(f"{m} spans {span:.4f}" for m, span in spans.items())
        + f" over {window} (at most {claim['within']:g})"
    )
    closest = min(spans, key=lambda m: abs(spans[m] - claim["within"]))
    near = _near(
        spans[closest], claim["within"], f"{closest} spans {spans[closest]:.4f} against {claim['within']:g}"
    )
    points = min(len(means[m][(means.index >= low) & (means.index <= high)].dropna()) for m in spans)
    verdict = HOLDS if all(span <= claim["within"] for span in spans.values()) else FAILS
    return verdict, evidence, _caveat(points, near, CURVE_POINTS)


def _curve_verdict(means: pd.DataFrame, claim: dict):
    a = claim["a"]
    if claim["kind"] == "flat_from":
        return _flat_from(means, claim)
    if a not in means or means[a].isna().all():
        return UNKNOWN, f"no curve for {a}"
    curve = means[a].dropna()
    if claim["kind"] == "decreasing":
        if len(curve) < 2:
            return UNKNOWN, "needs two training sizes or more"
        rises = [
            f"{lo:g} -> {hi:g}"
            for lo, hi, step in zip(curve.index[:-1], curve.index[1:], np.diff(curve))
            if step >= 0
        ]
        evidence = f"{a} {curve.iloc[0]:.4f} at n={curve.index[0]:g} to {curve.iloc[-1]:.4f} at n={curve.index[-1]:g}"
        largest = float(np.diff(curve).max())
        caveat = _caveat(len(curve), _near(largest, 0.0, f"largest step {largest:+.4f}"), CURVE_POINTS)
        if rises:
            return FAILS, evidence + "; not falling at " + ", ".join(rises), caveat
        return HOLDS, evidence, caveat
    n, value = curve.index[-1], curve.iloc[-1]
    if "b" in claim:
        if claim["b"] not in means or pd.isna(means[claim["b"]].get(n)):
            return UNKNOWN, f"no value of {claim['b']} at n={n:g}"
        other, label = float(means[claim["b"]][n]), f"{claim['b']} {means[claim['b']][n]:.4f}"
    else:
        other, label = float(claim["bound"]), f"bound {claim['bound']:.4f}"
    holds = value <= other if claim["kind"] == "final_at_most" else value >= other
    near = _near(value, other, f"{a} {value:.4f} against {label}")
    return (HOLDS if holds else FAILS), f"{a} {value:.4f} at n={n:g} vs {label}", _caveat(None, near)


def evaluate_curve_claim(claim: dict, runs: pd.DataFrame, metric: str = "error", x: str = "n_train") -> dict:
    """A curve claim's verdict on our runs, on each data set of a figure of several; the paper
    side cannot be checked."""
    if claim["kind"] not in CURVE_KINDS:
        raise ValueError(f"unknown curve claim kind {claim['kind']!r}; valid: {list(CURVE_KINDS)}")
    datasets = sorted(runs["dataset"].unique())
    found = {d: _curve_verdict(curve_means(runs[runs["dataset"] == d], metric, x), claim) for d in datasets}
    if not found:
        verdict, evidence = UNKNOWN, "no runs"
    elif len(found) == 1:
        verdict, evidence = next(iter(found.values()))[:2]
    else:
        verdicts = [v for v, *_ in found.values()]
        verdict = FAILS if FAILS in verdicts else HOLDS if all(v == HOLDS for v in verdicts) else UNKNOWN
        evidence = "; ".join(f"{d}: {v}, {e}" for d, (v, e, *_) in found.items())
    # the caveats of the data sets that carry the verdict (on several, each named)
    caveats = {
        d: found[d][2] for d in datasets if verdict in DECIDED and found[d][0] == verdict and found[d][2]
    }
    caveat = "; ".join(c if len(found) == 1 else f"{d}: {c}" for d, c in caveats.items())
    return {
        "claim": claim["text"],
        "paper": UNKNOWN,
        "paper_evidence": "the paper shows no numbers",
        "paper_caveat": "",
        "ours": verdict,
        "ours_evidence": evidence,
        "ours_caveat": caveat,
    }
