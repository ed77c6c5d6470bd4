"""The workflow's fetch step, called as its rule calls it (``forestrepro fetch``, ``runner.fetch``)."""

from __future__ import annotations

import json
from pathlib import Path

from forestrepro import runner
from forestrepro.cli import build_parser
from forestrepro.data import load_spec


def fetch(
    name, out_parquet, out_provenance, *, sources=("mirror", "openml"), mirror_dir=None, openml_cache=None
) -> dict:
    """Fetch registered data set ``name`` into ``out_parquet`` / ``out_provenance`` through the
    fetch command and return the provenance it wrote; raises what the command raises."""
    spec_path = Path(out_parquet).with_name(f"{name}.spec.json")
    spec_path.parent.mkdir(parents=True, exist_ok=True)
    spec_path.write_text(json.dumps(load_spec(name)))
    argv = [
        "fetch",
        "--spec",
        str(spec_path),
        "--out",
        str(out_parquet),
        "--provenance",
        str(out_provenance),
        "--sources",
        *sources,
        "--mirror-dir",
        str(mirror_dir),
        "--openml-cache",
        str(openml_cache or Path(out_parquet).parent / "openml_cache"),
    ]
    try:
        runner.fetch(build_parser().parse_args(argv))
    finally:
        spec_path.unlink()
    return json.loads(Path(out_provenance).read_text())
