"""record/reuse.py and record/overwrite.py on hand-made records."""

import json

import pandas as pd
import pytest

from forestrepro.record import FileHashes, imported_code, read_provenance, record_status, write_record
from forestrepro.record.overwrite import overwritten
from forestrepro.record.reuse import content_digest, find_donor, other_tags, write_reused
from forestrepro.record.store import spec_digest

SPEC = {
    "tag": "paper",
    "paper": "brf",
    "experiment": "main",
    "method": "knn",
    "dataset": "wine",
    "root_seed": 0,
}


def _record(runs, tag, spec):
    path = runs / tag / "brf/main/knn/wine.csv"
    spec = {**spec, "tag": tag}
    write_record(
        pd.DataFrame({"accuracy": [0.5, 0.75]}),
        {"spec": spec, "spec_digest": spec_digest(spec), "code": {"files": imported_code()}},
        path,
    )
    return path


def test_the_content_is_the_spec_without_its_tag():
    assert content_digest(SPEC) == content_digest({**SPEC, "tag": "other"})
    assert content_digest(SPEC) != content_digest({**SPEC, "root_seed": 1})
    assert spec_digest(SPEC) != spec_digest({**SPEC, "tag": "other"})


def test_a_donor_is_a_current_record_of_the_same_content_under_another_tag(tmp_path):
    runs = tmp_path / "runs"
    _record(runs, "b_other_seed", {**SPEC, "root_seed": 1})
    donor = _record(runs, "c_same", SPEC)
    (runs / "a_empty").mkdir()
    tags = other_tags(runs, "ablation")
    assert tags == ["a_empty", "b_other_seed", "c_same"]
    spec = {**SPEC, "tag": "ablation"}
    assert find_donor(runs, "brf/main/knn/wine", spec, tags, FileHashes()) == donor
    assert find_donor(runs, "brf/main/knn/wine", {**spec, "root_seed": 2}, tags, FileHashes()) is None

    out = tmp_path / "runs/ablation/brf/main/knn/wine.csv"
    written = write_reused(donor, spec, out)
    assert out.read_bytes() == donor.read_bytes()
    assert written == read_provenance(out) and written["reused"]["from"] == donor.as_posix()
    assert record_status(out, spec_digest(spec), FileHashes()).current  # current under its own tag
    with pytest.raises(ValueError, match="another job's content"):
        write_reused(donor, {**spec, "root_seed": 2}, tmp_path / "other.csv")
    assert json.loads(out.with_suffix(".provenance.json").read_text())["spec"]["tag"] == "ablation"


def test_only_tracked_records_of_another_spec_are_overwritten():
    records = {
        "a": ("runs/t/a.csv", "the job's spec changed"),
        "b": ("runs/t/b.csv", "the job's spec changed"),
        "c": ("runs/t/c.csv", "library code it ran changed: runner.py"),
        "d": ("runs/t/d.csv", ""),
    }
    assert overwritten(records, {"runs/t/a.csv", "runs/t/c.csv", "runs/t/d.csv"}) == ["a"]
