"""A run with overrides under a tag of its own, beside its baseline: the profile's tag.

A job is changed by the overrides when its spec differs, up to the tag, from the baseline's spec
of the same job path (or the baseline has no such job): the report reads the baseline's current
record of each changed job and this run's record of every other, and says which changed job has
none yet (``report/baseline.py``). ``plan_ablation`` decides whether a run is one and plans it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from ..config.jobs import job_spec_path, result_overrides
from ..config.plan_cache import cached_plan
from ..record import record_status
from ..record.reuse import content_digest
from .contents import ReportPlan
from .run_config import no_compilation
from .states import JobStates, record_of


def _content(spec_files: dict[Path, str], results: str, tag: str, job) -> str:
    """What ``job`` computes under ``tag``: its planned spec's digest without the tag."""
    return content_digest(json.loads(spec_files[job_spec_path(Path(results), tag, job)]))


def ablation_plan(
    run: tuple[str, dict, list],
    baseline: tuple[str, dict, list],
    overrides: list[str],
    reported: list,
    shown: Callable,
    states: JobStates,
    results: str,
) -> tuple[dict, list[str]]:
    """The ablation spec the report reads (``forestrepro report --ablation``): ``baseline`` (its
    tag), ``overrides``, ``changed`` (job paths), ``missing`` (job path: why the baseline has no
    current record of it) and ``runs`` (each reported experiment's records, the baseline's for a
    changed job). ``run`` and ``baseline`` are each (tag, planned spec files, jobs); ``reported``
    are this run's jobs whose records the report reads, of which it shows those ``shown`` accepts.
    Also returns the baseline's records that the report reads (an input of its step)."""
    tag, spec_files, _ = run
    base_tag, base_specs, base_jobs = baseline
    base_job = {job.path: job for job in base_jobs}

    def baseline_record(job) -> tuple[str | None, str | None]:
        """The baseline's current record of ``job`` (its CSV), or why there is none."""
        base = base_job.get(job.path)
        if base is None:
            return None, f"no such job under tag {base_tag}"
        rows = record_of(results, base_tag, job)
        status = record_status(rows, base.spec_digest, states.hashes, states.equivalences)
        if status.current:
            return rows, None
        if status.state == "missing":
            return None, f"no record under tag {base_tag} yet"
        return None, f"its record under tag {base_tag} is stale ({status.reason})"

    changed = sorted(
        job.path
        for job in reported
        if job.path not in base_job
        or _content(spec_files, results, tag, job)
        != _content(base_specs, results, base_tag, base_job[job.path])
    )
    by_path = {job.path: job for job in reported}
    found = {path: baseline_record(by_path[path]) for path in changed}
    experiments = dict.fromkeys(f"{job.paper}/{job.experiment}" for job in reported)
    spec = {
        "baseline": base_tag,
        "overrides": overrides,
        "changed": changed,
        "missing": {path: why for path, (_, why) in found.items() if why},
        # each experiment's rows as the baseline has them, in the order of the report's runs
        "runs": {
            experiment: [
                found[job.path][0] if job.path in found else record_of(results, tag, job)
                for job in reported
                if f"{job.paper}/{job.experiment}" == experiment
                and shown(job)
                and (job.path not in found or found[job.path][0])
            ]
            for experiment in experiments
        },
    }
    return spec, sorted(rows for rows, _ in found.values() if rows)


def plan_ablation(
    cfg: dict,
    run: tuple[str, dict, list],
    overrides: list[str],
    report: ReportPlan,
    states: JobStates,
    results: str,
    conf_dir: Path,
) -> tuple[str | None, list[str]]:
    """The ablation spec's text (``ablation_plan``) and the baseline's records the report reads,
    or (None, []) for a run that is no ablation. A run is one when some of its ``overrides``
    change a result (``config.jobs.result_overrides``) and its tag is not its profile's, unless
    its report is a committed one. Its baseline is the plan of its papers without its overrides,
    under the profile's tag (``config.plan_cache.cached_plan`` from ``conf_dir``). ``run`` is
    (tag, planned spec files, jobs)."""
    changing = result_overrides(overrides)
    if not changing or run[0] == cfg["profile"] or report.committed:
        return None, []
    _, _, base_jobs, base_specs = cached_plan(
        [f"papers=[{','.join(cfg['papers'])}]"],
        profile=cfg["profile"],
        tag=cfg["profile"],
        conf_dir=conf_dir,
        results=results,
        before_planning=no_compilation,
    )
    spec, baseline_runs = ablation_plan(
        run,
        (cfg["profile"], base_specs, base_jobs),
        changing,
        report.reported_jobs,
        report.shown,
        states,
        results,
    )
    return json.dumps(spec, indent=1, sort_keys=True) + "\n", baseline_runs
