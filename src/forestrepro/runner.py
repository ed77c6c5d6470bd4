"""Run one job of the workflow from its specification: fetch a data set, scan a split, train.

The computing half of the ``fetch``, ``scan`` and ``train`` commands (``cli.py`` only parses
their arguments). Every library module a training job imports is part of its record's code
digest (``record/provenance.py``), so this module holds everything between the spec and the
record, and the command line, which computes nothing, is not part of any digest.
"""

from __future__ import annotations

import json
import logging
import time
from pathlib import Path

import pandas as pd

from .io import write_text_atomic
from .record.provenance import imported_code

_logger = logging.getLogger("forestrepro")


def _log(message: str) -> None:
    _logger.info(message)


def _read_json(path: str | Path) -> dict:
    return json.loads(Path(path).read_text(encoding="utf-8"))


def fetch(args) -> None:
    """Load one data set from the configured sources into ``results/data/<name>.parquet``."""
    from .data import load_dataset, write_dataset

    spec = _read_json(args.spec)
    _log(f"fetching '{spec['name']}' from {args.sources} (mirror: {args.mirror_dir})")
    loaded = load_dataset(
        spec, sources=tuple(args.sources), mirror_dir=args.mirror_dir, openml_cache=args.openml_cache
    )
    # the loading code is part of the code of every job that reads this data (record/provenance.py)
    loaded.provenance["code"] = {"files": imported_code()}
    write_dataset(loaded, args.out, args.provenance)
    _log(f"wrote {args.out}: {loaded.provenance.get('shape')}")


def _sweep_configs(method_config: dict, sweep: dict | None) -> list[tuple[object, dict]]:
    """(value, method config) for each value of the experiment's sweep, or one unswept config."""
    if not sweep:
        return [(None, method_config)]
    key = sweep["param"].removeprefix("params.")
    return [(v, {**method_config, "params": {**method_config["params"], key: v}}) for v in sweep["values"]]


def _job_data(spec: dict, data: str, threads: int):
    """The job's ``(X, y)``: the data set with the paper's target, its nominal features
    recoded where the options give a ``nominal_order`` (``data/nominal.py``), and its
    stratified subsample where they say ``subsample_rows``."""
    from .data import apply_paper_target, read_dataset
    from .evaluation.protocol import subsample_stratified
    from .evaluation.seeds import derive_seed

    paper, dataset = spec["paper"], spec["dataset"]
    X, y, names = read_dataset(data, allow_text="text" in spec["dataset_options"])
    y = apply_paper_target(y, spec["dataset_config"], paper)
    order = spec["dataset_options"].get("nominal_order")
    if order:
        from .data.nominal import declared_codes

        categories = _read_json(Path(data).with_suffix(".provenance.json")).get("categories", {})
        X = declared_codes(X, names, categories, order, dataset)
        _log(f"{dataset}: {', '.join(order)} coded in their declared order (option nominal_order)")
    rows = spec["dataset_options"].get("subsample_rows")
    if rows:
        X, y = subsample_stratified(
            X, y, rows, derive_seed(spec["root_seed"], paper, dataset, "subsample"), dataset
        )
        _log(f"{dataset}: stratified subsample of {len(y)} rows (paper option subsample_rows)")
    n_features = X.shape[1] if X.ndim == 2 else "text"
    _log(
        f"{spec['tag']}/{paper}/{spec['experiment']}/{spec['method']}/{dataset}: "
        f"{X.shape[0]} rows x {n_features} features, {threads} thread(s)"
    )
    return X, y


def _results_root(data: str) -> Path:
    """The results directory holding ``--data`` (``results/data/<name>.parquet``)."""
    return Path(data).resolve().parent.parent


def _job_options(spec: dict, results_root: Path) -> dict:
    """The paper's options for the job's data set, and ``cache_dir``: the stores shared
    across jobs, in ``<results_root>/cache``."""
    return {**spec["dataset_options"], "cache_dir": str(results_root / "cache")}


def scan(args) -> None:
    """Scan each split of a job into the scan store, for the split's cascade jobs to read."""
    from .config.errors import ConfigError
    from .evaluation.holdout import holdout_splits
    from .methods import build_method

    spec = _read_json(args.spec)
    if spec["protocol"]["kind"] != "holdout":
        raise ConfigError(
            f"{args.spec}: the scan step runs the holdout protocol's splits; "
            f"this job's protocol is {spec['protocol']['kind']!r}"
        )
    X, y = _job_data(spec, args.data, args.threads)
    method = build_method(spec["method_config"], _job_options(spec, _results_root(args.data)))
    if not hasattr(method, "scan"):
        raise ConfigError(f"{args.spec}: method '{spec['method']}' does not scan")
    scans = []
    for repeat, train, test, s_seed in holdout_splits(
        y,
        paper=spec["paper"],
        dataset=spec["dataset"],
        root_seed=spec["root_seed"],
        protocol=spec["protocol"],
    ):
        scan = method.scan(X[train], y[train], X[test], s_seed, n_jobs=args.threads)
        scans.append(
            {
                "repeat": repeat,
                "split_seed": s_seed,
                "scan_seconds": scan.seconds,
                "features": scan.train.shape[1],
            }
        )
        _log(
            f"{spec['dataset']} repeat {repeat}: {scan.train.shape[1]} scanned features "
            f"({scan.seconds:.1f} s of scanning)"
        )
    write_text_atomic(
        Path(args.out), json.dumps({"spec": spec, "scans": scans}, indent=2, sort_keys=True) + "\n"
    )


def train(args) -> None:
    """Run one (paper, experiment, method, data set) job: all its folds, one row each, written
    as its run record (``record/store.py``) with the provenance that makes it auditable."""
    from .evaluation.fold_store import FoldStore
    from .evaluation.registry import protocol_runner
    from .methods import build_method
    from .record import (
        code_digest,
        environment,
        git_state,
        spec_digest,
        utc_now,
        write_record,
    )

    spec = _read_json(args.spec)
    paper, dataset = spec["paper"], spec["dataset"]
    X, y = _job_data(spec, args.data, args.threads)
    started = time.perf_counter()
    parts = []
    results_root = _results_root(args.data)
    options = _job_options(spec, results_root)
    run = protocol_runner(spec["protocol"]["kind"])
    stores = []
    for value, method_config in _sweep_configs(spec["method_config"], spec.get("sweep")):
        method = build_method(method_config, options)
        store = None
        if run.keeps_folds:  # its folds are kept as they finish, so a stopped job resumes
            store = FoldStore.for_job(results_root / "cache" / "folds", spec, method_config)
            stores.append(store)
        part = run(
            method,
            X,
            y,
            paper=paper,
            dataset=dataset,
            root_seed=spec["root_seed"],
            protocol=spec["protocol"],
            n_jobs=args.threads,
            progress=_log,
            checkpoint=store,
        )
        if value is not None:
            part.insert(3, "sweep_value", value)
        parts.append(part)
    results = pd.concat(parts, ignore_index=True)
    results.insert(1, "experiment", spec["experiment"])
    data = _read_json(Path(args.data).with_suffix(".provenance.json"))
    files = {**data.pop("code", {}).get("files", {}), **imported_code()}
    provenance = write_record(
        results,
        {
            "job": f"{paper}/{spec['experiment']}/{spec['method']}/{dataset}",
            "spec": spec,
            "spec_digest": spec_digest(spec),
            "code": {"digest": code_digest(files), "files": files},
            "git": git_state(),
            "environment": environment(),
            "data": data,
            "threads": args.threads,
            "wall_seconds": round(time.perf_counter() - started, 3),
            "made": utc_now(),
        },
        args.out,
    )
    for store in stores:
        store.clear()
    _log(f"wrote {args.out} in {provenance['wall_seconds']:.1f}s")
