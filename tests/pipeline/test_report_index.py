"""Each report's title names its papers and its page gives its summary in one line; the index of
the committed reports (results/report/paper/index.md, written by make report) gives one row per
report: its cells within tolerance and its claims by verdict, counted from its page's tables."""

import re
from pathlib import Path

import pytest
import yaml

from forestrepro.report.build import ONE_LINE, WHAT_IT_COVERS, build_report, report_title
from forestrepro.report.document import to_html, to_markdown
from forestrepro.report.index import Page, PageError, _index_document, page_title, read_page, write_index
from forestrepro.report.tables import build_table, write_table

from .test_report import SPEC, _record, _runs
from .test_workflow import MIRROR, snakemake

ROOT = Path(__file__).resolve().parents[2]
COMMITTED = ROOT / "results" / "report" / "paper"
NO_CLAIMS = {"claims": 0, "holds": 0, "fails": 0, "equivalent": 0, "undecided": 0}


def test_the_title_names_the_papers_and_the_tag():
    assert report_title("paper", {"brf": "Banzhaf random forests"}) == (
        "forestrepro report on BRF (tag paper): Banzhaf random forests"
    )
    assert report_title("quick", {"brf": "a", "rcrf": "b", "wdf": "c"}) == (
        "forestrepro report on BRF, RCRF and WDF (tag quick)"
    )
    assert report_title("t", {}) == "forestrepro report (tag t)"


def _report(tmp_path, spec, partial=None, covers=None):
    scores = {("wine", m): [0.5, 0.5] for m in SPEC["method_order"]}
    write_table(build_table(_runs(scores), spec), tmp_path / "tables" / "brf_table2")
    out = Path("results") / "report" / "paper" / "brf"
    build_report(
        "paper",
        [(tmp_path / "tables" / "brf_table2", spec, None)],
        [],
        {},
        [_record("brf/main/svm/wine", 2)],
        out,
        n_jobs=9,
        partial=partial,
        covers=covers,
    )
    return out


def test_a_report_gives_its_title_and_its_summary_in_one_line(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    spec = {
        **SPEC,
        "experiment": "main",
        "title": "Banzhaf random forests",
        "unplaced": {"datasets": [], "methods": []},
    }
    out = _report(tmp_path, spec)
    md = (out / "index.md").read_text()
    assert md.startswith("# forestrepro report on BRF (tag paper): Banzhaf random forests\n")
    assert (
        "<title>forestrepro report on BRF (tag paper): Banzhaf random forests</title>"
        in (out / "index.html").read_text()
    )
    # wine's 3 cells are computed and outside tolerance (the table's summary row says 0 of 3)
    assert page_title(out / "index.md") == "forestrepro report on BRF (tag paper): Banzhaf random forests"
    (line,) = [line[len(ONE_LINE) :] for line in md.splitlines() if line.startswith(ONE_LINE)]
    assert line == (
        "0 of 3 computed cells of 1 table against the paper within tolerance, 3 outside it (by the "
        "kind of their cause: 0 within spread, 0 measured, 0 confirmed, 0 bounded, 0 stand-in, 3 unexplained); claims on our numbers: "
        "0 hold, 0 do not, 0 practically equivalent, 0 undecided."
    )
    # the line comes right after the opening sentence, before the summary
    assert md.index(ONE_LINE) < md.index("## Summary")
    # the index reads the same counts from the page's summary and claims at a glance
    assert read_page(out / "index.md") == Page(0, 3, NO_CLAIMS, NO_CLAIMS)
    # an ablation's cells are its finding: not counted against the paper; a partial report says so
    _report(tmp_path, {**spec, "ablation": True}, {"finished": 1, "jobs": 9, "pending": {}})
    md = (out / "index.md").read_text()
    assert read_page(out / "index.md") == Page(0, 0, NO_CLAIMS, NO_CLAIMS)
    assert next(line[len(ONE_LINE) :] for line in md.splitlines() if line.startswith(ONE_LINE)) == (
        "no computed cell of its 0 tables has a published value to compare with; claims on our "
        "numbers: 0 hold, 0 do not, 0 practically equivalent, 0 undecided; 1 table of other readings "
        "(ablations); partial: 1 of "
        "9 jobs finished."
    )


def test_a_committed_report_states_what_it_covers_under_its_opening_sentence(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    spec = {**SPEC, "experiment": "main", "unplaced": {"datasets": [], "methods": []}}
    out = _report(tmp_path, spec, covers="Table 2 on wine | the paper's 15 data sets")
    lines = (out / "index.md").read_text().splitlines()
    assert lines[4] == f"{WHAT_IT_COVERS}Table 2 on wine | the paper's 15 data sets"
    assert lines[6].startswith(ONE_LINE)
    assert "<p>What it covers (reports.yaml): Table 2 on wine | the paper&#x27;s 15 data sets</p>" in (
        (out / "index.html").read_text()
    )
    # a report given nothing to say it covers (any run's own) says nothing of it
    _report(tmp_path, spec)
    assert WHAT_IT_COVERS not in (out / "index.md").read_text()


@pytest.mark.skipif(not MIRROR.is_dir(), reason=f"data mirror not found at {MIRROR}")
def test_the_workflow_gives_a_committed_report_its_covers_from_reports_yaml(tmp_path):
    manifest = tmp_path / "results" / "report" / "paper" / "reports.yaml"
    manifest.parent.mkdir(parents=True)
    manifest.write_text(
        yaml.safe_dump({"x": {"tag": "tiny", "overrides": [], "covers": "BRF's Table 2: wine and sonar"}})
    )
    # a committed report is made from records alone (records_only=true): one record, then its
    # partial report's dry run
    snakemake(tmp_path, "only=brf/main/knn/wine", "--cores", "1", "records")
    plan = snakemake(
        tmp_path,
        "report_dir=results/report/paper/x",
        "records_only=true",
        "partial=true",
        "--cores",
        "1",
        "--dry-run",
        "--printshellcmds",
    ).stdout
    assert "--committed --covers 'BRF'\"'\"'s Table 2: wine and sonar' " in plan


SUMMARY_TABLE = """## Summary

*Regenerated cells within tolerance of the published ones, ...*

| Paper | Table | Cells within tolerance | Outside: within spread / measured / confirmed / bounded / stand-in / unexplained | Empty cells | Claims hold / not / equivalent / undecided |
|---|---|---|---|---|---|
"""
GLANCE_TABLE = """## Claims at a glance

*Every claim of the tables and figures, as the sections below check it*

| Claim | Table or figure (evidence) | On the paper's numbers | On ours |
|---|---|---|---|
"""


def _page(title: str, summary: list[str], claims: list[str] | None) -> str:
    """A report page as build_report writes it: its title, one-line summary, summary per table
    and claims at a glance (a paragraph where no claim is configured), then a section."""
    glance = (
        GLANCE_TABLE + "".join(f"{row}\n" for row in claims)
        if claims is not None
        else "## Claims at a glance\n\nNo claim is configured for these tables.\n"
    )
    return (
        f"# {title}\n\nEach published number beside ...\n\n{ONE_LINE}a 50-word sentence.\n\n"
        + SUMMARY_TABLE
        + "".join(f"{row}\n" for row in summary)
        + "\n"
        + glance
        + "\n## Contents\n\n| Not | a | table | of | the | index |\n|---|---|---|---|---|---|\n"
    )


def _tree(root: Path) -> dict:
    """A worked example: report b (a judged table, an ablation, a table not judged and a judged
    table with empty cells; three claims, one with a | in its text), report a (one judged table,
    no claim), c (in the manifest, not built) and an older report."""
    (root / "b").mkdir(parents=True)
    (root / "b" / "index.md").write_text(
        _page(
            "Report B",
            [
                "| B | [t1](#t1) | 3 of 5 | 1 / 0 / 0 / 1 of 2 | 0 | 1 / 1 / 0 / 0 |",
                "| B | [t2](#t2) | 4 of 6 | ablation: 2 outside | 0 | none |",
                "| B | [t3](#t3) | not judged | not judged | 0 | none |",
                "| B | [t4](#t4) | 1 of 2 | 0 / 0 / 1 / 0 of 1 | 3 | 0 / 0 / 1 / 1 |",
            ],
            [
                "| BRF beats RF | [t1](#t1) | holds | does not hold |",
                "| a \\| b ranks first | [t1](#t1) | cannot be checked | holds |",
                "| B beats A on average | [t4](#t4) | holds (on 2 data sets) | inconclusive |",
                "| B beats C | [t4](#t4) | practically equivalent | practically equivalent (at its threshold: "
                "P(equivalent) 0.951 against 0.95) |",
            ],
        )
    )
    (root / "a").mkdir(parents=True)
    (root / "a" / "index.md").write_text(
        _page("Report A", ["| A | [t](#t) | 7 of 7 | 0 / 0 / 0 / 0 of 0 | 0 | none |"], None)
    )
    (root / "legacy" / "old").mkdir(parents=True)
    (root / "legacy" / "old" / "index.md").write_text("# An old report\n")
    return {
        "b": {"tag": "paper", "covers": "all of B, in a hundred words"},
        "a": {"tag": "t", "covers": "some of A", "partial": True, "commit": "0123456789abcdef"},
        "c": {"tag": "t", "covers": "C"},
    }


def test_the_index_gives_one_row_of_counts_per_committed_report_and_older_ones_apart(tmp_path):
    root = tmp_path / "paper"
    manifest = _tree(root)
    # b: t1 and t4 against the paper (3 + 1 of 5 + 2; the ablation t2 and t3, not judged, left
    # out); on the paper's numbers 2 hold (one with its caveat), 1 is practically equivalent and 1
    # cannot be checked, on ours 1 holds, 1 does not, 1 is practically equivalent (with its caveat),
    # 1 is inconclusive (undecided)
    assert read_page(root / "b" / "index.md") == Page(
        4,
        7,
        {"claims": 4, "holds": 2, "fails": 0, "equivalent": 1, "undecided": 1},
        {"claims": 4, "holds": 1, "fails": 1, "equivalent": 1, "undecided": 1},
    )
    assert read_page(root / "a" / "index.md") == Page(7, 7, NO_CLAIMS, NO_CLAIMS)
    written = write_index(root, manifest)
    assert written == [root / "index.md", root / "index.html"]
    md, page = (root / "index.md").read_text(), (root / "index.html").read_text()
    assert md.startswith("# Committed reports\n")
    header = (
        "| Report | Tag | Cells within tolerance | Claims on the paper's numbers: hold / do not / "
        "equivalent / undecided | Claims on ours: hold / do not / equivalent / undecided | State |"
    )
    # one row per report, in the manifest's order, each linked to its page
    rows = [line for line in md.splitlines() if line.startswith("| [")]
    assert (
        md.splitlines()[md.splitlines().index(header) + 2 :][:3]
        == rows[:3]
        == [
            "| [b/](b/index.md) | paper | 4 of 7 | 2 / 0 / 1 / 1 | 1 / 1 / 1 / 1 | complete |",
            "| [a/](a/index.md) | t | 7 of 7 | none | none | partial, pinned to 0123456789 |",
            "| [c/](c/index.md) | t | not built yet |  |  | complete |",
        ]
    )
    assert rows[3] == "| [An old report](legacy/old/index.md) | legacy/old/ |"
    # neither the pages' 50-word lines nor the manifest's descriptions are in it
    assert "a 50-word sentence" not in md and "all of B" not in md and "some of A" not in md
    # the HTML is the same table, linked to the HTML pages
    assert '<a href="b/index.html">b/</a></td><td>paper</td><td>4 of 7</td><td>2 / 0 / 1 / 1</td>' in page
    assert "b/index.md" not in page
    # the same inputs give the same bytes
    write_index(root, manifest)
    assert (root / "index.md").read_text() == md


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            ("| holds | does not hold |", "| holds | mostly |"),
            "column 'On ours' of 'Claims at a glance': 'mostly' is not a verdict",
        ),
        (
            ("| 3 of 5 |", "| three of 5 |"),
            "column 'Cells within tolerance' of 'Summary' has 'three of 5', not 'x of y'",
        ),
        (("| 0 | 1 / 1 / 0 / 0 |", "| 0 |"), "a row of 'Summary' has 5 cells, not 6"),
    ],
)
def test_a_cell_the_index_cannot_read_is_one_error_naming_its_page(tmp_path, change, message):
    root = tmp_path / "paper"
    manifest = _tree(root)
    page = root / "b" / "index.md"
    page.write_text(page.read_text().replace(*change))
    with pytest.raises(PageError, match=re.escape(f"{page}: {message}")):
        write_index(root, manifest)


def test_the_committed_index_is_what_make_report_writes_from_the_committed_pages():
    manifest = yaml.safe_load((COMMITTED / "reports.yaml").read_text(encoding="utf-8"))
    assert (COMMITTED / "index.md").read_text(encoding="utf-8") == to_markdown(
        _index_document(COMMITTED, manifest, ".md")
    )
    assert (COMMITTED / "index.html").read_text(encoding="utf-8") == to_html(
        _index_document(COMMITTED, manifest, ".html")
    )
    # every committed report has a title of its own, naming its paper
    titles = [page_title(COMMITTED / name / "index.md") for name in manifest]
    assert len(set(titles)) == len(titles), titles
    for name, title in zip(manifest, titles, strict=True):
        assert title.startswith("forestrepro report on "), (name, title)


def test_the_counts_read_from_each_committed_page_are_its_one_line_summary():
    manifest = yaml.safe_load((COMMITTED / "reports.yaml").read_text(encoding="utf-8"))
    for name in manifest:
        index_md = COMMITTED / name / "index.md"
        (line,) = [
            line for line in index_md.read_text(encoding="utf-8").splitlines() if line.startswith(ONE_LINE)
        ]
        page = read_page(index_md)
        cells = re.search(r"(\d+) of (\d+) computed cells", line)
        assert (page.within, page.computed) == ((int(cells[1]), int(cells[2])) if cells else (0, 0)), name
        ours = re.search(
            r"claims on our numbers: (\d+) hold, (\d+) do not, (\d+) practically equivalent, (\d+) undecided",
            line,
        )
        assert (
            page.ours["holds"],
            page.ours["fails"],
            page.ours["equivalent"],
            page.ours["undecided"],
        ) == tuple(map(int, ours.groups()))


@pytest.mark.parametrize(
    "change",
    [("## Summary", "## Overview"), ("| On ours |", "| Ours |"), ("## Claims at a glance", "## Claims")],
)
def test_a_page_of_an_older_generator_gets_a_row_that_says_so(tmp_path, change):
    # a pinned report is made by its commit's pipeline, whose page may lack the tables the index
    # reads or give them other columns: make report still writes the index
    root = tmp_path / "paper"
    manifest = _tree(root)
    page = root / "b" / "index.md"
    page.write_text(page.read_text().replace(*change))
    assert read_page(page) is None
    write_index(root, manifest)
    assert "| [b/](b/index.md) | paper | not on its page (an older generator's) |  |  | complete |" in (
        (root / "index.md").read_text()
    )
