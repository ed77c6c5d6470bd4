"""An ablation's report: each cell the overrides changed beside the baseline's value.

A run with overrides under a tag of its own (``quick-<hash>``, ``paper-<hash>``, or a
``tag=<name>``) is an ablation of its baseline, the tag of the same profile without overrides
(``quick``, ``paper``). A cell is changed by the overrides when the spec of one of its jobs
differs, up to the tag, from the baseline's spec of the same job path (the workflow compares the
two plans, ``workflow/rules/report.smk``); its row shows the baseline's value from the
baseline's records, the difference, and the published value. Every other cell is the
baseline's own: its record was copied (``record/reuse.py``). A changed cell whose record was
copied from a third tag (the same ablation run before under another name) says so too.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from .cells import _fmt, _job_of
from .document import Heading, Paragraph, Styled, Table
from .tables import build_table

CHANGED = "changed"  # a job of the cell has another spec than the baseline's
COPIED = "copied"  # the baseline's specs, and records: copied (or run again here)
UNCHANGED = "unchanged"  # the baseline's specs, no record under this tag yet (a partial report)


@dataclass(frozen=True)
class Ablation:
    """What an ablation's report compares with: its ``baseline`` tag, the ``overrides`` that
    make it, the job paths whose spec differs from the baseline's (``changed``), why a changed
    job's baseline value is missing (``missing``: job path to why), the jobs the report has a
    record of (``recorded``) and the tag each copied record came from (``copied_from``: job path
    to tag); ``cells``: the baseline's cells of each table (``(paper, table)``:
    ``baseline_cells``)."""

    baseline: str
    overrides: tuple[str, ...]
    changed: frozenset[str]
    missing: dict[str, str]
    recorded: frozenset[str]
    copied_from: dict[str, str]
    cells: dict[tuple[str, str], pd.DataFrame]


def donor_tag(record: dict) -> str | None:
    """The tag a record (its provenance) was copied from (its ``reused`` entry names the donor's
    CSV, ``results/runs/<tag>/<job>.csv``), or None for a record trained under its own tag."""
    donor = record.get("reused", {}).get("from")
    return None if donor is None else donor.split("/")[2]


def baseline_cells(runs: pd.DataFrame, spec: dict, missing: dict, pending: dict) -> pd.DataFrame:
    """The baseline's cells of the table of ``spec`` from ``runs``, the rows of the baseline's
    records of the changed jobs and the report's own rows of the others; a pooled cell waits for
    its method's every job, as in a partial report (``pending``, and ``missing``: the changed jobs
    without a baseline record)."""
    return build_table(runs, spec, {**pending, **missing}).cells


def _jobs_of(cell_job: str, jobs) -> list[str]:
    """The jobs among ``jobs`` that make the cell whose job path (or directory) is ``cell_job``."""
    return [job for job in jobs if job == cell_job or job.startswith(cell_job + "/")]


COMPARISON_COLUMNS = (
    "dataset",
    "method",
    "published_mean",
    "mean",
    "baseline_mean",
    "delta",
    "state",
    "note",
)


def _note(cell, jobs: list[str], changed: list[str], base: float, ablation: Ablation) -> str:
    """What a cell's row says besides its state: why a changed cell lacks the baseline's value or
    its own, or where its records were copied from."""
    missing = [ablation.missing[job] for job in changed if job in ablation.missing]
    donors = sorted({ablation.copied_from[job] for job in jobs if job in ablation.copied_from})
    if missing:
        return "; ".join(dict.fromkeys(missing))
    if changed and pd.isna(cell["mean"]):
        return "no value under this tag (its verdict above says why)"
    if changed and pd.isna(base):
        return f"no value under tag {ablation.baseline}"
    if donors:
        return f"from tag {', '.join(donors)}" + (", which ran the same specs" if changed else "")
    if changed:
        return ""
    if not any(job in ablation.recorded for job in jobs):
        return "not run under this tag yet"
    return f"the same specs as tag {ablation.baseline}"


def compare_with_baseline(
    cells: pd.DataFrame, baseline: pd.DataFrame, spec: dict, ablation: Ablation
) -> pd.DataFrame:
    """One row per cell of the table (``cells``, beside the ``baseline``'s): ``dataset``,
    ``method``, ``published_mean``, ``mean`` (this run's), ``baseline_mean`` (of a changed cell
    whose baseline jobs all have a record) and ``delta`` (this run's − the baseline's), ``state``
    (``changed``, ``copied`` or ``unchanged``: not run here yet) and ``note`` (``_note``)."""
    by_cell = baseline.set_index(["dataset", "method"])["mean"]
    rows = []
    for _, cell in cells.iterrows():
        cell_job = _job_of(spec, cell)
        changed = _jobs_of(cell_job, ablation.changed)
        jobs = _jobs_of(cell_job, ablation.recorded | ablation.changed)
        known = bool(changed) and not any(job in ablation.missing for job in changed)
        base = by_cell.get((cell["dataset"], cell["method"]), float("nan")) if known else float("nan")
        recorded = any(job in ablation.recorded for job in jobs)
        rows.append(
            {
                "dataset": cell["dataset"],
                "method": cell["method"],
                "published_mean": cell["published_mean"],
                "mean": cell["mean"],
                "baseline_mean": base,
                "delta": cell["mean"] - base,
                "state": CHANGED if changed else COPIED if recorded else UNCHANGED,
                "note": _note(cell, jobs, changed, base, ablation),
            }
        )
    return pd.DataFrame(rows, columns=list(COMPARISON_COLUMNS))


def ablation_title(tag: str, ablation: Ablation) -> str:
    """What the report's title says of an ablation: "tag quick-1a2b3c4d, an ablation of tag
    quick: method.rf.params.n_estimators=30"."""
    return f"tag {tag}, an ablation of tag {ablation.baseline}: {'; '.join(ablation.overrides)}"


def _states_text(states: pd.Series) -> str:
    """``3 changed by the overrides, 12 copied ...``: cells by state (``compare_with_baseline``)."""
    counts = states.value_counts()
    return ", ".join(
        f"{int(counts.get(state, 0))} {text}"
        for state, text in (
            (CHANGED, "changed by the overrides (a job's spec differs from the baseline's)"),
            (COPIED, "copied (the baseline's specs and records)"),
            (UNCHANGED, "unchanged and not run under this tag yet"),
        )
        if state != UNCHANGED or counts.get(state, 0)
    )


def ablation_intro(tag: str, ablation: Ablation, comparisons: list[pd.DataFrame]) -> Paragraph:
    """The report's first lines on an ablation: its overrides, its baseline, and its tables'
    cells (``comparisons``, ``compare_with_baseline``'s) by state."""
    states = pd.concat([c["state"] for c in comparisons]) if comparisons else pd.Series(dtype=str)
    return Paragraph(
        f"An ablation: tag {tag} is the configuration of tag {ablation.baseline} (the same profile "
        f"without overrides) with the overrides {'; '.join(ablation.overrides)}. Of the {len(states)} "
        f"cells of its tables: {_states_text(states)}. Each table's section ends with its cells "
        f"against the baseline's: a changed cell with the baseline's value and the difference."
    )


def baseline_blocks(comparison: pd.DataFrame, spec: dict, ablation: Ablation) -> list:
    """A table's cells against the baseline (``compare_with_baseline``'s), counted by state, and
    where the overrides changed some, one row per cell: a changed cell with the published value,
    the baseline's, this run's and the difference; each other cell marked as copied (or not run
    yet)."""
    digits = spec.get("digits", 4)
    rows = tuple(
        (
            r["dataset"],
            r["method"],
            _fmt(r["published_mean"], digits),
            _fmt(r["baseline_mean"], digits) if r["state"] == CHANGED else "the same",
            _fmt(r["mean"], digits),
            _fmt(r["delta"], digits),
            Styled(
                f"{r['state']}: {r['note']}" if r["note"] else r["state"],
                "out" if r["state"] == CHANGED else "none",
            ),
        )
        for _, r in comparison.iterrows()
    )
    heading = Heading(f"Against the baseline (tag {ablation.baseline})", 4)
    counts = f"This table's {len(comparison)} cell{'s' * (len(comparison) != 1)}: {_states_text(comparison['state'])}."
    if not (comparison["state"] == CHANGED).any():  # no value to set beside the baseline's
        return [heading, Paragraph(counts)]
    return [
        heading,
        Paragraph(counts),
        Table(
            (
                "Data set",
                "Method",
                "Published",
                f"Baseline ({ablation.baseline})",
                "This run",
                "Δ (this run − baseline)",
                "Cell",
            ),
            rows,
            caption="Each cell against the baseline: a changed cell's job spec differs from the baseline's",
        ),
    ]
