"""Folds checked while the jobs are planned, before any job runs.

A job under a protocol with folds (``evaluation/folds.py``) needs as many rows as folds. Its
rows are known before its data is read: the data set's ``expected.rows`` (``conf/dataset/``,
checked against the data when it is loaded), or the paper's ``subsample_rows`` where it takes
fewer. So more folds than rows is one error naming the data set, the experiment, the protocol
and the option that sets the folds, instead of a failed job. Whether each class has as many rows
as folds is known from the data alone: the job checks it (``evaluation.folds.check_class_sizes``).
"""

from __future__ import annotations

from ..evaluation.folds import fold_rows_problem, searches_grid


def job_rows(spec: dict) -> int | None:
    """The rows a job's protocol receives, as its spec knows them: the data set's expected
    rows, or its ``subsample_rows`` where fewer; None where the data set states none."""
    rows = spec["dataset_config"].get("expected", {}).get("rows")
    subsample = spec["dataset_options"].get("subsample_rows")
    if rows is None:
        return subsample
    return min(rows, subsample) if subsample else rows


def fold_problems(cfg: dict, specs: list[dict]) -> list[str]:
    """One line per (paper, experiment, data set) whose jobs' rows cannot be cut into their
    protocol's folds, naming the option that sets the folds."""
    problems, seen = [], set()
    for spec in specs:
        where = (spec["paper"], spec["experiment"], spec["dataset"], searches_grid(spec["method_config"]))
        rows = job_rows(spec)
        if where in seen or rows is None:
            continue
        seen.add(where)
        problem = fold_rows_problem(rows, spec["protocol"], where[3])
        if problem is None:
            continue
        key, _, reason = problem.partition(": ")
        paper, experiment, dataset = where[:3]
        exp = cfg["paper"][paper]["experiments"][experiment]
        option = (
            f"paper.{paper}.experiments.{experiment}.protocol_options.{key}"
            if key in exp.get("protocol_options", {})
            else f"protocol.{exp['protocol']}.{key}"
        )
        source = (
            "the subsample_rows of its dataset_options"
            if rows == spec["dataset_options"].get("subsample_rows")
            else f"dataset.{dataset}.expected.rows"
        )
        problems.append(
            f"data set '{dataset}' in paper.{paper}.experiments.{experiment} (protocol "
            f"'{exp['protocol']}'): {reason} ({option}; rows: {source})"
        )
    # a problem shared by the methods with and without a grid search is said once
    return list(dict.fromkeys(problems))
