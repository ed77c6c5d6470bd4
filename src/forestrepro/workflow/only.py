"""``--config only=``: a glob over job paths, or a list of them, that bounds the jobs a run trains.

Job paths look like ``<paper>/<experiment>/<method>/<dataset>[/repeat<k>]``. A run with only=
trains no job outside it, whatever the target: a target that needs such a job's record, or a
table or figure none of whose cells has a record once the run ends, is refused, naming only=.
"""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass

from .errors import PlanError
from .states import JobStates


@dataclass(frozen=True)
class Only:
    """The globs of only= (``*`` when not ``given``)."""

    globs: tuple[str, ...]
    given: bool

    def matches(self, job) -> bool:
        """Whether ``job``'s path matches one of the globs."""
        return any(fnmatch.fnmatchcase(job.path, glob) for glob in self.globs)


def read_only(config: dict, jobs: list, tag: str) -> Only:
    """The only= of Snakemake's ``config``; a glob that matches no job of ``tag`` (or a tag
    without jobs) is a ``PlanError``."""
    raw = config.get("only", "*")
    only = Only(tuple(str(g) for g in raw) if isinstance(raw, list) else (str(raw),), "only" in config)
    if not jobs:
        raise PlanError(f"tag '{tag}' has no jobs")
    for glob in only.globs:
        if not any(fnmatch.fnmatchcase(job.path, glob) for job in jobs):
            raise PlanError(
                f"--config only: {glob!r} matches no job of tag '{tag}'; job paths look like {jobs[0].path!r}"
            )
    return only


def finished(job, states: JobStates, only: Only) -> bool:
    """Whether ``job`` has a record once this run ends: a current one, one it copies from another
    tag, or one that only= computes."""
    return states.records[job.path].current or job.path in states.copies or (only.given and only.matches(job))


def trained(jobs: list, states: JobStates, only: Only) -> list[str]:
    """The paths of the jobs this run may train: those without a record to keep or copy, in only=."""
    pending = set(states.to_train())
    return [job.path for job in jobs if job.path in pending and only.matches(job)]


def refused(jobs: list, states: JobStates, only: Only) -> list[str]:
    """The paths of the jobs that would train but lie outside only= (a target needing one is refused)."""
    pending = set(states.to_train())
    return [job.path for job in jobs if only.given and job.path in pending and not only.matches(job)]


def left_out_by_only(
    cfg: dict, planned: set, tables: list, figures: list, tag: str, results: str, figures_dir: str
) -> dict[str, str]:
    """``{output path: what it is}`` of the tables and figures of experiments with jobs
    (``planned``: (paper, experiment) pairs) that this run's report leaves out (not in
    ``tables`` or ``figures``) because only= finishes none of their cells."""
    left_out = {}
    for paper in cfg["papers"]:
        for table, tcfg in cfg["paper"][paper]["tables"].items():
            if (paper, table) in tables or (paper, tcfg["experiment"]) not in planned:
                continue
            stem = f"{paper}_{table}"
            files = [f"{results}/tables/{tag}/{stem}{end}" for end in (".csv", ".md", ".tex", "_ranks.json")]
            files += [f"{figures_dir}/{tag}/{stem}_cd.{ext}" for ext in ("png", "pdf")]
            left_out.update(dict.fromkeys(files, f"table {paper}/{table} (experiment {tcfg['experiment']})"))
        for figure, fcfg in cfg["paper"][paper].get("figures", {}).items():
            if (paper, figure) in figures or (paper, fcfg["experiment"]) not in planned:
                continue
            files = [f"{figures_dir}/{tag}/{paper}_{figure}.{ext}" for ext in ("png", "pdf", "claims.json")]
            left_out.update(
                dict.fromkeys(files, f"figure {paper}/{figure} (experiment {fcfg['experiment']})")
            )
    return left_out


def outside_only_error(job_path: str, only: Only) -> str:
    """Why a target that needs the record of a job outside only= is refused."""
    return (
        f"this target needs the record of {job_path}, which --config only={list(only.globs)} leaves out "
        "(only= bounds the jobs a run trains, whatever the target): add it to only=, or drop only="
    )


def left_out_error(path: str, what: str, only: Only) -> str:
    """Why a target among the files of a table or figure only= leaves out (``what``) is refused."""
    return (
        f"{path} is part of {what}, none of whose cells has a record once this run ends: --config "
        f"only={list(only.globs)} leaves out the jobs it needs (only= bounds the jobs a run trains, "
        "whatever the target): add them to only=, or drop only="
    )
