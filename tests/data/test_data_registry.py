"""The registry: every config is valid and consistent; bad names and bad keys are rejected."""

from __future__ import annotations

import csv

import pytest
import yaml

from forestrepro.data import DatasetError, list_datasets, load_spec
from forestrepro.data.registry import validate_spec
from forestrepro.resources import dataset_dir

DEFAULT_CONFIG_DIR = dataset_dir()

NAMES = list_datasets()


def test_registry_covers_the_four_papers():
    assert len(NAMES) >= 55
    papers = {paper for name in NAMES for paper in load_spec(name)["papers"]}
    assert papers == {"brf", "c2rf", "rcrf", "wdf"}


@pytest.mark.parametrize("name", NAMES)
def test_config_is_consistent(name):
    spec = load_spec(name)
    assert set(spec["published"]) <= set(spec["papers"])
    if spec["variant_of"] is not None:
        assert spec["variant_of"] in NAMES and spec["stand_in"]
    if "synthetic" in spec:  # generated (tests/brf/test_brf_consistency.py), no mirror or OpenML
        assert "synthetic" in spec["description"].lower() and not {"mirror", "openml"} & set(spec)
    elif spec["openml"]["id"] is None:
        assert "mirror is the only source" in spec["notes"]
    if "c2rf" in spec["papers"]:
        assert spec["paper_targets"]["c2rf"] == {"kind": "one_vs_rest", "positive": 1}


def test_config_checksums_match_the_manifest(mirror_dir):
    with (mirror_dir / "MANIFEST.tsv").open(encoding="utf-8") as handle:
        manifest = {row["file"]: row["sha256"] for row in csv.DictReader(handle, delimiter="\t")}
    for name in NAMES:
        for entry in load_spec(name).get("mirror", {"files": []})["files"]:
            assert manifest[entry["path"]] == entry["sha256"], (name, entry["path"])


def test_unknown_name_lists_close_and_valid_names():
    with pytest.raises(DatasetError) as caught:
        load_spec("ionosphre")
    message = str(caught.value)
    assert "unknown data set 'ionosphre'" in message
    assert "Did you mean: ionosphere" in message
    assert "Valid names:" in message and "wine" in message


def test_config_dir_override(tmp_path):
    (tmp_path / "wine.yaml").write_text((DEFAULT_CONFIG_DIR / "wine.yaml").read_text())
    assert list_datasets(tmp_path) == ["wine"]
    assert load_spec("wine", tmp_path)["expected"]["rows"] == 178


def test_name_must_match_file_name(tmp_path):
    spec = yaml.safe_load((DEFAULT_CONFIG_DIR / "wine.yaml").read_text())
    (tmp_path / "vine.yaml").write_text(yaml.safe_dump(spec))
    with pytest.raises(DatasetError, match="expected 'vine'"):
        load_spec("vine", tmp_path)


def test_schema_rejects_a_typo_in_a_key(tmp_path):
    spec = yaml.safe_load((DEFAULT_CONFIG_DIR / "wine.yaml").read_text())
    spec["drop_incomplete_row"] = spec.pop("drop_incomplete_rows")
    (tmp_path / "wine.yaml").write_text(yaml.safe_dump(spec))
    with pytest.raises(DatasetError) as caught:
        load_spec("wine", tmp_path)
    assert "drop_incomplete_row" in str(caught.value)


@pytest.mark.parametrize(
    "edit",
    [
        lambda s: s["mirror"].update(sheet="x"),  # option unknown for tsv.gz
        lambda s: s["mirror"].update(format="xlsx"),
        lambda s: s["mirror"]["files"][0].update(sha256="abc"),
        lambda s: s["paper_targets"].update(c2rf={"kind": "one_vs_one", "positive": 1}),
        lambda s: s.update(papers=["brf", "xyz"]),
        lambda s: s["expected"].pop("classes"),
    ],
)
def test_schema_rejects_invalid_values(edit):
    spec = load_spec("wine")
    edit(spec)
    with pytest.raises(DatasetError, match="does not match"):
        validate_spec(spec, "edited wine")
