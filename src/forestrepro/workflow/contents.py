"""What a report holds: its tables and figures, the records it shows, and why a job has none.

A table or figure of an experiment with no job at all (an override emptied its data sets or
methods) is left out of any report. A partial report (``partial``) shows a job's record only when
every job of its cell (one, or one per repeat) has one, so a cell of repeats never shows the mean
of some of its splits; a table none of whose cells has a shown job is left out of it too, and
named there with its experiment; a figure with nothing to draw is left out. ``report_plan`` gives
the workflow all of it at once, with where the report goes.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..record.attempt import failure_note
from ..report import location
from .errors import PlanError
from .only import Only, finished
from .states import JobStates, record_of


def planned(jobs: list) -> set[tuple[str, str]]:
    """The (paper, experiment) pairs that have a job."""
    return {(job.paper, job.experiment) for job in jobs}


@dataclass(frozen=True)
class Contents:
    """A report's ``tables`` and ``figures`` ((paper, name) pairs, in the configuration's order),
    its ``ranked_tables`` (those with ranks and a CD diagram) and, in a partial report, the
    tables ``left_out`` for want of a finished cell."""

    tables: list[tuple[str, str]]
    ranked_tables: list[tuple[str, str]]
    figures: list[tuple[str, str]]
    left_out: list[tuple[str, str]]


class Shown:
    """Whether a report shows a job's record: always, or in a partial report only when every
    job of its cell is ``finished`` (a callable of a job)."""

    def __init__(self, jobs: list, finished: Callable, partial: bool):
        self.partial = partial
        self._complete: dict[str, bool] = {}
        for job in jobs:
            self._complete[job.cell] = self._complete.get(job.cell, True) and finished(job)

    def __call__(self, job) -> bool:
        return not self.partial or self._complete[job.cell]


def _has_a_cell_run(cfg: dict, paper: str, table: str, jobs: list, shown: Shown) -> bool:
    """Whether some shown job of ``table``'s experiment is one of its cells (its method and data
    set are in the table): an experiment's finished runs may all lie outside a table of it."""
    tcfg = cfg["paper"][paper]["tables"][table]
    return any(
        job.paper == paper
        and job.experiment == tcfg["experiment"]
        and shown(job)
        and job.method in tcfg["methods"]
        and (tcfg.get("pool_datasets") or job.dataset in tcfg["datasets"])
        for job in jobs
    )


def _has_a_figure_run(cfg: dict, paper: str, figure: str, jobs: list, shown: Shown) -> bool:
    """Whether some shown job of ``figure``'s experiment is drawn in it: one of its methods, and
    its data set where the figure names one (``dataset``) or some (``datasets``)."""
    fcfg = cfg["paper"][paper]["figures"][figure]
    methods = fcfg.get("methods") or cfg["paper"][paper]["experiments"][fcfg["experiment"]]["methods"]
    datasets = [fcfg["dataset"]] if "dataset" in fcfg else fcfg.get("datasets")
    return any(
        job.paper == paper
        and job.experiment == fcfg["experiment"]
        and shown(job)
        and job.method in methods
        and (datasets is None or job.dataset in datasets)
        for job in jobs
    )


def shown_items(cfg: dict) -> list[str] | None:
    """``report.show``: the names of the tables and figures a page shows, in its order (None:
    every one, tables first). ``PlanError`` for a name no table or figure of ``papers`` has."""
    show = cfg["report"].get("show")
    if show is None:
        return None
    names = {
        name
        for paper in cfg["papers"]
        for group in ("tables", "figures")
        for name in cfg["paper"][paper].get(group, {})
    }
    unknown = [name for name in show if name not in names]
    if unknown:
        raise PlanError(
            f"report.show names {', '.join(map(repr, unknown))}: no table or figure of papers "
            f"{list(cfg['papers'])} is so named (they are {', '.join(sorted(names))})"
        )
    return list(show)


def report_contents(cfg: dict, jobs: list, shown: Shown) -> Contents:
    """The tables and figures of the report of ``jobs``: those of experiments with jobs, and in a
    partial report those with a shown job in them; of those, with ``report.show``, the ones it
    names, in its order (``shown_items``)."""
    with_jobs = planned(jobs)
    show = shown_items(cfg)
    tables = [
        (paper, table)
        for paper in cfg["papers"]
        for table, tcfg in cfg["paper"][paper]["tables"].items()
        if (paper, tcfg["experiment"]) in with_jobs and (show is None or table in show)
    ]
    figures = [
        (paper, figure)
        for paper in cfg["papers"]
        for figure, fcfg in cfg["paper"][paper].get("figures", {}).items()
        if (paper, fcfg["experiment"]) in with_jobs and (show is None or figure in show)
    ]
    if show is not None:
        tables.sort(key=lambda pair: (cfg["papers"].index(pair[0]), show.index(pair[1])))
        figures.sort(key=lambda pair: (cfg["papers"].index(pair[0]), show.index(pair[1])))
    left_out = []
    if shown.partial:
        left_out = [(p, t) for p, t in tables if not _has_a_cell_run(cfg, p, t, jobs, shown)]
        tables = [pair for pair in tables if pair not in left_out]
        figures = [(p, f) for p, f in figures if _has_a_figure_run(cfg, p, f, jobs, shown)]
    ranked = [(p, t) for p, t in tables if cfg["paper"][p]["tables"][t].get("rank", True)]
    return Contents(tables, ranked, figures, left_out)


def reported_jobs(cfg: dict, contents: Contents, jobs: list) -> dict[str, list]:
    """``{"<paper>/<experiment>": its jobs}`` of the experiments the report's tables and figures
    read, sorted, each experiment's jobs in plan order (the order its tables read the rows): the
    jobs of the methods they read, a table's ``methods`` and a figure's (every method of its
    experiment where it names none). A page that ``report.show`` narrows to some tables of an
    experiment so shows and waits for their methods' records alone (the out-of-sample claims
    without the ranking's DF and WDF); with every table shown, every job of the experiment."""
    paper = cfg["paper"]
    read = [(p, paper[p]["tables"][t]) for p, t in contents.tables]
    read += [(p, paper[p]["figures"][f]) for p, f in contents.figures]
    methods: dict[tuple[str, str], set | None] = {}  # None: every method of the experiment
    for p, item in read:
        key = (p, item["experiment"])
        if "methods" not in item or methods.get(key, set()) is None:
            methods[key] = None
        else:
            methods[key] = methods.get(key, set()) | set(item["methods"])
    return {
        f"{p}/{e}": [
            job
            for job in jobs
            if (job.paper, job.experiment) == (p, e)
            and (methods[p, e] is None or job.method in methods[p, e])
        ]
        for p, e in sorted(methods)
    }


def partial_spec(
    cfg: dict, jobs: list, shown: Shown, finished: Callable, left_out: list, reason: Callable
) -> dict:
    """What a partial report says (``forestrepro report --partial``): how many of ``jobs`` are
    ``finished``, the ``reason`` each job it does not show has no record, and the experiment of
    each table ``left_out``."""
    return {
        "finished": sum(map(finished, jobs)),
        "jobs": len(jobs),
        "pending": {job.path: reason(job) for job in jobs if not shown(job)},
        "left_out": {f"{p}/{t}": cfg["paper"][p]["tables"][t]["experiment"] for p, t in left_out},
    }


def committed_pieces(manifest: Path) -> str | None:
    """What a stopped run of a job committed of its finished pieces (``forestrepro pieces keep``:
    their ``manifest``), in words, or None."""
    if not manifest.exists():
        return None
    kept = json.loads(manifest.read_text(encoding="utf-8"))
    files = ", ".join(f"{n} {kind} file(s)" for kind, n in kept["files"].items() if n)
    commit = (kept.get("commit") or "?")[:7]
    return f"{files} committed as pieces (kept {kept['kept']} at {commit}), for its next run to resume from"


def pending_reason(status, note: Path, pieces: str | None, finished: bool, donor: str | None) -> str:
    """Why a job has no shown record, for a partial report: its failure ``note``, its record's
    ``status`` (stale), that it is ``finished`` but its cell is not, that it copies ``donor``, or
    that it has not run (or not to the end: its committed ``pieces``)."""
    if note.exists():
        return (
            "failed: "
            + " ".join(note.read_text(encoding="utf-8").split())
            + (f"; {pieces}" if pieces else "")
        )
    if status.state == "stale":
        return f"stale, not rerun yet ({status.reason})" + (f"; {pieces}" if pieces else "")
    if finished:
        return "finished, shown once every repeat of its cell has run"
    if donor is not None:
        return f"not copied yet from {donor} (the same job under another tag)"
    return f"not finished yet: {pieces}" if pieces else "not run yet"


def covers(report_dir: str, committed_reports: str | Path) -> str:
    """What a committed report covers, as ``reports.yaml`` of the committed reports says (its
    entry's ``covers``), stated under its title; empty for any other report."""
    import yaml

    manifest = Path(committed_reports) / "reports.yaml"
    if not manifest.exists():
        return ""
    entries = yaml.safe_load(manifest.read_text(encoding="utf-8")) or {}
    return str(entries.get(os.path.relpath(report_dir, committed_reports), {}).get("covers", ""))


def check_records_only(jobs: list, records: dict, shown_runs: set[str], record_of: Callable) -> None:
    """records_only=true (``make report``): refuse (``PlanError``) a report whose shown records
    (``shown_runs``, their CSVs) are not all current, naming up to 20 of them."""
    not_current = [
        f"{job.path} ({records[job.path].state}{f': {records[job.path].reason}' if records[job.path].reason else ''})"
        for job in jobs
        if record_of(job) in shown_runs and not records[job.path].current
    ]
    if not_current:
        raise PlanError(
            f"records_only=true, but {len(not_current)} of the report's {len(jobs)} records are missing or "
            "stale:\n  " + "\n  ".join(not_current[:20]) + ("\n  ..." if len(not_current) > 20 else "")
        )


@dataclass(frozen=True)
class ReportPlan:
    """What a run's report holds and where it goes: whether it is ``partial``, its ``tables``,
    ``ranked_tables`` and ``figures`` (as ``Contents``), the ``reported_jobs`` of the experiments
    it reads (plan order) and ``shown`` (which of them it shows), the CSVs of the shown records by
    experiment (``runs``) and sorted (``reported_runs``), its folder ``dir``, whether that is a
    ``committed`` report and what it ``covers``, and a partial report's spec text
    (``partial_spec``, else None)."""

    partial: bool
    tables: list[tuple[str, str]]
    ranked_tables: list[tuple[str, str]]
    figures: list[tuple[str, str]]
    reported_jobs: list
    shown: Shown
    runs: dict[str, list[str]]
    reported_runs: list[str]
    dir: str
    committed: bool
    covers: str
    partial_spec: str | None


def report_plan(
    cfg: dict,
    jobs: list,
    states: JobStates,
    only: Only,
    results: str,
    tag: str,
    *,
    partial: bool,
    report_dir: str | None,
    records_only: bool,
) -> ReportPlan:
    """The report of a run of ``jobs`` under ``tag``: ``partial`` (``--config partial=``), or made
    so by an only= that leaves some job without a record; a partial report shows complete cells
    alone (``Shown``) and says why each other job has no record (``pending_reason``), and while
    none is complete it holds nothing (no figure either). ``report_dir`` and ``records_only``
    are ``--config``'s (``report.location``). ``PlanError``: partial=true without a complete cell
    (and no only=), a report folder in the committed reports, or records_only=true with a shown
    record that is not current."""

    def finished_here(job) -> bool:
        return finished(job, states, only)

    def why_pending(job) -> str:
        pieces = committed_pieces(Path(results) / "runs" / tag / "pieces" / job.path / "manifest.json")
        note = failure_note(record_of(results, tag, job))
        return pending_reason(
            states.records[job.path], note, pieces, finished_here(job), states.copies.get(job.path)
        )

    partial = partial or (only.given and not all(map(finished_here, jobs)))
    shown = Shown(jobs, finished_here, partial)
    held = report_contents(cfg, jobs, shown)
    if partial and not held.tables and not only.given:
        raise PlanError(
            f"--config partial=true, but no cell of tag '{tag}' is complete yet: "
            f"{sum(map(finished_here, jobs))} of its {len(jobs)} jobs have finished"
        )
    figures = [] if partial and not held.tables else held.figures  # only= completes no cell yet
    experiments = reported_jobs(cfg, held, jobs)  # "<paper>/<experiment>": its jobs
    read = {job for members in experiments.values() for job in members}
    reported = [job for job in jobs if job in read]  # in plan order
    spec_text = None
    if partial:
        spec = partial_spec(cfg, reported, shown, finished_here, held.left_out, why_pending)
        spec_text = json.dumps(spec, indent=1, sort_keys=True) + "\n"
    runs = {
        experiment: [record_of(results, tag, job) for job in members if shown(job)]
        for experiment, members in experiments.items()
    }
    reported_runs = sorted({run for paths in runs.values() for run in paths})
    try:
        folder = location.report_dir(tag, report_dir, records_only)
    except location.ReportDirError as err:
        raise PlanError(str(err)) from err
    committed = location.is_committed(folder)
    what_it_covers = covers(folder, location.COMMITTED_REPORTS) if committed else ""
    if records_only:
        check_records_only(
            reported, states.records, set(reported_runs), lambda job: record_of(results, tag, job)
        )
    return ReportPlan(
        partial,
        held.tables,
        held.ranked_tables,
        figures,
        reported,
        shown,
        runs,
        reported_runs,
        folder,
        committed,
        what_it_covers,
        spec_text,
    )
