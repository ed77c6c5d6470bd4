"""Why a regenerated cell lies outside tolerance: causes attached by rules that test something.

A paper's ``causes`` (``paper.<p>.causes``) are rules. Each names a cause from a small
vocabulary, the cells it may explain (``tables``, ``methods``, ``datasets``; all when absent),
and a test on numbers the report has; a cell outside tolerance takes the cause of the first
rule whose test holds for it (its evidence names every other rule that holds too), and is
*unexplained* otherwise. No rule ever sets a cell by hand.

Causes: ``reading`` (another reading of an ambiguous passage; the rule's text names the config
key), ``baseline`` (a published baseline that our tuned baseline beats), ``protocol`` (a
protocol difference), ``data`` (stand-in or partial data), ``sampling`` (the difference lies
within the spread of the random samples a cell is a median of).

Tests:

- ``ablation_within``: the same data set's cell of the ablation table ``ablation_table`` (method
  ``ablation_method``, by default the cell's own) lies within this cell's tolerance of the
  published value: the other reading reproduces the paper;
- ``better_than_published``: ours beats the published value by more than the tolerance (in the
  table's direction), as a better-tuned baseline would; with ``also_in`` (tables), the same
  method's cell on the same data set beats its published value in each of those tables too (a
  tree-level metric, e.g. the trees' mean error, then counts only where the forest itself beats
  the paper's);
- ``shared_deviation``: every other method of the table with a published value on the same data
  set (at least two, each computed) lies outside tolerance in the same direction, and this
  cell's deviation is no larger than the largest of theirs plus the tolerance: the paper's own
  baselines move with it, so the difference lies in what the methods share (the data as the
  paper had it, or the protocol), not in the method. A rule's ``among`` narrows "every other
  method" to a family that shares more than the data (e.g. the paper's forests, grown by the
  same tree code), and then names what they share in its text;
- ``baseline_shift``: the paper's own baseline ``baseline`` (e.g. its plain RF, grown by the same
  tree code on the same data under the same protocol) lies outside tolerance on the same data set,
  the same way, and this cell's deviation differs from the baseline's by no more than the cell's
  tolerance: the cell's difference from the baseline, the part that is the method's own, is the
  paper's, and the offset both carry lies in what they share. It applies to the methods a rule
  names, never to the baseline itself (which would explain the two by each other);
- ``stand_in``: the cell's data set is a declared stand-in (``stand_in`` in its config) whose
  shape, as fed to the method, differs from the paper's Table 1: the cell is not computed on the
  paper's data, so it cannot test the paper's number. A rule names the stand-ins it covers
  (``datasets``): a stand-in that is a part of the paper's data (fewer rows of the same
  features) does not explain a cell by itself, and is left to other tests.

- ``time_limited``: at least half of the cell's runs ended without a proven optimum (a C2RF
  solve stopped by its time limit, ``solved`` false): the cell is an aggregate of whatever
  solutions the limit left, not of the optima the paper's cell rests on, so it cannot test the
  paper's number. It never holds for a cell whose runs were solved, nor for runs without solves.

- ``sample_range``: the cell is the median of at least 5 runs (random samples), and the published
  value lies between the smallest and the largest of them. The range of n independent runs holds
  the median of their distribution with probability 1 - 2 / 2^n (94 % for the C2RF paper's 5
  samples, whatever the distribution), so the paper's median, itself a median of 5 other draws,
  is not shown to differ from ours: the difference is within what drawing other samples gives.
  It never holds for a mean (a fold's range says nothing of a mean's spread) nor for fewer runs.

- ``data_size``: the cell's data set has fewer training rows than the paper's
  (``paper_train_rows``), and the same cells on fewer rows (the tables ``curve``, e.g. a half and a
  quarter of the data) give a learning curve. Read off per doubling of the training rows, its
  gains are carried on to the paper's training size in two ways: gains that keep shrinking at the
  last measured ratio (the *low* projection; where the gains did not shrink, the smaller of the
  last two kept steady, which is where the shrinking one tends as the ratio nears 1, so that a
  curve whose gains barely grew is not read as gaining nothing; where one of them is no gain,
  nothing) and gains that stay at the last one (the *high* projection). The test holds when the
  low projection reaches the published value within the cell's tolerance: the missing rows
  account for the cell even if their gains keep shrinking. When it does not hold, the
  projections are the unexplained cell's evidence; where the gains shrank and even the high
  projection falls short, the data size cannot account for the cell.

A measurable difference that no test ties to the cell (our data's shape differs from the
paper's Table 1, or the data is a stand-in) is shown beside an unexplained cell as a
*candidate*, never counted as its cause: more data does not always move a cell.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from itertools import pairwise

import pandas as pd

CAUSES = ("reading", "baseline", "protocol", "data", "sampling")
UNEXPLAINED = "unexplained"
TESTS = (
    "ablation_within",
    "better_than_published",
    "shared_deviation",
    "baseline_shift",
    "stand_in",
    "data_size",
    "time_limited",
    "sample_range",
)
# The fewest runs whose range holds the median of their distribution with probability >= 90 %.
SAMPLE_RANGE_RUNS = 5


def _in_scope(rule: dict, table: str, cell) -> bool:
    return all(
        rule.get(key) is None or value in rule[key]
        for key, value in (("tables", table), ("methods", cell["method"]), ("datasets", cell["dataset"]))
    )


def _shared_deviation(cell, cells: pd.DataFrame, among: list | None = None) -> str | None:
    """The evidence that every other method on ``cell``'s data set (of ``among``, when given)
    deviates the same way, or None."""
    others = cells[
        (cells["dataset"] == cell["dataset"])
        & (cells["method"] != cell["method"])
        & cells["published_mean"].notna()
        & (cells["method"].isin(among) if among is not None else True)
    ]
    if len(others) < 2 or others["mean"].isna().any():
        return None
    if not (others["within"].map(lambda v: v is False)).all():
        return None
    if not (others["delta"] * cell["delta"] > 0).all():
        return None
    largest = float(others["delta"].abs().max())
    if abs(cell["delta"]) > largest + cell["tolerance"]:
        return None
    moved = ", ".join(f"{m} {d:+.4f}" for m, d in zip(others["method"], others["delta"], strict=True))
    return f"this cell {cell['delta']:+.4f}; the other methods on {cell['dataset']}: {moved}"


def _baseline_shift(cell, cells: pd.DataFrame, baseline: str) -> str | None:
    """The evidence that ``baseline`` deviates on ``cell``'s data set the same way and by as much
    (within the cell's tolerance), or None."""
    if cell["method"] == baseline:
        return None
    match = cells[(cells["dataset"] == cell["dataset"]) & (cells["method"] == baseline)]
    if match.empty:
        return None
    other = match.iloc[0]
    if (
        pd.isna(other["mean"])
        or pd.isna(other["published_mean"])
        or other["within"] is None
        or other["within"]
    ):
        return None
    if other["delta"] * cell["delta"] <= 0 or abs(cell["delta"] - other["delta"]) > cell["tolerance"]:
        return None
    return (
        f"this cell {cell['delta']:+.4f}, {baseline} {other['delta']:+.4f}: our {cell['method']} - "
        f"{baseline} differs from the paper's by {cell['delta'] - other['delta']:+.4f}, within "
        f"{cell['tolerance']:.4f}"
    )


def _time_limited(cell) -> str | None:
    """The evidence that at least half of ``cell``'s runs ended without a proven optimum, or None."""
    runs, solved = cell.get("n_runs"), cell.get("n_solved")
    if runs is None or solved is None or pd.isna(runs) or pd.isna(solved) or runs == 0:
        return None
    stopped = int(runs) - int(solved)
    if 2 * stopped < runs:
        return None
    return f"{stopped} of {int(runs)} runs ended without a proven optimum (stopped by the time limit)"


def _sample_range(cell, spec: dict) -> str | None:
    """The evidence that the published value lies within the range of ``cell``'s runs, a median of
    at least ``SAMPLE_RANGE_RUNS`` of them, or None."""
    runs = cell.get("n_folds")
    if spec.get("aggregate") != "median" or runs is None or pd.isna(runs) or runs < SAMPLE_RANGE_RUNS:
        return None
    low, high = cell.get("min"), cell.get("max")
    if low is None or high is None or pd.isna(low) or pd.isna(high):
        return None
    if not low <= cell["published_mean"] <= high:
        return None
    coverage = 1 - 2 / 2 ** int(runs)
    return (
        f"the published {cell['published_mean']:.4f} lies within our {int(runs)} runs' range "
        f"[{low:.4f}, {high:.4f}], which holds the median of their distribution with probability "
        f"{coverage:.0%}"
    )


def _stand_in(cell, paper: str, dataset_specs: dict, data_provenance: dict) -> str | None:
    """The evidence that ``cell`` is computed on a stand-in of another shape, or None."""
    dspec = dataset_specs.get(cell["dataset"], {})
    if not dspec.get("stand_in"):
        return None
    published = (dspec.get("published") or {}).get(paper) or {}
    shape = dict((data_provenance.get(cell["dataset"]) or {}).get("shape", {}))
    if cell.get("rows_fed") is not None and not pd.isna(cell.get("rows_fed")):
        shape["rows"] = int(cell["rows_fed"])
    diffs = [
        f"{key} {shape[key]} (paper {published[key]})"
        for key in ("rows", "features")
        if published.get(key) is not None and shape.get(key) is not None and published[key] != shape[key]
    ]
    return f"{dspec['stand_in']} Shape: " + ", ".join(diffs) if diffs else None


@dataclass(frozen=True)
class Projection:
    """A cell's learning curve carried on to the paper's training rows (``data_size``)."""

    points: tuple  # (training rows, value), by rows; the last is the cell itself
    gains: tuple  # per doubling of the training rows, between consecutive points
    doublings: float  # from the cell's training rows to the paper's
    low: float  # gains shrinking on at the last measured ratio
    high: float  # gains staying at the last one
    shrinking: bool  # the last gain is below the one before it

    def text(self, published: float) -> str:
        points = " / ".join(f"{v:.4f}" for _, v in self.points)
        rows = " / ".join(f"{n:.0f}" for n, _ in self.points)
        gains = ", ".join(f"{g:+.4f}" for g in self.gains)
        return (
            f"{points} on {rows} training rows, gains per doubling {gains}; {self.doublings:.2f} "
            f"doublings on to the paper's rows: {self.low:.4f} with shrinking gains, {self.high:.4f} "
            f"with steady ones; published {published:.4f}"
        )


def _better_than_published(
    cell, rule: dict, spec: dict, table_cells: Callable[[str], pd.DataFrame | None]
) -> str | None:
    """The evidence that ``cell`` beats its published value by more than its tolerance and, for
    each table of the rule's ``also_in``, that the same method's cell on the same data set does
    too (in that table's direction, its cells' ``higher_is_better``), or None."""
    if not _beats_published(cell, spec.get("higher_is_better", True)):
        return None
    found = [f"ours {cell['mean']:.4f} vs published {cell['published_mean']:.4f}"]
    for table in rule.get("also_in", []):
        other = table_cells(table)
        if other is None:
            return None
        match = other[(other["dataset"] == cell["dataset"]) & (other["method"] == cell["method"])]
        if match.empty or pd.isna(match["delta"].iloc[0]) or pd.isna(match["published_mean"].iloc[0]):
            return None
        row = match.iloc[0]
        if not _beats_published(row, bool(row.get("higher_is_better", True))):
            return None
        found.append(f"{table}: ours {row['mean']:.4f} vs published {row['published_mean']:.4f}")
    return "; ".join(found)


def _beats_published(cell, higher_is_better: bool) -> bool:
    """Whether ``cell`` beats its published value by more than its tolerance, in the direction
    ``higher_is_better`` gives."""
    return _sign({"higher_is_better": higher_is_better}) * cell["delta"] > cell["tolerance"]


def _sign(spec: dict) -> float:
    """1 when the table's metric is better higher, else -1."""
    return 1.0 if spec.get("higher_is_better", True) else -1.0


def projection(
    cell, rule: dict, table_cells: Callable[[str], pd.DataFrame | None], sign: float
) -> Projection | None:
    """The ``data_size`` projection of ``cell`` (``sign`` = 1 when higher is better), or None when
    the cell is not short of the paper's value (more rows would not bring it down to it), the
    curve is incomplete, or the cell already has as many training rows as the paper."""
    if sign * cell["delta"] >= 0:
        return None
    points = []
    for table in rule["curve"]:
        other = table_cells(table)
        if other is None or "n_train" not in other:
            return None
        match = other[(other["dataset"] == cell["dataset"]) & (other["method"] == cell["method"])]
        if match.empty or pd.isna(match["mean"].iloc[0]) or pd.isna(match["n_train"].iloc[0]):
            return None
        points.append((float(match["n_train"].iloc[0]), float(match["mean"].iloc[0])))
    if pd.isna(cell.get("n_train")) or pd.isna(cell["mean"]):
        return None
    points = sorted(points) + [(float(cell["n_train"]), float(cell["mean"]))]
    doublings = math.log2(rule["paper_train_rows"] / points[-1][0])
    if len(points) < 3 or doublings <= 0 or points[-2][0] >= points[-1][0]:
        return None
    gains = tuple(sign * (b - a) / math.log2(m / n) for (n, a), (m, b) in pairwise(points))
    last, before = gains[-1], gains[-2]
    shrinking = last < before
    low = 0.0  # no gain that more rows surely bring, unless both measured gains are gains
    if 0 < last < before:
        ratio = last / before  # per doubling; the sum of last * ratio^i over the doublings to come
        low = last * ratio * (1 - ratio**doublings) / (1 - ratio)
    elif 0 < before <= last:  # no shrinking measured: the smaller gain, steady (the limit as ratio -> 1)
        low = before * doublings
    value = points[-1][1]
    return Projection(
        points=tuple(points),
        gains=gains,
        doublings=doublings,
        low=value + sign * low,
        high=value + sign * max(last, 0.0) * doublings,
        shrinking=shrinking,
    )


def _data_size(cell, rule: dict, spec: dict, table_cells: Callable[[str], pd.DataFrame | None]) -> str | None:
    """The evidence that the paper's larger training set accounts for ``cell``, or None."""
    sign = _sign(spec)
    found = projection(cell, rule, table_cells, sign)
    if found is None or sign * (found.low - cell["published_mean"]) < -cell["tolerance"]:
        return None
    return found.text(cell["published_mean"])


def _test(
    rule: dict,
    cell,
    spec: dict,
    table_cells: Callable[[str], pd.DataFrame | None],
    cells: pd.DataFrame,
    dataset_specs: dict,
    data_provenance: dict,
) -> str | None:
    """The evidence if ``rule``'s test holds for ``cell``, else None."""
    if rule["test"] == "shared_deviation":
        return _shared_deviation(cell, cells, rule.get("among"))
    if rule["test"] == "baseline_shift":
        return _baseline_shift(cell, cells, rule["baseline"])
    if rule["test"] == "data_size":
        return _data_size(cell, rule, spec, table_cells)
    if rule["test"] == "time_limited":
        return _time_limited(cell)
    if rule["test"] == "sample_range":
        return _sample_range(cell, spec)
    if rule["test"] == "stand_in":
        return _stand_in(cell, spec["paper"], dataset_specs, data_provenance)
    if rule["test"] == "better_than_published":
        return _better_than_published(cell, rule, spec, table_cells)
    if rule["test"] == "ablation_within":
        other = table_cells(rule["ablation_table"])
        method = rule.get("ablation_method", cell["method"])
        if other is None:
            return None
        match = other[(other["dataset"] == cell["dataset"]) & (other["method"] == method)]
        if match.empty or pd.isna(match["mean"].iloc[0]):
            return None
        value = float(match["mean"].iloc[0])
        if abs(value - cell["published_mean"]) <= cell["tolerance"]:
            return (
                f"{rule['ablation_table']} / {method}: {value:.4f}, within {cell['tolerance']:.4f} of "
                f"the published {cell['published_mean']:.4f}"
            )
        return None
    raise ValueError(f"unknown cause test {rule['test']!r}; valid: {list(TESTS)}")


def data_candidates(
    dataset: str, paper: str, dataset_specs: dict, data_provenance: dict, rows_fed: int | None = None
) -> list[str]:
    """Measurable differences between our data and the paper's: stand-in, shape. ``rows_fed``
    (when the runs record it) is the number of rows the protocol fed the method, which is what
    the paper's table counts (C2RF's N after removing duplicates), not the file's rows."""
    dspec = dataset_specs.get(dataset, {})
    found = [f"stand-in: {dspec['stand_in']}"] if dspec.get("stand_in") else []
    published = (dspec.get("published") or {}).get(paper) or {}
    shape = dict((data_provenance.get(dataset) or {}).get("shape", {}))
    if rows_fed is not None and not pd.isna(rows_fed):
        shape["rows"] = int(rows_fed)
    diffs = [
        f"{key} {shape[key]} (paper {published[key]})"
        for key in ("rows", "features", "classes")
        if published.get(key) is not None and shape.get(key) is not None and published[key] != shape[key]
    ]
    if diffs:
        found.append("our data differs from the paper's Table 1: " + ", ".join(diffs))
    return found


def _data_size_tried(cell, spec: dict, table_cells: Callable[[str], pd.DataFrame | None]) -> list[str]:
    """What the ``data_size`` rules in scope measured for a cell they did not explain."""
    sign = _sign(spec)
    tried = []
    for rule in spec.get("causes", []):
        if rule["test"] != "data_size" or not _in_scope(rule, spec["table"], cell):
            continue
        found = projection(cell, rule, table_cells, sign)
        if found is None:
            continue
        short = sign * (found.high - cell["published_mean"]) < -cell["tolerance"]
        verdict = (
            "the data size cannot account for it"
            if found.shrinking and short
            else "the data size alone is not shown to account for it"
        )
        tried.append(f"tested: {verdict} ({found.text(cell['published_mean'])})")
    return tried


def explain(
    cells: pd.DataFrame,
    spec: dict,
    table_cells: Callable[[str], pd.DataFrame | None],
    dataset_specs: dict,
    data_provenance: dict,
) -> pd.DataFrame:
    """The cells outside tolerance, each with ``cause`` (the first rule whose test holds, which
    the counts use), ``evidence`` (that rule's, then every other rule that holds, "Also <cause>:
    ..."; for an unexplained cell, what a test measured that fell short) and ``candidates``."""
    outside = cells[cells["within"].map(lambda v: v is False)]
    rows = []
    for _, cell in outside.iterrows():
        holding = [
            (rule["cause"], f"{rule['text']} ({found})")
            for rule in spec.get("causes", [])
            if _in_scope(rule, spec["table"], cell)
            and (found := _test(rule, cell, spec, table_cells, cells, dataset_specs, data_provenance))
            is not None
        ]
        cause, evidence = holding[0] if holding else (UNEXPLAINED, "")
        evidence += "".join(f". Also {other}: {text}" for other, text in holding[1:])
        candidates = (
            []
            if cause != UNEXPLAINED
            else data_candidates(
                cell["dataset"], spec["paper"], dataset_specs, data_provenance, cell.get("rows_fed")
            )
        )
        if cause == UNEXPLAINED:  # what a test measured without explaining the cell
            evidence = "; ".join(_data_size_tried(cell, spec, table_cells))
        rows.append(
            {
                "dataset": cell["dataset"],
                "method": cell["method"],
                "delta": cell["delta"],
                "cause": cause,
                "evidence": evidence,
                "candidates": "; ".join(candidates),
            }
        )
    return pd.DataFrame(rows, columns=["dataset", "method", "delta", "cause", "evidence", "candidates"])


def counted(explained: pd.DataFrame) -> str:
    """``reading 3, unexplained 2``: cells per cause, in the vocabulary's order."""
    counts = explained["cause"].value_counts()
    return ", ".join(f"{c} {int(counts[c])}" for c in (*CAUSES, UNEXPLAINED) if c in counts) or "none"
