"""A new PMLB file as a collection entry (``forestrepro dataset-entry``, data/intake.py): the
content fingerprint ignores row order, column order and label names and nothing else; a copy of a
paper's data set is refused naming it; the features' types come from the mirror's
pmlb/feature_types.tsv or are inferred and marked for confirmation; the entry is written only when
asked; and the recipe's check reads the mirror that FORESTREPRO_MIRROR names."""

from __future__ import annotations

import gzip
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from forestrepro.cli import main
from forestrepro.data import DatasetError, list_datasets, load_spec
from forestrepro.data.fingerprint import fingerprint
from forestrepro.data.intake import FEATURE_TYPES, INFERRED, infer_type, propose
from forestrepro.resources import dataset_dir

REPO_ROOT = Path(__file__).resolve().parents[2]
WINE = load_spec("wine")["mirror"]["files"][0]["path"]  # pmlb/wine_recognition.tsv.gz


def _frame(mirror_dir: Path, file: str) -> pd.DataFrame:
    return pd.read_csv(mirror_dir / file, sep="\t")


def _write(frame: pd.DataFrame, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with gzip.open(path, "wt", encoding="utf-8") as handle:
        frame.to_csv(handle, sep="\t", index=False)


def _disguised(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` with its rows shuffled, its feature columns reversed and renamed, and its labels
    renamed: the same data."""
    features = frame.drop(columns="target")
    shuffled = np.random.default_rng(0).permutation(len(frame))
    copy = features.iloc[shuffled, ::-1].reset_index(drop=True)
    copy.columns = [f"f{i}" for i in range(copy.shape[1])]
    labels = {label: f"class_{chr(ord('z') - i)}" for i, label in enumerate(sorted(frame["target"].unique()))}
    copy["target"] = frame["target"].iloc[shuffled].map(labels).to_numpy()
    return copy


@pytest.fixture
def registry(tmp_path) -> Path:
    """A copy of the registry (conf/dataset), whose collection a test may write."""
    copy = tmp_path / "conf" / "dataset"
    shutil.copytree(dataset_dir(), copy)
    return copy


@pytest.fixture
def mirror(tmp_path, mirror_dir) -> Path:
    """A mirror with the papers' wine file only (no pmlb/feature_types.tsv)."""
    directory = tmp_path / "mirror"
    (directory / "pmlb").mkdir(parents=True)
    shutil.copy(mirror_dir / WINE, directory / WINE)
    return directory


def test_the_fingerprint_ignores_row_order_column_order_and_label_names_only(mirror_dir):
    frame = _frame(mirror_dir, WINE)
    wine = fingerprint(frame.drop(columns="target"), frame["target"])
    same = _disguised(frame)
    assert fingerprint(same.drop(columns="target"), same["target"]) == wine
    changed = frame.copy()
    changed.iloc[0, 0] += 1  # one cell
    assert fingerprint(changed.drop(columns="target"), changed["target"]) != wine
    merged = frame["target"].replace({3: 2})  # two classes made one: another partition
    assert fingerprint(frame.drop(columns="target"), merged) != wine
    moved = frame["target"].copy()
    moved.iloc[0] = 3 if moved.iloc[0] != 3 else 2  # one row's label
    assert fingerprint(frame.drop(columns="target"), moved) != wine


def test_the_fingerprint_ignores_the_order_of_columns_with_the_same_values():
    frame = pd.DataFrame({"a": [0, 1, 1, 0], "b": [1, 0, 1, 0], "c": [0.5, 1.5, 2.5, 3.5]})
    labels = pd.Series(["x", "y", "x", "y"])
    assert fingerprint(frame[["b", "c", "a"]], labels) == fingerprint(frame, labels)


def test_a_relabelled_shuffled_copy_of_a_papers_data_set_is_refused_naming_it(mirror, registry, mirror_dir):
    _write(_disguised(_frame(mirror_dir, WINE)), mirror / "pmlb" / "wine_again.tsv.gz")
    with pytest.raises(
        DatasetError, match=r"pmlb/wine_again\.tsv\.gz holds the same data as the papers' data set 'wine'"
    ):
        propose("pmlb/wine_again.tsv.gz", mirror, registry)
    code = main(
        ["dataset-entry", "pmlb/wine_again.tsv.gz", "--mirror", str(mirror), "--conf", str(registry.parent)]
    )
    assert code == 2


def test_a_different_data_set_is_accepted_with_inferred_types_to_confirm(
    mirror, registry, mirror_dir, capsys
):
    frame = _disguised(_frame(mirror_dir, WINE))
    frame.iloc[0, 0] += 1  # no longer wine
    frame["f_code"] = np.arange(len(frame)) % 3  # whole numbers, 3 values: categorical
    frame["f_flag"] = np.arange(len(frame)) % 2  # 2 values: binary
    frame = frame[[c for c in frame.columns if c != "target"] + ["target"]]
    _write(frame, mirror / "pmlb" / "wine_edit.tsv.gz")
    collection = registry / "collections" / "pmlb_outofsample.yaml"
    before = collection.read_text(encoding="utf-8")
    argv = ["dataset-entry", "pmlb/wine_edit.tsv.gz", "--mirror", str(mirror), "--conf", str(registry.parent)]

    assert main(argv) == 0  # shown, not written
    shown = capsys.readouterr().out
    assert f"feature types of pmlb/wine_edit.tsv.gz, {INFERRED}:" in shown
    assert (
        "  f_code\tcategorical\n" in shown and "  f_flag\tbinary\n" in shown and "  f0\tcontinuous\n" in shown
    )
    assert "  wine_edit:\n" in shown and f"nominal: 2  # {INFERRED}: confirm" in shown
    assert collection.read_text(encoding="utf-8") == before

    assert main([*argv, "--write"]) == 0
    written = yaml.safe_load(collection.read_text(encoding="utf-8"))["datasets"]["wine_edit"]
    assert written["expected"] == {"rows": 178, "features": 15, "classes": 3} and written["nominal"] == 2
    assert f"# {INFERRED}: confirm" in collection.read_text(encoding="utf-8")
    assert "wine_edit" in list_datasets(registry)
    assert main([*argv, "--write"]) == 2  # the collection has it now


def test_feature_types_come_from_the_mirrors_table_where_it_lists_the_data_set(mirror, registry, mirror_dir):
    frame = _frame(mirror_dir, "pmlb/iris.tsv.gz")
    _write(frame, mirror / "pmlb" / "iris.tsv.gz")
    columns = list(frame.columns[:-1])
    table = pd.DataFrame({"dataset": "iris", "feature": columns, "type": ["ordinal", *["continuous"] * 3]})
    table.to_csv(mirror / FEATURE_TYPES, sep="\t", index=False)
    proposal = propose("pmlb/iris.tsv.gz", mirror, registry)
    assert proposal.types_source == FEATURE_TYPES and not proposal.inferred
    assert proposal.types == dict(zip(columns, table["type"], strict=True))
    assert proposal.entry["nominal"] == 1  # by the table, though the values are not whole numbers
    table.assign(feature=[*columns[:-1], "petal"]).to_csv(mirror / FEATURE_TYPES, sep="\t", index=False)
    with pytest.raises(
        DatasetError, match=r"feature_types\.tsv lists features .* for 'iris', but its file has"
    ):
        propose("pmlb/iris.tsv.gz", mirror, registry)


def test_the_inference_rule():
    assert infer_type(pd.Series([0.5, 1.5, 0.5])) == "binary"
    assert infer_type(pd.Series(np.arange(10) % 10)) == "categorical"
    assert infer_type(pd.Series(np.arange(11))) == "continuous"
    assert infer_type(pd.Series([0.0, 1.0, 2.5])) == "continuous"


def test_a_file_with_a_missing_cell_is_refused_naming_its_column(mirror, registry):
    _write(
        pd.DataFrame({"a": [1.0, None, 3.0], "b": [1, 2, 3], "target": [0, 1, 0]}),
        mirror / "pmlb/holes.tsv.gz",
    )
    with pytest.raises(DatasetError, match=r"pmlb/holes\.tsv\.gz: missing cells in \['a'\]"):
        propose("pmlb/holes.tsv.gz", mirror, registry)


def test_the_recipes_check_reads_the_mirror_that_FORESTREPRO_MIRROR_names(tmp_path, mirror_dir):
    """The check of docs/pages/extending.md compares the collection with the mirror's manifest:
    pointed at a mirror whose manifest differs, it fails."""
    mirror = tmp_path / "mirror"
    mirror.mkdir()
    manifest = (mirror_dir / "MANIFEST.tsv").read_text(encoding="utf-8")
    (mirror / "MANIFEST.tsv").write_text(manifest.replace("pmlb/iris.tsv.gz\t", "pmlb/iris_moved.tsv.gz\t"))
    env = {**os.environ, "FORESTREPRO_MIRROR": str(mirror)}
    test = "tests/data/test_data_collection.py::test_collection_lists_the_manifests_unused_data_sets_by_the_naming_rule"
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", test],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 1 and "iris_moved" in proc.stdout, proc.stdout[-2000:]
