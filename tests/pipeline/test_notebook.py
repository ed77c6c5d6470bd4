"""Notebooks read results/ and figures/; they compute nothing the pipeline does not."""

from pathlib import Path

import nbformat
import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parents[2] / "notebooks").glob("*.ipynb"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_only_reads_results(path):
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    code = "\n".join(c.source for c in nb.cells if c.cell_type == "code")
    for forbidden in ("sklearn", "forestrepro", "snakemake", ".fit("):
        assert forbidden not in code, f"{path.name} computes with {forbidden}"
    assert '"results"' in code
