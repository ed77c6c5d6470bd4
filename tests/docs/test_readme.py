"""The README stays one screen of purpose: short, its two commands real (and the test command the
one CI runs), a line per committed report whose state says what reports.yaml says, links that
resolve, and no picture that no test keeps current."""

import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
LINK = re.compile(r"\]\(([^)\s]+)\)")


def test_the_readme_is_short_and_shows_no_picture():
    assert len(README.splitlines()) <= 150
    assert "![" not in README and "<img" not in README and ".png" not in README


def test_the_two_commands_are_make_targets_and_ci_runs_the_test_command():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    for target in ("run", "test"):
        assert re.search(rf"^make {target} ", README, re.MULTILINE), target
        assert re.search(rf"^{target}: setup$", makefile, re.MULTILINE), target
    # the test command the README quotes is make test's
    (command,) = re.findall(r"^test: setup\n\t\$\(BIN\)/(.+)$", makefile, re.MULTILINE)
    assert f"`.venv/bin/{command.split(' tests')[0]}" in " ".join(README.split())
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert re.search(r"^make test$", ci, re.MULTILINE) and re.search(r"^make run$", ci, re.MULTILINE)


def test_every_committed_report_has_its_line_and_its_state():
    manifest = yaml.safe_load((ROOT / "results/report/paper/reports.yaml").read_text(encoding="utf-8"))
    for name, entry in manifest.items():
        target = f"(results/report/paper/{name}/index.md)"
        lines = [line for line in README.splitlines() if line.startswith("|") and target in line]
        assert len(lines) == 1, name
        state = lines[0].split("|")[3]
        assert ("in progress" in state) == bool(entry.get("partial")), (name, state)
        assert (ROOT / "results/report/paper" / name / "index.md").exists(), name
    assert "(results/report/paper/index.md)" in README  # the generated index


def test_every_local_link_resolves():
    for target in LINK.findall(README):
        if target.startswith(("http://", "https://", "#")):
            continue
        assert (ROOT / target.split("#")[0]).exists(), target


def test_every_docs_page_the_readme_names_is_in_the_site():
    nav = (ROOT / "docs" / "mkdocs.yml").read_text(encoding="utf-8")
    pages = {t.removeprefix("docs/pages/") for t in LINK.findall(README) if t.startswith("docs/pages/")}
    assert {"running.md", "records.md", "cluster.md", "pipeline.md", "extending.md"} <= pages
    for page in pages:
        assert re.search(rf":\s+{re.escape(page)}$", nav, re.MULTILINE), page
