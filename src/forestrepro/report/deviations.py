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

- ``independent_within``: a second, independent implementation of the same method (the cell of
  ``independent_table``, method ``independent_method``, by default the cell's own; e.g. plain
  scikit-learn under the same folds) lies within the cell's tolerance of our value, and beyond the
  tolerance of the published value on the same side as ours, above it or below it: our number is
  what the method as described gives, not an artefact of our code, and the paper's is not. The
  second implementation must be of the same method (another forest that happens to agree is no
  second implementation).

What was tried and fell short is in an unexplained cell's evidence too: each run in scope that
a rule compares with the cell (an ``ablation_within`` reading's value, an ``independent_within``
second implementation's value, a ``data_size`` learning curve's projections), so a reader sees
which readings and implementations are ruled out for that cell by a run, not only that none holds.

Where nothing we ran decides an unexplained cell, the paper's ``deciding_runs`` name the run that
would, and its price: each entry (``tables``, ``methods``, ``datasets``: its scope, as a rule's;
``run``: what would decide the cell, or why no run of ours can; ``price``: its cost, and where the
figure comes from) is appended to every unexplained cell in its scope, "would decide it: <run>
(price: <price>)" (``_deciding``). It states what is not known; it never changes a kind.

A measurable difference that no test ties to the cell (our data's shape differs from the
paper's Table 1, or the data is a stand-in) is shown beside an unexplained cell as a
*candidate*, never counted as its cause: more data does not always move a cell.

Noise first. A cell outside tolerance needs a cause only when the difference lies outside our
spread and the paper's too: where our cell is a mean of n >= 2 runs (folds, repetitions or
splits) with sample standard deviation s, and the paper prints its cell's standard deviation s_p
(0 where it prints none) over as many runs of the same protocol, the 95 % interval of the
difference of the two means is +- t(0.975, n - 1) sqrt(s^2 / n + s_p^2 / n). Where the difference
lies within it, it is within what the two means vary by: the cell's kind is *within spread* (cause
``sampling``), whatever rules hold for it. The tolerance (twice the paper's std per run, or its
floor) is not added to the interval: that would count the paper's spread twice and call a
difference of several standard errors noise. Folds of one cross-validation share rows, so the
interval is a guide, not an exact test; it is never used for a median (``sample_range`` covers
those), nor for a cell of one run or of no spread.

Kinds, by strength. Each cell outside tolerance gets a *kind*, which the summaries count: how
far numbers show its cause, whatever the cause's name.

- **within spread**: the difference lies within the 95 % interval of the difference of the two
  means (above); no cause is needed, and none is counted;
- **measured**: a run under a stated reading, protocol or data puts the cell within tolerance of
  the paper's;
- **confirmed**: a second, independent implementation of the same method gives our number, not
  the paper's, and no reading tried reaches the paper's: the paper's value is not reproduced by
  the method as described; the evidence lists what was tried;
- **bounded**: a measured effect in the right direction that is not shown to close the gap; its
  size is in the evidence;
- **stand-in**: the cell is not comparable with the paper's (not the paper's data, or not the
  paper's quantity); kept out of the explained count, and no other cause is counted for it;
- **unexplained**: no test holds, or only tests that show no more than the difference itself.

Each test, when it holds, gives a kind, and why:

- ``ablation_within`` -> *measured* when the reading is no picked fix: applied to its whole
  column (the table's cells in the rule's scope: its methods, else every method; its data sets)
  it leaves more of them within tolerance than the default does (``ReadingColumn``). Otherwise
  *unexplained*: a reading that reproduces this cell but, over the column, breaks as many cells
  as it brings in (one BRF reading brings in usps and breaks newsgroups) is chosen cell by cell,
  which no number supports. The column's counts under both readings are in the evidence and in
  the section's list of readings, so a reader sees whether a reading is better overall. No
  reading is ever chosen for the default by its closeness to the paper.
- ``independent_within`` -> *confirmed*: a second implementation gives our number; but where
  something tried reaches the paper's cell (an ``ablation_within`` reading reproduces it, even one
  picked cell by cell, or a ``data_size`` projection reaches it), *unexplained* for this test: the
  method as described may then give the paper's number.
- ``sample_range`` -> *measured*: the variation it names is measured by the cell's own runs, which
  lie on both sides of the paper's value: drawing other samples under the same protocol moves a
  run of ours onto the paper's value.
- ``data_size`` -> *bounded*: the learning curve is measured on our rows only; what lies beyond
  them, at the paper's size, is extrapolated, however well it reaches the paper's value.
- ``stand_in`` -> *stand-in*: another data set than the paper's.
- ``time_limited`` -> *stand-in*: a median of the solutions a time limit left is not the paper's
  median of optima: the cell is not the paper's quantity.
- ``better_than_published`` -> *unexplained*: it says only that our number beats the paper's; that
  the paper's baseline was weaker is asserted, not shown (``independent_within`` shows it).
- ``shared_deviation`` and ``baseline_shift`` are *chained*: "the other methods are off the same
  way" explains a cell only as far as their deviations are explained. Such a cause counts as the
  weakest of the cells it leans on (every other method of ``shared_deviation``, the baseline of
  ``baseline_shift``), each taken at its *direct* kind: the strongest kind of the tests other
  than the chained ones that hold for it (so two cells never explain each other), where a
  stand-in, a cell within spread or a cell with no such test counts as *unexplained*. Leaning on
  measured cells, it is measured; on confirmed ones (or measured and confirmed), confirmed; on a
  bounded one, bounded; on an unexplained one, unexplained.

A cell's kind is *within spread* when the published value lies within our spread; else
*stand-in* when a stand-in test holds for it; otherwise the strongest kind among the tests that
hold. Its cause is the cause of the rule that gives that kind (the first such rule, in the
paper's order); every other rule that holds is named in its evidence with its kind. Where two or
more readings (``ablation_within`` rules) each reproduce the cell, no one of them is its cause:
the cause is *not identified* among them (``identified`` false), which the summaries count, and
the evidence names them all.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from itertools import pairwise

import pandas as pd
from scipy.stats import t as student_t

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
    "independent_within",
)
WITHIN_SPREAD, MEASURED, CONFIRMED, BOUNDED, STAND_IN = (
    "within spread",
    "measured",
    "confirmed",
    "bounded",
    "stand-in",
)
# every kind, as the summaries count them; then the kinds of a cause, by strength, strongest first
KINDS = (WITHIN_SPREAD, MEASURED, CONFIRMED, BOUNDED, STAND_IN, UNEXPLAINED)
CAUSE_KINDS = KINDS[1:]
STRENGTH = {kind: len(CAUSE_KINDS) - i for i, kind in enumerate(CAUSE_KINDS)}
# the kind each direct test gives when it holds (ablation_within: see ReadingColumn;
# independent_within: unexplained where a reading reproduces the cell, see explain)
DIRECT_KIND = {
    "ablation_within": MEASURED,
    "independent_within": CONFIRMED,
    "sample_range": MEASURED,
    "data_size": BOUNDED,
    "stand_in": STAND_IN,
    "time_limited": STAND_IN,
    "better_than_published": UNEXPLAINED,
}
CHAINED = ("shared_deviation", "baseline_shift")
# The fewest runs whose range holds the median of their distribution with probability >= 90 %.
SAMPLE_RANGE_RUNS = 5


def _in_scope(rule: dict, table: str, cell) -> bool:
    return all(
        rule.get(key) is None or value in rule[key]
        for key, value in (("tables", table), ("methods", cell["method"]), ("datasets", cell["dataset"]))
    )


def _shared_deviation(cell, cells: pd.DataFrame, among: list | None = None) -> tuple[str, tuple] | None:
    """The evidence that every other method on ``cell``'s data set (of ``among``, when given)
    deviates the same way, and the cells it leans on (``(dataset, method)``), or None."""
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
    return (
        f"this cell {cell['delta']:+.4f}; the other methods on {cell['dataset']}: {moved}",
        tuple((cell["dataset"], m) for m in others["method"]),
    )


def _baseline_shift(cell, cells: pd.DataFrame, baseline: str) -> tuple[str, tuple] | None:
    """The evidence that ``baseline`` deviates on ``cell``'s data set the same way and by as much
    (within the cell's tolerance), and the cell it leans on (the baseline's), or None."""
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
        f"{cell['tolerance']:.4f}",
        ((cell["dataset"], baseline),),
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


def fed_shape(data_shape: dict, options: dict | None, rows_fed=None) -> dict:
    """The shape the method was fed: the data file's ``rows`` and ``features`` (its provenance),
    with ``rows_fed`` rows where the runs record them (C2RF's N after removing duplicates) and
    features / ``block_mean`` where that option averaged runs of features (WDF's SEMG: 3,000
    samples fed as 500)."""
    shape = dict(data_shape)
    if rows_fed is not None and not pd.isna(rows_fed):
        shape["rows"] = int(rows_fed)
    block = (options or {}).get("block_mean")
    if block and shape.get("features") is not None:
        shape["features"] = int(shape["features"]) // int(block)
    return shape


def _stand_in(cell, paper: str, dataset_specs: dict, data_provenance: dict, options: dict) -> str | None:
    """The evidence that ``cell`` is computed on a stand-in of another shape, or None."""
    dspec = dataset_specs.get(cell["dataset"], {})
    if not dspec.get("stand_in"):
        return None
    published = (dspec.get("published") or {}).get(paper) or {}
    shape = fed_shape(
        (data_provenance.get(cell["dataset"]) or {}).get("shape", {}),
        options.get(cell["dataset"]),
        cell.get("rows_fed"),
    )
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


# the table and method a rule compares a cell with: its reading's, or its second implementation's
_COMPARED_WITH = {
    "ablation_within": ("ablation_table", "ablation_method"),
    "independent_within": ("independent_table", "independent_method"),
}


def _compared_with(rule: dict, cell) -> tuple[str, str]:
    """``(table, method)`` of the run an ``ablation_within`` or ``independent_within`` rule compares
    ``cell`` with (the method by default the cell's own)."""
    table_key, method_key = _COMPARED_WITH[rule["test"]]
    return rule[table_key], rule.get(method_key, cell["method"])


def _compared_value(rule: dict, cell, table_cells: Callable[[str], pd.DataFrame | None]) -> float | None:
    """The value of ``cell``'s data set in the run ``rule`` compares it with (``_compared_with``:
    the other reading, or the second implementation), or None where it is not computed."""
    table, method = _compared_with(rule, cell)
    other = table_cells(table)
    if other is None:
        return None
    match = other[(other["dataset"] == cell["dataset"]) & (other["method"] == method)]
    if match.empty or pd.isna(match["mean"].iloc[0]):
        return None
    return float(match["mean"].iloc[0])


@dataclass(frozen=True)
class ReadingColumn:
    """An ``ablation_within`` rule's reading applied to its whole column of a table: the cells in
    the rule's scope (its methods, else every method; its data sets) with a published value, our
    value and the reading's, each judged by its own tolerance under the default and under the
    reading. ``brought`` and ``broken``: the cells ("dataset / method") the reading brings within
    tolerance and takes out of it."""

    rule: dict
    table: str
    cells: int
    default_within: int
    reading_within: int
    brought: tuple
    broken: tuple

    @property
    def better(self) -> bool:
        """Whether the reading leaves more of the column within tolerance than the default."""
        return self.reading_within > self.default_within

    @property
    def name(self) -> str:
        method = self.rule.get("ablation_method")
        return f"{self.rule['ablation_table']}" + (f" / {method}" if method else "")

    def text(self) -> str:
        changes = "; ".join(
            f"{what} {', '.join(cells)}"
            for what, cells in (("brings in", self.brought), ("takes out", self.broken))
            if cells
        )
        return (
            f"over its whole column ({self.cells} {'cell' if self.cells == 1 else 'cells'}) "
            f"{self.reading_within} within tolerance under "
            f"this reading, {self.default_within} under the default"
            + (f" ({changes})" if changes else "")
            + ("" if self.better else ": not better overall, so picked cell by cell, not measured")
        )


def reading_column(
    rule: dict, spec: dict, cells: pd.DataFrame, table_cells: Callable[[str], pd.DataFrame | None]
) -> ReadingColumn | None:
    """``rule``'s reading over its whole column of the table ``cells`` (None for another test, or
    where the reading has no computed cell beside ours)."""
    if rule["test"] != "ablation_within":
        return None
    compared = default_within = reading_within = 0
    brought, broken = [], []
    for _, cell in cells.iterrows():
        if not _in_scope(rule, spec["table"], cell) or cell.get("within") is None or pd.isna(cell["mean"]):
            continue
        value = _compared_value(rule, cell, table_cells)
        if value is None:
            continue
        compared += 1
        before = bool(cell["within"])
        after = abs(value - cell["published_mean"]) <= cell["tolerance"]
        default_within += before
        reading_within += after
        if after and not before:
            brought.append(f"{cell['dataset']} / {cell['method']}")
        if before and not after:
            broken.append(f"{cell['dataset']} / {cell['method']}")
    if not compared:
        return None
    return ReadingColumn(
        rule, spec["table"], compared, default_within, reading_within, tuple(brought), tuple(broken)
    )


def _independent_within(cell, rule: dict, table_cells: Callable[[str], pd.DataFrame | None]) -> str | None:
    """The evidence that an independent implementation of the same method (``independent_table``
    / ``independent_method``) gives our value within the cell's tolerance, and lies beyond the
    tolerance of the published value on our side of it, or None."""
    value = _compared_value(rule, cell, table_cells)
    if value is None or abs(value - cell["mean"]) > cell["tolerance"]:
        return None
    beyond = value - cell["published_mean"]
    if abs(beyond) <= cell["tolerance"] or beyond * cell["delta"] <= 0:
        return None
    table, method = _compared_with(rule, cell)
    return (
        f"{table} / {method}: {value:.4f}, within {cell['tolerance']:.4f} of ours "
        f"{cell['mean']:.4f}; published {cell['published_mean']:.4f}"
    )


def within_spread(cell, spec: dict) -> str | None:
    """The evidence that the difference between our mean and the published one lies within the
    95 % interval of the difference of two means over ``n`` runs each, +- t(0.975, n - 1)
    sqrt(s^2 / n + s_p^2 / n) (the module's "Noise first"; s_p the paper's printed std, 0 where it
    prints none), or None: also for a median, a cell of fewer than 2 runs, or of no spread."""
    runs, std = cell.get("n_folds"), cell.get("std")
    if spec.get("aggregate", "mean") != "mean" or runs is None or pd.isna(runs) or runs < 2:
        return None
    if std is None or pd.isna(std) or std <= 0 or pd.isna(cell["published_mean"]):
        return None
    n = int(runs)
    published_std = cell.get("published_std")
    published_std = 0.0 if published_std is None or pd.isna(published_std) else float(published_std)
    half = float(student_t.ppf(0.975, n - 1)) * math.sqrt((float(std) ** 2 + published_std**2) / n)
    if abs(cell["delta"]) > half:
        return None
    return (
        f"the difference {cell['delta']:+.4f} lies within +-{half:.4f}, the 95 % interval of the "
        f"difference of two means over {n} runs each (our std {std:.4f}, the paper's "
        f"{published_std:.4f}): within what the two means vary by"
    )


@dataclass(frozen=True)
class Held:
    """A rule whose test holds for a cell: its evidence, the cells a chained test leans on
    (``(dataset, method)``), and the kind it gives (None for a chained test until its cells'
    kinds are known)."""

    rule: dict
    evidence: str
    leans_on: tuple = ()
    kind: str | None = None


def _test(
    rule: dict,
    cell,
    spec: dict,
    table_cells: Callable[[str], pd.DataFrame | None],
    cells: pd.DataFrame,
    dataset_specs: dict,
    data_provenance: dict,
    columns: dict | None = None,
) -> Held | None:
    """The held rule if ``rule``'s test holds for ``cell``, else None; ``columns``: each
    ``ablation_within`` rule's ``ReadingColumn`` by its position in ``spec["causes"]``."""
    test = rule["test"]
    if test in CHAINED:
        found = (
            _shared_deviation(cell, cells, rule.get("among"))
            if test == "shared_deviation"
            else _baseline_shift(cell, cells, rule["baseline"])
        )
        return None if found is None else Held(rule, found[0], found[1])
    if test == "ablation_within":
        value = _compared_value(rule, cell, table_cells)
        if value is None or abs(value - cell["published_mean"]) > cell["tolerance"]:
            return None
        table, method = _compared_with(rule, cell)
        column = (columns or {}).get(id(rule)) or reading_column(rule, spec, cells, table_cells)
        return Held(
            rule,
            f"{table} / {method}: {value:.4f}, within {cell['tolerance']:.4f} of "
            f"the published {cell['published_mean']:.4f}; {column.text()}",
            kind=MEASURED if column.better else UNEXPLAINED,
        )
    tests = {
        "data_size": lambda: _data_size(cell, rule, spec, table_cells),
        "time_limited": lambda: _time_limited(cell),
        "sample_range": lambda: _sample_range(cell, spec),
        "stand_in": lambda: _stand_in(
            cell, spec["paper"], dataset_specs, data_provenance, spec.get("dataset_options", {})
        ),
        "better_than_published": lambda: _better_than_published(cell, rule, spec, table_cells),
        "independent_within": lambda: _independent_within(cell, rule, table_cells),
    }
    if test not in tests:
        raise ValueError(f"unknown cause test {test!r}; valid: {list(TESTS)}")
    found = tests[test]()
    return None if found is None else Held(rule, found, kind=DIRECT_KIND[test])


def data_candidates(
    dataset: str,
    paper: str,
    dataset_specs: dict,
    data_provenance: dict,
    rows_fed: int | None = None,
    options: dict | None = None,
) -> list[str]:
    """Measurable differences between our data and the paper's: stand-in, shape as fed to the
    method (``fed_shape``: ``rows_fed`` when the runs record it, which is what the paper's table
    counts, e.g. C2RF's N after removing duplicates; features after the data set's ``options``)."""
    dspec = dataset_specs.get(dataset, {})
    found = [f"stand-in: {dspec['stand_in']}"] if dspec.get("stand_in") else []
    published = (dspec.get("published") or {}).get(paper) or {}
    shape = fed_shape((data_provenance.get(dataset) or {}).get("shape", {}), options, rows_fed)
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


def _runs_tried(
    cell, spec: dict, table_cells: Callable[[str], pd.DataFrame | None], held: list[Held]
) -> list[str]:
    """The runs the ``ablation_within`` and ``independent_within`` rules in scope that do not
    hold (``held``) compare with a cell: each reading's or second implementation's value beside
    the published one and ours, the run that rules it out for this cell; then each of them that
    has no value on the cell's data set: the run that would test the cell, not made yet."""
    tried, untried = [], []
    holding = {id(h.rule) for h in held}
    for rule in spec.get("causes", []):
        if (
            rule["test"] not in _COMPARED_WITH
            or id(rule) in holding
            or not _in_scope(rule, spec["table"], cell)
        ):
            continue
        value = _compared_value(rule, cell, table_cells)
        what = "reading" if rule["test"] == "ablation_within" else "second implementation"
        if value is None:
            table, method = _compared_with(rule, cell)
            untried.append(
                f"not tried ({what}): {table} / {method} has no value on {cell['dataset']}; its run there "
                "would test this cell"
            )
            continue
        # a reading is judged against the paper's value, a second implementation against ours too
        compared = (("ours", cell["mean"]),) if rule["test"] == "independent_within" else ()
        verdict = ", ".join(
            f"{'within' if abs(value - reference) <= cell['tolerance'] else 'outside'} tolerance of {name}"
            for name, reference in (*compared, ("the published value", cell["published_mean"]))
        )
        table, method = _compared_with(rule, cell)
        tried.append(
            f"tried ({what}): {table} / {method}: {value:.4f} (ours {cell['mean']:.4f}, "
            f"published {cell['published_mean']:.4f}, tolerance {cell['tolerance']:.4f}): {verdict}"
        )
    return tried + untried


def _deciding(cell, spec: dict) -> list[str]:
    """The paper's ``deciding_runs`` in scope of an unexplained cell: what would decide it, and
    its price."""
    return [
        f"would decide it: {entry['run']} (price: {entry['price']})"
        for entry in spec.get("deciding_runs", [])
        if _in_scope(entry, spec["table"], cell)
    ]


def _combined(held: list[Held]) -> tuple[str, Held | None]:
    """The kind of a cell the rules ``held`` hold for (each with its kind), and the rule that
    gives it: stand-in where a stand-in rule holds, else the strongest, the first among equals."""
    if not held:
        return UNEXPLAINED, None
    stand_in = [h for h in held if h.kind == STAND_IN]
    if stand_in:
        return STAND_IN, stand_in[0]
    best = max(held, key=lambda h: STRENGTH[h.kind])  # max keeps the first of equals
    return best.kind, best


def _chained_kind(leans_on: tuple, direct: dict) -> str:
    """The kind of a chained cause leaning on the cells ``leans_on``: the weakest of their direct
    kinds (``direct``), a stand-in or a cell without a direct kind counting as unexplained."""
    kinds = [direct.get(key, UNEXPLAINED) for key in leans_on]
    kinds = [UNEXPLAINED if kind == STAND_IN else kind for kind in kinds]
    return min(kinds, key=lambda kind: STRENGTH[kind]) if kinds else UNEXPLAINED


def reading_columns(
    cells: pd.DataFrame, spec: dict, table_cells: Callable[[str], pd.DataFrame | None]
) -> list[ReadingColumn]:
    """Each ``ablation_within`` rule's reading over its whole column of the table, in the rules'
    order (those with a computed cell beside ours)."""
    found = (reading_column(rule, spec, cells, table_cells) for rule in spec.get("causes", []))
    return [column for column in found if column is not None]


# the tests that, holding, show the paper's cell within reach of the method as described: a reading
# that reproduces it, or the paper's larger training set carried on by our learning curve
_REACHES_PAPER = {
    "ablation_within": "a reading reproduces",
    "data_size": "the paper's larger training set may account for",
}


def _settled(held: list[Held]) -> list[Held]:
    """``held`` with each independent implementation's kind settled: confirmed, unless something
    tried reaches the paper's cell (``_REACHES_PAPER``), when the method as described may give the
    paper's number after all: then unexplained."""
    reaching = [_REACHES_PAPER[h.rule["test"]] for h in held if h.rule["test"] in _REACHES_PAPER]
    if not reaching:
        return held
    but = f"; but {' and '.join(dict.fromkeys(reaching))} the paper's cell"
    return [
        Held(h.rule, h.evidence + but, h.leans_on, UNEXPLAINED)
        if h.rule["test"] == "independent_within"
        else h
        for h in held
    ]


def _readings_text(readings: list[Held], direct: dict) -> str:
    """The evidence of a cell that two or more readings each reproduce: no one of them is named."""
    return (
        f"not identified among the {len(readings)} readings that each reproduce the paper's cell: "
        + "; ".join(_held_text(h, direct) for h in readings)
    )


def explain(
    cells: pd.DataFrame,
    spec: dict,
    table_cells: Callable[[str], pd.DataFrame | None],
    dataset_specs: dict,
    data_provenance: dict,
) -> pd.DataFrame:
    """The cells outside tolerance, each with ``kind`` (within spread, measured, confirmed,
    bounded, stand-in or unexplained, as the module's docstring defines them), ``cause`` (that of
    the rule giving the kind; "sampling" within spread; "unexplained" where no rule holds),
    ``identified`` (False where two or more readings each reproduce the cell), ``evidence`` (that
    rule's, then every other rule that holds, "Also <cause> (<kind>): ..."; for a cell no rule
    explains, and for a confirmed one, what was tried) and ``candidates``."""
    outside = cells[cells["within"].map(lambda v: v is False)]
    columns = {
        id(rule): column
        for rule in spec.get("causes", [])
        if (column := reading_column(rule, spec, cells, table_cells)) is not None
    }
    holding, spread = {}, {}
    for _, cell in outside.iterrows():
        key = cell["dataset"], cell["method"]
        spread[key] = within_spread(cell, spec)
        holding[key] = _settled(
            [
                found
                for rule in spec.get("causes", [])
                if _in_scope(rule, spec["table"], cell)
                and (
                    found := _test(
                        rule, cell, spec, table_cells, cells, dataset_specs, data_provenance, columns
                    )
                )
                is not None
            ]
        )
    # every cell's direct kind first (its tests other than the chained ones), then the chains; a
    # cell within spread has none: its deviation is not shown to be more than noise
    direct = {
        key: kind
        for key, held in holding.items()
        if spread[key] is None
        and (kind := _combined([h for h in held if h.rule["test"] not in CHAINED])[0]) != UNEXPLAINED
    }
    rows = []
    for _, cell in outside.iterrows():
        key = cell["dataset"], cell["method"]
        held = [
            h
            if h.kind is not None
            else Held(h.rule, h.evidence, h.leans_on, _chained_kind(h.leans_on, direct))
            for h in holding[key]
        ]
        kind, first = _combined(held)
        cause = UNEXPLAINED if first is None else first.rule["cause"]
        readings = [h for h in held if h.rule["test"] == "ablation_within"]
        identified = not (len(readings) >= 2 and first is not None and first in readings)
        if not identified:
            evidence = _readings_text(readings, direct) + _also(
                [h for h in held if h not in readings], direct
            )
        else:
            evidence = "" if first is None else _held_text(first, direct)
            evidence += _also([h for h in held if h is not first], direct)
        if spread[key] is not None:  # noise first: no cause needed, the rules that hold follow
            kind, cause, identified = WITHIN_SPREAD, "sampling", True
            evidence = spread[key] + _also(held, direct)
        candidates = (
            []
            if first is not None
            else data_candidates(
                cell["dataset"],
                spec["paper"],
                dataset_specs,
                data_provenance,
                cell.get("rows_fed"),
                spec.get("dataset_options", {}).get(cell["dataset"]),
            )
        )
        if first is None and kind != WITHIN_SPREAD:  # what a test measured without explaining the cell
            evidence = "; ".join(_data_size_tried(cell, spec, table_cells))
        if kind in (UNEXPLAINED, CONFIRMED):  # the runs that were compared with it and fell short
            tried = _runs_tried(cell, spec, table_cells, held)
            if kind == CONFIRMED:
                tried = ["The paper's value is not reproduced by the method as described", *tried]
            else:
                tried += _deciding(cell, spec)
            evidence = ". ".join(part for part in (evidence, "; ".join(tried)) if part)
        rows.append(
            {
                "dataset": cell["dataset"],
                "method": cell["method"],
                "delta": cell["delta"],
                "kind": kind,
                "cause": cause,
                "identified": identified,
                "evidence": evidence,
                "candidates": "; ".join(candidates),
            }
        )
    return pd.DataFrame(
        rows,
        columns=["dataset", "method", "delta", "kind", "cause", "identified", "evidence", "candidates"],
    )


def _also(held: list[Held], direct: dict) -> str:
    """ ". Also <cause> (<kind>): <text>" for each of the rules ``held`` beside the cell's cause."""
    return "".join(f". Also {h.rule['cause']} ({h.kind}): {_held_text(h, direct)}" for h in held)


def _held_text(held: Held, direct: dict) -> str:
    """A held rule's text and evidence; a chained one's names the kinds of the cells it leans on."""
    leaning = ""
    if held.leans_on:
        kinds = ", ".join(f"{method} {direct.get((d, method), UNEXPLAINED)}" for d, method in held.leans_on)
        leaning = f"; leans on {kinds}: counts as {held.kind}"
    return f"{held.rule['text']} ({held.evidence}{leaning})"


def counted(explained: pd.DataFrame) -> str:
    """``reading 3, unexplained 2``: cells per cause, in the vocabulary's order."""
    counts = explained["cause"].value_counts()
    return ", ".join(f"{c} {int(counts[c])}" for c in (*CAUSES, UNEXPLAINED) if c in counts) or "none"


def kind_counts(explained: pd.DataFrame) -> dict[str, int]:
    """``{kind: cells}`` for every kind, in ``KINDS``' order."""
    counts = explained["kind"].value_counts() if "kind" in explained else {}
    return {kind: int(counts.get(kind, 0)) for kind in KINDS}


def unidentified(explained: pd.DataFrame) -> int:
    """The cells whose cause is not identified among two or more readings that each reproduce them."""
    return int((~explained["identified"].astype(bool)).sum()) if "identified" in explained else 0


def counted_kinds(explained: pd.DataFrame) -> str:
    """``within spread 0 / measured 3 / confirmed 1 / bounded 0 / stand-in 1 / unexplained 2``:
    cells per kind, then how many have a cause not identified among several readings."""
    text = " / ".join(f"{kind} {n}" for kind, n in kind_counts(explained).items())
    n = unidentified(explained)
    return text + (f" ({n} of them with the cause not identified among several readings)" if n else "")
