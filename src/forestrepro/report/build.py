"""The report of a tag: published vs regenerated, cell by cell, with ranks, CD and notes.

Writes ``<out_dir>/index.md`` and ``index.html`` and copies the PNG figures beside them, so the
report directory stands alone (``results/report/paper/`` is committed as it is made).
"""

from __future__ import annotations

import json
import os
import shutil
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from ..io import write_text_atomic
from .claims import FAILS, HOLDS, UNKNOWN, evaluate_claim
from .deviations import UNEXPLAINED, counted, data_candidates, explain
from .document import (
    Bullets,
    Document,
    Figure,
    Heading,
    Paragraph,
    Styled,
    Table,
    anchors,
    to_html,
    to_markdown,
)
from .tables import format_cell


class DirtyRecordError(ValueError):
    """A committed report was asked to rest on records made from a tree with uncommitted changes."""


def _counted(values) -> str:
    """``a (3), b (1)``: distinct values, most frequent first, then by value."""
    counts: dict[str, int] = {}
    for value in values:
        counts[value] = counts.get(value, 0) + 1
    return ", ".join(f"{v} ({n})" for v, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


def provenance_block(tag: str, records: list[dict], n_jobs: int) -> list:
    """Where the report's numbers come from: its run records' commits, trees, code, machines.

    Everything here is read from the records, nothing from the moment or machine the report
    is made on, so rebuilding the report from the same records gives the same bytes."""
    dirty = [record_job(r) for r in records if r["git"].get("clean") is not True]
    times = sorted(r["made"] for r in records)
    packages = [", ".join(f"{k} {v}" for k, v in sorted(r["environment"]["packages"].items())) for r in records]
    items = [
        (f"tag: {tag}; {len(records)} run records of the {n_jobs} jobs, under results/runs/{tag}/ "
         "(each job's rows in <job>.csv, its spec, code, data and machine in <job>.provenance.json)"),
        "commits the records were made at: " + (_counted(str(r["git"].get("commit")) for r in records) or "none"),
        ("trees: every record was made from a clean tree" if not dirty else
         f"trees: {len(dirty)} records were made from a tree with uncommitted changes: " + ", ".join(dirty)),
        "library code: " + _counted(r["code"]["digest"][:12] for r in records) + " (code digests)",
        "records made: " + (f"{times[0]} to {times[-1]}" if times else "none"),
        "machines: " + _counted(f"{r['environment']['machine']}, Python {r['environment']['python']}" for r in records),
        "packages: " + _counted(packages),
    ]
    return [Heading("Provenance"), Bullets(tuple(items))]


def record_job(record: dict) -> str:
    """The path of the job that wrote ``record``: its cell (``record["job"]``), and
    ``/repeat<k>`` for a job that ran repeat k alone (its spec's protocol names the repeat)."""
    repeat = record["spec"].get("protocol", {}).get("repeat")
    return record["job"] if repeat is None else f"{record['job']}/repeat{repeat}"


def records_block(tag: str, records: list[dict], out_dir: Path) -> list:
    """One row per run record, with a link to its rows: the per-fold values behind each cell."""
    runs = Path("results") / "runs" / tag
    rows = tuple(
        (
            record_job(r),
            f"[{record_job(r)}.csv]({_relative(runs / (record_job(r) + '.csv'), out_dir)})",
            str(r["rows"]),
            str(r["git"].get("commit") or "?")[:10] + ("" if r["git"].get("clean") else " (dirty)"),
            f"{r['wall_seconds']:.0f}",
        )
        for r in sorted(records, key=record_job)
    )
    return [Heading("Run records"), Table(("Job", "Record", "Rows", "Commit", "Wall s"), rows)] if rows else []


def _relative(target: Path, out_dir: Path) -> str:
    """``target`` (relative to the repository root) as seen from ``out_dir``."""
    return os.path.relpath(target, out_dir).replace(os.sep, "/")


def _fmt(value: float, digits: int = 4) -> str:
    return "—" if pd.isna(value) else f"{value:.{digits}f}"


def _job_of(spec: dict, cell) -> str:
    """The path of a table's cell, <paper>/<experiment>/<method>/<dataset>: its job's path, or
    the directory of its jobs under a protocol with one job per repeat (``<cell>/repeat<k>``)."""
    return f"{spec['paper']}/{spec['experiment']}/{cell['method']}/{cell['dataset']}"


def _pending_of(job: str, pending: dict) -> str | None:
    """Why the job of a cell, or the jobs of its repeats, have no current record, or None."""
    if job in pending:
        return pending[job]
    parts = Counter(why for part, why in pending.items() if part.startswith(job + "/"))
    total = sum(parts.values())
    return "; ".join(f"{why}: {n} of {total} repeat jobs" for why, n in sorted(parts.items())) if parts else None


def _missing_reason(cell, spec: dict, pending: dict, record_link=lambda job: None) -> str:
    """Why a regenerated cell is empty: its job failed, is stale or has not run (``pending``,
    from a partial report's plan), its record holds no value (e.g. no C2RF sample with a
    solution within the time limit), or runs without enough values (too few solved)."""
    job = _job_of(spec, cell)
    if cell["n_folds"] == 0:
        why = _pending_of(job, pending)
        if why is not None:
            return why
        ran = record_link(job) is not None
        return "no value: the job ran, but none of its runs has one" if ran else "not computed"
    return f"no value: {int(cell['n_folds'])} run(s) but too few solved or scored"


def _verdict(cell, spec: dict, pending: dict, record_link=lambda job: None) -> Styled:
    if bool(cell.get("beyond_limit", False)):  # whether or not our runs reached a value
        return Styled(f"beyond our limit: the paper's value exceeds our {spec['limit']} of {spec['limit_value']:g}",
                      "none")
    if pd.isna(cell["mean"]):
        return Styled(_missing_reason(cell, spec, pending, record_link), "none")
    if pd.isna(cell["published_mean"]):
        return Styled("not in the paper", "none")
    return _tolerance_verdict(bool(cell["within"]))


def _tolerance_verdict(within: bool) -> Styled:
    return Styled("within tolerance", "ok") if within else Styled("OUTSIDE tolerance", "out")


def _cell_rows(cells: pd.DataFrame, spec: dict, pending: dict, record_link) -> tuple:
    """One row per cell; the regenerated value links to the run record it comes from."""
    digits = spec.get("digits", 4)
    rows = []
    for _, c in cells.iterrows():
        regenerated = format_cell(c["mean"], c["std"], digits)
        link = record_link(_job_of(spec, c))
        rows.append(
            (
                c["dataset"],
                c["method"] + (f" ({c['paper_method']})" if isinstance(c["paper_method"], str) else " (ours only)"),
                format_cell(c["published_mean"], c["published_std"], digits),
                f"[{regenerated}]({link})" if link and not pd.isna(c["mean"]) else regenerated,
                _fmt(c["delta"], digits),
                _fmt(c["tolerance"], digits),
                _verdict(c, spec, pending, record_link),
            )
        )
    return tuple(rows)


def _rank_rows(ranks: dict, methods: dict) -> tuple:
    rows = []
    for key, label in (("ours", "regenerated"), ("published", "paper (same cells, re-ranked)")):
        s = ranks[key]
        mean_ranks = s.get("mean_ranks", {})
        rows.append(
            (
                label,
                *(_fmt(mean_ranks.get(m, float("nan"))) for m in methods),
                str(s["n_datasets"]),
                _fmt(s.get("friedman_chi2", float("nan")), 3),
                _fmt(s.get("friedman_p", float("nan")), 4),
                _fmt(s.get("iman_davenport_f", float("nan")), 3),
                _fmt(s.get("iman_davenport_p", float("nan")), 4),
                _fmt(s.get("nemenyi_cd", float("nan")), 3),
            )
        )
    return tuple(rows)


def _dataset_notes(spec: dict, dataset_specs: dict, data_provenance: dict, rows_fed: dict) -> list[str]:
    return [f"{dataset}: {found}" for dataset in spec["dataset_order"]
            for found in data_candidates(dataset, spec["paper"], dataset_specs, data_provenance,
                                         rows_fed.get(dataset))]


def ablation_blocks(explained: pd.DataFrame) -> list:
    """What an ablation table's cells outside tolerance mean: not deviations of the reproduction
    to be explained, but how far another reading (or our variant) lands from the paper's column."""
    return [Paragraph(
        f"An ablation (the table's ablation: true): each row runs a reading or variant other than the "
        f"paper's method on purpose, beside the paper's column to show which lands closer. Its "
        f"{len(explained)} cells outside tolerance are that finding, not deviations of the reproduction, "
        "and are not counted as unexplained; the paper's method is in the tables above.")]


def deviation_blocks(explained: pd.DataFrame, digits: int) -> list:
    """The cells outside tolerance, counted by cause, each with its cause or as unexplained."""
    if explained.empty:
        return []
    rows = tuple((r["dataset"], r["method"], _fmt(r["delta"], digits),
                  Styled(r["cause"], "out" if r["cause"] == UNEXPLAINED else "ok"),
                  r["evidence"] or (f"candidate, not tested: {r['candidates']}" if r["candidates"] else ""))
                 for _, r in explained.iterrows())
    return [
        Heading("Deviations", 4),
        Paragraph(f"{len(explained)} cells outside tolerance, by cause: {counted(explained)}. A cause is "
                  "attached only where the rule's test holds (report/deviations.py)."),
        Table(("Data set", "Method", "Δ", "Cause", "Evidence"), rows),
    ]


def claims_blocks(claims: list[dict]) -> list:
    """The table of claim verdicts (none when there is no claim)."""
    if not claims:
        return []
    return [
        Table(
            ("Claim", "On the paper's numbers", "On ours", "Evidence (paper; ours)"),
            tuple((c["claim"], c["paper"], c["ours"], f"{c['paper_evidence']}; {c['ours_evidence']}") for c in claims),
            caption="The paper's claims, checked",
        )
    ]


def _figure_claims(png: Path) -> list[dict]:
    """The verdicts the figure rule wrote beside ``png`` (``<stem>.claims.json``), if any."""
    path = png.with_suffix(".claims.json")
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else []


def figure_caption(fspec: dict) -> str:
    """A figure's caption, with ``{dataset}`` replaced by the data set it draws."""
    return fspec["caption"].replace("{dataset}", str(fspec.get("dataset", "")))


@dataclass(frozen=True)
class TableResult:
    """A regenerated table as the report reads it, each part computed once: its cells
    (``<stem>.csv``), rank statistics (``<stem>_ranks.json``), claim verdicts, and the cells
    outside tolerance with their causes (``deviations.explain``)."""

    spec: dict
    cells: pd.DataFrame
    ranks: dict
    claims: list[dict]
    explained: pd.DataFrame


def _table_cells(stem: Path) -> pd.DataFrame:
    cells = pd.read_csv(stem.with_suffix(".csv"))
    cells["within"] = cells["within"].map(lambda v: None if pd.isna(v) else bool(v))
    if "beyond_limit" in cells:
        cells["beyond_limit"] = cells["beyond_limit"].astype(bool)
    return cells


def table_result(stem: Path, spec: dict, dataset_specs: dict, data_provenance: dict,
                 table_cells=lambda table: None) -> TableResult:
    """Read and judge one regenerated table; ``table_cells(table)`` gives the cells of another
    table of the paper (for the cause tests)."""
    cells = _table_cells(stem)
    ranks = json.loads((stem.parent / f"{stem.name}_ranks.json").read_text(encoding="utf-8"))
    claims = [evaluate_claim(c, cells, ranks, spec) for c in spec.get("claims", [])]
    return TableResult(spec, cells, ranks, claims,
                       explain(cells, spec, table_cells, dataset_specs, data_provenance))


def summary_row(result: TableResult, anchor: str) -> tuple[str, ...]:
    """A table's line in the report's summary: cells within tolerance, cells outside it without
    a cause, empty cells, claims on our numbers by verdict."""
    cells, spec, explained = result.cells, result.spec, result.explained
    computed = cells[cells["within"].notna()]
    claims = [c["ours"] for c in result.claims]
    return (
        spec["paper"].upper(),
        f"[{spec['table']}](#{anchor})",
        f"{int(computed['within'].astype(bool).sum())} of {len(computed)}",
        # an ablation's cells run another reading on purpose: outside tolerance is its finding
        f"ablation: {len(explained)} outside" if spec.get("ablation")
        else f"{int((explained['cause'] == UNEXPLAINED).sum())} of {len(explained)}",
        str(int(cells["mean"].isna().sum())),
        f"{claims.count(HOLDS)} / {claims.count(FAILS)} / {claims.count(UNKNOWN)}" if claims else "none",
    )


def _p(value) -> str:
    return "—" if value is None else f"{value:.3g}"


def average_blocks(averages: list | None, spec: dict) -> list:
    """The table's average rows (the paper's "Avg" rows), ours beside the paper's."""
    if not averages:
        return []
    digits = spec.get("digits", 4)
    rows = []
    for a in averages:
        if a["within"] is not None:
            verdict = _tolerance_verdict(a["within"])
        else:
            verdict = Styled("a cell of the group is missing" if a["mean"] is None else "not in the paper", "none")
        paper = spec["methods"][a["method"]]
        rows.append((f"Avg ({a['group']}: {', '.join(a['datasets'])})",
                     a["method"] + (f" ({paper})" if paper else " (ours only)"),
                     *(_fmt(a[key], digits) for key in ("published_mean", "mean", "delta", "tolerance")), verdict))
    return [Table(("Average row", "Method (paper's name)", "Published", "Regenerated", "Δ", "Tolerance", "Verdict"),
                  tuple(rows), caption="Average rows: the mean of each group's cells (the paper's from its cells)")]


def paired_blocks(paired: list | None, spec: dict) -> list:
    """Per data set, ``a`` − ``b`` on the same splits with the corrected resampled t-test; across
    data sets the sign and Wilcoxon signed-ranks tests (stats/paired.py)."""
    blocks = []
    digits = spec.get("digits", 4)
    for test in paired or []:
        rows = tuple(
            (dataset, str(d["n_splits"]), _fmt(d["mean_diff"], digits),
             _fmt(d["std_diff"], digits), _p(d["p"]),
             "—" if d["significant"] is None else (("yes, " + (test["a"] if d["mean_diff"] > 0 else test["b"]) + " better")
                                                    if d["significant"] else "no"))
            for dataset, d in ((name, test["per_dataset"][name]) for name in spec["dataset_order"]
                               if name in test["per_dataset"])
        )
        across = test["across"]
        blocks += [
            Table(("Data set", "Splits", f"{test['a']} − {test['b']} (mean)", "std", "p", f"significant at α = {test['alpha']}"),
                  rows, caption=f"{test['a']} against {test['b']} on the same splits (positive: {test['a']} better); "
                                "p of Nadeau and Bengio's corrected resampled t-test (none with one split)"),
            Paragraph(f"Across the {across['n_datasets']} data sets: {test['a']} better on {across['wins']}, worse on "
                      f"{across['losses']}, tied on {across['ties']}; sign test p = {_p(across['sign_p'])}, Wilcoxon "
                      f"signed-ranks test p = {_p(across['wilcoxon_p'])} (Demšar 2006, Sec. 3.1)."),
        ]
    return blocks


def table_section(result: TableResult, figure: Path | None, pending: dict | None = None,
                  record_link=lambda job: None) -> list:
    """The report section of one regenerated table; ``pending`` says why a job has no record
    yet (a partial report); ``record_link(job)`` is the link to a job's record, or None."""
    pending = pending or {}
    spec, cells, ranks = result.spec, result.cells, result.ranks
    computed = cells[cells["within"].notna()]
    agree = int(computed["within"].astype(bool).sum())
    n_missing = int((cells["mean"].isna() & (cells["n_folds"] == 0)).sum())
    n_empty = int((cells["mean"].isna() & (cells["n_folds"] > 0)).sum())
    blocks = [
        Heading(f"{spec['table']}: {spec['caption']}", 3),
        Paragraph(
            f"{agree} of {len(computed)} regenerated cells with a published value lie within tolerance of the published value "
            f"(|Δ| ≤ max({spec['report']['tolerance_std_factor']} × published std, "
            f"{spec.get('tolerance_abs', spec['report']['tolerance_abs'])})); "
            f"{n_missing} cells were not computed"
            + (f", {n_empty} have runs but no value" if n_empty else "")
            + f". Metric: {spec['metric']}, "
            + ("median over the samples." if spec.get("aggregate") == "median"
               else "mean ± std over folds and repeats (a single value where there is one split).")
        ),
        Table(
            ("Data set", "Method (paper's name)", "Published", "Regenerated", "Δ", "Tolerance", "Verdict"),
            _cell_rows(cells, spec, pending, record_link),
            caption="Cell by cell",
        ),
        *average_blocks(ranks.get("averages"), spec),
        *paired_blocks(ranks.get("paired"), spec),
        *(ablation_blocks(result.explained) if spec.get("ablation")
          else deviation_blocks(result.explained, spec.get("digits", 4))),
    ]
    unplaced = [f"{kind} {', '.join(names)}" for kind, names in spec.get("unplaced", {}).items() if names]
    if unplaced:
        blocks.insert(2, Paragraph(
            f"Run by experiment '{spec['experiment']}' but not in this table, whose published version has no "
            f"row or column for them: {'; '.join(unplaced)}. Their numbers are in the run records."
        ))
    methods = spec["method_order"]
    if spec.get("rank", True):
        blocks.append(
            Table(
                ("Ranks of", *methods, "N", "Friedman χ²", "p", "Iman–Davenport F", "p", "Nemenyi CD"),
                _rank_rows(ranks, methods),
                caption=f"Mean ranks (1 = best) and tests at α = {spec.get('alpha', 0.05)}",
            )
        )
    printed = ranks["published"].get("paper_printed_mean_ranks", {})
    recomputed = ranks["published"].get("paper_recomputed_mean_ranks", {})
    if printed:
        blocks.append(
            Table(
                ("Mean ranks over the paper's whole table", *printed),
                (
                    ("printed in the paper", *(_fmt(r) for r in printed.values())),
                    ("recomputed from the paper's own cells", *(_fmt(recomputed.get(m, float("nan"))) for m in printed)),
                ),
                caption="A check of the paper's arithmetic (ties get the average rank)",
            )
        )
    blocks += claims_blocks(result.claims)
    if figure is not None:
        blocks.append(Figure(f"figures/{figure.name}", f"Critical-difference diagrams, {spec['paper']} {spec['table']}"))
    missing = cells[cells["mean"].isna()]
    notes = [f"{r['dataset']} / {r['method']}: {_missing_reason(r, spec, pending, record_link)}"
             for _, r in missing.iterrows()]
    excluded = ranks["ours"].get("excluded_datasets", [])
    if excluded:
        notes.append("left out of the regenerated ranks for a missing cell: " + ", ".join(excluded))
    if notes:
        blocks += [Heading("Missing cells", 4), Bullets(tuple(notes))]
    return blocks


def paper_notes(spec: dict, dataset_specs: dict, data_provenance: dict, rows_fed: dict | None = None) -> list[str]:
    """A paper's notes: its configured notes, per-data-set options, stand-ins, shape differences
    (``rows_fed``: the rows the protocol fed the method per data set, where the runs say)."""
    notes = list(spec.get("notes", []))
    for dataset, options in sorted(spec.get("dataset_options", {}).items()):
        if "subsample_rows" in options:
            notes.append(f"{dataset}: run on a seeded, class-stratified subsample of {options['subsample_rows']} rows.")
        if "repeats" in options:
            notes.append(f"{dataset}: {options['repeats']} split(s), in place of the protocol's "
                         f"(paper.{spec['paper']}.dataset_options.{dataset}.repeats).")
    return notes + _dataset_notes(spec, dataset_specs, data_provenance, rows_fed or {})


def data_provenance_of(records: list[dict]) -> dict:
    """``{data set: provenance of its data}`` as the records say (the first job's, by name)."""
    found: dict[str, dict] = {}
    for record in sorted(records, key=record_job):
        found.setdefault(record["spec"]["dataset"], record["data"])
    return found


def _fill_contents(doc: Document, at: int, table_at: list) -> None:
    """Fill in the summary (per table: cells within tolerance, empty cells, claims by verdict,
    linked to the table) at ``doc.blocks[at + 1]`` and the contents (links to each section) at
    ``doc.blocks[at + 3]``."""
    headings = [(i, b) for i, b in enumerate(doc.blocks) if isinstance(b, Heading)]
    anchor_at = dict(zip((i for i, _ in headings), anchors([Heading(doc.title, 1), *doc.blocks])[1:], strict=True))
    sections = tuple(f"[{b.text}](#{anchor_at[i]})" for i, b in headings if b.level == 2 and i > at + 2)
    summary = tuple(summary_row(result, anchor_at[i]) for i, result in table_at)
    doc.blocks[at + 1] = Table(
        ("Paper", "Table", "Cells within tolerance", "Outside without a cause", "Empty cells",
         "Claims hold / not / undecided"),
        summary, caption="Regenerated cells within tolerance of the published ones, and the paper's claims "
                         "checked on our numbers")
    doc.blocks[at + 3] = Bullets(sections)


def build_report(
    tag: str,
    tables: list[tuple[Path, dict, Path | None]],
    figures: list[tuple[Path, dict]],
    dataset_specs: dict,
    records: list[dict],
    out_dir: str | Path,
    n_jobs: int,
    partial: dict | None = None,
    committed: bool = False,
    embedded_html: str | Path | None = None,
) -> None:
    """Write ``index.md`` and ``index.html`` for ``tables`` = [(stem, spec, CD png or None)]
    and the papers' ``figures`` = [(png, spec)], from the run ``records`` (provenance dicts)
    of the report's ``n_jobs`` jobs. ``partial`` = {finished, jobs, pending: {job: why}} marks a
    report made before every job had finished (``--config partial=true``). A ``committed`` report refuses
    records made from a tree with uncommitted changes. ``out_dir/figures`` ends up holding
    exactly the figures the report shows. ``embedded_html``: also write the page with its figures
    embedded, as one self-contained file (for ``snakemake --report``)."""
    out_dir = Path(out_dir)
    if committed:
        dirty = sorted(record_job(r) for r in records if r["git"].get("clean") is not True)
        if dirty:
            raise DirtyRecordError(
                f"a committed report ({out_dir}) cannot rest on records made from a tree with uncommitted "
                f"changes (or outside git): {', '.join(dirty[:10])}{' ...' if len(dirty) > 10 else ''}; "
                "commit the code and rerun those jobs")
    data_provenance = data_provenance_of(records)
    shutil.rmtree(out_dir / "figures", ignore_errors=True)
    doc = Document(f"forestrepro report: {tag}")
    doc.add(
        Paragraph(
            "Each published number beside the number this pipeline regenerated from raw data. "
            "Nothing here is edited by hand."
        )
    )
    if tables and tables[0][1].get("profile") == "quick":
        doc.add(
            Paragraph(
                "Profile quick: few data sets, folds and trees, small grids. A demonstration of the "
                "pipeline; its numbers are not comparable with the papers'."
            )
        )
    pending = {} if partial is None else partial["pending"]
    if partial is not None:
        failed = {job: why for job, why in pending.items() if why.startswith("failed")}
        stale = sum(why.startswith("stale") for why in pending.values())
        held = sum(why.startswith("finished") for why in pending.values())
        waiting = partial["jobs"] - partial["finished"] - len(failed) - stale
        doc.add(
            Paragraph(
                f"Partial report: {partial['finished']} of the {partial['jobs']} jobs of this tag had "
                f"finished when it was made; {len(failed)} failed, {stale} have a stale record and "
                f"{waiting} have not run yet. A cell without a finished job says which, the ranks leave "
                "its data set out, and a claim that needs it cannot be checked unless the other cells "
                "decide it."
                + (f" A cell made of one job per repeat shows a value only once all of them have run: "
                   f"{held} finished jobs wait for the other repeats of their cell." if held else "")
            )
        )
        if failed:
            doc.add(Bullets(tuple(f"{job}: {why}" for job, why in sorted(failed.items()))))
    record_jobs = {record_job(r) for r in records}

    def record_link(cell: str) -> str | None:
        """The record of a cell's job, or the directory of its repeats' records."""
        if cell in record_jobs:
            return _relative(Path("results") / "runs" / tag / f"{cell}.csv", out_dir)
        if any(job.startswith(cell + "/") for job in record_jobs):
            return _relative(Path("results") / "runs" / tag / cell, out_dir) + "/"
        return None

    stems = {(spec["paper"], spec["table"]): stem for stem, spec, _ in tables}

    def cells_of(paper: str):
        return lambda table: _table_cells(stems[paper, table]) if (paper, table) in stems else None

    contents_at = len(doc.blocks)
    doc.add(Heading("Summary"), Bullets(()), Heading("Contents"), Bullets(()))  # filled in once every heading is known
    table_at = []  # (position of the table's heading, TableResult)
    papers = list(dict.fromkeys(spec["paper"] for _, spec, _ in tables))
    for paper in papers:
        mine = [(stem, spec, fig) for stem, spec, fig in tables if spec["paper"] == paper]
        doc.add(Heading(f"{paper.upper()}: {mine[0][1].get('title', paper)}"))
        rows_fed = {}
        for stem, spec, figure in mine:
            result = table_result(stem, spec, dataset_specs, data_provenance, cells_of(paper))
            if "rows_fed" in result.cells:
                rows_fed.update(result.cells.dropna(subset=["rows_fed"]).groupby("dataset")["rows_fed"].max())
            table_at.append((len(doc.blocks), result))
            doc.add(*table_section(result, figure, pending, record_link))
            if figure is not None:
                (out_dir / "figures").mkdir(parents=True, exist_ok=True)
                shutil.copyfile(figure, out_dir / "figures" / figure.name)
        for png, fspec in figures:
            if fspec["paper"] == paper:
                (out_dir / "figures").mkdir(parents=True, exist_ok=True)
                shutil.copyfile(png, out_dir / "figures" / png.name)
                doc.add(Heading(f"{fspec['figure']}", 3), Figure(f"figures/{png.name}", figure_caption(fspec)))
                doc.add(*claims_blocks(_figure_claims(png)))
        notes = list(dict.fromkeys(n for _, spec, _ in mine
                                   for n in paper_notes(spec, dataset_specs, data_provenance, rows_fed)))
        if notes:
            doc.add(Heading("Notes", 3), Bullets(tuple(notes)))
    sources = tuple(
        f"{name}: {p.get('source', '?')} "
        + ", ".join(f"{f.get('path', '?')} (sha256 {str(f.get('sha256', '?'))[:12]}…)" for f in p.get("files", []))
        for name, p in sorted(data_provenance.items())
    )
    if sources:
        doc.add(Heading("Data"), Bullets(sources))
    doc.add(*provenance_block(tag, records, n_jobs))
    doc.add(*records_block(tag, records, out_dir))
    _fill_contents(doc, contents_at, table_at)
    write_text_atomic(out_dir / "index.md", to_markdown(doc))
    write_text_atomic(out_dir / "index.html", to_html(doc))
    if embedded_html is not None:
        write_text_atomic(Path(embedded_html), to_html(doc, image_root=out_dir))
