"""The benchmark suite is one command that prints one table of ratios with the load before and
after, a row per case of every comparison (or one saying why it did not run); ``--quick`` runs it
on tiny synthetic data. No timing is asserted: the machine is shared."""

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NAMES = ("tree_builder", "cascade", "c2rf_exact", "scan", "sklearn_trees")
HEADER = "| comparison | case | ours (s) | anchor (s) | ours / anchor | agreement |"
LOAD = r"\d+\.\d\d \d+\.\d\d \d+\.\d\d"


def suite(*args):
    """``python -m benchmarks ARGS`` from the checkout's root."""
    return subprocess.run(
        [sys.executable, "-m", "benchmarks", *args], cwd=ROOT, capture_output=True, text=True, timeout=600
    )


def table_rows(stdout):
    """The table's rows, as lists of cells."""
    lines = stdout.splitlines()
    start = lines.index(HEADER) + 2
    rows = []
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows


def test_quick_prints_one_table_of_ratios_with_the_load_before_and_after():
    done = suite("--quick")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert re.fullmatch(f"load average before: {LOAD}", lines[0])
    assert re.fullmatch(f"load average after: {LOAD}", lines[-1])
    assert lines.count(HEADER) == 1
    rows = table_rows(done.stdout)
    assert [name for name in NAMES if any(row[0] == name for row in rows)] == list(NAMES)
    for name, case, ours, anchor, ratio, agreement in rows:
        if case == "not run":  # an anchor that is not installed here
            assert (ours, anchor, ratio) == ("", "", "") and agreement, name
            continue
        assert float(ours) >= 0 and float(anchor) > 0 and float(ratio) >= 0, (name, case)
        assert agreement, (name, case)
    checked = {row[0]: row[5] for row in rows}
    assert checked["scan"].startswith("class vectors equal bit for bit in 6 of 6 forests")
    assert checked["tree_builder"].startswith("accuracy ")
    assert checked["sklearn_trees"].startswith("trees equal node for node in 2 of 2")


def test_only_runs_the_named_comparisons_and_a_typo_names_the_choices():
    done = suite("--quick", "--only", "scan")
    assert done.returncode == 0, done.stderr
    assert {row[0] for row in table_rows(done.stdout)} == {"scan"}
    typo = suite("--only", "scann")
    assert typo.returncode == 2
    assert "scann" in typo.stderr and all(name in typo.stderr for name in NAMES)


def test_forestrepro_bench_runs_the_suite_from_the_checkout():
    """``forestrepro bench`` is the suite's entry among the tools: the same table, the same exit
    status for a comparison that does not exist."""
    done = subprocess.run(
        [sys.executable, "-m", "forestrepro.cli", "bench", "--quick", "--only", "scan"],
        cwd="/",
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    assert [row[0] for row in table_rows(done.stdout)] == ["scan"]
    wrong = subprocess.run(
        [sys.executable, "-m", "forestrepro.cli", "bench", "--only", "nope"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert wrong.returncode == 2 and "invalid choice: 'nope'" in wrong.stderr
