"""The entry points the rules call: one clear line and exit status 2 on bad input, no output."""

import json
import os
from pathlib import Path

import pytest

from forestrepro.cli import main
from forestrepro.data import load_spec

REPO = Path(__file__).resolve().parents[2]
MIRROR = (REPO.parent / "shared" / "datasets").resolve()
needs_mirror = pytest.mark.skipif(not MIRROR.is_dir(), reason="data mirror not found")


def _fetch(tmp_path, spec, sources=("mirror",), mirror=MIRROR):
    spec_path = tmp_path / "spec.json"
    spec_path.write_text(json.dumps(spec))
    out = tmp_path / "out.parquet"
    code = main(
        [
            "fetch",
            "--spec",
            str(spec_path),
            "--out",
            str(out),
            "--provenance",
            str(tmp_path / "p.json"),
            "--sources",
            *sources,
            "--mirror-dir",
            str(mirror),
            "--openml-cache",
            str(tmp_path / "cache"),
        ]
    )
    return code, out


@needs_mirror
def test_fetch_writes_data_and_provenance(tmp_path):
    code, out = _fetch(tmp_path, load_spec("wine"))
    assert code == 0 and out.exists()
    assert json.loads((tmp_path / "p.json").read_text())["shape"]["rows"] == 178


@needs_mirror
def test_checksum_mismatch_names_dataset_and_file(tmp_path, capsys):
    spec = load_spec("wine")
    spec["mirror"]["files"][0]["sha256"] = "0" * 64
    code, out = _fetch(tmp_path, spec)
    err = capsys.readouterr().err
    assert code == 2 and not out.exists()
    assert "wine" in err and "wine_recognition.tsv.gz" in err and "Traceback" not in err


def test_missing_mirror_file_names_what_was_tried(tmp_path, capsys):
    code, out = _fetch(tmp_path, load_spec("wine"), mirror=tmp_path / "no_mirror")
    err = capsys.readouterr().err
    assert code == 2 and not out.exists()
    assert "wine" in err and "mirror" in err and "Traceback" not in err


def test_plan_rejects_a_typo_with_valid_keys(capsys):
    assert main(["plan", "protocol.brf_cv5.outer_fold=3"]) == 2
    err = capsys.readouterr().err
    assert "outer_fold" in err and "outer_folds" in err


def test_plan_lists_jobs_and_tag(capsys):
    assert main(["plan", "--profile", "paper"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("tag: paper") and "brf/main/svm/isolet" in out


def test_plan_estimates_costs_from_the_committed_records(capsys):
    """With --cores, every job gets a cost or says it has none; the committed RCRF records
    are all measured (issue 24's cost model)."""
    assert (
        main(
            [
                "plan",
                "--profile",
                "paper",
                "--tag",
                "paper",
                "--cores",
                "16",
                "--results",
                str(REPO / "results"),
                "papers=[rcrf]",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    rows = [line.split() for line in out.splitlines() if line.startswith("  rcrf/main/")]
    assert rows and all(row[-1] == "measured" and float(row[2]) > 0 for row in rows)
    assert "h wall on 16 cores" in out and "unknown cost" not in out.split("all jobs:")[1]


def test_plan_puts_each_scan_before_the_jobs_that_read_it(capsys):
    """WDF's scanned data sets (SEMG, MNIST) have a scan step of their own: the plan lists it
    as ``scan/<scan name>``, counts it under ``wdf/scan``, and says when its cost is unknown."""
    argv = ["plan", "--profile", "paper", "--tag", "paper", "--cores", "16"]
    assert main([*argv, "--results", str(REPO / "results"), "papers=[wdf]"]) == 0
    out = capsys.readouterr().out
    scans = [line.split() for line in out.splitlines() if line.startswith("  scan/wdf/")]
    # SEMG twice: Table 1's 500 features (main) and the 3,000 raw samples (semg_3000)
    assert sorted(row[0].split("/")[2] for row in scans) == ["mnist_test", "semg", "semg"]
    group = next(line.split() for line in out.splitlines() if line.startswith("  wdf/scan "))
    assert group[1] == "3"  # three scans, each measured or modelled from the measured ones
    assert int(group[2]) + int(group[4]) == 3 and int(group[2]) >= 2 and int(group[6]) == 0


def test_plan_says_a_measured_cost_is_its_records_as_made_and_gives_wdfs_record_measured_both_ways(capsys):
    """After its legend, plan says that a measured cost is the seconds a record took when it was
    made, and gives WDF's newest record rerun as the equivalence ledger's evidence, or says none
    is (record/both_ways.py; tests/record/test_both_ways.py for the figures)."""
    argv = ["plan", "--profile", "paper", "--tag", "paper", "--cores", "16"]
    assert main([*argv, "--results", str(REPO / "results"), "papers=[wdf]"]) == 0
    lines = capsys.readouterr().out.splitlines()
    legend = next(i for i, line in enumerate(lines) if line.startswith("  (measured: its record"))
    assert "the seconds each record took when it was made" in lines[legend + 1]
    assert lines[legend + 2].startswith("    wdf: ") or "has no git history" in lines[legend + 2]


def test_plan_prices_the_paper_command_without_cores_and_leaves_no_job_of_unknown_cost(capsys):
    """Without --cores, plan prices on this machine's cores; every job of profile=paper is measured
    or modelled, and none of unknown cost. Before: no cost without --cores, and with it
    "0.0 core-h (without 362 of unknown cost)": the C2RF jobs had no record under the tag."""
    assert main(["plan", "--profile", "paper", "--results", str(REPO / "results")]) == 0
    out = capsys.readouterr().out
    total = next(line.split() for line in out.splitlines() if line.startswith("  total "))
    assert total[-2] == "0", total  # the unknown column
    assert f"on {os.cpu_count()} cores" in out and "unknown cost" not in out.split("all jobs:")[1]


def test_plan_bounds_the_papers_7200_s_from_the_committed_600_s_records(capsys):
    """The paper's own C2RF limit is one override, priced first: each C2RF job from the same job's
    record at 600 s (or 10 s), every solve stopped there charged the whole 7,200 s: an upper
    bound, never unknown."""
    limits = [f"protocol.{p}.time_limit=7200" for p in ("c2rf_biased", "c2rf_biased_share", "c2rf_srs")]
    argv = [
        "plan",
        "--profile",
        "paper",
        "--cores",
        "16",
        "--results",
        str(REPO / "results"),
        "papers=[c2rf]",
    ]
    assert main([*argv, *limits]) == 0
    out = capsys.readouterr().out
    rows = [line.split() for line in out.splitlines() if line.startswith("  c2rf/biased/c2rf_exact/")]
    assert len(rows) == 13 and all(row[-1] == "limit" for row in rows)
    assert float(next(row for row in rows if row[0].endswith("/connect_4"))[2]) > 5 * 7200 - 1
    assert "unknown cost" not in out.split("all jobs:")[1]


def test_sweep_gives_one_config_per_value():
    from forestrepro.runner import _sweep_configs

    config = {
        "name": "rf",
        "estimator": "textbook_rf",
        "params": {"n_estimators": 100, "voting": "hard"},
        "grid": {},
    }
    swept = _sweep_configs(config, {"param": "params.n_estimators", "values": [1, 10]})
    assert [v for v, _ in swept] == [1, 10]
    assert [c["params"]["n_estimators"] for _, c in swept] == [1, 10]
    assert all(c["params"]["voting"] == "hard" for _, c in swept)
    assert config["params"]["n_estimators"] == 100
    assert _sweep_configs(config, None) == [(None, config)]


def test_every_option_of_every_command_says_what_it_is():
    """`forestrepro <command> --help` explains each option (a user runs the commands by hand
    to debug one job); help=None or an empty string fails here."""
    import argparse

    from forestrepro.cli import build_parser

    subparsers = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    missing = [
        f"{name} {action.dest}"
        for name, parser in subparsers.choices.items()
        for action in parser._actions
        if not isinstance(action, argparse._HelpAction) and not action.help
    ]
    assert missing == []
    assert all(choice.help for choice in subparsers._choices_actions), "a command without help"


def test_help_lists_the_tools_a_user_runs(capsys):
    """`forestrepro --help` names every tool a user runs besides the rules' steps: pieces,
    equivalence, reports, dataset-entry and bench, each with its own --help."""
    for argv in (
        ["--help"],
        ["pieces", "--help"],
        ["equivalence", "plan", "--help"],
        ["reports", "--help"],
        ["dataset-entry", "--help"],
        ["bench", "--help"],
    ):
        with pytest.raises(SystemExit) as done:
            main(argv)
        assert done.value.code == 0
    listed = capsys.readouterr().out
    tools = (
        "pieces",
        "equivalence",
        "reports",
        "dataset-entry",
        "bench",
        "--since",
        "--check",
        "--tag",
        "--write",
    )
    assert all(tool in listed for tool in tools)
