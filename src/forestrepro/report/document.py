"""A tiny document model rendered to Markdown and HTML, so both say exactly the same.

A document is a list of blocks: ``Heading``, ``Paragraph``, ``Bullets``, ``Table`` and
``Figure``. Markdown is what the repository commits; HTML is for browsers. Headings get the
anchors GitHub gives them (``anchors``), so links ``[text](#anchor)`` work in both; a table
cell may be ``Styled`` (a verdict), which HTML colours by its style.
"""

from __future__ import annotations

import base64
import html
import re
from dataclasses import dataclass, field
from pathlib import Path

_LINK = re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)")
_NOT_IN_SLUG = re.compile(r"[^\w\- ]")


def _html_text(text: str) -> str:
    """Escaped ``text`` whose Markdown links ``[label](url)`` become HTML links."""
    return _LINK.sub(r'<a href="\2">\1</a>', html.escape(str(text)))


@dataclass(frozen=True)
class Heading:
    text: str
    level: int = 2


@dataclass(frozen=True)
class Paragraph:
    text: str


@dataclass(frozen=True)
class Bullets:
    items: tuple[str, ...]


@dataclass(frozen=True)
class Table:
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    caption: str = ""


@dataclass(frozen=True)
class Figure:
    path: str
    caption: str


@dataclass(frozen=True)
class Styled:
    """A table cell with a style: ``ok``, ``out`` (shown in bold in Markdown) or ``none``."""

    text: str
    style: str

    def __str__(self) -> str:
        return self.text


def anchors(blocks: list) -> list[str]:
    """Each heading's anchor, as GitHub makes them: lower case, punctuation dropped, spaces to
    hyphens, and ``-1``, ``-2``, ... on repeats (the document title comes first)."""
    seen: dict[str, int] = {}
    out = []
    for block in blocks:
        if isinstance(block, Heading):
            base = _NOT_IN_SLUG.sub("", block.text.lower()).replace(" ", "-")
            n = seen.get(base, 0)
            seen[base] = n + 1
            out.append(base if n == 0 else f"{base}-{n}")
    return out


@dataclass
class Document:
    title: str
    blocks: list = field(default_factory=list)

    def add(self, *blocks) -> None:
        self.blocks.extend(blocks)


def _md_cell(text) -> str:
    if isinstance(text, Styled) and text.style == "out":
        text = f"**{text.text}**"
    return str(text).replace("|", "\\|").replace("\n", " ")


def _td(text) -> str:
    style = f' class="{text.style}"' if isinstance(text, Styled) else ""
    return f"<td{style}>{_html_text(text)}</td>"


def to_markdown(doc: Document) -> str:
    """Render ``doc`` as GitHub-flavoured Markdown."""
    out = [f"# {doc.title}", ""]
    for block in doc.blocks:
        if isinstance(block, Heading):
            out += ["#" * block.level + " " + block.text, ""]
        elif isinstance(block, Paragraph):
            out += [block.text, ""]
        elif isinstance(block, Bullets):
            out += [f"- {item}" for item in block.items] + [""]
        elif isinstance(block, Table):
            if block.caption:
                out += [f"*{block.caption}*", ""]
            out.append("| " + " | ".join(_md_cell(h) for h in block.header) + " |")
            out.append("|" + "|".join("---" for _ in block.header) + "|")
            out += ["| " + " | ".join(_md_cell(c) for c in row) + " |" for row in block.rows]
            out.append("")
        elif isinstance(block, Figure):
            out += [f"![{block.caption}]({block.path})", "", f"*{block.caption}*", ""]
    return "\n".join(out).rstrip() + "\n"


def _image_src(path: str, image_root: Path | None) -> str:
    """A figure's ``src``: its relative path, or with ``image_root`` the PNG itself as a data URI."""
    if image_root is None:
        return path
    return "data:image/png;base64," + base64.b64encode((image_root / path).read_bytes()).decode("ascii")


def to_html(doc: Document, image_root: Path | None = None) -> str:
    """Render ``doc`` as a standalone HTML page. With ``image_root`` (the directory the figures'
    paths are relative to) the figures are embedded, so the page is one self-contained file: what
    ``snakemake --report`` shows (it displays a page alone, without the files beside it)."""
    esc = html.escape
    ids = iter(anchors([Heading(doc.title, 1), *doc.blocks]))
    body = [f'<h1 id="{next(ids)}">{esc(doc.title)}</h1>']
    for block in doc.blocks:
        if isinstance(block, Heading):
            body.append(f'<h{block.level} id="{next(ids)}">{esc(block.text)}</h{block.level}>')
        elif isinstance(block, Paragraph):
            body.append(f"<p>{_html_text(block.text)}</p>")
        elif isinstance(block, Bullets):
            body.append("<ul>" + "".join(f"<li>{_html_text(i)}</li>" for i in block.items) + "</ul>")
        elif isinstance(block, Table):
            head = "".join(f"<th>{esc(h)}</th>" for h in block.header)
            rows = "".join("<tr>" + "".join(_td(c) for c in r) + "</tr>" for r in block.rows)
            caption = f"<caption>{esc(block.caption)}</caption>" if block.caption else ""
            body.append(f"<table>{caption}<thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>")
        elif isinstance(block, Figure):
            body.append(
                f'<figure><img src="{esc(_image_src(block.path, image_root))}" alt="{esc(block.caption)}">'
                f"<figcaption>{esc(block.caption)}</figcaption></figure>"
            )
    style = (
        "body{font-family:sans-serif;max-width:72em;margin:2em auto;padding:0 1em}"
        "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #bbb;padding:.2em .5em}"
        "th{background:#eee}img{max-width:100%}caption{font-style:italic}"
        "td.ok{background:#e3f2e6}td.out{background:#fbe3e3;font-weight:bold}td.none{color:#777}"
    )
    return (
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><link rel="icon" href="data:,">'
        f"<title>{esc(doc.title)}</title><style>{style}</style></head><body>\n"
        + "\n".join(body)
        + "\n</body></html>\n"
    )


def table_to_latex(table: Table) -> str:
    """Render a ``Table`` as a booktabs LaTeX tabular."""

    def tex(text: str) -> str:
        for a, b in (("\\", r"\textbackslash{}"), ("&", r"\&"), ("%", r"\%"), ("_", r"\_"), ("#", r"\#")):
            text = str(text).replace(a, b)
        return text.replace("±", r"$\pm$").replace("Δ", r"$\Delta$")

    cols = "l" + "r" * (len(table.header) - 1)
    lines = [r"\begin{table}[ht]", r"\centering"]
    if table.caption:
        lines.append(rf"\caption{{{tex(table.caption)}}}")
    lines += [
        rf"\begin{{tabular}}{{{cols}}}",
        r"\toprule",
        " & ".join(tex(h) for h in table.header) + r" \\",
        r"\midrule",
    ]
    lines += [" & ".join(tex(c) for c in row) + r" \\" for row in table.rows]
    lines += [r"\bottomrule", r"\end{tabular}", r"\end{table}", ""]
    return "\n".join(lines)
