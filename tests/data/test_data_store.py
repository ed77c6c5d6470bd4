"""Parquet + provenance files: atomic, byte-identical on rerun, and read back as arrays."""

from __future__ import annotations

import json

import numpy as np
import pytest
from fetch_step import fetch

from forestrepro.data import DatasetError, load_dataset, load_spec, read_dataset, write_dataset


def test_fetch_writes_files_that_read_back(tmp_path, mirror_dir):
    provenance = fetch(
        "wine", tmp_path / "wine.parquet", tmp_path / "wine.json", sources=("mirror",), mirror_dir=mirror_dir
    )
    X, y, names = read_dataset(tmp_path / "wine.parquet")
    assert X.dtype == np.float64 and X.shape == (178, 13) and len(names) == 13
    assert sorted(set(y.tolist())) == [1, 2, 3]
    written = json.loads((tmp_path / "wine.json").read_text())
    assert written == provenance and list(written) == sorted(written)
    assert written["files"][0]["path"] == "pmlb/wine_recognition.tsv.gz"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["wine.json", "wine.parquet"]  # no temporary left


def test_rerun_is_byte_identical(tmp_path, mirror_dir):
    outputs = []
    for run in ("a", "b"):
        loaded = load_dataset(load_spec("primary_tumor"), sources=("mirror",), mirror_dir=mirror_dir)
        write_dataset(loaded, tmp_path / run / "d.parquet", tmp_path / run / "d.json")
        outputs.append([(tmp_path / run / name).read_bytes() for name in ("d.parquet", "d.json")])
    assert outputs[0] == outputs[1]
    provenance = json.loads((tmp_path / "a" / "d.json").read_text())
    assert provenance["categories"]["age"] == ["30-59", "<30", ">=60"]
    assert provenance["dropped_incomplete_rows"] == 207


def test_text_features_cannot_be_read_as_floats(tmp_path, mirror_dir):
    fetch(
        "imdb", tmp_path / "imdb.parquet", tmp_path / "imdb.json", sources=("mirror",), mirror_dir=mirror_dir
    )
    with pytest.raises(DatasetError, match=r"text features \['Sentence'\]"):
        read_dataset(tmp_path / "imdb.parquet")
