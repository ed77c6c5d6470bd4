"""Plan the pipeline's jobs from a composed configuration and write their specifications.

A paper has one or more experiments (a protocol, methods, data sets, and optionally a sweep of
one method parameter); a job is one (paper, experiment, method, data set), and its folds,
repeats and sweep values run inside it. Each job reads a plain JSON
specification holding everything it needs. ``plan_spec_files`` computes every specification
without touching the disk (Snakemake plans from it, and a dry run or a refused second run
writes nothing); ``write_spec_files`` writes them, each only when its content changes, once
the run holds Snakemake's lock (the workflow's ``onstart``).
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, replace
from pathlib import Path

from ..io import write_text_if_changed
from ..record.store import spec_digest
from .errors import ConfigError
from .folds import fold_problems

TAG_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")


@dataclass(frozen=True)
class JobSpec:
    """One training job: a method run on a data set in one experiment of a paper."""

    paper: str
    experiment: str
    method: str
    dataset: str
    repeat: int | None = None  # the one repeat it runs, under a protocol with job_per_repeat
    scan: str | None = None  # the scan step it reads (``scan_name``), set by write_job_specs
    spec_digest: str | None = None  # ``record.spec_digest`` of its spec, set by write_job_specs

    @property
    def cell(self) -> str:
        """``<paper>/<experiment>/<method>/<dataset>``: the table cell its rows go to."""
        return f"{self.paper}/{self.experiment}/{self.method}/{self.dataset}"

    @property
    def path(self) -> str:
        """Where its results live under a tag: its cell, and ``/repeat<k>`` for a job that
        runs one repeat of its cell."""
        return self.cell if self.repeat is None else f"{self.cell}/repeat{self.repeat}"


# Top-level keys that choose what runs, where data is read from, or what a job reserves, never a
# result; so is each method's ``resources`` and the report's ``show`` (``_changes_no_result``).
_NO_RESULT_KEYS = ("data", "profile", "papers", "resources")
# Keys of ``report`` that choose what a page shows and its title, not what a table holds: left out of
# table specs.
PAGE_ONLY_REPORT_KEYS = ("show", "title")


def _changes_no_result(key: list[str]) -> bool:
    """Whether the config key at ``key`` (its path, e.g. ``["method", "rf", "resources"]``) can
    only change what runs, where data comes from, what a job reserves or what a page shows
    (``report.show``), since a job's spec holds all that its result depends on. An override of
    such keys alone keeps the profile's tag."""
    return (
        key[0] in _NO_RESULT_KEYS
        or (key[0] == "method" and key[2:3] == ["resources"])
        or (key[0] == "report" and len(key) > 1 and key[1] in PAGE_ONLY_REPORT_KEYS)
    )


def _override_key(override: str) -> list[str]:
    """The config key an override sets, as a path (``+a.b=1`` -> ``["a", "b"]``)."""
    return str(override).partition("=")[0].strip().lstrip("+~").split(".")


def result_overrides(overrides: list[str]) -> list[str]:
    """The ``overrides`` that can change a result: not those of the keys ``_changes_no_result``
    names (where data is read from, what runs, what a job reserves)."""
    return [o for o in overrides if not _changes_no_result(_override_key(o))]


def _result_relevant(cfg: dict) -> dict:
    """The part of the config that can change results (``_changes_no_result`` leaves out the
    rest). So ``papers=[rcrf]`` or ``resources.threads=1`` on the paper profile keeps the tag
    ``paper`` and finds its records."""
    relevant = {k: v for k, v in cfg.items() if not _changes_no_result([k])}
    if "report" in relevant:
        relevant["report"] = {
            k: v for k, v in relevant["report"].items() if not _changes_no_result(["report", k])
        }
    if "method" in relevant:
        relevant["method"] = {
            name: {k: v for k, v in method.items() if not _changes_no_result(["method", name, k])}
            for name, method in relevant["method"].items()
        }
    return relevant


def config_digest(cfg: dict) -> str:
    """A short, stable hash of the result-relevant configuration."""
    text = json.dumps(_result_relevant(cfg), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:8]


def compute_tag(
    cfg: dict,
    explicit: str | None = None,
    *,
    overrides: list[str] | tuple[str, ...] | None = None,
    conf_dir: str | Path | None = None,
    profile_cfg: dict | None = None,
) -> str:
    """Name the results of ``cfg``.

    ``explicit`` (the user's ``tag=...``) wins. Otherwise a configuration equal to its
    profile's defaults is tagged with the profile name (``quick``, ``paper``), and anything else
    with ``<profile>-<hash>``, so an ablation never writes over the paper-setting results and
    the same overrides always land in the same place. The defaults are ``profile_cfg``, else
    composed here from ``conf_dir`` (the one ``cfg`` was composed from), but only when they
    decide the tag: when ``cfg``'s own ``overrides`` are given and each sets only a key that
    ``_result_relevant`` leaves out (``papers=[wdf]``), ``cfg`` is the profile's configuration
    and no second composition is paid (seconds, in every Snakemake invocation).
    """
    if explicit:
        if not TAG_PATTERN.match(explicit):
            raise ConfigError(
                f"tag {explicit!r} is not a valid name: use letters, digits, '_', '.', '-' (max 64)"
            )
        return explicit
    profile = cfg["profile"]
    if profile_cfg is None:
        if overrides is not None and not result_overrides(overrides):
            return profile
        from .compose import compose_config  # Hydra, only where a second composition decides

        profile_cfg = compose_config([], profile=profile, conf_dir=conf_dir)
    if _result_relevant(cfg) == _result_relevant(profile_cfg):
        return profile
    return f"{profile}-{config_digest(cfg)}"


def dataset_options(pcfg: dict, experiment: str, dataset: str) -> dict:
    """The options of ``dataset`` in ``experiment``: the paper's ``dataset_options``, with the
    experiment's own (e.g. a smaller ``subsample_rows`` for a learning curve) over them."""
    return {
        **pcfg.get("dataset_options", {}).get(dataset, {}),
        **pcfg["experiments"][experiment].get("dataset_options", {}).get(dataset, {}),
    }


def experiment_protocol(cfg: dict, exp: dict) -> dict:
    """The protocol of experiment ``exp``: the named one, with the experiment's own
    ``protocol_options`` over it (e.g. the out-of-sample suite's WDF experiment runs WDF's
    holdout on one split instead of five, its C2RF experiment a shorter time limit)."""
    return {**cfg["protocol"][exp["protocol"]], **exp.get("protocol_options", {})}


def job_protocol(cfg: dict, paper: str, experiment: str, dataset: str) -> dict:
    """The protocol a job of ``dataset`` runs: its experiment's, with the data set's own number
    of repeats where the paper's ``dataset_options`` set one (e.g. fewer splits of a data set
    whose every split costs hours)."""
    pcfg = cfg["paper"][paper]
    protocol = experiment_protocol(cfg, pcfg["experiments"][experiment])
    repeats = dataset_options(pcfg, experiment, dataset).get("repeats")
    return protocol if repeats is None else {**protocol, "repeats": repeats}


# A C2RF approach solves each sample on one HiGHS thread (evaluation/c2rf_samples.py), so its
# job reserves one core; every other training job reserves the method's resources.threads (like
# mem_mb and runtime_min; e.g. fewer on a cluster whose nodes have fewer CPUs), else the
# profile's resources.threads (conf/config.yaml: 4; the quick profile's small data sets: 1).
# Threads never change a number.
SINGLE_THREADED_ESTIMATORS = ("c2rf_approach",)


def method_threads(cfg: dict, method: str) -> int:
    """Cores a training or scan job of ``method`` reserves."""
    if cfg["method"][method]["estimator"] in SINGLE_THREADED_ESTIMATORS:
        default = 1
    else:
        default = cfg["resources"]["threads"]
    return int(cfg["method"][method].get("resources", {}).get("threads", default))


def plan_jobs(cfg: dict) -> list[JobSpec]:
    """Every job of the selected papers, in a stable order: one per (paper, experiment, method,
    data set), or, under a protocol with ``job_per_repeat``, one per repeat of each, so that a
    long cell accumulates split by split (each split's record is committed on its own)."""
    jobs = []
    for paper in cfg["papers"]:
        for name, exp in cfg["paper"][paper]["experiments"].items():
            for method in exp["methods"]:
                for dataset in exp["datasets"]:
                    protocol = job_protocol(cfg, paper, name, dataset)
                    if protocol.get("job_per_repeat"):
                        jobs.extend(
                            JobSpec(paper, name, method, dataset, repeat=k)
                            for k in range(protocol["repeats"])
                        )
                    else:
                        jobs.append(JobSpec(paper, name, method, dataset))
    return jobs


SCANNING_ESTIMATOR = "cascade_forest"  # methods.cascades.CascadeForest.key


def scan_name(spec: dict) -> str | None:
    """``<paper>/<data set>/<digest>``: the scan step that a job's spec reads, or None.

    A cascade job on a data set whose options say ``scan``, under the holdout protocol and
    without a sweep, reads its splits' scans from the scan store. Its scan runs as a step of
    its own (the workflow's ``scan`` rule), shared by every job whose digest is equal: the same
    data set, options, target, protocol, root seed and scanner settings, which make the same
    splits and the same scan (DF, WDF and WDF-oob by default).
    """
    method = spec["method_config"]
    if (
        method["estimator"] != SCANNING_ESTIMATOR
        or not spec["dataset_options"].get("scan")
        or spec["protocol"]["kind"] != "holdout"
        or spec.get("sweep")
    ):
        return None
    relevant = {
        key: spec[key]
        for key in ("paper", "dataset", "root_seed", "protocol", "dataset_config", "dataset_options")
    }
    relevant["scanner"] = method.get("params", {}).get("scanner", {})
    text = json.dumps(relevant, sort_keys=True, separators=(",", ":"))
    return f"{spec['paper']}/{spec['dataset']}/{hashlib.sha256(text.encode()).hexdigest()[:10]}"


def _dump(obj: dict) -> str:
    return json.dumps(obj, sort_keys=True, indent=2) + "\n"


def data_key(dataset_config: dict) -> str:
    """``<name>-<digest>``: a data set's files under ``results/data/`` are named by the content
    of its configuration (which holds its source files' SHA-256), so tags with the same data set
    share them, a tag whose ``dataset.*`` override changes it gets files of its own, and where
    the files are read from (``data.sources``, the mirror's path) names nothing."""
    return f"{dataset_config['name']}-{hashlib.sha256(_dump(dataset_config).encode()).hexdigest()[:12]}"


def dataset_spec_path(results: Path, dataset_config: dict) -> Path:
    return results / "data" / "specs" / f"{data_key(dataset_config)}.json"


def job_spec_path(results: Path, tag: str, job: JobSpec) -> Path:
    return results / "runs" / tag / "specs" / f"{job.path}.json"


def table_spec_path(results: Path, tag: str, paper: str, table: str) -> Path:
    return results / "runs" / tag / "specs" / paper / f"{table}.table.json"


def figure_spec_path(results: Path, tag: str, paper: str, figure: str) -> Path:
    return results / "runs" / tag / "specs" / paper / f"{figure}.figure.json"


def write_job_specs(cfg: dict, tag: str, results: str | Path = "results") -> list[JobSpec]:
    """Plan and write every specification file (``plan_spec_files``); return the jobs."""
    jobs, files = plan_spec_files(cfg, tag, results)
    write_spec_files(files)
    return jobs


def write_spec_files(files: dict[Path, str]) -> None:
    """Write each planned specification file whose content changed (see module docstring)."""
    for path, text in files.items():
        write_text_if_changed(path, text)


def _caption(text: str, protocol: dict) -> str:
    """A table's caption with ``{time_limit}`` replaced by its experiment's protocol's limit (an
    override of the limit then shows in the caption, e.g. C2RF's ablation at 10 s, not 60)."""
    if "{time_limit}" in text and "time_limit" in protocol:
        return text.replace("{time_limit}", f"{protocol['time_limit']:g}")
    return text


def plan_spec_files(
    cfg: dict, tag: str, results: str | Path = "results"
) -> tuple[list[JobSpec], dict[Path, str]]:
    """The jobs, each with the scan step it reads (``scan_name``) and its spec's digest, and
    the text of every specification file: the resolved config, one spec per data set, job,
    table and figure. Nothing is written. Raises ``ConfigError`` naming every method whose
    parameters its estimator rejects (``method_params``), or every data set with fewer rows
    than its protocol's folds (``folds``)."""
    from .compose import dump_yaml
    from .method_params import check_method_params  # scikit-learn and every estimator

    results = Path(results)
    files = {results / "runs" / tag / "config.yaml": dump_yaml(cfg)}
    jobs = plan_jobs(cfg)
    for dataset in sorted({j.dataset for j in jobs}):
        files[dataset_spec_path(results, cfg["dataset"][dataset])] = _dump(cfg["dataset"][dataset])
    planned, jobs, specs = jobs, [], []
    for job in planned:
        pcfg = cfg["paper"][job.paper]
        exp = pcfg["experiments"][job.experiment]
        protocol = job_protocol(cfg, job.paper, job.experiment, job.dataset)
        spec = {
            "tag": tag,
            "paper": job.paper,
            "experiment": job.experiment,
            "method": job.method,
            "dataset": job.dataset,
            "root_seed": cfg["root_seed"],
            # a one-repeat job's protocol names its repeat (evaluation.holdout.holdout_splits)
            "protocol": {**protocol, "repeat": job.repeat} if job.repeat is not None else protocol,
            "sweep": exp.get("sweep"),
            # what the job computes, without what it reserves (resources: threads, memory,
            # time), so that fitting a job to a cluster's nodes never reruns it
            "method_config": {
                **{k: v for k, v in cfg["method"][job.method].items() if k != "resources"},
                **({"grid": exp["grid"]} if "grid" in exp else {}),
            },
            "dataset_config": cfg["dataset"][job.dataset],
            "dataset_options": dataset_options(pcfg, job.experiment, job.dataset),
        }
        files[job_spec_path(results, tag, job)] = _dump(spec)
        specs.append(spec)
        jobs.append(replace(job, scan=scan_name(spec), spec_digest=spec_digest(spec)))
    problems = check_method_params(specs)
    if problems:
        raise ConfigError("invalid method parameters:\n  " + "\n  ".join(problems))
    problems = fold_problems(cfg, specs)
    if problems:
        raise ConfigError("more folds than rows:\n  " + "\n  ".join(problems))
    for paper in cfg["papers"]:
        pcfg = cfg["paper"][paper]
        for table, tcfg in pcfg["tables"].items():
            exp = pcfg["experiments"][tcfg["experiment"]]
            spec = {
                "tag": tag,
                "paper": paper,
                "table": table,
                **tcfg,
                "caption": _caption(tcfg["caption"], experiment_protocol(cfg, exp)),
                # JSON sorts mapping keys, so the paper's row and column order is kept as lists.
                "method_order": [m for m in exp["methods"] if m in tcfg["methods"]],
                "dataset_order": (
                    ["all"]
                    if tcfg.get("pool_datasets")
                    else [d for d in exp["datasets"] if d in tcfg["datasets"]]
                ),
                # run by the experiment but without a row or column in the paper's table: the
                # report names them rather than dropping them silently
                "unplaced": {
                    "datasets": []
                    if tcfg.get("pool_datasets")
                    else [d for d in exp["datasets"] if d not in tcfg["datasets"]],
                    "methods": [m for m in exp["methods"] if m not in tcfg["methods"]],
                },
                **({"limit_value": experiment_protocol(cfg, exp)[tcfg["limit"]]} if "limit" in tcfg else {}),
                "report": {k: v for k, v in cfg["report"].items() if k not in PAGE_ONLY_REPORT_KEYS},
                "profile": cfg["profile"],
                "title": pcfg["title"],
                # each data set's options in the table's experiment (an experiment's own override
                # the paper's, as for its jobs): what the method was fed
                "dataset_options": {
                    d: o for d in exp["datasets"] if (o := dataset_options(pcfg, tcfg["experiment"], d))
                },
                "notes": pcfg.get("notes", []),
                "claims": [c for c in pcfg.get("claims", []) if c["table"] == table],
                "causes": [c for c in pcfg.get("causes", []) if table in c.get("tables", [table])],
                "deciding_runs": [
                    d for d in pcfg.get("deciding_runs", []) if table in d.get("tables", [table])
                ],
            }
            files[table_spec_path(results, tag, paper, table)] = _dump(spec)
        for figure, fcfg in pcfg.get("figures", {}).items():
            exp = pcfg["experiments"][fcfg["experiment"]]
            methods = [m for m in exp["methods"] if m in fcfg.get("methods", exp["methods"])]
            spec = {
                "tag": tag,
                "paper": paper,
                "figure": figure,
                **fcfg,
                "method_order": methods,
                "dataset_order": list(exp["datasets"]),
            }
            files[figure_spec_path(results, tag, paper, figure)] = _dump(spec)
    return jobs, files
