"""The index of the committed reports: one page, ``results/report/paper/index.{md,html}``,
listing every committed report with its title and its summary in one line.

``workflow/scripts/committed_reports.py`` (``make report``) writes it after rebuilding the
reports, from what it has at hand and nothing else: the manifest ``reports.yaml`` (each
report's tag and what it covers) and each report's own page (its title and the line that
starts with ``build.ONE_LINE``), so ``make report-check`` rebuilds it byte for byte too. A
report directory the manifest does not name (an older report that ``make report`` cannot
rebuild) is listed apart, with its title.
"""

from __future__ import annotations

from pathlib import Path

from ..io import write_text_atomic
from .build import ONE_LINE
from .document import Document, Paragraph, Table, to_html, to_markdown

INDEX = "index"


def read_page(index_md: Path) -> tuple[str, str]:
    """A report page's title and its summary line (without ``ONE_LINE``; empty if it has none)."""
    lines = index_md.read_text(encoding="utf-8").splitlines()
    title = lines[0][2:].strip() if lines and lines[0].startswith("# ") else ""
    line = next((line[len(ONE_LINE) :] for line in lines if line.startswith(ONE_LINE)), "")
    return title, line


def _index_document(root: Path, manifest: dict[str, dict], suffix: str) -> Document:
    """The index with each report linked to its page ``index<suffix>``."""

    def link(directory: str) -> str:
        index_md = root / directory / f"{INDEX}.md"
        title = read_page(index_md)[0] if index_md.exists() else ""
        return f"[{title or directory}]({directory}/{INDEX}{suffix})"

    rows = []
    for name, entry in manifest.items():
        index_md = root / name / f"{INDEX}.md"
        line = read_page(index_md)[1] if index_md.exists() else "not built yet"
        rows.append(
            (
                link(name),
                f"{name}/",
                str(entry["tag"]),
                (f"pinned to {str(entry['commit'])[:10]}; " if entry.get("commit") else "")
                + (line or "(this page gives no summary line)"),
                str(entry["covers"]),
            )
        )
    doc = Document("Committed reports")
    doc.add(
        Paragraph(
            "Every report committed under results/report/paper/, each with its summary in one line. "
            "This page is written by make report (workflow/scripts/committed_reports.py) from "
            "reports.yaml and the reports' own pages, and make report-check rebuilds it byte for "
            "byte. Nothing here is edited by hand."
        ),
        Table(
            ("Report", "Directory", "Tag", "In one line", "What it covers (reports.yaml)"),
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
                tuple((link(directory), f"{directory}/") for directory in older),
                caption="Older reports, made before run records were committed: make report cannot "
                "rebuild them (README.md here says why each is kept)",
            )
        )
    return doc


def write_index(root: str | Path, manifest: dict[str, dict]) -> list[Path]:
    """Write ``root/index.md`` and ``root/index.html``: the committed reports of ``manifest``
    (``{name: {"tag", "covers", ...}}``, in its order) and any older report under ``root``."""
    root = Path(root)
    written = []
    for suffix, render in ((".md", to_markdown), (".html", to_html)):
        path = root / f"{INDEX}{suffix}"
        write_text_atomic(path, render(_index_document(root, manifest, suffix)))
        written.append(path)
    return written
