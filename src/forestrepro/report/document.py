"""A tiny document model rendered to Markdown and HTML, so both say exactly the same.

A document is a list of blocks: ``Heading``, ``Paragraph``, ``Bullets``, ``Table`` and
``Figure``. Markdown is what the repository commits; HTML is for browsers.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field

_LINK = re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)")


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


@dataclass
class Document:
    title: str
    blocks: list = field(default_factory=list)

    def add(self, *blocks) -> None:
        self.blocks.extend(blocks)


def _md_cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


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


def to_html(doc: Document) -> str:
    """Render ``doc`` as a standalone HTML page."""
    esc = html.escape
    body = [f"<h1>{esc(doc.title)}</h1>"]
    for block in doc.blocks:
        if isinstance(block, Heading):
            body.append(f"<h{block.level}>{esc(block.text)}</h{block.level}>")
        elif isinstance(block, Paragraph):
            body.append(f"<p>{esc(block.text)}</p>")
        elif isinstance(block, Bullets):
            body.append("<ul>" + "".join(f"<li>{_html_text(i)}</li>" for i in block.items) + "</ul>")
        elif isinstance(block, Table):
            head = "".join(f"<th>{esc(h)}</th>" for h in block.header)
            rows = "".join("<tr>" + "".join(f"<td>{_html_text(c)}</td>" for c in r) + "</tr>" for r in block.rows)
            caption = f"<caption>{esc(block.caption)}</caption>" if block.caption else ""
            body.append(f"<table>{caption}<thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>")
        elif isinstance(block, Figure):
            body.append(
                f'<figure><img src="{esc(block.path)}" alt="{esc(block.caption)}">'
                f"<figcaption>{esc(block.caption)}</figcaption></figure>"
            )
    style = (
        "body{font-family:sans-serif;max-width:72em;margin:2em auto;padding:0 1em}"
        "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #bbb;padding:.2em .5em}"
        "th{background:#eee}img{max-width:100%}caption{font-style:italic}"
    )
    return (
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
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
    lines += [rf"\begin{{tabular}}{{{cols}}}", r"\toprule", " & ".join(tex(h) for h in table.header) + r" \\", r"\midrule"]
    lines += [" & ".join(tex(c) for c in row) + r" \\" for row in table.rows]
    lines += [r"\bottomrule", r"\end{tabular}", r"\end{table}", ""]
    return "\n".join(lines)
