"""Each report's title names its papers and its page gives its summary in one line; the index of
the committed reports (results/report/paper/index.md, written by make report) lists them all."""

from pathlib import Path

import yaml

from forestrepro.report.build import ONE_LINE, build_report, report_title
from forestrepro.report.document import to_html, to_markdown
from forestrepro.report.index import _index_document, read_page, write_index
from forestrepro.report.tables import build_table, write_table

from .test_report import SPEC, _record, _runs

ROOT = Path(__file__).resolve().parents[2]
COMMITTED = ROOT / "results" / "report" / "paper"


def test_the_title_names_the_papers_and_the_tag():
    assert report_title("paper", {"brf": "Banzhaf random forests"}) == (
        "forestrepro report on BRF (tag paper): Banzhaf random forests"
    )
    assert report_title("quick", {"brf": "a", "rcrf": "b", "wdf": "c"}) == (
        "forestrepro report on BRF, RCRF and WDF (tag quick)"
    )
    assert report_title("t", {}) == "forestrepro report (tag t)"


def _report(tmp_path, spec, partial=None):
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
    title, line = read_page(out / "index.md")
    assert title == "forestrepro report on BRF (tag paper): Banzhaf random forests"
    assert line == (
        "0 of 3 computed cells of 1 table against the paper within tolerance, 3 outside it (by the "
        "kind of their cause: 0 measured, 0 bounded, 0 stand-in, 3 unexplained); claims on our numbers: "
        "0 hold, 0 do not, 0 undecided."
    )
    # the line comes right after the opening sentence, before the summary
    assert md.index(ONE_LINE) < md.index("## Summary")
    # an ablation's cells are its finding: not counted against the paper; a partial report says so
    _report(tmp_path, {**spec, "ablation": True}, {"finished": 1, "jobs": 9, "pending": {}})
    assert read_page(out / "index.md")[1] == (
        "no computed cell of its 0 tables has a published value to compare with; claims on our "
        "numbers: 0 hold, 0 do not, 0 undecided; 1 table of other readings (ablations); partial: 1 of "
        "9 jobs finished."
    )


def test_the_index_lists_every_committed_report_with_its_line_and_older_ones_apart(tmp_path):
    root = tmp_path / "paper"
    for name, title, line in (("b", "Report B", "fine."), ("a", "Report A", "")):
        (root / name).mkdir(parents=True)
        text = f"# {title}\n\nIntro.\n\n" + (f"{ONE_LINE}{line}\n" if line else "")
        (root / name / "index.md").write_text(text)
    (root / "legacy" / "old").mkdir(parents=True)
    (root / "legacy" / "old" / "index.md").write_text("# An old report\n")
    manifest = {
        "b": {"tag": "paper", "covers": "all of B"},
        "a": {"tag": "t", "covers": "some of A", "partial": True},
        "c": {"tag": "t", "covers": "C"},
    }
    written = write_index(root, manifest)
    assert written == [root / "index.md", root / "index.html"]
    md, page = (root / "index.md").read_text(), (root / "index.html").read_text()
    assert md.startswith("# Committed reports\n")
    # in the manifest's order, each linked to its page, with its line or what is missing
    assert md.index("| [Report B](b/index.md) | b/ | paper | fine. | all of B |") < md.index(
        "| [Report A](a/index.md) | a/ | t | (this page gives no summary line) | some of A |"
    )
    assert "| [c](c/index.md) | c/ | t | not built yet | C |" in md
    assert "| [An old report](legacy/old/index.md) | legacy/old/ |" in md
    assert '<a href="b/index.html">Report B</a>' in page and "b/index.md" not in page
    # the same inputs give the same bytes
    write_index(root, manifest)
    assert (root / "index.md").read_text() == md


def test_the_committed_index_is_what_make_report_writes_from_the_committed_pages():
    manifest = yaml.safe_load((COMMITTED / "reports.yaml").read_text(encoding="utf-8"))
    assert (COMMITTED / "index.md").read_text(encoding="utf-8") == to_markdown(
        _index_document(COMMITTED, manifest, ".md")
    )
    assert (COMMITTED / "index.html").read_text(encoding="utf-8") == to_html(
        _index_document(COMMITTED, manifest, ".html")
    )
    # every committed report has a title of its own, naming its paper
    titles = [read_page(COMMITTED / name / "index.md")[0] for name in manifest]
    assert len(set(titles)) == len(titles), titles
    for name, title in zip(manifest, titles, strict=True):
        assert title.startswith("forestrepro report on "), (name, title)
