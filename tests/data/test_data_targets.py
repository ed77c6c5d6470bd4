"""Target transforms on hand-checked arrays: housing's binarisation and C2RF's one-vs-rest."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from forestrepro.data import DatasetError, apply_paper_target, load_dataset, load_spec
from forestrepro.data.targets import binarize


def test_binarize_at_median_and_at_a_number():
    y = pd.Series([10.0, 30.0, 20.0, 40.0, 20.0])
    labels, cut = binarize(y, "median")  # median 20: only values above it are positive
    assert cut == 20.0 and labels.tolist() == [0, 1, 0, 1, 0]
    labels, cut = binarize(y, 15)
    assert cut == 15.0 and labels.tolist() == [0, 1, 1, 1, 1]


def test_housing_binarised_at_median_medv(mirror_dir):
    loaded = load_dataset(load_spec("housing"), sources=("mirror",), mirror_dir=mirror_dir)
    assert loaded.provenance["target_transform"] == {
        "kind": "binarize",
        "threshold": "median",
        "threshold_value": 21.2,
    }
    assert int(loaded.frame["target"].sum()) == 250  # MEDV > 21.2 in 250 of 506 rows (5 rows equal 21.2)


def test_one_vs_rest_for_c2rf():
    spec = {"name": "toy", "paper_targets": {"c2rf": {"kind": "one_vs_rest", "positive": 1}}}
    assert apply_paper_target(np.array([0, 1, 2, 1, 0]), spec, "c2rf").tolist() == [0, 1, 0, 1, 0]
    assert apply_paper_target(np.array([2, 1, 3]), spec, "c2rf").dtype == np.int64
    assert apply_paper_target(np.array([0, 1, 2]), spec, "rcrf").tolist() == [0, 1, 2]  # no view: unchanged
    text = {"name": "toy", "paper_targets": {"c2rf": {"kind": "one_vs_rest", "positive": "cp"}}}
    assert apply_paper_target(np.array(["im", "cp", "pp"], dtype=object), text, "c2rf").tolist() == [0, 1, 0]


def test_one_vs_rest_needs_the_positive_label():
    spec = {"name": "toy", "paper_targets": {"c2rf": {"kind": "one_vs_rest", "positive": 1}}}
    with pytest.raises(DatasetError, match="positive label 1"):
        apply_paper_target(np.array([2, 3]), spec, "c2rf")


def test_waveform_one_vs_rest_counts(mirror_dir):
    spec = load_spec("waveform_40")
    y = load_dataset(spec, sources=("mirror",), mirror_dir=mirror_dir).frame["target"].to_numpy()
    binary = apply_paper_target(y, spec, "c2rf")
    assert set(binary.tolist()) == {0, 1} and int(binary.sum()) == int((y == 1).sum())
