"""Shared fixtures: the repository's mirror and a builder of small, schema-valid specs."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from forestrepro.data.mirror import sha256_file
from forestrepro.data.registry import validate_spec

REPO_ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def mirror_dir() -> Path:
    """The mirror the pipeline reads: ``$FORESTREPRO_MIRROR``, else the shared one next to the
    repository, <repo>/../shared/datasets (conf/config.yaml's ``data.mirror_dir``)."""
    return Path(os.environ.get("FORESTREPRO_MIRROR") or REPO_ROOT / ".." / "shared" / "datasets")


@pytest.fixture
def make_spec():
    """Build a valid spec for files under a directory (sha256 computed from the files)."""

    def build(directory: Path, mirror: dict, expected: tuple[int, int, int], **fields) -> dict:
        mirror = {
            **mirror,
            "files": [{"path": p, "sha256": sha256_file(directory / p)} for p in mirror["files"]],
        }
        spec = {
            "name": "tiny",
            "description": "hand-made test data",
            "papers": ["brf"],
            "variant_of": None,
            "stand_in": None,
            "openml": {"id": None, "version": None, "target": None, "drop_columns": []},
            "mirror": mirror,
            "target_transform": None,
            "paper_targets": {},
            "drop_incomplete_rows": False,
            "expected": dict(zip(("rows", "features", "classes"), expected)),
            "published": {"brf": {"name": "tiny", "rows": None, "features": None, "classes": None}},
            "notes": None,
        }
        spec.update(fields)
        validate_spec(spec, "test spec")
        return spec

    return build
