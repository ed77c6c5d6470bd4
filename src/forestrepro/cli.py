"""Entry points that the Snakemake rules call: ``forestrepro <command> ...``.

Each command reads plain files (job specifications written by ``forestrepro.config``), calls
the library, and writes its outputs atomically. Known failures (bad data, bad configuration, a
protocol that cannot run) print one clear line and exit with status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import logging
import platform
import sys
import time
from importlib import metadata
from pathlib import Path

import pandas as pd

from .io import atomic_path, write_text_atomic


_logger = logging.getLogger("forestrepro")


def _log(message: str) -> None:
    _logger.info(message)


class _StderrHandler(logging.Handler):
    """Prints each record to the ``sys.stderr`` of the moment, flushed."""

    def emit(self, record: logging.LogRecord) -> None:
        print(self.format(record), file=sys.stderr, flush=True)


def _log_to_stderr() -> None:
    """Print the library's progress lines (logger ``forestrepro``, level INFO) and the
    command's own to stderr, which the rules write to the job's log."""
    if not any(isinstance(handler, _StderrHandler) for handler in _logger.handlers):
        handler = _StderrHandler()
        handler.setFormatter(logging.Formatter("[forestrepro %(asctime)s] %(message)s",
                                               "%H:%M:%S"))
        _logger.addHandler(handler)
    _logger.setLevel(logging.INFO)


def _read_json(path: str | Path) -> dict:
    return json.loads(Path(path).read_text(encoding="utf-8"))


def cmd_fetch(args: argparse.Namespace) -> None:
    """Load one data set from the configured sources into ``results/data/<name>.parquet``."""
    from .data import load_dataset, write_dataset

    spec = _read_json(args.spec)
    _log(f"fetching '{spec['name']}' from {args.sources} (mirror: {args.mirror_dir})")
    loaded = load_dataset(spec, sources=tuple(args.sources), mirror_dir=args.mirror_dir, openml_cache=args.openml_cache)
    write_dataset(loaded, args.out, args.provenance)
    _log(f"wrote {args.out}: {loaded.provenance.get('shape')}")


def _sweep_configs(method_config: dict, sweep: dict | None) -> list[tuple[object, dict]]:
    """(value, method config) for each value of the experiment's sweep, or one unswept config."""
    if not sweep:
        return [(None, method_config)]
    key = sweep["param"].removeprefix("params.")
    return [(v, {**method_config, "params": {**method_config["params"], key: v}}) for v in sweep["values"]]


def _job_data(spec: dict, data: str, threads: int):
    """The job's ``(X, y)``: the data set with the paper's target, and its stratified
    subsample where the paper's options say ``subsample_rows``."""
    from .data import apply_paper_target, read_dataset
    from .evaluation.protocol import subsample_stratified
    from .evaluation.seeds import derive_seed

    paper, dataset = spec["paper"], spec["dataset"]
    X, y, _ = read_dataset(data, allow_text="text" in spec["dataset_options"])
    y = apply_paper_target(y, spec["dataset_config"], paper)
    rows = spec["dataset_options"].get("subsample_rows")
    if rows:
        X, y = subsample_stratified(X, y, rows, derive_seed(spec["root_seed"], paper, dataset, "subsample"), dataset)
        _log(f"{dataset}: stratified subsample of {len(y)} rows (paper option subsample_rows)")
    n_features = X.shape[1] if X.ndim == 2 else "text"
    _log(f"{spec['tag']}/{paper}/{spec['experiment']}/{spec['method']}/{dataset}: "
         f"{X.shape[0]} rows x {n_features} features, {threads} thread(s)")
    return X, y


def _results_root(data: str) -> Path:
    """The results directory holding ``--data`` (``results/data/<name>.parquet``)."""
    return Path(data).resolve().parent.parent


def _job_options(spec: dict, results_root: Path) -> dict:
    """The paper's options for the job's data set, and ``cache_dir``: the stores shared
    across jobs, in ``<results_root>/cache``."""
    return {**spec["dataset_options"], "cache_dir": str(results_root / "cache")}


def cmd_scan(args: argparse.Namespace) -> None:
    """Scan each split of a job into the scan store, for the split's cascade jobs to read."""
    from .config import ConfigError
    from .evaluation.holdout import holdout_splits
    from .methods import build_method

    spec = _read_json(args.spec)
    if spec["protocol"]["kind"] != "holdout":
        raise ConfigError(f"{args.spec}: the scan step runs the holdout protocol's splits; "
                          f"this job's protocol is {spec['protocol']['kind']!r}")
    X, y = _job_data(spec, args.data, args.threads)
    method = build_method(spec["method_config"], _job_options(spec, _results_root(args.data)))
    if not hasattr(method, "scan"):
        raise ConfigError(f"{args.spec}: method '{spec['method']}' does not scan")
    scans = []
    for repeat, train, test, s_seed in holdout_splits(
            y, paper=spec["paper"], dataset=spec["dataset"], root_seed=spec["root_seed"],
            protocol=spec["protocol"]):
        scan = method.scan(X[train], y[train], X[test], s_seed, n_jobs=args.threads)
        scans.append({"repeat": repeat, "split_seed": s_seed, "scan_seconds": scan.seconds,
                      "features": scan.train.shape[1]})
        _log(f"{spec['dataset']} repeat {repeat}: {scan.train.shape[1]} scanned features "
             f"({scan.seconds:.1f} s of scanning)")
    write_text_atomic(Path(args.out), json.dumps({"spec": spec, "scans": scans}, indent=2,
                                                 sort_keys=True) + "\n")


def cmd_train(args: argparse.Namespace) -> None:
    """Run one (paper, experiment, method, data set) job: all its folds, one row each."""
    from .evaluation.c2rf_samples import c2rf_samples
    from .evaluation.holdout import holdout_evaluation
    from .evaluation.kappa_error import kappa_error_cv
    from .evaluation.learning_curve import learning_curve
    from .evaluation.oob import oob_repeats
    from .evaluation.fold_store import FoldStore
    from .evaluation.protocol import nested_cross_validation
    from .methods import build_method

    runners = {
        "nested_cv": nested_cross_validation,
        "holdout": holdout_evaluation,
        "oob_repeats": oob_repeats,
        "kappa_error_cv": kappa_error_cv,
        "learning_curve": learning_curve,
        "c2rf_samples": c2rf_samples,
    }
    spec = _read_json(args.spec)
    paper, dataset = spec["paper"], spec["dataset"]
    X, y = _job_data(spec, args.data, args.threads)
    started = time.perf_counter()
    parts = []
    results_root = _results_root(args.data)
    options = _job_options(spec, results_root)
    kind = spec["protocol"]["kind"]
    stores = []
    for value, method_config in _sweep_configs(spec["method_config"], spec.get("sweep")):
        method = build_method(method_config, options)
        extra = {}
        if kind == "nested_cv":  # its folds are kept as they finish, so a stopped job resumes
            stores.append(FoldStore.for_job(results_root / "cache" / "folds", spec, method_config))
            extra["checkpoint"] = stores[-1]
        part = runners[kind](
            method, X, y, paper=paper, dataset=dataset, root_seed=spec["root_seed"],
            protocol=spec["protocol"], n_jobs=args.threads, progress=_log, **extra,
        )
        if value is not None:
            part.insert(3, "sweep_value", value)
        parts.append(part)
    results = pd.concat(parts, ignore_index=True)
    results.insert(1, "experiment", spec["experiment"])
    with atomic_path(args.out) as tmp:
        results.to_parquet(tmp, index=False)
    provenance = {
        "spec": spec,
        "data": str(args.data),
        "wall_seconds": round(time.perf_counter() - started, 3),
        "threads": args.threads,
        "python": platform.python_version(),
        "packages": {p: metadata.version(p) for p in ("numpy", "scikit-learn", "pandas", "scipy", "numba")},
    }
    write_text_atomic(Path(args.out).with_suffix(".provenance.json"), json.dumps(provenance, indent=2, sort_keys=True) + "\n")
    for store in stores:
        store.clear()
    _log(f"wrote {args.out} in {provenance['wall_seconds']:.1f}s")


def cmd_table(args: argparse.Namespace) -> None:
    """Build one regenerated table (CSV, Markdown, LaTeX, rank statistics)."""
    from .report.tables import build_table, write_table

    spec = _read_json(args.spec)
    runs = pd.concat([pd.read_parquet(p) for p in args.runs], ignore_index=True) if args.runs else pd.DataFrame()
    result = build_table(runs, spec)
    write_table(result, args.out_stem)
    _log(f"wrote {args.out_stem}.{{csv,md,tex}} and rank statistics")


def cmd_plot(args: argparse.Namespace) -> None:
    """Draw the critical-difference diagrams of one table."""
    from .report.figures import plot_cd_pair

    ranks = _read_json(args.ranks)
    for path in plot_cd_pair(ranks, args.title, args.out_stem):
        _log(f"wrote {path}")


def cmd_figure(args: argparse.Namespace) -> None:
    """Draw one of a paper's figures from its experiment's runs."""
    from .report.paper_figures import draw_figure

    spec = _read_json(args.spec)
    runs = pd.concat([pd.read_parquet(p) for p in args.runs], ignore_index=True)
    for path in draw_figure(runs, spec, args.out_stem):
        _log(f"wrote {path}")


def cmd_report(args: argparse.Namespace) -> None:
    """Assemble ``results/report/<tag>/index.{md,html}``."""
    from .report.build import build_report

    tables = []
    for stem, spec_path in zip(args.tables, args.table_specs):
        png = Path(args.figures_dir) / f"{Path(stem).name}_cd.png"
        tables.append((Path(stem), _read_json(spec_path), png if png.exists() else None))
    figures = [(Path(png), _read_json(spec)) for png, spec in zip(args.paper_figures, args.figure_specs)]
    dataset_specs = {Path(p).stem: _read_json(p) for p in args.dataset_specs}
    data_provenance = {Path(p).name.removesuffix(".provenance.json"): _read_json(p) for p in args.data_provenance}
    build_report(args.tag, tables, figures, dataset_specs, data_provenance, args.out_dir,
                 partial_runs=args.partial_runs)
    _log(f"wrote {args.out_dir}/index.md and index.html")


def cmd_plan(args: argparse.Namespace) -> None:
    """Print the tag and the jobs that a configuration makes (no files written)."""
    from .config import compose_config, compute_tag, plan_jobs

    cfg = compose_config(args.overrides, profile=args.profile)
    base = compose_config([], profile=cfg["profile"])
    print(f"tag: {compute_tag(cfg, base, args.tag)}")
    for job in plan_jobs(cfg):
        print(f"  {job.path}")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="forestrepro", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("fetch", help=cmd_fetch.__doc__)
    p.add_argument("--spec", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--provenance", required=True)
    p.add_argument("--sources", nargs="+", default=["mirror", "openml"])
    p.add_argument("--mirror-dir", required=True)
    p.add_argument("--openml-cache", required=True)
    p.set_defaults(func=cmd_fetch)

    for name, command in (("train", cmd_train), ("scan", cmd_scan)):  # one job's spec and data
        p = sub.add_parser(name, help=command.__doc__)
        p.add_argument("--spec", required=True)
        p.add_argument("--data", required=True)
        p.add_argument("--out", required=True)
        p.add_argument("--threads", type=int, default=1)
        p.set_defaults(func=command)

    p = sub.add_parser("table", help=cmd_table.__doc__)
    p.add_argument("--spec", required=True)
    p.add_argument("--runs", nargs="*", default=[])
    p.add_argument("--out-stem", required=True)
    p.set_defaults(func=cmd_table)

    p = sub.add_parser("plot", help=cmd_plot.__doc__)
    p.add_argument("--ranks", required=True)
    p.add_argument("--title", required=True)
    p.add_argument("--out-stem", required=True)
    p.set_defaults(func=cmd_plot)

    p = sub.add_parser("figure", help=cmd_figure.__doc__)
    p.add_argument("--spec", required=True)
    p.add_argument("--runs", nargs="+", required=True)
    p.add_argument("--out-stem", required=True)
    p.set_defaults(func=cmd_figure)

    p = sub.add_parser("report", help=cmd_report.__doc__)
    p.add_argument("--tag", required=True)
    p.add_argument("--tables", nargs="+", required=True)
    p.add_argument("--table-specs", nargs="+", required=True)
    p.add_argument("--figures-dir", required=True)
    p.add_argument("--paper-figures", nargs="*", default=[])
    p.add_argument("--figure-specs", nargs="*", default=[])
    p.add_argument("--dataset-specs", nargs="*", default=[])
    p.add_argument("--data-provenance", nargs="*", default=[])
    p.add_argument("--out-dir", required=True)
    p.add_argument("--partial-runs", nargs=2, type=int, metavar=("FINISHED", "JOBS"), default=None,
                   help="a partial report: FINISHED of the tag's JOBS runs had finished")
    p.set_defaults(func=cmd_report)

    p = sub.add_parser("plan", help=cmd_plan.__doc__)
    p.add_argument("overrides", nargs="*")
    p.add_argument("--profile", default=None)
    p.add_argument("--tag", default=None)
    p.set_defaults(func=cmd_plan)
    return parser


def known_errors() -> tuple[type[Exception], ...]:
    """The failures that are the user's data or configuration, not a bug: no traceback."""
    from .config import ConfigError
    from .data import DatasetError
    from .evaluation.protocol import ProtocolError
    from .methods import MethodConfigError

    return (ConfigError, DatasetError, ProtocolError, MethodConfigError, FileNotFoundError)


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    _log_to_stderr()
    try:
        args.func(args)
    except known_errors() as err:
        print(f"forestrepro {args.command}: error: {err}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
