"""What a run refuses or bounds before its first job (issue 67, item 2): ``only=`` for every
target, the partial report of whatever subset has finished, a second live run on the same files
after ``--unlock``, and folders the run cannot write."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from forestrepro.report.paper_figures import accuracy_bars

REPO = Path(__file__).resolve().parents[2]
MIRROR = (REPO.parent / "shared" / "datasets").resolve()
SNAKEMAKE = str(Path(sys.executable).with_name("snakemake"))
SMALL = [
    "papers=[brf]",
    "paper.brf.experiments.main.datasets=[wine]",
    "method.brf.params.n_estimators=5",
    "method.rf.params.n_estimators=5",
    "method.knn.grid.n_neighbors=[1,3]",
]
needs_mirror = pytest.mark.skipif(not MIRROR.is_dir(), reason=f"data mirror not found at {MIRROR}")


def snakemake(workdir, *args, overrides=SMALL, background=False, check=True):
    """Snakemake on this checkout's Snakefile in ``workdir``, tag ``small``, one core; the
    ``key=value`` items of ``args`` go to --config, the others (options, targets) before it."""
    config = [a for a in args if "=" in a and not a.startswith("-")]
    cmd = [SNAKEMAKE, "--snakefile", str(REPO / "Snakefile"), "--directory", str(workdir), "--cores", "1"]
    cmd += [a for a in args if a not in config]
    cmd += ["--config", "tag=small", "overrides=[" + ",".join(f'"{o}"' for o in overrides) + "]", *config]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["FORESTREPRO_MIRROR"] = str(MIRROR)
    if background:
        return subprocess.Popen(
            cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True
        )
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    if check and proc.returncode != 0:
        raise AssertionError(f"snakemake failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}")
    return proc


def planned(proc) -> list[str]:
    return re.findall(r"^(?:local)?rule (\w+):", proc.stdout, re.MULTILINE)


def records(workdir):
    runs = workdir / "results" / "runs" / "small"
    return sorted(p.relative_to(runs).as_posix() for p in runs.rglob("*.csv") if "specs" not in p.parts)


# -- (b) the partial report renders whatever subset has finished ------------------------------------


def test_accuracy_bars_of_methods_none_of_which_has_finished_is_drawn_empty():
    runs = pd.DataFrame({"dataset": ["wine", "wine"], "method": ["knn", "knn"], "accuracy": [0.9, 0.8]})
    fig = accuracy_bars(runs, {"method_order": ["brf", "pbrf"]})  # before: ValueError, zero-size array
    assert "no finished run" in " ".join(t.get_text() for t in fig.axes[0].texts)


@needs_mirror
def test_a_partial_report_renders_whatever_subset_has_finished(tmp_path):
    """Issue 67's case: KNN alone of BRF's main experiment has finished; the partial report crashed
    drawing Fig. 3 (BRF and its variants: none finished). It now leaves the figure out, and draws
    it once one of its methods has finished."""
    snakemake(tmp_path, "records", "only=brf/main/knn/wine")
    snakemake(tmp_path, "partial=true")
    report = (tmp_path / "results" / "report" / "small" / "index.md").read_text()
    assert "Partial report:" in report and "### table2" in report
    assert "fig3_banzhaf_vs_gain_ratio" not in report
    snakemake(tmp_path, "records", "only=brf/main/brf/wine")
    snakemake(tmp_path, "partial=true")
    report = (tmp_path / "results" / "report" / "small" / "index.md").read_text()
    assert "### fig3_banzhaf_vs_gain_ratio" in report
    assert (
        tmp_path / "results" / "report" / "small" / "figures" / "brf_fig3_banzhaf_vs_gain_ratio.png"
    ).exists()
