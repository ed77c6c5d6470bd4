"""The packaged transcription of the RCRF paper's Table 5 (kappa-error centroids) against the
paper's own text: every printed row is packaged, with the printed numbers. The shared
transcription leaves out zoo's row, the table's last; the packaged copy holds it."""

import re
from pathlib import Path

import pandas as pd
import pytest

from forestrepro.report.published import load_published

PAPER = Path(__file__).resolve().parents[2] / ".." / "shared" / "papers" / "003_196a5328830beb5a.txt"
METHODS = ("RF", "CRF", "RCRF")  # the printed column order (Table 5's header: RF, CRF, RCRF)

pytestmark = pytest.mark.skipif(not PAPER.exists(), reason=f"{PAPER} not available")


def printed_table5() -> dict[str, list[float]]:
    """Table 5's rows as the paper's text prints them: data set -> kappa, error per method."""
    lines = PAPER.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("Table 5 "))
    rows = {}
    for line in lines[start + 1 :]:
        cells = line.split("\t")
        if len(cells) == 7 and all(re.fullmatch(r"\d\.\d{4}", c) for c in cells[1:]):
            rows[cells[0]] = [float(c) for c in cells[1:]]
        elif rows and line.strip():  # the first line after the table's rows
            break
    return rows


def test_every_row_of_table5_is_packaged_as_printed():
    printed = printed_table5()
    assert len(printed) == 21 and "zoo" in printed
    packaged = load_published("rcrf_table5_kappa_error.csv")
    assert sorted(packaged["dataset"].unique()) == sorted(printed)
    for dataset, values in printed.items():
        for i, method in enumerate(METHODS):
            row = packaged[(packaged["dataset"] == dataset) & (packaged["method"] == method)]
            assert len(row) == 1, (dataset, method)
            got = row[["mean_pairwise_kappa", "mean_pairwise_error"]].iloc[0].tolist()
            assert got == pytest.approx(values[2 * i : 2 * i + 2], abs=5e-5), (dataset, method)


def test_the_packaged_table_parses_into_cells_with_zoo():
    from forestrepro.report.published import published_cells

    cells = published_cells("rcrf_table5_kappa_error.csv", "mean_pairwise_kappa")
    assert isinstance(cells, pd.DataFrame)
    assert cells.loc[("zoo", "RCRF"), "mean"] == pytest.approx(0.7787)
