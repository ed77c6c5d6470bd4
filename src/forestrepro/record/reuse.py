"""A job is its content, not its tag: reuse a current record of the same job from another tag.

A tag names a set of results (``paper``, ``paper-<hash>`` for an ablation, a name of the
user's); it is part of every job's spec, so that the spec file says where it belongs, but
it changes no number: seeds come from the root seed, paper, method, data set and fold. A job
whose spec equals, up to the tag, the spec of a record under another tag, and whose library
code that record ran is current here (``record/currency.py``, with the equivalence ledger),
would compute the same rows. So the workflow copies that record instead of training
(``workflow/rules/train.smk``, rule ``reuse``): an ablation of one method parameter computes
only the jobs that parameter reaches, and the rest come from the committed (or local) records
of every other tag. benchopt's per-solver result cache is the model.

The copy keeps the rows byte for byte and their SHA-256; its provenance is the donor's with
this job's spec and spec digest and a ``reused`` entry naming the donor record and its spec
digest, so the record says where its numbers were computed.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from ..io import atomic_path, write_text_atomic
from .currency import FileHashes, record_status
from .equivalence import Equivalences
from .store import provenance_path, read_provenance, spec_digest


def content_digest(spec: dict) -> str:
    """The digest of what a job computes: its spec without the tag (``store.spec_digest``)."""
    return spec_digest({key: value for key, value in spec.items() if key != "tag"})


def other_tags(runs_dir: str | Path, tag: str) -> list[str]:
    """The tags with results under ``runs_dir`` (``results/runs``) other than ``tag``, by name."""
    runs_dir = Path(runs_dir)
    if not runs_dir.is_dir():
        return []
    return sorted(
        p.name for p in runs_dir.iterdir() if p.is_dir() and p.name != tag and not p.name.startswith(".")
    )


def find_donor(
    runs_dir: str | Path,
    job_path: str,
    spec: dict,
    tags: list[str],
    hashes: FileHashes,
    equivalences: Equivalences | None = None,
) -> Path | None:
    """The CSV of the first record of ``job_path`` among ``tags`` (under ``runs_dir``) that is
    current for ``spec`` put under that tag: the same content, and code that is current here.
    None when no tag has one."""
    for other in tags:
        rows = Path(runs_dir) / other / f"{job_path}.csv"
        if (
            rows.exists()
            and record_status(rows, spec_digest({**spec, "tag": other}), hashes, equivalences).current
        ):
            return rows
    return None


def donors(
    jobs: list,
    specs: dict[str, dict],
    statuses: dict,
    results: str | Path,
    tag: str,
    hashes: FileHashes,
    equivalences: Equivalences | None = None,
) -> dict[str, Path]:
    """``{job path: the CSV it copies}`` for the ``jobs`` (``config.jobs.JobSpec``) without a
    current record under ``tag`` (``statuses``: job path -> ``RecordStatus``) that have one of the
    same content under another tag of ``results``; ``specs`` maps the path of each job without a
    current record to its planned spec."""
    runs_dir = Path(results) / "runs"
    tags = other_tags(runs_dir, tag)
    found = {}
    for job in jobs:
        if tags and not statuses[job.path].current:
            donor = find_donor(runs_dir, job.path, specs[job.path], tags, hashes, equivalences)
            if donor is not None:
                found[job.path] = donor
    return found


def write_reused(donor: str | Path, spec: dict, rows_path: str | Path) -> dict:
    """Copy the record ``donor`` (its CSV) to ``rows_path`` as the record of ``spec``; return
    the provenance written. Refuses (``ValueError``) a donor of other content than ``spec``."""
    donor = Path(donor)
    provenance = read_provenance(donor)
    if content_digest(provenance["spec"]) != content_digest(spec):
        raise ValueError(f"{donor} is the record of another job's content than {spec.get('tag')}'s spec")
    with atomic_path(rows_path) as tmp:
        shutil.copyfile(donor, tmp)
    reused = {
        **provenance,
        "spec": spec,
        "spec_digest": spec_digest(spec),
        "reused": {"from": donor.as_posix(), "spec_digest": provenance["spec_digest"]},
    }
    write_text_atomic(provenance_path(rows_path), json.dumps(reused, indent=2, sort_keys=True) + "\n")
    return reused
