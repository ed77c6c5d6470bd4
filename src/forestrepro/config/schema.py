"""Validate a composed configuration: the packaged JSON Schemas (``forestrepro/schemas/``) plus cross-references.

The schemas catch typos and wrong types; :func:`check_references` catches a paper that names a
method, data set or protocol that does not exist, and lists the valid names.
"""

from __future__ import annotations

import difflib
from functools import cache

import jsonschema
import yaml

from ..resources import schema_path
from .errors import ConfigError


@cache
def _schema(name: str) -> dict:
    return yaml.safe_load(schema_path(name).read_text(encoding="utf-8"))


def _schema_error(err: jsonschema.ValidationError, where: str) -> str:
    path = ".".join(str(p) for p in err.absolute_path)
    location = f"{where}.{path}" if path else where
    return f"{location}: {err.message}"


def _unknown(kind: str, name: str, valid: list[str], where: str) -> str:
    close = difflib.get_close_matches(name, valid, n=3)
    hint = f" (did you mean {', '.join(close)}?)" if close else ""
    return f"{where}: unknown {kind} '{name}'{hint}; valid: {', '.join(sorted(valid))}"


def _check_approach_protocol(cfg: dict, protocol: str, method: str, where: str) -> list[str]:
    """C2RF approaches run only under the ``c2rf_samples`` protocol, and it runs nothing else."""
    is_approach = cfg["method"][method]["estimator"] == "c2rf_approach"
    is_c2rf_protocol = cfg["protocol"][protocol]["kind"] == "c2rf_samples"
    if is_approach == is_c2rf_protocol:
        return []
    if is_approach:
        return [
            (
                f"{where}: method '{method}' is a C2RF approach, which runs only under a protocol of kind "
                f"c2rf_samples, not '{protocol}'"
            )
        ]
    return [
        (
            f"{where}: protocol '{protocol}' (kind c2rf_samples) runs C2RF approaches only; method '{method}' "
            f"is an estimator ({cfg['method'][method]['estimator']})"
        )
    ]


def check_references(cfg: dict) -> list[str]:
    """Every name a paper uses must exist in the composed config; return the problems found."""
    problems = []
    for paper in cfg["papers"]:
        if paper not in cfg["paper"]:
            problems.append(_unknown("paper", paper, list(cfg["paper"]), "papers"))
            continue
        pcfg = cfg["paper"][paper]
        for name, exp in pcfg["experiments"].items():
            where = f"paper.{paper}.experiments.{name}"
            if exp["protocol"] not in cfg["protocol"]:
                problems.append(_unknown("protocol", exp["protocol"], list(cfg["protocol"]), where))
            for method in exp["methods"]:
                if method not in cfg["method"]:
                    problems.append(_unknown("method", method, list(cfg["method"]), f"{where}.methods"))
                elif exp["protocol"] in cfg["protocol"]:
                    problems.extend(_check_approach_protocol(cfg, exp["protocol"], method, where))
            for dataset in exp["datasets"]:
                if dataset not in cfg.get("dataset", {}):
                    problems.append(
                        _unknown("data set", dataset, list(cfg.get("dataset", {})), f"{where}.datasets")
                    )
            problems.extend(_check_block_means(cfg, pcfg, name, exp, where))
            # options may name a data set the experiment does not run (an override that narrows
            # its data sets keeps them), but not one that does not exist
            for dataset in exp.get("dataset_options", {}):
                if dataset not in cfg.get("dataset", {}):
                    problems.append(
                        _unknown(
                            "data set", dataset, list(cfg.get("dataset", {})), f"{where}.dataset_options"
                        )
                    )
        for dataset in pcfg.get("dataset_options", {}):
            if dataset not in cfg.get("dataset", {}):
                problems.append(
                    _unknown(
                        "data set", dataset, list(cfg.get("dataset", {})), f"paper.{paper}.dataset_options"
                    )
                )
        for kind, items in (("tables", pcfg["tables"]), ("figures", pcfg.get("figures", {}))):
            for name, tcfg in items.items():
                where = f"paper.{paper}.{kind}.{name}"
                if tcfg["experiment"] not in pcfg["experiments"]:
                    problems.append(
                        _unknown("experiment", tcfg["experiment"], list(pcfg["experiments"]), where)
                    )
                    continue
                exp = pcfg["experiments"][tcfg["experiment"]]
                protocol = cfg["protocol"].get(exp["protocol"], {})
                if "limit" in tcfg and exp["protocol"] in cfg["protocol"] and tcfg["limit"] not in protocol:
                    problems.append(
                        _unknown(
                            f"parameter of protocol '{exp['protocol']}'",
                            tcfg["limit"],
                            sorted(protocol),
                            f"{where}.limit",
                        )
                    )
                if kind == "figures" and "dataset" in tcfg and tcfg["dataset"] not in exp["datasets"]:
                    problems.append(
                        _unknown(
                            f"data set of experiment '{tcfg['experiment']}'",
                            tcfg["dataset"],
                            exp["datasets"],
                            f"{where}.dataset",
                        )
                    )
                for pair in tcfg.get("paired", []):
                    for method in (pair["a"], pair["b"]):
                        if method not in tcfg["methods"]:
                            problems.append(
                                _unknown(
                                    "method of the table", method, list(tcfg["methods"]), f"{where}.paired"
                                )
                            )
                for average in tcfg.get("averages", []):
                    for dataset in average["datasets"]:
                        if dataset not in tcfg["datasets"]:
                            problems.append(
                                _unknown(
                                    "data set of the table",
                                    dataset,
                                    list(tcfg["datasets"]),
                                    f"{where}.averages.{average['group']}",
                                )
                            )
                if kind == "figures":
                    for method in tcfg.get("methods", []):
                        if method not in exp["methods"]:
                            problems.append(
                                _unknown(
                                    f"method of experiment '{tcfg['experiment']}'",
                                    method,
                                    exp["methods"],
                                    f"{where}.methods",
                                )
                            )
        for i, rule in enumerate(pcfg.get("causes", [])):
            for table in [
                *rule.get("tables", []),
                *([rule["ablation_table"]] if "ablation_table" in rule else []),
                *([rule["independent_table"]] if "independent_table" in rule else []),
                *rule.get("curve", []),
                *rule.get("also_in", []),
            ]:
                if table not in pcfg["tables"]:
                    problems.append(
                        _unknown("table", table, list(pcfg["tables"]), f"paper.{paper}.causes[{i}]")
                    )
            methods = sorted({m for exp in pcfg["experiments"].values() for m in exp["methods"]})
            for key in ("baseline", "independent_method"):
                if key in rule and rule[key] not in methods:
                    problems.append(
                        _unknown("method", rule[key], methods, f"paper.{paper}.causes[{i}].{key}")
                    )
        for i, entry in enumerate(pcfg.get("deciding_runs", [])):
            for table in entry.get("tables", []):
                if table not in pcfg["tables"]:
                    problems.append(
                        _unknown("table", table, list(pcfg["tables"]), f"paper.{paper}.deciding_runs[{i}]")
                    )
    return problems


def check_values(cfg: dict) -> list[str]:
    """Relations between values that a JSON schema cannot state: C2RF's bounds on the
    positive-class share, 0 < lower <= upper (the schema checks each is positive)."""
    return [
        f"protocol.{name}: lower ({p['lower']}) must not exceed upper ({p['upper']})"
        for name, p in cfg["protocol"].items()
        if p.get("kind") == "c2rf_samples" and p["lower"] > p["upper"]
    ]


def validate_config(cfg: dict) -> None:
    """Raise ``ConfigError`` listing every schema violation and dangling name in ``cfg``."""
    validator = jsonschema.Draft202012Validator(_schema("config.schema.yaml"))
    problems = [_schema_error(e, "config") for e in validator.iter_errors(cfg)]
    dvalidator = jsonschema.Draft202012Validator(_schema("dataset.schema.yaml"))
    for name, dcfg in cfg.get("dataset", {}).items():
        problems += [_schema_error(e, f"dataset.{name}") for e in dvalidator.iter_errors(dcfg)]
    if not problems:
        problems = check_references(cfg) + check_values(cfg)
    if problems:
        raise ConfigError("invalid configuration:\n  " + "\n  ".join(problems))


def _check_block_means(cfg: dict, pcfg: dict, experiment: str, exp: dict, where: str) -> list[str]:
    """Each ``block_mean`` option divides its data set's features (``expected.features``),
    so that a wrong one is named before any job runs (``data/blocks.py``)."""
    problems = []
    for dataset in exp["datasets"]:
        options = {
            **pcfg.get("dataset_options", {}).get(dataset, {}),
            **exp.get("dataset_options", {}).get(dataset, {}),
        }
        size = options.get("block_mean")
        features = cfg.get("dataset", {}).get(dataset, {}).get("expected", {}).get("features")
        if size and isinstance(features, int) and features % size:
            problems.append(
                f"{where}: data set '{dataset}': option block_mean={size} does not divide its "
                f"{features} features into runs of equal length"
            )
    return problems
