"""Open a report's ``index.html`` in headless Chromium and check what a reader gets.

Checks, each a list of problems in :class:`ReportCheck` (empty when it holds):

- ``summary``: an element ``#summary`` exists, is visible, comes first after the page title
  (no other heading before it) and starts within the first screen (1280 x 900).
- ``anchors``: every in-page link ``href="#id"`` has an element with that id; no id is used twice.
- ``images``: every ``<img>`` has loaded (``complete`` and ``naturalWidth > 0``), from inside
  the report's directory.
- ``console``: no console message of type error and no uncaught page error.
- ``requests``: no request failed and none was answered with an HTTP status >= 400.
- ``records``: every relative link to a file (a run record, or the directory of a data set's
  split records) names a file or directory that exists on disk, resolved from the report's
  directory, and the server answers it without an error.

How the page is opened: the repository root (the directory above the report's ``results/``;
the report's own directory when it lies under no ``results/``) is served over
``http://127.0.0.1:<free port>`` by Python's ``http.server`` (in a thread, for the check only),
and the report is opened at its path there, not as ``file://``. So a missing figure is a request
answered 404, and the report's relative links to its run records (``../../../runs/...``) resolve
as they would on a static web server of the repository: each one is checked on disk and then
fetched (HEAD) from that server. An image is also reported when its ``src`` leaves the report's
directory, which would break when the directory is published or copied on its own. The server
answers Chromium's automatic ``/favicon.ico`` request itself (older reports declare no icon; see
``_Handler``).

Chromium: ``$FORESTREPRO_CHROMIUM``, else ``chromium`` (Debian: ``apt-get install chromium``),
``chromium-browser`` or ``google-chrome`` on PATH, driven by Playwright (the ``test`` extra;
it never downloads a browser of its own here). It runs headless with a fresh profile directory
and the flags in ``CHROMIUM_ARGS``.

Command line (exit status 1 when a check fails)::

    python tests/browser/report_check.py results/report/quick/index.html
    python tests/browser/report_check.py results/report/paper/rcrf/index.html --screenshot /tmp/summary.png
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import http.server
import os
import shutil
import sys
import tempfile
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote, unquote, urljoin, urlsplit

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
VIEWPORT = {"width": 1280, "height": 900}
CHECKS = ("summary", "anchors", "images", "console", "requests", "records")
INSTALL_HINT = "apt-get install chromium (Debian), or set FORESTREPRO_CHROMIUM to a Chromium binary"


def find_chromium() -> str | None:
    """The Chromium binary to drive, or None when there is none."""
    env = os.environ.get("FORESTREPRO_CHROMIUM")
    if env:
        return env if Path(env).is_file() else None
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


@dataclass
class ReportCheck:
    """What the browser found on one report; ``counts`` says how much was looked at."""

    report: Path
    summary: list[str] = field(default_factory=list)
    anchors: list[str] = field(default_factory=list)
    images: list[str] = field(default_factory=list)
    console: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)
    records: list[str] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)

    @property
    def problems(self) -> list[str]:
        return [f"{name}: {p}" for name in CHECKS for p in getattr(self, name)]

    @property
    def ok(self) -> bool:
        return not self.problems

    def describe(self) -> str:
        seen = ", ".join(f"{v} {k}" for k, v in self.counts.items())
        head = f"{self.report}: {'ok' if self.ok else f'{len(self.problems)} problem(s)'} ({seen})"
        return "\n".join([head, *(f"  {p}" for p in self.problems)])


class _Handler(http.server.SimpleHTTPRequestHandler):
    """Python's static file handler, without its log, that answers Chromium's own request for
    ``/favicon.ico`` with 204 No Content when the directory has none: the browser asks for it
    whatever the page says, so its 404 would be an error of this server, not of the report."""

    def do_GET(self):
        if urlsplit(self.path).path == "/favicon.ico" and not Path(self.directory, "favicon.ico").exists():
            self.send_response(204)
            self.end_headers()
            return
        super().do_GET()

    def log_message(self, format, *args):
        pass


@contextlib.contextmanager
def serve(directory: Path) -> Iterator[str]:
    """Serve ``directory`` on 127.0.0.1 (a free port) while the block runs; yields the base URL."""
    handler = functools.partial(_Handler, directory=str(directory))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


@contextlib.contextmanager
def browser_context(chromium: str | None = None):
    """A Playwright browser context of headless Chromium with a fresh profile directory."""
    from playwright.sync_api import sync_playwright

    executable = chromium or find_chromium()
    if executable is None:
        raise RuntimeError(f"no Chromium found: {INSTALL_HINT}")
    with tempfile.TemporaryDirectory(prefix="report-check-profile-") as profile, sync_playwright() as pw:
        context = pw.chromium.launch_persistent_context(
            profile, executable_path=executable, headless=True, args=CHROMIUM_ARGS, viewport=VIEWPORT
        )
        try:
            yield context
        finally:
            context.close()


# Everything read from the page in one evaluation.
_PAGE_JS = """() => {
  const summary = document.getElementById('summary');
  const out = {summary: null, anchors: [], ids: [], images: [], links: []};
  if (summary) {
    const headings = [...document.querySelectorAll('h1,h2,h3,h4,h5,h6')];
    const before = headings.slice(0, headings.indexOf(summary)).filter(h => h.tagName !== 'H1');
    const box = summary.getBoundingClientRect();
    const style = getComputedStyle(summary);
    out.summary = {
      top: box.top + window.scrollY, height: box.height, width: box.width,
      hidden: style.display === 'none' || style.visibility === 'hidden' || style.opacity === '0',
      headingsBefore: before.map(h => h.tagName + ' ' + h.textContent.trim()),
      viewport: window.innerHeight,
    };
  }
  for (const a of document.querySelectorAll('a[href]')) {
    const href = a.getAttribute('href');
    if (href.startsWith('#')) out.anchors.push(href); else out.links.push(href);
  }
  out.ids = [...document.querySelectorAll('[id]')].map(e => e.id);
  out.images = [...document.images].map(img => ({
    src: img.getAttribute('src'), complete: img.complete, width: img.naturalWidth}));
  return out;
}"""

# The summary section: its heading and the elements after it up to the next heading.
_SUMMARY_BOX_JS = """() => {
  const start = document.getElementById('summary');
  let top = Infinity, left = Infinity, bottom = -Infinity, right = -Infinity;
  for (let el = start; el && (el === start || !/^H[1-6]$/.test(el.tagName)); el = el.nextElementSibling) {
    const b = el.getBoundingClientRect();
    top = Math.min(top, b.top + window.scrollY); left = Math.min(left, b.left + window.scrollX);
    bottom = Math.max(bottom, b.bottom + window.scrollY); right = Math.max(right, b.right + window.scrollX);
  }
  return {x: left, y: top, width: right - left, height: bottom - top};
}"""


def served_root(index_html: Path) -> Path:
    """The directory to serve for ``index_html``: the parent of its nearest ``results``
    ancestor (the repository root for ``results/report/<tag>/index.html``), else its own
    directory."""
    index_html = Path(index_html).resolve()
    for parent in index_html.parents:
        if parent.name == "results":
            return parent.parent
    return index_html.parent


def _is_relative_file_link(href: str) -> bool:
    parts = urlsplit(href)
    return not parts.scheme and not parts.netloc and bool(parts.path)


def check_report(index_html: Path, context=None, screenshot: Path | None = None) -> ReportCheck:
    """Open ``index_html`` (served from its directory) and run every check. ``context``: a
    browser context from :func:`browser_context` to reuse (else one is started for this page).
    ``screenshot``: write a PNG of the summary section there (when the summary is present)."""
    index_html = Path(index_html).resolve()
    if context is None:
        with browser_context() as ctx:
            return check_report(index_html, ctx, screenshot)
    result = ReportCheck(index_html)
    root = served_root(index_html)
    with serve(root) as base:
        page = context.new_page()
        try:
            _open_and_check(page, base + quote(index_html.relative_to(root).as_posix()), result, screenshot)
        finally:
            # before the server stops: Chromium asks for /favicon.ico after the page has loaded
            page.close()
    return result


def _open_and_check(page, url: str, result: ReportCheck, screenshot: Path | None) -> None:
    page.on(
        "console",
        lambda m: m.type == "error" and result.console.append(f"{m.text} ({m.location.get('url', '')})"),
    )
    page.on("pageerror", lambda e: result.console.append(f"uncaught: {e}"))
    page.on("requestfailed", lambda r: result.requests.append(f"{r.url}: {r.failure}"))
    page.on("response", lambda r: r.status >= 400 and result.requests.append(f"{r.url}: HTTP {r.status}"))
    page.goto(url, wait_until="load")
    found = page.evaluate(_PAGE_JS)
    _check_summary(found["summary"], result)
    _check_anchors(found["anchors"], found["ids"], result)
    _check_images(found["images"], url, result)
    _check_records(found["links"], result.report.parent, url, page.request, result)
    if screenshot is not None and found["summary"] is not None:
        box = page.evaluate(_SUMMARY_BOX_JS)
        pad = 8
        clip = {
            "x": max(box["x"] - pad, 0),
            "y": max(box["y"] - pad, 0),
            "width": box["width"] + 2 * pad,
            "height": box["height"] + 2 * pad,
        }
        Path(screenshot).parent.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(screenshot), clip=clip, full_page=True)


def _check_summary(summary: dict | None, result: ReportCheck) -> None:
    if summary is None:
        result.summary.append("no element with id 'summary'")
        return
    if summary["hidden"] or summary["width"] == 0 or summary["height"] == 0:
        result.summary.append("#summary is not visible")
    if summary["headingsBefore"]:
        result.summary.append(f"#summary is not the first section; before it: {summary['headingsBefore']}")
    if summary["top"] >= summary["viewport"]:
        result.summary.append(
            f"#summary starts {summary['top']:.0f}px down, below the first screen ({summary['viewport']}px)"
        )


def _check_anchors(anchors: list[str], ids: list[str], result: ReportCheck) -> None:
    known = set(ids)
    result.counts["in-page links"] = len(anchors)
    for href in sorted(set(anchors)):
        target = unquote(href[1:])
        if not target:
            result.anchors.append("a link to '#' (no target)")
        elif target not in known:
            result.anchors.append(f"{href}: no element with this id")
    for dup in sorted({i for i in ids if ids.count(i) > 1}):
        result.anchors.append(f"id {dup!r} is used more than once")


def _check_images(images: list[dict], url: str, result: ReportCheck) -> None:
    result.counts["images"] = len(images)
    directory = urljoin(url, ".")
    for img in images:
        if not (img["complete"] and img["width"] > 0):
            result.images.append(f"{img['src']}: not loaded")
        elif not urljoin(url, img["src"] or "").startswith(directory):
            result.images.append(f"{img['src']}: outside the report's directory")


def _check_records(links: list[str], directory: Path, url: str, http, result: ReportCheck) -> None:
    """``http``: the page's request context, to ask the server for each link found on disk."""
    relative = sorted({h for h in links if _is_relative_file_link(h)})
    result.counts["record links"] = len(relative)
    for href in relative:
        if not (directory / unquote(urlsplit(href).path)).exists():
            result.records.append(f"{href}: no such file")
            continue
        response = http.head(urljoin(url, href))
        if response.status >= 400:
            result.records.append(f"{href}: exists, but the server answers HTTP {response.status}")
        response.dispose()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("reports", nargs="+", type=Path, help="index.html of each report to check")
    parser.add_argument("--screenshot", type=Path, help="PNG of the (first) report's summary section")
    parser.add_argument("--chromium", help="Chromium binary (default: $FORESTREPRO_CHROMIUM, then PATH)")
    args = parser.parse_args(argv)
    if (args.chromium or find_chromium()) is None:
        print(f"report_check: no Chromium found: {INSTALL_HINT}", file=sys.stderr)
        return 2
    failed = False
    with browser_context(args.chromium) as context:
        for i, report in enumerate(args.reports):
            result = check_report(report, context, args.screenshot if i == 0 else None)
            print(result.describe())
            failed |= not result.ok
    if args.screenshot:
        print(f"summary screenshot: {args.screenshot}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
