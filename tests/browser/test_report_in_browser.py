"""The HTML reports in a real headless browser (Debian's chromium, driven by Playwright): the
committed reports, the quick report when `make run` has made it, and copies broken on purpose to
show each check fails when it should. See report_check.py for what is checked and how."""

import shutil
from pathlib import Path

import pytest
import report_check

REPO = Path(__file__).resolve().parents[2]
PAPER = REPO / "results" / "report" / "paper"
QUICK = REPO / "results" / "report" / "quick" / "index.html"
RCRF = PAPER / "rcrf"

CURRENT = sorted(PAPER.glob("*/index.html"))  # reports with a summary
LEGACY = sorted(PAPER.glob("legacy/*/index.html"))  # made before reports had a summary
REPORTS = CURRENT + ([QUICK] if QUICK.exists() else [])


@pytest.fixture(scope="module")
def browser():
    chromium = report_check.find_chromium()
    if chromium is None:
        pytest.skip(f"no Chromium found: {report_check.INSTALL_HINT}")
    with report_check.browser_context(chromium) as context:
        yield context


def _name(path: Path) -> str:
    return str(path.parent.relative_to(REPO / "results" / "report"))


def test_reports_are_found():
    assert len(CURRENT) >= 2 and RCRF / "index.html" in CURRENT


@pytest.mark.parametrize("index", REPORTS, ids=_name)
def test_report_reads_in_browser(browser, index):
    result = report_check.check_report(index, browser)
    assert result.ok, result.describe()
    assert result.counts["in-page links"] > 0 and result.counts["record links"] > 0


@pytest.mark.parametrize("index", LEGACY, ids=_name)
def test_legacy_report_reads_in_browser(browser, index):
    """Every check but the summary, which these reports predate."""
    result = report_check.check_report(index, browser)
    assert [p for p in result.problems if not p.startswith("summary:")] == [], result.describe()
    assert result.summary == ["no element with id 'summary'"]


def _copy_rcrf(tmp_path: Path) -> Path:
    """The RCRF report copied to the same place under tmp_path, its record links resolving to
    the repository's run records through a symlinked results/runs."""
    report = tmp_path / "results" / "report" / "paper" / "rcrf"
    shutil.copytree(RCRF, report)
    (tmp_path / "results" / "runs").symlink_to(REPO / "results" / "runs", target_is_directory=True)
    return report / "index.html"


def test_intact_copy_passes(browser, tmp_path):
    result = report_check.check_report(_copy_rcrf(tmp_path), browser)
    assert result.ok, result.describe()


def test_broken_copy_reports_exactly_what_was_broken(browser, tmp_path):
    index = _copy_rcrf(tmp_path)
    (index.parent / "figures" / "rcrf_table3_cd.png").unlink()
    broken = (
        '<p><a href="#no-such-section">dangling</a> '
        '<a href="../../../runs/paper/rcrf/main/rcrf/no_such_dataset.csv">missing record</a></p>'
    )
    index.write_text(
        index.read_text(encoding="utf-8").replace("</body>", broken + "</body>"), encoding="utf-8"
    )
    result = report_check.check_report(index, browser)
    assert result.summary == []
    assert result.anchors == ["#no-such-section: no element with this id"]
    assert result.images == ["figures/rcrf_table3_cd.png: not loaded"]
    assert result.records == ["../../../runs/paper/rcrf/main/rcrf/no_such_dataset.csv: no such file"]
    assert len(result.requests) == 1 and result.requests[0].endswith("/figures/rcrf_table3_cd.png: HTTP 404")
    assert (
        len(result.console) == 1 and "404" in result.console[0] and "rcrf_table3_cd.png" in result.console[0]
    )


def test_summary_and_script_errors_are_reported(browser, tmp_path):
    index = tmp_path / "index.html"
    filler = "<p>filler</p>" * 60
    index.write_text(
        "<!DOCTYPE html><html><head><meta charset='utf-8'><title>t</title></head><body>"
        f"<h1 id='t'>t</h1><h2 id='intro'>Intro</h2>{filler}<h2 id='summary'>Summary</h2>"
        "<p id='t'>again</p><a href='#'>top</a>"
        "<script>console.error('boom'); undefinedFunction();</script></body></html>",
        encoding="utf-8",
    )
    result = report_check.check_report(index, browser)
    assert len(result.summary) == 2
    assert result.summary[0] == "#summary is not the first section; before it: ['H2 Intro']"
    assert "below the first screen" in result.summary[1]
    assert result.anchors == ["a link to '#' (no target)", "id 't' is used more than once"]
    assert len(result.console) == 2 and result.console[0].startswith("boom")
    assert "undefinedFunction" in result.console[1]
    assert result.images == result.records == result.requests == []


def test_hidden_or_missing_summary(browser, tmp_path):
    index = tmp_path / "index.html"
    index.write_text(
        "<html><body><h2 id='summary' style='display:none'>Summary</h2></body></html>", encoding="utf-8"
    )
    assert report_check.check_report(index, browser).summary == ["#summary is not visible"]
    index.write_text("<html><body><h2>Summary</h2></body></html>", encoding="utf-8")
    assert report_check.check_report(index, browser).summary == ["no element with id 'summary'"]


def test_screenshot_of_the_summary(browser, tmp_path):
    png = tmp_path / "summary.png"
    report_check.check_report(RCRF / "index.html", browser, screenshot=png)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_repository_root_is_served(tmp_path):
    repo = tmp_path / "repo"
    assert report_check.served_root(repo / "results" / "report" / "x" / "index.html") == repo
    assert report_check.served_root(tmp_path / "index.html") == tmp_path


def test_links_and_images_leaving_their_place_are_reported(browser, tmp_path):
    """An image that loads from outside the report's directory, and a link to a file that exists
    on disk but outside the served repository (so the server cannot answer it)."""
    repo = tmp_path / "repo"
    report = repo / "results" / "report" / "x"
    report.mkdir(parents=True)
    shutil.copy(RCRF / "figures" / "rcrf_table3_cd.png", repo / "pic.png")
    (tmp_path / "outside.csv").write_text("a\n", encoding="utf-8")
    (report / "index.html").write_text(
        "<!DOCTYPE html><html><head><meta charset='utf-8'><link rel='icon' href='data:,'><title>t</title>"
        "</head><body><h1>t</h1><h2 id='summary'>Summary</h2>"
        "<img src='../../../pic.png' alt=''><a href='../../../../outside.csv'>record</a></body></html>",
        encoding="utf-8",
    )
    result = report_check.check_report(report / "index.html", browser)
    assert result.images == ["../../../pic.png: outside the report's directory"]
    assert result.records == ["../../../../outside.csv: exists, but the server answers HTTP 404"]
    assert result.summary == result.anchors == result.console == result.requests == []
