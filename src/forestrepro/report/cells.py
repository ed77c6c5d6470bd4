"""A regenerated table's cells: each cell's verdict beside the published value, and why an
empty cell is empty (not computed, pending, no run with a value, too few solved)."""

from __future__ import annotations

from collections import Counter

import pandas as pd

from .document import (
    Styled,
)
from .tables import format_cell


def _fmt(value: float, digits: int = 4) -> str:
    return "—" if pd.isna(value) else f"{value:.{digits}f}"


def _job_of(spec: dict, cell) -> str:
    """The path of a table's cell, <paper>/<experiment>/<method>/<dataset>: its job's path, or
    the directory of its jobs under a protocol with one job per repeat (``<cell>/repeat<k>``);
    a pooled cell (``pool_datasets``) is the directory of its method's jobs on every data set."""
    if spec.get("pool_datasets"):
        return f"{spec['paper']}/{spec['experiment']}/{cell['method']}"
    return f"{spec['paper']}/{spec['experiment']}/{cell['method']}/{cell['dataset']}"


def _pending_of(job: str, pending: dict, pooled: bool = False) -> str | None:
    """Why the job of a cell, or the jobs of its repeats (or, ``pooled``, of its data sets),
    have no current record, or None."""
    if job in pending:
        return pending[job]
    parts = Counter(why for part, why in pending.items() if part.startswith(job + "/"))
    if pooled and parts:
        return "a pooled cell, shown once its job on every data set has run; " + "; ".join(
            f"{why}: {n} data set{'s' if n > 1 else ''}" for why, n in sorted(parts.items())
        )
    total = sum(parts.values())
    return (
        "; ".join(f"{why}: {n} of {total} repeat jobs" for why, n in sorted(parts.items())) if parts else None
    )


def _missing_reason(cell, spec: dict, pending: dict, record_link=lambda job: None) -> str:
    """Why a regenerated cell is empty: its job failed, is stale or has not run (``pending``,
    from a partial report's plan), its record holds no value (e.g. no C2RF sample with a
    solution within the time limit), or runs without enough values (too few solved)."""
    job = _job_of(spec, cell)
    runs = int(cell.get("n_runs", 0) or 0)
    if cell["n_folds"] == 0:
        why = _pending_of(job, pending, bool(spec.get("pool_datasets")))
        if why is not None:
            return why
        if record_link(job) is None:
            return "not computed"
        status = cell.get("empty_status") or ""
        return f"no value: the job ran, but none of its {f'{runs} ' if runs else ''}runs has one" + (
            f" (solver status: {status})" if isinstance(status, str) and status else ""
        )
    share = spec.get("min_solved_share")
    if share is not None and not pd.isna(cell.get("n_solved", float("nan"))):
        return (
            f"no value: {int(cell['n_solved'])} of {runs} runs solved within the time limit, fewer than "
            f"the {share:.0%} the table needs"
        )
    return f"no value: {int(cell['n_folds'])} run(s) but too few solved or scored"


def _verdict(
    cell, spec: dict, pending: dict, record_link=lambda job: None, stand_ins: frozenset = frozenset()
) -> Styled:
    if bool(cell.get("beyond_limit", False)):  # whether or not our runs reached a value
        return Styled(
            f"beyond our limit: the paper's value exceeds our {spec['limit']} of {spec['limit_value']:g}",
            "none",
        )
    if pd.isna(cell["mean"]):
        return Styled(_missing_reason(cell, spec, pending, record_link), "none")
    if pd.isna(cell["published_mean"]):
        return Styled("not in the paper", "none")
    if "not_judged" in spec:
        return Styled("not judged (see above)", "none")
    if cell["within"] and cell["dataset"] in stand_ins:
        return Styled("stand-in: within tolerance, on other data than the paper's", "none")
    return _tolerance_verdict(bool(cell["within"]))


def _tolerance_verdict(within: bool) -> Styled:
    return Styled("within tolerance", "ok") if within else Styled("OUTSIDE tolerance", "out")


def _cell_rows(
    cells: pd.DataFrame,
    spec: dict,
    pending: dict,
    record_link,
    stand_ins: frozenset = frozenset(),
    kinds: dict | None = None,
) -> tuple:
    """One row per cell; the regenerated value links to the run record it comes from. A cell on
    one of the ``stand_ins`` (data sets) is never "within tolerance": it is a stand-in. ``kinds``:
    the kind of cause of each cell outside tolerance (``(dataset, method)``), shown in its
    verdict."""
    kinds = kinds or {}
    digits = spec.get("digits", 4)
    rows = []
    for _, c in cells.iterrows():
        regenerated = format_cell(c["mean"], c["std"], digits)
        link = record_link(_job_of(spec, c))
        rows.append(
            (
                c["dataset"],
                c["method"]
                + (f" ({c['paper_method']})" if isinstance(c["paper_method"], str) else " (ours only)"),
                format_cell(c["published_mean"], c["published_std"], digits),
                f"[{regenerated}]({link})" if link and not pd.isna(c["mean"]) else regenerated,
                _fmt(c["delta"], digits),
                "—" if "not_judged" in spec else _fmt(c["tolerance"], digits),
                _with_kind(
                    _verdict(c, spec, pending, record_link, stand_ins), kinds.get((c["dataset"], c["method"]))
                ),
            )
        )
    return tuple(rows)


def _with_kind(verdict: Styled, kind: str | None) -> Styled:
    """A verdict with the kind of the cell's cause after it: "OUTSIDE tolerance: measured"."""
    return verdict if kind is None else Styled(f"{verdict.text}: {kind}", verdict.style)


def _best_per_dataset(cells: pd.DataFrame, spec: dict) -> set[tuple[str, str]]:
    """The (data set, method) cells with their data set's best mean (``higher_is_better``), as
    the grid shows it (rounded to the table's digits), ties all kept."""
    shown = cells.dropna(subset=["mean"]).assign(shown=lambda c: c["mean"].round(spec.get("digits", 4)))
    sign = 1 if spec.get("higher_is_better", True) else -1
    top = shown.groupby("dataset")["shown"].transform(lambda v: (sign * v).max())
    best = shown[sign * shown["shown"] == top]
    return set(zip(best["dataset"], best["method"], strict=True))


def grid_rows(cells: pd.DataFrame, spec: dict) -> tuple[tuple[str, ...], tuple]:
    """The table as the paper prints it: a row per data set and a column per method, each cell
    our value with the paper's after it in parentheses where it prints one ("—": no value).
    Returns ``(header, rows)``; the cell-by-cell list gives the spread, tolerance and verdict."""
    digits = spec.get("digits", 4)
    methods = list(dict.fromkeys(cells["method"]))
    best = _best_per_dataset(cells, spec) if spec.get("mark_best") else {}
    names = {m: (p if isinstance(p, str) else m) for m, p in zip(cells["method"], cells["paper_method"])}
    rows = []
    for dataset, group in cells.groupby("dataset", sort=False):
        by_method = {c["method"]: c for _, c in group.iterrows()}
        row = [dataset]
        for method in methods:
            c = by_method.get(method)
            if c is None:
                row.append("")
                continue
            ours = _fmt(c["mean"], digits)
            text = ours if pd.isna(c["published_mean"]) else f"{ours} ({_fmt(c['published_mean'], digits)})"
            row.append(Styled(f"{text} ★", "ok") if (dataset, method) in best else text)
        rows.append(tuple(row))
    return ("Data set", *(names[m] for m in methods)), tuple(rows)
