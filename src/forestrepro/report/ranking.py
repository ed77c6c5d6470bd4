"""Which forest? Every method of one experiment against the plain baselines (issue 78).

The out-of-sample suite runs every variant of the papers and three well-kept library baselines
under one protocol (the same outer folds for each). Two figure kinds of ``paper_figures`` draw
the answer from the experiment's per-fold rows, on the data sets where every method has a run:

- ``bayes_matrix``: the pairwise Bayesian signed-rank test (``stats/bayes.py``) between every two
  methods, each cell P(row better than column) with P(equivalent) beneath it, rope ``rope`` in
  the metric's units; its claims are ``verdicts``: each variant against the best plain baseline;
- ``time_accuracy``: each method's mean ``metric`` against its mean fit seconds per fold (log
  axis), with the Pareto front (``pareto_front``) marked.

The best plain baseline is the baseline (``baselines``) with the best mean ``metric`` over the
data sets, ties to the first listed. A variant's verdict is the ``bayes_better`` claim "variant
beats that baseline" (``claims.py``): holds, does not hold, practically equivalent or
inconclusive; its paper side cannot be checked, since no paper ran these data sets.
"""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from ..stats.bayes import pairwise_claim
from .claims import evaluate_claim

# a verdict's paper side: no paper ran its variant against these baselines
NO_PAPER = "no paper compares its variant with these baselines on these data sets"


def method_scores(runs: pd.DataFrame, metric: str, methods: list[str]) -> pd.DataFrame:
    """Rows = data sets, columns = ``methods``: the mean of ``metric`` over each cell's folds,
    only on the data sets where every one of ``methods`` has a run (a complete comparison)."""
    means = runs[runs["method"].isin(methods)].groupby(["dataset", "method"])[metric].mean().unstack("method")
    return means.reindex(columns=methods).dropna().sort_index()


def best_baseline(scores: pd.DataFrame, baselines: list[str], higher_is_better: bool = True) -> str:
    """The baseline with the best mean score over the data sets (ties: the first listed)."""
    missing = [b for b in baselines if b not in scores]
    if not baselines or missing:
        raise ValueError(f"baselines {missing or baselines} are not methods of the scores {list(scores)}")
    means = scores[baselines].mean()
    best = means.max() if higher_is_better else means.min()
    return next(b for b in baselines if means[b] == best)


def pairwise_probabilities(
    scores: pd.DataFrame, rope: float, higher_is_better: bool = True
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """``(better, equivalent)``: P(row better than column) and P(equivalent) of the Bayesian
    signed-rank test with ``rope``, for every two methods (columns) of ``scores``; the diagonal
    is NaN. One test per pair: P(b better than a) is the same test's P(a worse)."""
    methods = list(scores.columns)
    better = pd.DataFrame(np.nan, index=methods, columns=methods)
    equivalent = better.copy()
    for a, b in itertools.combinations(methods, 2):
        test = pairwise_claim(scores, a, b, rope=rope, higher_is_better=higher_is_better)
        better.loc[a, b], better.loc[b, a] = test.p_a_better, test.p_b_better
        equivalent.loc[a, b] = equivalent.loc[b, a] = test.p_equivalent
    return better, equivalent


def verdicts(
    scores: pd.DataFrame,
    variants: list[str],
    baselines: list[str],
    rope: float,
    higher_is_better: bool = True,
) -> list[dict]:
    """Each variant's verdict against the best plain baseline (``best_baseline``): the claims'
    dicts of ``claims.evaluate_claim`` for "<variant> beats <baseline>" (``bayes_better``)."""
    best = best_baseline(scores, baselines, higher_is_better)
    cells = scores.rename_axis(index="dataset", columns="method").stack().rename("mean").reset_index()
    found = []
    for variant in variants:
        claim = {"text": f"{variant} beats the best plain baseline, {best}", "kind": "bayes_better"}
        claim.update(a=variant, b=best, rope=rope)
        verdict = evaluate_claim(claim, cells, {}, {"higher_is_better": higher_is_better})
        found.append({**verdict, "paper_evidence": NO_PAPER})
    return found


def pareto_front(points: pd.DataFrame) -> list[str]:
    """The methods (index) on the Pareto front of ``points`` (columns ``seconds``, lower is
    better, and ``score``, higher is better): those that no other method matches or beats on
    both with a strict gain on one. In the order of ``points``."""
    front = []
    for name, p in points.iterrows():
        dominated = (
            (points["seconds"] <= p["seconds"])
            & (points["score"] >= p["score"])
            & ((points["seconds"] < p["seconds"]) | (points["score"] > p["score"]))
        )
        if not dominated.any():
            front.append(name)
    return front


def _labels(spec: dict, methods: list[str]) -> list[str]:
    labels = spec.get("labels", {})
    return [labels.get(m, m) for m in methods]


def _empty(fig: Figure, text: str) -> Figure:
    ax = fig.subplots()
    ax.axis("off")
    ax.text(0.5, 0.5, text, ha="center", va="center", transform=ax.transAxes)
    return fig


def _compared(runs: pd.DataFrame, spec: dict) -> pd.DataFrame:
    return method_scores(runs, spec.get("metric", "accuracy"), spec["method_order"])


def bayes_matrix(runs: pd.DataFrame, spec: dict) -> Figure:
    """P(row better than column), P(equivalent) beneath, for every two methods (figure kind)."""
    scores = _compared(runs, spec)
    methods = list(scores.columns)
    fig = Figure(figsize=(1.0 + 0.75 * len(methods), 1.0 + 0.6 * len(methods)))
    if len(scores) < 2:
        return _empty(fig, f"{len(scores)} data set(s) with a run of every method: no test yet")
    better, equivalent = pairwise_probabilities(scores, spec["rope"], spec.get("higher_is_better", True))
    ax = fig.subplots()
    image = ax.imshow(better.to_numpy(dtype=float), vmin=0.0, vmax=1.0, cmap="RdBu")
    for (i, a), (j, b) in itertools.product(enumerate(methods), repeat=2):
        if a != b:
            p = better.loc[a, b]
            ax.text(
                j,
                i,
                f"{p:.2f}\n{equivalent.loc[a, b]:.2f}",
                ha="center",
                va="center",
                fontsize=6,
                color="white" if abs(p - 0.5) > 0.35 else "black",
            )
    labels = _labels(spec, methods)
    ax.set_xticks(range(len(methods)), labels, rotation=60, ha="right", fontsize=7)
    ax.set_yticks(range(len(methods)), labels, fontsize=7)
    ax.set_xlabel("column: the method beaten")
    ax.set_title(
        f"P(row better than column), P(equivalent) beneath; rope {spec['rope']:g}, {len(scores)} data sets",
        fontsize=8,
    )
    fig.colorbar(image, ax=ax, shrink=0.7, label="P(row better)")
    return fig


def bayes_matrix_claims(runs: pd.DataFrame, spec: dict) -> list[dict]:
    """The figure's claims: each variant (a method not among ``baselines``) against the best
    plain baseline (``verdicts``); none before two data sets have a run of every method."""
    scores = _compared(runs, spec)
    if len(scores) < 2:
        return []
    variants = [m for m in scores.columns if m not in spec["baselines"]]
    return verdicts(scores, variants, spec["baselines"], spec["rope"], spec.get("higher_is_better", True))


def time_points(runs: pd.DataFrame, spec: dict) -> pd.DataFrame:
    """Per method (index): ``score``, its mean ``metric`` over the compared data sets, and
    ``seconds``, its mean fit seconds per fold over the same data sets' folds; no row before a
    data set has a run of every method."""
    scores = _compared(runs, spec)
    if scores.empty:  # a partial run: no data set has a run of every method yet
        return pd.DataFrame({"seconds": [], "score": []})
    rows = runs[runs["dataset"].isin(scores.index) & runs["method"].isin(scores.columns)]
    seconds = rows.groupby("method")["fit_seconds"].mean()
    return pd.DataFrame({"seconds": seconds.reindex(scores.columns), "score": scores.mean()})


def time_accuracy(runs: pd.DataFrame, spec: dict) -> Figure:
    """Mean ``metric`` against mean fit seconds per fold (log axis), the Pareto front marked."""
    points = time_points(runs, spec)
    fig = Figure(figsize=(7.5, 5))
    if points.empty:
        return _empty(fig, "no data set with a run of every method yet")
    front = pareto_front(points)
    ax = fig.subplots()
    baselines = set(spec.get("baselines", []))
    for (name, p), label in zip(points.iterrows(), _labels(spec, list(points.index))):
        on_front = name in front
        ax.scatter(
            p["seconds"],
            p["score"],
            marker="s" if name in baselines else "o",
            color="C3" if on_front else "C0",
            zorder=3,
        )
        ax.annotate(
            label + (" (front)" if on_front else ""),
            (p["seconds"], p["score"]),
            fontsize=7,
            xytext=(4, 3),
            textcoords="offset points",
        )
    line = points.loc[front].sort_values("seconds")
    ax.step(line["seconds"], line["score"], where="post", color="C3", lw=1, label="Pareto front")
    ax.set_xscale("log")
    ax.set_xlabel("mean fit seconds per outer fold (log; grid methods: their inner search included)")
    ax.set_ylabel(f"mean {spec.get('metric', 'accuracy')} over the data sets")
    ax.legend(loc="lower right", fontsize=7)
    ax.grid(True, which="major", alpha=0.3)
    return fig
