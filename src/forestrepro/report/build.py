"""The report of a tag: published vs regenerated, cell by cell, with ranks, CD and notes.

Writes ``<out_dir>/index.md`` and ``index.html`` and copies the PNG figures beside them, so the
report directory stands alone (``results/report/paper/`` is committed as it is made).
"""

from __future__ import annotations

import shutil
from pathlib import Path

from ..io import write_text_atomic
from .baseline import Ablation, ablation_intro, ablation_title, baseline_blocks, compare_with_baseline
from .claims import verdict_text
from .deviations import KINDS
from .document import (
    Bullets,
    Document,
    Figure,
    Heading,
    Paragraph,
    Table,
    anchors,
    to_html,
    to_markdown,
)
from .sections import (
    _dataset_notes,
    _figure_claims,
    _relative,
    _table_cells,
    claim_counts,
    claims_blocks,
    figure_caption,
    summary_row,
    table_counts,
    table_result,
    table_section,
)

# The report's summary in one line, under its title.
ONE_LINE = "In one line: "
# What a committed report covers (its ``covers`` in results/report/paper/reports.yaml), stated
# between the report's opening sentence and its summary in one line.
WHAT_IT_COVERS = "What it covers (reports.yaml): "
# The headings and headers of the report's summary per table and of its claims at a glance: the
# index of the committed reports (report/index.py) reads its counts from these two tables of
# each report's index.md.
SUMMARY = "Summary"
SUMMARY_HEADER = (
    "Paper",
    "Table",
    "Cells within tolerance",
    "Outside: " + " / ".join(KINDS),
    "Empty cells",
    "Claims hold / not / equivalent / undecided",
)
GLANCE = "Claims at a glance"
GLANCE_HEADER = ("Claim", "Table or figure (evidence)", "On the paper's numbers", "On ours")


class DirtyRecordError(ValueError):
    """A committed report was asked to rest on records made from a tree with uncommitted changes."""


def _counted(values) -> str:
    """``a (3), b (1)``: distinct values, most frequent first, then by value."""
    counts: dict[str, int] = {}
    for value in values:
        counts[value] = counts.get(value, 0) + 1
    return ", ".join(f"{v} ({n})" for v, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


def left_out_text(left_out: dict[str, str], pending: dict[str, str]) -> str:
    """What a partial report says of the tables it leaves out (``left_out``: ``paper/table`` to
    its experiment), none of whose cells has a finished job yet: per experiment, its tables and
    why its jobs have no record (``pending``: job path to why)."""
    tables: dict[str, list[str]] = {}
    for key, experiment in sorted(left_out.items()):
        paper, table = key.split("/", 1)
        tables.setdefault(f"{paper}/{experiment}", []).append(table)
    parts = []
    for experiment, names in tables.items():
        why = [reason for job, reason in pending.items() if job.startswith(experiment + "/")]
        parts.append(
            f"{', '.join(names)} (experiment {experiment}: {len(why)} job{'s' * (len(why) != 1)} "
            f"without a record{': ' + _counted(why) if why else ''})"
        )
    return (
        "Left out of this partial report, as no cell of theirs has a finished job yet: "
        + "; ".join(parts)
        + ". Each is shown once one of its jobs has run."
    )


def provenance_block(tag: str, records: list[dict], n_jobs: int, held: int = 0) -> list:
    """Where the report's numbers come from: its run records' commits, trees, code, machines;
    ``held``: how many finished jobs' records a partial report does not read (their cells wait
    for other repeats), so that the count of records read is not taken for the count made.

    Everything here is read from the records, nothing from the moment or machine the report
    is made on, so rebuilding the report from the same records gives the same bytes."""
    dirty = [record_job(r) for r in records if r["git"].get("clean") is not True]
    times = sorted(r["made"] for r in records)
    packages = [
        ", ".join(f"{k} {v}" for k, v in sorted(r["environment"]["packages"].items())) for r in records
    ]
    items = [
        (
            f"tag: {tag}; {len(records)} run records of the {n_jobs} jobs, under results/runs/{tag}/ "
            "(each job's rows in <job>.csv, its spec, code, data and machine in <job>.provenance.json)"
            + (
                f"; not read, as their cells wait for other repeats: the records of {held} more finished "
                f"job{'s' if held != 1 else ''}"
                if held
                else ""
            )
        ),
        "commits the records were made at: "
        + (_counted(str(r["git"].get("commit")) for r in records) or "none"),
        (
            "trees: every record was made from a clean tree"
            if not dirty
            else f"trees: {len(dirty)} records were made from a tree with uncommitted changes: "
            + ", ".join(dirty)
        ),
        "library code: " + _counted(r["code"]["digest"][:12] for r in records) + " (code digests)",
        "records made: " + (f"{times[0]} to {times[-1]}" if times else "none"),
        "machines: "
        + _counted(f"{r['environment']['machine']}, Python {r['environment']['python']}" for r in records),
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
    return (
        [Heading("Run records"), Table(("Job", "Record", "Rows", "Commit", "Wall s"), rows)] if rows else []
    )


def paper_notes(
    spec: dict, dataset_specs: dict, data_provenance: dict, rows_fed: dict | None = None
) -> list[str]:
    """A paper's notes: its configured notes, per-data-set options, stand-ins, shape differences
    (``rows_fed``: the rows the protocol fed the method per data set, where the runs say)."""
    notes = list(spec.get("notes", []))
    experiment = spec.get("experiment", "main")
    for dataset, options in sorted(spec.get("dataset_options", {}).items()):
        # an experiment's own options (BRF's data-size runs) name the experiment
        label = dataset if experiment == "main" else f"{dataset} in experiment {experiment}"
        if "subsample_rows" in options:
            notes.append(
                f"{label}: run on a seeded, class-stratified subsample of {options['subsample_rows']} rows."
            )
        if options.get("block_mean"):
            notes.append(
                f"{label}: each run of {options['block_mean']} consecutive features replaced by its mean "
                f"(paper.{spec['paper']}.dataset_options.{dataset}.block_mean)."
            )
        if options.get("allow_small_classes"):
            notes.append(
                f"{label}: run although some class has fewer rows than the folds, so some folds lack "
                f"it (paper.{spec['paper']}.dataset_options.{dataset}.allow_small_classes; the job's "
                "log names the classes)."
            )
        if "repeats" in options:
            notes.append(
                f"{label}: {options['repeats']} split(s), in place of the protocol's "
                f"(paper.{spec['paper']}.dataset_options.{dataset}.repeats)."
            )
    return notes + _dataset_notes(spec, dataset_specs, data_provenance, rows_fed or {})


def data_provenance_of(records: list[dict]) -> dict:
    """``{data set: provenance of its data}`` as the records say (the first job's, by name)."""
    found: dict[str, dict] = {}
    for record in sorted(records, key=record_job):
        found.setdefault(record["spec"]["dataset"], record["data"])
    return found


def report_title(tag: str, papers: dict[str, str], ablation: Ablation | None = None) -> str:
    """The report's title, naming its papers (``{paper: its title}``, in the report's order)
    and its tag: "forestrepro report on BRF (tag paper): Banzhaf random forests: ...", or for
    several papers "forestrepro report on BRF, RCRF and WDF (tag quick)"; an ``ablation`` also
    names its baseline tag and overrides ("(tag quick-1a2b3c4d, an ablation of tag quick: ...)")."""
    names = [paper.upper() for paper in papers]
    label = f"tag {tag}" if ablation is None else ablation_title(tag, ablation)
    if not names:
        return f"forestrepro report ({label})"
    if len(names) == 1:
        return f"forestrepro report on {names[0]} ({label}): {next(iter(papers.values()))}"
    return f"forestrepro report on {', '.join(names[:-1])} and {names[-1]} ({label})"


def one_line_summary(results: list, figure_claims: list[list[dict]], partial: dict | None) -> str:
    """The report in one line: the cells of the paper's own tables (not the ablations', whose
    cells run another reading on purpose) within tolerance and outside it, by kind of cause, the
    claims of every table and figure on our numbers by verdict, and how far a partial report
    had got."""
    counts = [table_counts(r) for r in results]
    mine = [n for n in counts if n["judged"] and not n["ablation"]]
    unjudged = sum(not n["judged"] for n in counts)
    ablations = sum(n["ablation"] for n in counts)
    claims = claim_counts(
        [c["ours"] for r in results for c in r.claims] + [c["ours"] for cs in figure_claims for c in cs]
    )
    computed = sum(n["computed"] for n in mine)
    unidentified = sum(n["unidentified"] for n in mine)
    stand_in = sum(n["stand_in_within"] for n in mine)
    tables = f"{len(mine)} table{'s' if len(mine) != 1 else ''}"
    parts = [
        (
            f"{sum(n['within'] for n in mine)} of {computed} computed cells of {tables} against the "
            f"paper within tolerance"
            + (f" ({stand_in} more on stand-in data, not counted as within)" if stand_in else "")
            + f", {sum(n['outside'] for n in mine)} outside it (by the kind of their "
            f"cause: "
            + ", ".join(f"{sum(n[kind] for n in mine)} {kind}" for kind in KINDS)
            + (
                f"; {unidentified} with the cause not identified among several readings"
                if unidentified
                else ""
            )
            + ")"
            if computed
            else f"no computed cell of its {tables} has a published value to compare with"
        )
        + (f" ({unjudged} more table{'s' if unjudged != 1 else ''} not judged)" if unjudged else ""),
        f"claims on our numbers: {claims['holds']} hold, {claims['fails']} do not, "
        f"{claims['equivalent']} practically equivalent, {claims['undecided']} undecided",
    ]
    if ablations:
        parts.append(f"{ablations} table{'s' if ablations != 1 else ''} of other readings (ablations)")
    if partial is not None:
        parts.append(f"partial: {partial['finished']} of {partial['jobs']} jobs finished")
    return ONE_LINE + "; ".join(parts) + "."


def _fill_contents(doc: Document, at: int, table_at: list, figure_at: list) -> None:
    """Fill in the summary (per table: cells within tolerance, empty cells, claims by verdict,
    linked to the table) at ``doc.blocks[at + 1]``, every claim's verdicts at a glance, the
    tables' and the figures' (``figure_at``: (position of the figure's heading, its name, its
    claims)), each linked to the section that gives the evidence, at ``doc.blocks[at + 3]``, and
    the contents (links to each section) at ``doc.blocks[at + 5]``."""
    headings = [(i, b) for i, b in enumerate(doc.blocks) if isinstance(b, Heading)]
    anchor_at = dict(
        zip((i for i, _ in headings), anchors([Heading(doc.title, 1), *doc.blocks])[1:], strict=True)
    )
    sections = tuple(f"[{b.text}](#{anchor_at[i]})" for i, b in headings if b.level == 2 and i > at + 4)
    summary = tuple(summary_row(result, anchor_at[i]) for i, result in table_at)
    evidence = sorted(  # (position, name, claims) of each table and figure, in the page's order
        [(i, result.spec["table"], result.claims) for i, result in table_at] + list(figure_at),
        key=lambda item: item[0],
    )
    glance = tuple(
        (c["claim"], f"[{name}](#{anchor_at[i]})", verdict_text(c, "paper"), verdict_text(c, "ours"))
        for i, name, claims in evidence
        for c in claims
    )
    doc.blocks[at + 3] = (
        Table(
            GLANCE_HEADER,
            glance,
            caption="Every claim of the tables and figures, as the sections below check it",
        )
        if glance
        else Paragraph("No claim is configured for these tables.")
    )
    doc.blocks[at + 1] = Table(
        SUMMARY_HEADER,
        summary,
        caption="Regenerated cells within tolerance of the published ones, the cells outside it by "
        "the kind of their cause (report/deviations.py), and the paper's claims checked on our numbers",
    )
    doc.blocks[at + 5] = Bullets(sections)


def _item_name(kind: str, item: tuple) -> str:
    """A table's or figure's name, as ``report.show`` gives it."""
    return item[1]["table"] if kind == "table" else item[1]["figure"]


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
    covers: str | None = None,
    ablation: Ablation | None = None,
    order: list[str] | None = None,
    page_title: str | None = None,
) -> None:
    """Write ``index.md`` and ``index.html`` for ``tables`` = [(stem, spec, CD png or None)]
    and the papers' ``figures`` = [(png, spec)], from the run ``records`` (provenance dicts)
    of the report's ``n_jobs`` jobs. ``partial`` = {finished, jobs, pending: {job: why}} marks a
    report made before every job had finished (``--config partial=true``). A ``committed`` report refuses
    records made from a tree with uncommitted changes. ``out_dir/figures`` ends up holding
    exactly the figures the report shows. ``embedded_html``: also write the page with its figures
    embedded, as one self-contained file (for ``snakemake --report``). ``covers``: what the report
    covers, stated under its opening sentence (a committed report's, from reports.yaml). An
    ``ablation`` (a run with overrides under a tag of its own) names its overrides and baseline
    tag in the title and first lines, and each table's section compares its cells with the
    baseline's (``report/baseline.py``). ``order``: the names of the tables and figures in the
    order each paper's section shows them (``report.show``); by default its tables, then its
    figures. ``page_title``: the title after the paper's name in place of the paper's own
    (``report.title``, for a page that ``report.show`` narrows)."""
    out_dir = Path(out_dir)
    if committed:
        dirty = sorted(record_job(r) for r in records if r["git"].get("clean") is not True)
        if dirty:
            raise DirtyRecordError(
                f"a committed report ({out_dir}) cannot rest on records made from a tree with uncommitted "
                f"changes (or outside git): {', '.join(dirty[:10])}{' ...' if len(dirty) > 10 else ''}; "
                "commit the code and rerun those jobs"
            )
    data_provenance = data_provenance_of(records)
    shutil.rmtree(out_dir / "figures", ignore_errors=True)
    doc = Document(
        report_title(
            tag,
            {spec["paper"]: page_title or spec.get("title", spec["paper"]) for _, spec, _ in tables},
            ablation,
        )
    )
    comparisons = []  # each table's cells against an ablation's baseline
    if ablation is not None:
        doc.add(Paragraph(""))  # filled in once every table is compared
    doc.add(
        Paragraph(
            "Each published number beside the number this pipeline regenerated from raw data. "
            "Nothing here is edited by hand."
        ),
        *([Paragraph(WHAT_IT_COVERS + covers)] if covers else []),
        Paragraph(ONE_LINE),  # filled in once every table is read
    )
    one_line_at = len(doc.blocks) - 1
    if tables and tables[0][1].get("profile") == "quick":
        doc.add(
            Paragraph(
                "Profile quick: few data sets, folds and trees, small grids. A demonstration of the "
                "pipeline; its numbers are not comparable with the papers'."
            )
        )
    pending = {} if partial is None else partial["pending"]
    held = sum(why.startswith("finished") for why in pending.values())
    if partial is not None:
        failed = {job: why for job, why in pending.items() if why.startswith("failed")}
        stale = sum(why.startswith("stale") for why in pending.values())
        begun = sum(why.startswith("not finished yet") for why in pending.values())
        waiting = partial["jobs"] - partial["finished"] - len(failed) - stale - begun
        doc.add(
            Paragraph(
                f"Partial report: {partial['finished']} of the {partial['jobs']} jobs of this tag had "
                f"finished when it was made; {len(failed)} failed, {stale} have a stale record, "
                f"{begun} have run in part (their finished pieces are committed) and "
                f"{waiting} have not run yet. A cell without a finished job says which, the ranks leave "
                "its data set out, and a claim that needs it cannot be checked unless the other cells "
                "decide it."
                + (
                    f" A cell made of one job per repeat shows a value only once all of them have run: "
                    f"{held} finished jobs wait for the other repeats of their cell."
                    if held
                    else ""
                )
            )
        )
        if failed:
            doc.add(Bullets(tuple(f"{job}: {why}" for job, why in sorted(failed.items()))))
        if partial.get("left_out"):
            doc.add(Paragraph(left_out_text(partial["left_out"], pending)))
    record_jobs = {record_job(r) for r in records}

    def record_link(cell: str) -> str | None:
        """The record of a cell's job, or the directory of its repeats' records."""
        if cell in record_jobs:
            return _relative(Path("results") / "runs" / tag / f"{cell}.csv", out_dir)
        if any(job.startswith(cell + "/") for job in record_jobs):
            return _relative(Path("results") / "runs" / tag / cell, out_dir) + "/"
        return None

    stems = {(spec["paper"], spec["table"]): (stem, spec) for stem, spec, _ in tables}

    def cells_of(paper: str):
        """The cells of another table of ``paper``, with its direction (``higher_is_better``)."""

        def cells(table: str):
            if (paper, table) not in stems:
                return None
            stem, spec = stems[paper, table]
            return _table_cells(stem).assign(higher_is_better=bool(spec.get("higher_is_better", True)))

        return cells

    contents_at = len(doc.blocks)
    doc.add(
        Heading(SUMMARY),
        Bullets(()),
        Heading(GLANCE),
        Bullets(()),
        Heading("Contents"),
        Bullets(()),
    )  # filled in once every heading is known
    table_at = []  # (position of the table's heading, TableResult)
    figure_at = []  # (position of the figure's heading, its name, its claims)
    papers = list(dict.fromkeys(spec["paper"] for _, spec, _ in tables))
    for paper in papers:
        mine = [(stem, spec, fig) for stem, spec, fig in tables if spec["paper"] == paper]
        doc.add(Heading(f"{paper.upper()}: {mine[0][1].get('title', paper)}"))
        rows_fed = {}
        items = [("table", item) for item in mine] + [
            ("figure", item) for item in figures if item[1]["paper"] == paper
        ]
        if order is not None:
            items.sort(key=lambda kind_item: order.index(_item_name(*kind_item)))
        for kind, item in items:
            if kind == "figure":
                png, fspec = item
                (out_dir / "figures").mkdir(parents=True, exist_ok=True)
                shutil.copyfile(png, out_dir / "figures" / png.name)
                figure_at.append((len(doc.blocks), fspec["figure"], _figure_claims(png)))
                doc.add(
                    Heading(f"{fspec['figure']}", 3), Figure(f"figures/{png.name}", figure_caption(fspec))
                )
                doc.add(*claims_blocks(figure_at[-1][2]))
                continue
            stem, spec, figure = item
            result = table_result(stem, spec, dataset_specs, data_provenance, cells_of(paper))
            if "rows_fed" in result.cells:
                rows_fed.update(result.cells.dropna(subset=["rows_fed"]).groupby("dataset")["rows_fed"].max())
            table_at.append((len(doc.blocks), result))
            doc.add(*table_section(result, figure, pending, record_link))
            if ablation is not None:
                comparisons.append(
                    compare_with_baseline(result.cells, ablation.cells[paper, spec["table"]], spec, ablation)
                )
                doc.add(*baseline_blocks(comparisons[-1], spec, ablation))
            if figure is not None:
                (out_dir / "figures").mkdir(parents=True, exist_ok=True)
                shutil.copyfile(figure, out_dir / "figures" / figure.name)
        notes = list(
            dict.fromkeys(
                n for _, spec, _ in mine for n in paper_notes(spec, dataset_specs, data_provenance, rows_fed)
            )
        )
        if notes:
            doc.add(Heading("Notes", 3), Bullets(tuple(notes)))
    sources = tuple(
        f"{name}: {p.get('source', '?')} "
        + ", ".join(
            f"{f.get('path', '?')} (sha256 {str(f.get('sha256', '?'))[:12]}…)" for f in p.get("files", [])
        )
        for name, p in sorted(data_provenance.items())
    )
    if sources:
        doc.add(Heading("Data"), Bullets(sources))
    doc.add(*provenance_block(tag, records, n_jobs, held))
    doc.add(*records_block(tag, records, out_dir))
    _fill_contents(doc, contents_at, table_at, figure_at)
    if ablation is not None:
        doc.blocks[0] = ablation_intro(tag, ablation, comparisons)
    doc.blocks[one_line_at] = Paragraph(
        one_line_summary([r for _, r in table_at], [claims for _, _, claims in figure_at], partial)
    )
    write_text_atomic(out_dir / "index.md", to_markdown(doc))
    write_text_atomic(out_dir / "index.html", to_html(doc))
    if embedded_html is not None:
        write_text_atomic(Path(embedded_html), to_html(doc, image_root=out_dir))
