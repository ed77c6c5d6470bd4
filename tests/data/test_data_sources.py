"""Source order and failure rules: corrupt or mismatching data stops at once, absent data moves on."""

from __future__ import annotations

import shutil

import openml
import pandas as pd
import pytest

from forestrepro.data import DatasetError, load_dataset, load_spec, loader, openml_source


def copy_into_mirror(spec, source_dir, target_dir):
    for entry in spec["mirror"]["files"]:
        (target_dir / entry["path"]).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source_dir / entry["path"], target_dir / entry["path"])


def never_called(*args, **kwargs):
    raise AssertionError("a corrupt or mismatching mirror file must not fall through to OpenML")


def test_wrong_checksum_names_data_set_and_file(tmp_path, mirror_dir, monkeypatch):
    monkeypatch.setattr(loader, "load_openml", never_called)
    spec = load_spec("wine")
    copy_into_mirror(spec, mirror_dir, tmp_path)
    corrupt = tmp_path / "pmlb" / "wine_recognition.tsv.gz"
    corrupt.write_bytes(corrupt.read_bytes() + b"\0")
    with pytest.raises(DatasetError) as caught:
        load_dataset(spec, mirror_dir=tmp_path)
    message = str(caught.value)
    assert message.startswith("wine: checksum mismatch")
    assert "pmlb/wine_recognition.tsv.gz" in message and spec["mirror"]["files"][0]["sha256"] in message


def test_missing_file_with_only_the_mirror_lists_what_was_tried(tmp_path):
    with pytest.raises(DatasetError) as caught:
        load_dataset(load_spec("yale"), sources=("mirror",), mirror_dir=tmp_path)
    message = str(caught.value)
    assert message.startswith("yale: no source could provide the data set; tried:")
    assert f"mirror {tmp_path}: missing other/Yale_32x32.mat" in message


def test_shape_mismatch_is_an_error(mirror_dir, monkeypatch):
    monkeypatch.setattr(loader, "load_openml", never_called)
    spec = load_spec("wine")
    spec["expected"]["rows"] = 177
    with pytest.raises(DatasetError) as caught:
        load_dataset(spec, mirror_dir=mirror_dir)
    message = str(caught.value)
    assert message.startswith("wine: shape mismatch in mirror file(s) pmlb/wine_recognition.tsv.gz")
    assert "rows 178 (expected 177)" in message


def test_unknown_source_is_an_error():
    with pytest.raises(DatasetError, match="unknown sources"):
        load_dataset(load_spec("wine"), sources=("kaggle",))


def test_openml_offline_fails_fast(tmp_path, monkeypatch):
    # .invalid never resolves, so this exercises the connect check whatever the network
    monkeypatch.setattr(openml.config, "server", "https://openml.invalid/api/v1/xml")
    settings_before = openml.config.get_config_as_dict()
    with pytest.raises(DatasetError) as caught:
        load_dataset(load_spec("wine"), sources=("openml",), openml_cache=tmp_path / "cache")
    message = str(caught.value)
    assert message.startswith("wine: no source could provide the data set")
    assert "openml: OpenML unreachable (openml.invalid:443" in message
    assert openml.config.get_config_as_dict() == settings_before  # cache dir and retries restored


def test_openml_without_id(tmp_path):
    with pytest.raises(
        DatasetError, match="openml: no OpenML id for this data set: the mirror is the only source"
    ):
        load_dataset(load_spec("yale"), sources=("openml",), openml_cache=tmp_path)


class FakeOpenML:
    """Stands in for openml.datasets.get_dataset: Boston housing as OpenML 531 serves it."""

    def __init__(self, frame):
        self.frame, self.version, self.name, self.default_target_attribute = frame, 1, "boston", "MEDV"
        self.md5_checksum = "0" * 32
        self.calls = []

    def get_dataset(self, dataset_id, **kwargs):
        self.calls.append((dataset_id, kwargs))
        return self

    def get_data(self, target, dataset_format):
        assert dataset_format == "dataframe"
        return self.frame.drop(columns=target), self.frame[target], None, None


@pytest.fixture
def fake_openml(monkeypatch, mirror_dir):
    """Serve the mirror's housing.data the way OpenML does (CHAS and RAD nominal), offline."""
    mirror = load_spec("housing")["mirror"]
    frame = pd.read_csv(
        mirror_dir / mirror["files"][0]["path"], sep=r"\s+", header=None, names=mirror["column_names"]
    )
    for column in ("CHAS", "RAD"):
        frame[column] = frame[column].astype(str).astype("category")
    fake = FakeOpenML(frame)
    monkeypatch.setattr(openml_source, "check_reachable", lambda server: None)
    monkeypatch.setattr(openml.datasets, "get_dataset", fake.get_dataset)
    return fake


def test_openml_gives_the_same_frame_as_the_mirror(fake_openml, mirror_dir, tmp_path):
    from_openml = load_dataset(load_spec("housing"), sources=("openml",), openml_cache=tmp_path)
    from_mirror = load_dataset(load_spec("housing"), sources=("mirror",), mirror_dir=mirror_dir)
    pd.testing.assert_frame_equal(from_openml.frame, from_mirror.frame)
    assert fake_openml.calls[0][0] == 531 and fake_openml.calls[0][1]["download_data"] is True
    assert from_openml.provenance["source"] == "openml"
    assert from_openml.provenance["openml"] == {
        "id": 531,
        "version": 1,
        "name": "boston",
        "target": "MEDV",
        "md5_checksum": "0" * 32,
    }


def test_missing_mirror_falls_back_to_openml_and_says_so(fake_openml, tmp_path):
    loaded = load_dataset(
        load_spec("housing"), mirror_dir=tmp_path / "empty", openml_cache=tmp_path / "cache"
    )
    assert loaded.provenance["source"] == "openml"
    [skipped] = loaded.provenance["skipped_sources"]
    assert skipped["source"] == "mirror" and "missing other/housing.data" in skipped["reason"]


def test_openml_shape_mismatch_is_an_error(fake_openml, tmp_path):
    fake_openml.frame = fake_openml.frame.iloc[:-1]
    with pytest.raises(
        DatasetError, match=r"housing: shape mismatch in OpenML data set 531: rows 505 \(expected 506\)"
    ):
        load_dataset(load_spec("housing"), sources=("openml",), openml_cache=tmp_path)


def test_openml_version_mismatch_is_an_error(fake_openml, tmp_path):
    spec = load_spec("housing")
    spec["openml"]["version"] = 2
    with pytest.raises(DatasetError, match="OpenML 531 is version 1, the config expects 2"):
        load_dataset(spec, sources=("openml",), openml_cache=tmp_path)
