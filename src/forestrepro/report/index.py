"""The index of the committed reports: one page, ``results/report/paper/index.{md,html}``, one
row per committed report with its counts, so that one screen shows which claims hold.

``forestrepro reports`` (``make report``, ``report/committed.py``) writes it after rebuilding the
reports, from what it has at hand and nothing else: the manifest ``reports.yaml`` (each
report's tag, and whether it is partial or pinned) and each report's own page, so ``make
report-check`` rebuilds it byte for byte too. From a page it reads two tables the report
generator wrote (``report/build.py``): the summary per table, whose cells within tolerance of
the paper's own tables (not the ablations', nor a table not judged) it adds up as the report's
line "In one line" does, and the claims at a glance, whose verdicts on the paper's numbers and
on ours it counts as the report's summary does (``sections.claim_counts``). What each report
covers is stated on its page, under its title (its ``covers`` in the manifest), not here. A
page without these tables as the present generator writes them (a pinned report's, made by an
older commit's pipeline) gets a row that says so. A report directory the manifest does not name (an older report that ``make report`` cannot
rebuild) is listed apart, with its title.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ..io import write_text_atomic
from .build import GLANCE, GLANCE_HEADER, SUMMARY, SUMMARY_HEADER
from .claims import verdict_of
from .document import Document, Paragraph, Table, to_html, to_markdown
from .sections import ABLATION, NOT_JUDGED, claim_counts, claims_text

INDEX = "index"
_PIPE = re.compile(r"(?<!\\)\|")
_OF = re.compile(r"(\d+) of (\d+)")


class PageError(ValueError):
    """A cell of a table the index reads from a report's page is not what the generator writes."""


@dataclass(frozen=True)
class Page:
    """What the index reads of a report's page: its cells of the paper's own tables ``within``
    tolerance of the ``computed`` ones, and its claims by verdict on the paper's numbers and on
    ours (``sections.claim_counts``: claims, holds, fails, equivalent, undecided)."""

    within: int
    computed: int
    paper: dict
    ours: dict


def _cells(line: str) -> list[str]:
    """A Markdown table row's cells, as ``document.to_markdown`` writes them (``\\|`` inside)."""
    return [cell.strip().replace("\\|", "|") for cell in _PIPE.split(line.strip())[1:-1]]


def _table(lines: list[str], heading: str, header: tuple[str, ...], where: Path) -> list[dict] | None:
    """The rows (``{column: cell}``) of the table with ``header`` that opens section ``## heading``
    of a page's ``lines``: none if the section has no table (a report without claims says so in
    a paragraph instead); None if the page has no such section, or its table other columns (a
    page of an older generator: a pinned report's, made by its commit's pipeline)."""
    if f"## {heading}" not in lines:
        return None
    start = lines.index(f"## {heading}")
    section = lines[start + 1 :]
    section = section[: next((i for i, line in enumerate(section) if line.startswith("## ")), len(section))]
    at = next((i for i, line in enumerate(section) if line.startswith("|")), None)
    if at is None:
        return []
    if tuple(_cells(section[at])) != header:
        return None
    rows = []
    for line in section[at + 2 :]:  # after the header and its |---| line
        if not line.startswith("|"):
            break
        cells = _cells(line)
        if len(cells) != len(header):
            raise PageError(
                f"{where}: a row of '{heading}' has {len(cells)} cells, not {len(header)}: {line}"
            )
        rows.append(dict(zip(header, cells, strict=True)))
    return rows


def _verdicts(rows: list[dict], column: str, where: Path) -> dict:
    """Claims by verdict in ``column`` of the claims at a glance (each verdict with or without
    its caveat, ``claims.verdict_text``)."""
    try:
        return claim_counts([verdict_of(row[column]) for row in rows])
    except ValueError as err:
        raise PageError(f"{where}: column '{column}' of '{GLANCE}': {err}") from None


def page_title(index_md: Path) -> str:
    """A report page's title (empty if its first line is no title)."""
    lines = index_md.read_text(encoding="utf-8").splitlines()
    return lines[0][2:].strip() if lines and lines[0].startswith("# ") else ""


def read_page(index_md: Path) -> Page | None:
    """The counts of a report's page ``index_md``; None if it lacks the summary or the claims at a
    glance as the present generator writes them (an older generator's page). ``PageError`` names
    the page and a cell of them that is not what the generator writes."""
    lines = index_md.read_text(encoding="utf-8").splitlines()
    summary = _table(lines, SUMMARY, SUMMARY_HEADER, index_md)
    claims = _table(lines, GLANCE, GLANCE_HEADER, index_md)
    if summary is None or claims is None:
        return None
    within = computed = 0
    for row in summary:
        cells, outside = row[SUMMARY_HEADER[2]], row[SUMMARY_HEADER[3]]
        if cells == NOT_JUDGED or outside.startswith(ABLATION):
            continue
        counted = _OF.fullmatch(cells)
        if counted is None:
            raise PageError(
                f"{index_md}: column '{SUMMARY_HEADER[2]}' of '{SUMMARY}' has '{cells}', not 'x of y'"
            )
        within, computed = within + int(counted[1]), computed + int(counted[2])
    return Page(
        within,
        computed,
        _verdicts(claims, GLANCE_HEADER[2], index_md),
        _verdicts(claims, GLANCE_HEADER[3], index_md),
    )


def _index_document(root: Path, manifest: dict[str, dict], suffix: str) -> Document:
    """The index with each report linked to its page ``index<suffix>``."""

    def link(directory: str, title: str = "") -> str:
        return f"[{title or directory + '/'}]({directory}/{INDEX}{suffix})"

    rows = []
    for name, entry in manifest.items():
        index_md = root / name / f"{INDEX}.md"
        page = read_page(index_md) if index_md.exists() else None
        if page is None:
            why = "not on its page (an older generator's)" if index_md.exists() else "not built yet"
            counts = (why, "", "")
        else:
            counts = (
                f"{page.within} of {page.computed}" if page.computed else "no published value",
                claims_text(page.paper),
                claims_text(page.ours),
            )
        state = ("partial" if entry.get("partial") else "complete") + (
            f", pinned to {str(entry['commit'])[:10]}" if entry.get("commit") else ""
        )
        rows.append((link(name), str(entry["tag"]), *counts, state))
    doc = Document("Committed reports")
    doc.add(
        Paragraph(
            "One row per report committed under results/report/paper/: its cells of the paper's own "
            "tables within tolerance of the published ones (ablations left out), and its claims that "
            "hold, do not hold, are practically equivalent (the two methods differ by less than the "
            "claim's region of practical equivalence: neither the claim nor its reverse) or are undecided "
            "(inconclusive, or cannot be checked, as where the paper prints no numbers), checked on the "
            "paper's published numbers and on ours, "
            "counted from the report's Summary and Claims at a glance. Each report's page says under "
            "its title what it covers. This page is written by make report (forestrepro reports) from "
            "reports.yaml and the reports' own pages, and make report-check rebuilds it byte for byte. "
            "Nothing here is edited by hand."
        ),
        Table(
            (
                "Report",
                "Tag",
                "Cells within tolerance",
                "Claims on the paper's numbers: hold / do not / equivalent / undecided",
                "Claims on ours: hold / do not / equivalent / undecided",
                "State",
            ),
            tuple(rows),
            caption="Rebuilt by make report from the committed run records",
        ),
    )
    listed = {root / name for name in manifest}
    older = sorted(
        page.parent.relative_to(root).as_posix()
        for page in root.rglob(f"{INDEX}.md")
        if page.parent != root and not any(page.parent == d or d in page.parents for d in listed)
    )
    if older:
        doc.add(
            Table(
                ("Report", "Directory"),
                tuple(
                    (link(directory, page_title(root / directory / f"{INDEX}.md")), f"{directory}/")
                    for directory in older
                ),
                caption="Older reports, made before run records were committed: make report cannot "
                "rebuild them (README.md here says why each is kept)",
            )
        )
    return doc


def write_index(root: str | Path, manifest: dict[str, dict]) -> list[Path]:
    """Write ``root/index.md`` and ``root/index.html``: the committed reports of ``manifest``
    (``{name: {"tag", and optionally "partial", "commit"}}``, in its order) and any older
    report under ``root``."""
    root = Path(root)
    written = []
    for suffix, render in ((".md", to_markdown), (".html", to_html)):
        path = root / f"{INDEX}{suffix}"
        write_text_atomic(path, render(_index_document(root, manifest, suffix)))
        written.append(path)
    return written
