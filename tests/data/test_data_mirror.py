"""Every registered data set loads from the repository's mirror with its expected shape."""

from __future__ import annotations

import numpy as np
import pytest

from forestrepro.data import list_datasets, load_dataset, load_spec


@pytest.mark.parametrize("name", [n for n in list_datasets() if "synthetic" not in load_spec(n)])
def test_loads_from_mirror(name, mirror_dir):
    spec = load_spec(name)
    loaded = load_dataset(spec, sources=("mirror",), mirror_dir=mirror_dir)
    frame, provenance = loaded.frame, loaded.provenance
    assert provenance["source"] == "mirror"
    assert provenance["files"] == spec["mirror"]["files"]
    assert provenance["shape"] == spec["expected"]
    assert frame.shape == (spec["expected"]["rows"], spec["expected"]["features"] + 1)
    assert frame.columns[-1] == "target"
    text = spec["mirror"].get("text_columns", [])
    numeric = frame.drop(columns=["target", *text])
    assert all(dtype == np.float64 for dtype in numeric.dtypes)
    if not spec["drop_incomplete_rows"]:
        assert provenance["dropped_incomplete_rows"] == 0
