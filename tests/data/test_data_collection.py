"""The out-of-sample collection (conf/dataset/collections/pmlb_outofsample.yaml): every entry is a
data set by name that loads from the mirror with its checksum, shape and stated handling; a name
clash, a wrong checksum or an unstated missing value is an error naming the data set; and a new
entry is one more data set for the registry, the loader and the composed configuration."""

from __future__ import annotations

import csv
import gzip
import re
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from forestrepro.config import ConfigError, compose_config, plan_jobs
from forestrepro.data import DatasetError, list_datasets, load_dataset, load_spec
from forestrepro.data.collection import NOMINAL_TYPES
from forestrepro.data.fingerprint import paper_matches
from forestrepro.data.mirror import sha256_file
from forestrepro.resources import dataset_dir

REPO_ROOT = Path(__file__).resolve().parents[2]
REGISTRY = dataset_dir()
COLLECTION = REGISTRY / "collections" / "pmlb_outofsample.yaml"
ENTRIES = yaml.safe_load(COLLECTION.read_text(encoding="utf-8"))["datasets"]
FILES = {p.stem for p in REGISTRY.glob("*.yaml")}


def _registry_name(pmlb: str) -> str:
    """The collection's naming rule: PMLB's name with every character other than a letter, a
    digit or '_' made '_', and _pmlb appended where a file of the registry has that name."""
    name = re.sub(r"[^A-Za-z0-9_]", "_", pmlb)
    return f"{name}_pmlb" if name in FILES else name


@pytest.fixture(scope="module")
def unused_rows(mirror_dir) -> dict[str, dict]:
    """MANIFEST.tsv's rows of the data sets no paper uses, by file."""
    with (mirror_dir / "MANIFEST.tsv").open(encoding="utf-8") as handle:
        rows = csv.DictReader(handle, delimiter="\t")
        return {row["file"]: row for row in rows if row["paper"] == "none (not used by the papers)"}


@pytest.fixture(scope="module")
def feature_types(mirror_dir) -> pd.DataFrame:
    return pd.read_csv(mirror_dir / "pmlb" / "feature_types.tsv", sep="\t")


def test_collection_lists_the_manifests_unused_data_sets_by_the_naming_rule(unused_rows):
    assert sorted(entry["file"] for entry in ENTRIES.values()) == sorted(unused_rows)
    for name, entry in ENTRIES.items():
        row = unused_rows[entry["file"]]
        assert name == _registry_name(row["dataset"]), name
        assert entry["sha256"] == row["sha256"], name
        shape = {key: int(row[key]) for key in ("rows", "features", "classes")}
        assert entry["expected"] == shape, name


@pytest.mark.parametrize("name", sorted(ENTRIES))
def test_entry_loads_by_name_from_the_mirror_as_stated(name, mirror_dir, feature_types):
    entry = ENTRIES[name]
    assert name in list_datasets()
    spec = load_spec(name)
    assert spec["papers"] == [] and spec["published"] == {}
    loaded = load_dataset(spec, sources=("mirror",), mirror_dir=mirror_dir)  # checksum and shape
    assert loaded.provenance["files"] == [{"path": entry["file"], "sha256": entry["sha256"]}]
    assert loaded.provenance["shape"] == entry["expected"]
    frame = loaded.frame
    assert not frame.isna().to_numpy().any() and loaded.provenance["dropped_incomplete_rows"] == 0
    pmlb = entry["file"].removeprefix("pmlb/").removesuffix(".tsv.gz")
    types = feature_types[feature_types["dataset"] == pmlb]
    assert list(types["feature"]) == list(frame.columns[:-1])
    assert entry["nominal"] == int(types["type"].isin(NOMINAL_TYPES).sum())
    for column in entry.get("coded_columns", []):  # PMLB's coding of a column of strings: 0..k-1
        values = np.unique(frame[column].to_numpy())
        assert np.array_equal(values, np.arange(len(values))), (name, column)
    if "same_data_as" in entry:
        assert entry["same_data_as"] in FILES
    # data equal to a paper's data set (up to row order, column order and label names) say so
    same = paper_matches(frame.drop(columns="target"), frame["target"], mirror_dir)
    assert set(same) <= {entry.get("same_data_as")}, f"{name} holds the data of the papers' {same}"


def _collection(directory, entries: dict, name: str = "extra") -> None:
    """Write the collection ``name`` of ``entries`` into the registry ``directory``."""
    (directory / "collections").mkdir(exist_ok=True)
    document = {
        "collection": name,
        "description": "test collection",
        "source": {"repository": "EpistasisLab/pmlb", "commit": "0" * 40, "note": None},
        "datasets": entries,
    }
    (directory / "collections" / f"{name}.yaml").write_text(yaml.safe_dump(document), encoding="utf-8")


def test_a_name_that_a_file_or_another_collection_defines_is_an_error_naming_it(tmp_path):
    shutil.copy(REGISTRY / "wine.yaml", tmp_path / "wine.yaml")
    _collection(tmp_path, {"wine": ENTRIES["iris"]})
    for call in (lambda: list_datasets(tmp_path), lambda: load_spec("iris", tmp_path)):
        with pytest.raises(DatasetError, match=r"data set 'wine' of .*extra\.yaml clashes with .*wine\.yaml"):
            call()
    (tmp_path / "wine.yaml").unlink()
    _collection(tmp_path, {"wine": ENTRIES["iris"]}, name="more")
    with pytest.raises(DatasetError, match=r"data set 'wine' of .*more\.yaml clashes with .*extra\.yaml"):
        list_datasets(tmp_path)


def test_a_wrong_checksum_is_an_error_naming_the_data_set(tmp_path, mirror_dir):
    _collection(tmp_path, {"iris_copy": {**ENTRIES["iris"], "sha256": "0" * 64}})
    spec = load_spec("iris_copy", tmp_path)
    with pytest.raises(DatasetError, match=r"iris_copy: checksum mismatch for mirror file .*iris\.tsv\.gz"):
        load_dataset(spec, sources=("mirror",), mirror_dir=mirror_dir)


def test_a_malformed_entry_is_an_error_naming_the_collection_and_entry(tmp_path):
    _collection(tmp_path, {"iris_copy": {**ENTRIES["iris"], "missing": "coded"}})
    with pytest.raises(
        DatasetError, match=r"(?s)extra\.yaml does not match .*'datasets/iris_copy'.*coded_columns"
    ):
        load_spec("iris_copy", tmp_path)


def _pmlb_file(path, rows: list[str]) -> dict:
    """A PMLB-like file of ``rows`` (tab-separated, after the header a, b, target); its entry's
    file and sha256."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with gzip.open(path, "wt", encoding="utf-8") as handle:
        handle.write("a\tb\ttarget\n" + "".join(f"{row}\n" for row in rows))
    return {"file": f"pmlb/{path.name}", "sha256": sha256_file(path)}


def test_a_missing_value_stops_the_load_unless_the_entry_drops_its_rows(tmp_path):
    mirror, registry = tmp_path / "mirror", tmp_path / "registry"
    registry.mkdir()
    rows = ["1\t2\t0", "2\t?\t1", "3\t4\t0", "4\t5\t1"]
    where = _pmlb_file(mirror / "pmlb" / "holes.tsv.gz", rows)
    _collection(
        registry,
        {
            "holes": {
                **where,
                "expected": {"rows": 4, "features": 2, "classes": 2},
                "nominal": 0,
                "missing": "none",
            },
            "holes_dropped": {
                **where,
                "expected": {"rows": 3, "features": 2, "classes": 2},
                "nominal": 0,
                "missing": "drop_incomplete_rows",
                "missing_values": ["?"],
            },
        },
    )
    with pytest.raises(DatasetError, match=r"holes .*column 'b', data row 2"):
        load_dataset(load_spec("holes", registry), sources=("mirror",), mirror_dir=mirror)
    loaded = load_dataset(load_spec("holes_dropped", registry), sources=("mirror",), mirror_dir=mirror)
    assert loaded.provenance["dropped_incomplete_rows"] == 1 and len(loaded.frame) == 3


def test_a_new_entry_is_a_data_set_by_name_for_registry_loader_and_configuration(tmp_path, mirror_dir):
    """docs/pages/extending.md's steps: the file in the mirror, one entry in the collection."""
    mirror, conf = tmp_path / "mirror", tmp_path / "conf"
    shutil.copytree(REPO_ROOT / "conf", conf)
    (mirror / "pmlb").mkdir(parents=True)
    shutil.copy(mirror_dir / "pmlb" / "iris.tsv.gz", mirror / "pmlb" / "iris_again.tsv.gz")
    registry = conf / "dataset"
    assert "iris_again" not in list_datasets(registry)

    path = registry / "collections" / "pmlb_outofsample.yaml"
    path.write_text(
        path.read_text(encoding="utf-8")
        + "  iris_again:\n"
        + "    file: pmlb/iris_again.tsv.gz\n"
        + f"    sha256: {sha256_file(mirror / 'pmlb' / 'iris_again.tsv.gz')}\n"
        + "    expected: {rows: 150, features: 4, classes: 3}\n"
        + "    nominal: 0\n"
        + "    missing: none\n",
        encoding="utf-8",
    )
    assert "iris_again" in list_datasets(registry)
    spec = load_spec("iris_again", registry)
    assert spec["mirror"]["files"][0]["path"] == "pmlb/iris_again.tsv.gz"
    loaded = load_dataset(spec, sources=("mirror",), mirror_dir=mirror)
    assert loaded.frame.shape == (150, 5)
    # Hydra's merge of the dataset group (an override reaches into it) takes the entry as a file's
    cfg = compose_config(["dataset.iris_again.notes=edited"], conf_dir=conf)
    assert cfg["dataset"]["iris_again"] == {**spec, "notes": "edited"}
    # and, with nothing else changed, it joins the out-of-sample suite: a job of every method of
    # every experiment that names the collection, and a row of every one of their tables
    suite = compose_config(["papers=[outofsample]"], profile="paper", conf_dir=conf)
    jobs = [job.path for job in plan_jobs(suite) if job.dataset == "iris_again"]
    experiments = suite["paper"]["outofsample"]["experiments"]
    assert sorted(jobs) == sorted(
        f"outofsample/{name}/{method}/iris_again"
        for name, exp in experiments.items()
        if name != "c2rf"  # binary data sets of 1,000 rows or more: iris_again has 3 classes
        for method in exp["methods"]
    )
    tables = suite["paper"]["outofsample"]["tables"]
    assert [t for t, tcfg in tables.items() if "iris_again" in tcfg["datasets"]] == [
        t for t, tcfg in tables.items() if tcfg["experiment"] != "c2rf"
    ]
    (registry / "iris_again.yaml").write_text(yaml.safe_dump(spec), encoding="utf-8")
    with pytest.raises(ConfigError, match=r"data set 'iris_again' of .* clashes with .*iris_again\.yaml"):
        compose_config([], conf_dir=conf)


# C2RF's experiment in conf/paper/outofsample.yaml as it was written by name before its rule was
C2RF_OUTOFSAMPLE = [
    "Hill_Valley_with_noise",
    "chess",
    "credit_g",
    "hypothyroid",
    "mofn_3_7_10",
    "parity5_5",
    "spambase",
]


def _suite_with_binary_entries(tmp_path) -> dict:
    """The paper profile's out-of-sample suite, composed from a copy of conf/ whose collection has
    two more binary entries: ``big_binary`` (1,000 rows) and ``small_binary`` (999)."""
    conf = tmp_path / "conf"
    shutil.copytree(REPO_ROOT / "conf", conf)
    path = conf / "dataset" / "collections" / "pmlb_outofsample.yaml"
    text = path.read_text(encoding="utf-8")
    for name, rows in (("big_binary", 1000), ("small_binary", 999)):
        text += (
            f"  {name}:\n    file: pmlb/{name}.tsv.gz\n    sha256: {'a' * 64}\n"
            f"    expected: {{rows: {rows}, features: 3, classes: 2}}\n    nominal: 0\n    missing: none\n"
        )
    path.write_text(text, encoding="utf-8")
    return compose_config(["papers=[outofsample]"], profile="paper", conf_dir=conf)


def test_c2rfs_suite_takes_the_binary_data_sets_of_1000_rows_or_more_by_its_rule(tmp_path):
    """The rule selects the very list the suite named (its order too), and a new entry that meets
    it joins the experiment; one that does not, does not."""
    suite = compose_config(["papers=[outofsample]"], profile="paper")
    assert suite["paper"]["outofsample"]["experiments"]["c2rf"]["datasets"] == C2RF_OUTOFSAMPLE
    suite = _suite_with_binary_entries(tmp_path)
    assert suite["paper"]["outofsample"]["experiments"]["c2rf"]["datasets"] == sorted(
        [*C2RF_OUTOFSAMPLE, "big_binary"]
    )
    jobs = {job.path for job in plan_jobs(suite) if job.dataset == "big_binary"}
    assert {"outofsample/c2rf/c2rf_rf/big_binary", "outofsample/c2rf/c2rf_plus/big_binary"} <= jobs


def test_the_suites_title_and_notes_count_its_data_sets_from_its_lists(tmp_path):
    paper = compose_config(["papers=[outofsample]"], profile="paper")["paper"]["outofsample"]
    assert (
        paper["title"]
        == "Beyond the papers: each paper's claims, and which forest, on 59 data sets none of them chose"
    )
    assert "so BRF's claims are judged on 58, RCRF runs on 57, WDF on 59. " in paper["notes"][0]
    assert "The ranking (ranking_accuracy) runs every method on all 59," in paper["notes"][0]
    assert "C2RF at 60 s per solve on the 7 binary data sets" in paper["notes"][1]
    paper = _suite_with_binary_entries(tmp_path)["paper"]["outofsample"]
    assert (
        paper["title"]
        == "Beyond the papers: each paper's claims, and which forest, on 61 data sets none of them chose"
    )
    assert paper["notes"][0].startswith("The data: 61 PMLB classification data sets")
    assert "so BRF's claims are judged on 60, RCRF runs on 59, WDF on 61. " in paper["notes"][0]
    assert "The ranking (ranking_accuracy) runs every method on all 61," in paper["notes"][0]
    assert "C2RF at 60 s per solve on the 8 binary data sets" in paper["notes"][1]
