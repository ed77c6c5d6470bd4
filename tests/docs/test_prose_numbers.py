"""Figures in the user docs are what the code gives today (issue 76, item 5): each one a test
recomputes, and no dated history (that belongs in the git log)."""

import re
from functools import cache
from pathlib import Path

import pytest

from forestrepro.cli import main

REPO = Path(__file__).resolve().parents[2]
USER_DOCS = [REPO / "README.md", REPO / "conf" / "README.md", *sorted((REPO / "docs" / "pages").glob("*.md"))]


def plan_counts(capsys, *overrides: str) -> dict[str, str]:
    """``forestrepro plan --profile paper`` on the committed records: its job counts and cost."""
    assert main(["plan", "--profile", "paper", "--results", str(REPO / "results"), *overrides]) == 0
    out = capsys.readouterr().out
    counts = re.search(r"^(\d+) jobs: (\d+) current, (\d+) copied .*, (\d+) to run$", out, re.M)
    cost = re.search(r"^all jobs: ([\d.]+) core-h", out, re.M)
    assert counts and cost, out[-2000:]
    return {
        "jobs": counts[1],
        "current": counts[2],
        "copied": counts[3],
        "to_run": counts[4],
        "core_h": cost[1],
    }


def test_readme_counts_the_jobs_an_rf_ablation_of_brf_trains(capsys):
    said = re.search(r"one RF parameter of BRF: (\d+) of (\d+) jobs train", (REPO / "README.md").read_text())
    assert said, "README no longer says how many jobs an RF ablation of BRF trains"
    got = plan_counts(capsys, "papers=[brf]", "method.rf.params.n_estimators=500")
    assert (said[1], said[2]) == (got["to_run"], got["jobs"])


def test_the_records_page_gives_the_out_of_sample_suites_jobs_and_cost(capsys):
    text = (REPO / "docs" / "pages" / "records.md").read_text()
    said = re.search(r"all ([\d,]+) jobs; `plan` gives their measured cost, ([\d.]+) core-hours", text)
    assert said, "records.md no longer gives the out-of-sample suite's jobs and cost"
    got = plan_counts(capsys, "papers=[outofsample]")
    assert said[1].replace(",", "") == got["jobs"] == got["current"]
    assert said[2] == got["core_h"]


@pytest.mark.parametrize("page", USER_DOCS, ids=lambda p: p.relative_to(REPO).as_posix())
def test_the_user_docs_keep_no_dated_history(page):
    text = page.read_text()
    dated = re.findall(r".{0,40}\b(?:20\d\d-[01]\d-[0-3]\d|stop \d+)\b.{0,40}", text)
    assert not dated, dated


@cache
def outofsample_counts() -> dict[str, int]:
    """How many data sets the out-of-sample suite has, and each paper's experiment there, from
    the composed configuration (the numbers its title and notes are generated from)."""
    from forestrepro.config.compose import compose_config

    paper = compose_config(["papers=[outofsample]"], profile="paper")["paper"]["outofsample"]
    counts = {name: len(experiment["datasets"]) for name, experiment in paper["experiments"].items()}
    return {"all": max(counts.values()), **counts}


PROSE_COUNTS = [  # (file, a pattern whose groups are counts, the counts they must equal)
    ("README.md", r"each paper's claims on (\d+) PMLB data sets none of them used", ("all",)),
    ("conf/README.md", r"each paper's claims on (\d+) PMLB data sets none of them used", ("all",)),
    (
        "docs/pages/records.md",
        r"each paper's claims on (\d+) PMLB data sets that none of the papers used .*?: BRF's comparison "
        r"\(its protocol, without SVM\) on (\d+), RCRF's on (\d+), WDF's \(one split each\) on (\d+), p-C2RF\+ vs "
        r"RF \(60 s per solve\) on the (\d+) binary",
        ("all", "brf", "rcrf", "wdf", "c2rf"),
    ),
    (
        "results/report/paper/reports.yaml",
        r"each paper's claims on (\d+) PMLB data sets none of them used \(BRF's comparison on (\d+), RCRF's on "
        r"(\d+), WDF's on (\d+), C2RF's on the (\d+) binary",
        ("all", "brf", "rcrf", "wdf", "c2rf"),
    ),
]


@pytest.mark.parametrize(("path", "pattern", "names"), PROSE_COUNTS, ids=[p for p, *_ in PROSE_COUNTS])
def test_prose_counts_of_the_out_of_sample_suite_are_its_configurations(path, pattern, names):
    said = re.search(pattern, (REPO / path).read_text(), re.S)
    assert said, f"{path} no longer says how many data sets the out-of-sample suite has (update PROSE_COUNTS)"
    counts = outofsample_counts()
    assert dict(zip(names, map(int, said.groups()), strict=True)) == {name: counts[name] for name in names}
