"""Each job's state before a run: its record current, copied, or to train.

Whether a job is finished is decided from its record, by content (``record/currency.py``): a
record whose spec digest and library files match is current. A job without a current record
whose spec, up to the tag, is the spec of a record current under another tag copies that record
(``record/reuse.py``); every other one trains. A committed record is never replaced by a run of
another spec (``record/overwrite.py``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from ..config.jobs import job_spec_path
from ..record import Equivalences, FileHashes, record_status
from ..record.currency import SPEC_CHANGED, RecordStatus
from ..record.overwrite import overwritten, refusal, tracked_files
from ..record.reuse import donors


def record_of(results: str, tag: str, job) -> str:
    """The CSV of ``job``'s run record under ``tag`` (its provenance JSON sits beside it)."""
    return f"{results}/runs/{tag}/{job.path}.csv"


@dataclass(frozen=True)
class JobStates:
    """The jobs' records under one tag: ``records`` (job path -> ``RecordStatus``, in plan
    order) and ``copies`` (job path -> the CSV of the record it copies), with the file hashes
    and the equivalence ledger they were judged by."""

    records: dict[str, RecordStatus]
    copies: dict[str, str]
    hashes: FileHashes
    equivalences: Equivalences

    def to_train(self) -> list[str]:
        """The paths of the jobs whose record is missing or stale and that copy none."""
        return [
            path for path, status in self.records.items() if not status.current and path not in self.copies
        ]


def job_states(
    jobs: list, spec_files: dict[Path, str], results: str, tag: str, reuse: bool = True
) -> JobStates:
    """The state of each of ``jobs`` (``config.jobs.JobSpec``) under ``tag`` of ``results``;
    ``spec_files`` holds the planned spec texts (``config.jobs.plan_spec_files``). Without
    ``reuse`` no job copies a record: every one without a current record trains."""
    hashes = FileHashes()
    equivalences = Equivalences.read(Path(results) / "runs" / "equivalences.tsv")
    records = {
        job.path: record_status(record_of(results, tag, job), job.spec_digest, hashes, equivalences)
        for job in jobs
    }
    copies = {}
    if reuse:
        specs = {
            job.path: json.loads(spec_files[job_spec_path(Path(results), tag, job)])
            for job in jobs
            if not records[job.path].current
        }
        found = donors(jobs, specs, records, results, tag, hashes, equivalences)
        copies = {path: donor.as_posix() for path, donor in found.items()}
    return JobStates(records, copies, hashes, equivalences)


def overwrite_refusal(jobs: list, states: JobStates, results: str, tag: str) -> str | None:
    """The message that refuses a run which would replace a record git tracks with one of another
    spec, naming them, or None. Only ``jobs`` count (the jobs the run may train)."""
    if not any(status.reason == SPEC_CHANGED for status in states.records.values()):
        return None
    replaced = overwritten(
        {job.path: (record_of(results, tag, job), states.records[job.path].reason) for job in jobs},
        tracked_files(f"{results}/runs/{tag}"),
    )
    return refusal(replaced, tag) if replaced else None
