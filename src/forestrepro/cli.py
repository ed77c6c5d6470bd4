"""The one command line, ``forestrepro <command> ...``: the steps the Snakemake rules call (fetch,
scan, train, reuse, report), and the tools a user runs from the checkout's root (plan, pieces,
equivalence, reports, dataset-entry, bench).

Each rule's command reads plain files (job specifications written by ``forestrepro.config``),
calls the library, and writes its outputs atomically. Known failures (bad data, bad
configuration, a protocol that cannot run) print one clear line and exit with status 2, never a
traceback. The tools' logic is the library's (``record/pieces.py``, ``record/equivalence.py``,
``report/committed.py``, ``data/intake.py``); here are their arguments.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import subprocess
import sys
from pathlib import Path

import pandas as pd

from .record.store import read_rows

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
        handler.setFormatter(logging.Formatter("[forestrepro %(asctime)s] %(message)s", "%H:%M:%S"))
        _logger.addHandler(handler)
    _logger.setLevel(logging.INFO)


def _read_json(path: str | Path) -> dict:
    return json.loads(Path(path).read_text(encoding="utf-8"))


def cmd_fetch(args: argparse.Namespace) -> None:
    """Load one data set from the configured sources into ``--out`` (``results/data/<name>-<digest>.parquet``)."""
    from .runner import fetch

    fetch(args)


def cmd_scan(args: argparse.Namespace) -> None:
    """Scan each split of a job into the scan store, for the split's cascade jobs to read."""
    from .progress import Plan, Progress
    from .runner import scan

    with Progress(Plan.of_scan(_read_json(args.spec)), terminal=sys.stdout):
        scan(args)


def _check_class_sizes(spec: dict, args: argparse.Namespace) -> None:
    """Before any fitting, refuse a job whose stratified folds would lack a class, unless its
    data set's option says to run anyway (``evaluation/folds.py``), and then say so in its log."""
    from .evaluation.folds import SMALL_CLASSES_OPTION, check_class_sizes, protocol_folds

    if protocol_folds(spec["protocol"]) is None:
        return
    from .runner import _job_data

    _, y = _job_data(spec, args.data, args.threads)  # the rows and labels its protocol receives
    small = check_class_sizes(y, spec)
    if small:
        _log(
            f"{spec['dataset']}: class(es) {small} have fewer rows than the "
            f"{protocol_folds(spec['protocol'])} folds, so some folds lack them: run anyway "
            f"(data set option {SMALL_CLASSES_OPTION})"
        )


def cmd_train(args: argparse.Namespace) -> int | None:
    """Run one (paper, experiment, method, data set) job and write its run record; with --job,
    the workflow's step: restore its committed pieces, train, and write its failure note on
    failure or a stop, or drop its pieces on success (record/attempt.py)."""
    if args.job is not None:
        return _attempt(args)
    if args.spec is None or args.out is None:
        print(
            "forestrepro train: error: give --spec and --out (one job), or --job and --tag", file=sys.stderr
        )
        return 2
    _check_class_sizes(_read_json(args.spec), args)
    piece_log = None
    if args.piece_log:  # what its kept pieces depend on, and where they are (record/pieces.py)
        from .record.pieces import PieceLog

        data = _read_json(Path(args.data).with_suffix(".provenance.json"))
        piece_log = PieceLog(args.piece_log).install(data.get("code", {}).get("files"))
    from .progress import Plan, Progress
    from .runner import train

    with Progress(Plan.of_job(_read_json(args.spec)), terminal=sys.stdout):  # "k of N" as it goes
        train(args)
    if piece_log is not None:  # the record replaces the pieces
        piece_log.uninstall()
        piece_log.path.unlink(missing_ok=True)


def _attempt(args: argparse.Namespace) -> int:
    """``forestrepro train --job``: one attempt at the job of ``--tag`` (record/attempt.py), its
    training a ``forestrepro train --spec ... --out ...`` process of its own."""
    from .record.attempt import attempt
    from .record.pieces import Layout

    if args.tag is None or args.log is None:
        print("forestrepro train: error: --job needs --tag and --log", file=sys.stderr)
        return 2
    layout = Layout(Path(args.results), args.tag)
    command = [
        sys.executable,
        "-m",
        "forestrepro.cli",
        "train",
        "--spec",
        str(layout.runs / "specs" / f"{args.job}.json"),
        "--data",
        args.data,
        "--out",
        str(layout.record(args.job)),
        "--threads",
        str(args.threads),
        "--piece-log",
        str(layout.piece_log(args.job)),
    ]
    return attempt(layout, args.job, command, args.log)


def cmd_reuse(args: argparse.Namespace) -> None:
    """Copy a record of the same job under another tag as this job's record (record/reuse.py)."""
    from .record.reuse import write_reused

    write_reused(args.record, _read_json(args.spec), args.out)
    _log(f"wrote {args.out}: the rows of {args.record} (the same job under another tag)")


def _runs_by_experiment(groups: list[list[str]]) -> dict[str, pd.DataFrame]:
    """``{"<paper>/<experiment>": its run records' rows}`` from ``--runs`` groups, each
    ``<paper>/<experiment> path...``, the rows in the order the paths are given."""
    return {
        experiment: pd.concat([read_rows(p) for p in paths], ignore_index=True) if paths else pd.DataFrame()
        for experiment, *paths in groups
    }


def cmd_report(args: argparse.Namespace) -> None:
    """Make a report: each table (CSV, Markdown, LaTeX, rank statistics), its critical-difference
    diagrams, the paper's figures, then the page ``index.{md,html}`` with the run records'
    provenance. One process makes them all: each is a fraction of a second of work after
    seconds of imports (pandas, scipy.stats, matplotlib)."""
    from .report.baseline import Ablation, baseline_cells, donor_tag
    from .report.build import build_report, record_job
    from .report.figures import plot_cd_pair
    from .report.paper_figures import draw_figure
    from .report.tables import build_table, write_table

    runs = _runs_by_experiment(args.runs)
    partial = _read_json(args.partial) if args.partial else None

    def rows_of(spec: dict) -> pd.DataFrame:
        # a copy: what one table or figure does to its frame reaches no other
        return runs.get(f"{spec['paper']}/{spec['experiment']}", pd.DataFrame()).copy()

    cd_figures = {Path(png).name: Path(png) for png in args.cd_figures}
    tables = []
    for stem, spec_path in zip(args.tables, args.table_specs):
        stem, spec = Path(stem), _read_json(spec_path)
        write_table(build_table(rows_of(spec), spec, partial and partial["pending"]), stem)
        _log(f"wrote {stem}.{{csv,md,tex}} and rank statistics")
        cd_png = cd_figures.get(f"{stem.name}_cd.png")
        if cd_png is not None:
            ranks = _read_json(stem.parent / f"{stem.name}_ranks.json")
            for path in plot_cd_pair(
                ranks, f"{spec['paper'].upper()} {spec['table']}", cd_png.with_suffix("")
            ):
                _log(f"wrote {path}")
        tables.append((stem, spec, cd_png))
    figures = []
    for png, spec_path in zip(args.paper_figures, args.figure_specs):
        spec = _read_json(spec_path)
        for path in draw_figure(rows_of(spec), spec, Path(png).with_suffix("")):
            _log(f"wrote {path}")
        figures.append((Path(png), spec))
    dataset_specs = {spec["name"]: spec for spec in map(_read_json, args.dataset_specs)}
    records = [_read_json(p) for p in args.records]
    ablation = None
    if args.ablation:  # a run with overrides under a tag of its own, beside its baseline's records
        plan = _read_json(args.ablation)
        baseline_runs = _runs_by_experiment(
            [[experiment, *paths] for experiment, paths in plan["runs"].items()]
        )
        ablation = Ablation(
            baseline=plan["baseline"],
            overrides=tuple(plan["overrides"]),
            changed=frozenset(plan["changed"]),
            missing=plan["missing"],
            recorded=frozenset(record_job(r) for r in records),
            copied_from={record_job(r): donor_tag(r) for r in records if donor_tag(r) is not None},
            cells={
                (spec["paper"], spec["table"]): baseline_cells(
                    baseline_runs.get(f"{spec['paper']}/{spec['experiment']}", pd.DataFrame()).copy(),
                    spec,
                    plan["missing"],
                    partial["pending"] if partial else {},
                )
                for _, spec, _ in tables
            },
        )
    build_report(
        args.tag,
        tables,
        figures,
        dataset_specs,
        records,
        args.out_dir,
        n_jobs=args.jobs,
        partial=partial,
        committed=args.committed,
        embedded_html=args.embedded_html,
        covers=args.covers,
        ablation=ablation,
        order=args.show,
        page_title=args.title,
    )
    _log(f"wrote {args.out_dir}/index.md and index.html")


def cmd_plan(args: argparse.Namespace) -> None:
    """Print the tag, how many jobs the workflow leaves alone, copies and trains (each job with
    what it does, without --cores), and what they cost: each job's core-seconds, measured from its
    run record (or the record it copies), modelled from its method's records, or bounded by its
    time limits, and the wall time on --cores (default: this machine's) cores (record/cost.py); and
    that a measured cost is what its record took when it was made, with each paper's newest record
    measured both ways, as made and rerun as the equivalence ledger's evidence (record/both_ways.py)."""
    import os

    from .config.plan_cache import cached_plan
    from .resources import default_conf_dir

    cfg, tag, jobs, spec_files = cached_plan(  # with the scan each job reads
        list(args.overrides),
        profile=args.profile,
        tag=args.tag,
        conf_dir=Path(args.conf) if args.conf else default_conf_dir(),
        results=args.results,
    )
    print(f"tag: {tag}")
    to_run, copied = _print_states(jobs, spec_files, args.results, tag, listed=args.cores is None)
    runs = Path(args.results) / "runs"
    references = (
        [runs / args.reference]
        if args.reference is not None
        else [
            runs / other for other in sorted(p.name for p in runs.glob("*") if p.is_dir() and p.name != tag)
        ]
    )
    _print_costs(
        cfg,
        jobs,
        runs / tag,
        args.cores or os.cpu_count() or 1,
        references,
        to_run,
        copied,
        per_job=args.cores is not None,
    )


def _print_states(
    jobs: list, spec_files: dict, results: str, tag: str, listed: bool
) -> tuple[set[str], dict[str, Path]]:
    """Print how many jobs the workflow leaves alone (their record is current), copies from the
    record of the same job under another tag (record/reuse.py) and trains, and if ``listed`` each
    job with what it does with it; return the paths of those it trains, and the record each
    copied job copies."""
    from .workflow.states import job_states

    states = job_states(jobs, spec_files, results, tag)
    statuses, copied = states.records, {path: Path(donor) for path, donor in states.copies.items()}
    to_run = set(states.to_train())
    for job in jobs if listed else ():
        status = statuses[job.path]
        state = (
            "current"
            if status.current
            else f"copies {copied[job.path]}"
            if job.path in copied
            else f"to run ({status.reason or status.state})"
        )
        print(f"  {job.path:<58} {state}")
    print(
        f"{len(jobs)} jobs: {len(jobs) - len(copied) - len(to_run)} current, {len(copied)} copied from "
        f"another tag (the same job), {len(to_run)} to run"
    )
    return to_run, copied


def _twins(cfg: dict) -> tuple[dict[tuple[str, str, str], tuple[str, str, str]], dict]:
    """``(twins, scales)`` for ``record.cost.estimate``: each (paper, experiment, method) mapped to
    the first other experiment (of its paper or another) that runs the same method under the same
    protocol, else, for a method that searches no grid, under another protocol whose fits per job
    ``record.cost.protocol_fits`` counts; ``scales`` maps the latter to the ratio of the two
    protocols' fits per job."""
    from .config.jobs import experiment_protocol
    from .record.cost import protocol_fits

    runs = [
        (paper, name, method, exp["protocol"], None if exp.get("sweep") else experiment_protocol(cfg, exp))
        for paper, pcfg in cfg["paper"].items()
        for name, exp in pcfg["experiments"].items()
        for method in exp["methods"]
    ]
    twins, scales = {}, {}
    for p, e, m, pr, protocol in runs:
        others = [(p2, e2, pr2, proto2) for p2, e2, m2, pr2, proto2 in runs if m2 == m and (p2, e2) != (p, e)]
        twins[(p, e, m)] = next(((p2, e2, m) for p2, e2, pr2, _ in others if pr2 == pr), None)
        gridless = not (cfg["method"][m].get("grid") or cfg["paper"][p]["experiments"][e].get("grid"))
        if twins[(p, e, m)] is None and gridless and protocol and (fits := protocol_fits(protocol)):
            # another protocol's fits, the experiments of its own paper first (a sweep's are not counted)
            counted = sorted(
                (
                    (p2 != p, p2, e2, n)
                    for p2, e2, _, proto2 in others
                    if proto2 and (n := protocol_fits(proto2))
                ),
                key=lambda other: other[0],
            )
            if counted:
                _, p2, e2, n = counted[0]
                twins[(p, e, m)], scales[(p, e, m)] = (p2, e2, m), fits / n
    return twins, scales


def _job_sizes(cfg: dict, jobs: list, rows: dict[str, int]) -> dict[str, float]:
    """A scanned job's size for the cost model: its data set's rows x the scanned record's shape
    (``scan.shape`` of its data set options), where the rows are known."""
    import math

    from .config.jobs import dataset_options

    sizes = {}
    for job in jobs:
        shape = (dataset_options(cfg["paper"][job.paper], job.experiment, job.dataset).get("scan") or {}).get(
            "shape"
        )
        if job.scan and shape and rows.get(job.dataset):
            sizes[job.path] = float(rows[job.dataset]) * float(math.prod(shape))
    return sizes


def _print_costs(
    cfg: dict,
    jobs: list,
    runs_dir: Path,
    cores: int,
    references: list[Path],
    to_run: set[str],
    copied: dict[str, Path],
    per_job: bool,
) -> None:
    from collections import defaultdict

    from .config.jobs import job_protocol, method_threads
    from .record.cost import (
        estimate,
        kept_solves,
        limit_bound,
        limit_modelled,
        measured,
        measured_record,
        scans_measured,
    )

    # a data set's size: the paper's shape, else the one its configuration expects (a data set
    # no paper used, as the out-of-sample suite's)
    published = {
        name: next((s for s in (d.get("published") or {}).values() if s), d.get("expected") or {})
        for name, d in cfg["dataset"].items()
    }
    threads = {job.path: method_threads(cfg, job.method) for job in jobs}
    protocols = {job.path: job_protocol(cfg, job.paper, job.experiment, job.dataset) for job in jobs}
    limits = {path: float(p["time_limit"]) for path, p in protocols.items() if "time_limit" in p}
    solves = {job.path: 1 if job.repeat is not None else protocols[job.path]["repeats"] for job in jobs}
    bounds = {path: limit_bound(limit, solves[path]) for path, limit in limits.items()}
    records = measured(runs_dir)
    for path, donor in copied.items():  # a copied job: what its donor record cost
        if (cost := measured_record(donor)) is not None:
            records[path] = cost
    kept = kept_solves(runs_dir)
    limit_model: dict[str, float] = {}
    for reference in references:  # the tightest bound any reference tag gives
        for path, seconds in limit_modelled(reference, limits, kept).items():
            limit_model[path] = min(seconds, limit_model.get(path, seconds))
    rows = {name: shape.get("rows") for name, shape in published.items()}
    for job in jobs:  # our data's rows where some record read it
        if recorded := records.get(job.path, (0, {}))[1].get("rows"):
            rows[job.dataset] = recorded
    twins, twin_scales = _twins(cfg)
    costs = estimate(
        jobs,
        threads,
        records,
        published,
        limit_model,
        scans_measured({job.path: copied.get(job.path, runs_dir / f"{job.path}.csv") for job in jobs}, jobs),
        twins,
        sizes=_job_sizes(cfg, jobs, rows),
        bounds=bounds,
        twin_scales=twin_scales,
    )
    print(
        f"records read from {runs_dir}; time-limit models from {', '.join(r.name for r in references) or 'none'}"
    )
    if kept:
        print(
            f"  {sum(map(len, kept.values()))} solves of {len(kept)} unfinished jobs are committed as "
            "pieces (results/runs/<tag>/pieces/): not charged again"
        )
    if per_job:
        print(f"  {'job':<58} {'threads':>7} {'core-s':>9}  source")
        for cost in costs:
            seconds = "?" if cost.core_seconds is None else f"{cost.core_seconds:.1f}"
            print(f"  {cost.path:<58} {cost.threads:>7} {seconds:>9}  {cost.source}")
    groups = defaultdict(list)  # <paper>/<experiment>, and <paper>/scan for the scans
    for cost in costs:
        first, second = cost.path.split("/")[:2]
        groups[f"{second}/scan" if first == "scan" else f"{first}/{second}"].append(cost)
    sources = ("measured", "limit", "model", "bound", "unknown")
    width = max(len("experiment"), *map(len, groups))
    print(
        f"  {'experiment':<{width}} {'jobs':>5} " + " ".join(f"{s:>8}" for s in sources) + f" {'core-h':>8}"
    )
    for name, group in [*groups.items(), ("total", costs)]:
        n = {src: sum(c.source.split()[0] == src for c in group) for src in sources}
        hours = sum(c.core_seconds for c in group if c.core_seconds is not None) / 3600
        counts = " ".join(f"{n[s]:>8}" for s in sources)
        print(f"  {name:<{width}} {len(group):>5} {counts} {hours:>8.1f}")
    print(
        "  (measured: its record, or the record it copies; limit: the same job's record at a smaller time "
        "limit, each solve stopped there charged the whole larger one, an upper bound; model: a power law in "
        "the data's size over its method's records, a rough guide; bound: its solves x its time limit, an "
        "upper bound; unknown: none of these)"
    )
    read = {  # <tag>/<job> of each record the plan reads -> its core-seconds
        Path(copied.get(job.path, runs_dir / f"{job.path}.csv"))
        .relative_to(runs_dir.parent)
        .as_posix()
        .removesuffix(".csv"): records[job.path][0]
        for job in jobs
        if job.path in records
    }
    _print_both_ways(runs_dir.parent, read, list(dict.fromkeys(job.paper for job in jobs)))
    print(f"all jobs: {_hours(costs)}; {_wall(costs, cores)} on {cores} cores")
    steps = {f"scan/{job.scan}" for job in jobs if job.scan and job.path in to_run}
    pending = [c for c in costs if c.path in to_run or c.path in steps]
    by_source = ", ".join(
        f"{n} {src}" for src in sources if (n := sum(c.source.split()[0] == src for c in pending))
    )
    print(
        f"to run: {len(pending)} jobs{f' ({by_source})' if by_source else ''}: {_hours(pending)}; "
        f"{_wall(pending, cores)} on {cores} cores"
    )
    for cost in pending:
        if cost.core_seconds is None:
            print(f"  of unknown cost: {cost.path} (no record of it, nor of its method to model it from)")


def _print_both_ways(runs: Path, read: dict[str, float], papers: list[str]) -> None:
    """Say that a measured cost is what its record took when it was made, and, per paper of
    ``papers``, its newest record measured both ways among those ``read`` (``<tag>/<job>`` ->
    core-seconds) under ``runs``: as made, and rerun as the equivalence ledger's evidence
    (record/both_ways.py)."""
    from .record.both_ways import newest_both_ways

    print(
        "  (measured costs are the seconds each record took when it was made, with the code of its commit "
        "under that run's load: a rerun on today's code can take less or more. Measured both ways, the "
        "newest record per paper rerun as the equivalence ledger's evidence:)"
    )
    found = newest_both_ways(runs, read)
    if found is None:
        print(f"    none known: {runs} has no git history to read the ledger's reruns from")
        return
    for paper in papers:
        both = found.get(paper)
        if both is None:
            print(
                f"    {paper}: none measured both ways yet (the equivalence ledger reran none of its records)"
            )
        elif not both.measured:
            print(
                f"    {paper}: {both.record}, rerun at {both.rerun_commit[:8]}: this checkout's git history "
                "does not give the seconds of both its versions"
            )
        else:
            print(
                f"    {paper}: {both.record} took {both.made_seconds:,.0f} core-s when made (commit "
                f"{(both.made_commit or 'unknown')[:8]}) and {both.rerun_seconds:,.0f} core-s rerun at "
                f"{both.rerun_commit[:8]} (same rows: equivalence ledger)"
            )


def _hours(costs: list) -> str:
    """Core-hours of ``costs``, and how many have no cost: never a 0.0 that hides work of unknown
    cost."""
    hours = sum(c.core_seconds for c in costs if c.core_seconds is not None) / 3600
    unknown = sum(c.core_seconds is None for c in costs)
    return f"{hours:.1f} core-h" + (f" + {unknown} job(s) of unknown cost" if unknown else "")


def _wall(costs: list, cores: int) -> str:
    from .record.cost import makespan

    unknown = sum(c.core_seconds is None for c in costs)
    text = f"{makespan(costs, cores) / 3600:.2f} h wall"
    return text + (" (without those of unknown cost)" if unknown else "")


def cmd_pieces(args: argparse.Namespace) -> int:
    """Keep the cached pieces of a tag's unfinished jobs in results/runs/<tag>/pieces/, or
    restore one job's committed pieces into results/cache/ (record/pieces.py)."""
    from .record.pieces import Layout, keep, restore

    layout = Layout(Path(args.results), args.tag)
    return keep(layout) if args.pieces_command == "keep" else restore(layout, args.job)


def cmd_equivalence(args: argparse.Namespace) -> int:
    """Show, by reruns, that a committed library change leaves the committed records' results
    unchanged, and enter it in the equivalence ledger (record/equivalence.py)."""
    from .config.jobs import scan_name  # a scanned job's rerun is priced with its scan
    from .record import equivalence

    repo = Path.cwd()
    if args.equivalence_command == "plan":
        return equivalence.print_plan(repo, args.since, args.also, scan_name)
    if args.equivalence_command == "run":
        return equivalence.run_reruns(repo, args.since, args.also, args.cores, scan_name)
    return equivalence.attest_reruns(repo, args.since)


def cmd_reports(args: argparse.Namespace) -> None:
    """Rebuild every committed report under results/report/paper/ and their index from the
    committed run records (make report); --check: and fail if any differs from git's (make
    report-check) (report/committed.py)."""
    from .report.committed import rebuild_committed

    rebuild_committed(Path.cwd(), args.names, args.cores, args.check)


def cmd_bench(args: argparse.Namespace) -> int:
    """Run the speed comparisons against the anchors (scikit-learn's tree, the deep-forest
    package, the plain MILP, scikit-learn's predict on cut windows) and print one table of
    ratios with the load (benchmarks/README.md); they live in the source checkout, not the wheel."""
    checkout = Path(__file__).resolve().parents[2]
    if not (checkout / "benchmarks" / "__main__.py").is_file():
        raise SystemExit(
            f"forestrepro bench: no benchmarks/ beside the package at {checkout}: the suite is in the "
            "source checkout (git clone), not in an installed wheel"
        )
    options = ["--quick"] * args.quick + (["--only", *args.only] if args.only else [])
    command = [sys.executable, "-m", "benchmarks", *options]
    return subprocess.run(command, cwd=checkout, check=False).returncode


def cmd_dataset_entry(args: argparse.Namespace) -> None:
    """Show the collection entry of a PMLB file of the mirror and its features' types (from the
    mirror's pmlb/feature_types.tsv, else inferred: confirm them); --write appends it to the
    collection. A file with the data of a paper's data set is refused (data/intake.py)."""
    from .data.intake import append_entry, entry_text, propose
    from .resources import default_conf_dir

    registry = Path(args.conf or default_conf_dir()) / "dataset"
    proposal = propose(args.file, Path(args.mirror), registry)
    print(f"feature types of {args.file}, {proposal.types_source}:")
    for feature, kind in proposal.types.items():
        print(f"  {feature}\t{kind}")
    print(f"entry of collection {args.collection}:\n{entry_text(proposal)}", end="")
    if args.write:
        print(f"appended to {append_entry(proposal, registry, args.collection)}")
    else:
        print("(shown only: --write appends it)")


def _add_tools(sub) -> None:
    """The tools a user runs: ``pieces``, ``equivalence``, ``reports`` and ``dataset-entry``."""
    p = sub.add_parser("pieces", help=cmd_pieces.__doc__)
    p.add_argument("--results", default="results", help="the results directory (default: results)")
    p.add_argument("--tag", required=True, help="the tag whose jobs' pieces to keep or restore")
    steps = p.add_subparsers(dest="pieces_command", required=True, help="keep or restore")
    steps.add_parser(
        "keep", help="copy the cached pieces of the tag's unfinished jobs into results/runs/<tag>/pieces/"
    )
    one = steps.add_parser("restore", help="copy one job's committed pieces into results/cache/")
    one.add_argument("--job", required=True, help="<paper>/<experiment>/<method>/<dataset>[/repeat<k>]")
    p.set_defaults(func=cmd_pieces)

    p = sub.add_parser("equivalence", help=cmd_equivalence.__doc__)
    steps = p.add_subparsers(dest="equivalence_command", required=True, help="plan, run or attest")
    for name, text in (
        ("plan", "list the reruns that show the change: about one per (tag, paper, experiment, method)"),
        ("run", "run them (Snakemake, per committed report)"),
        ("attest", "compare the reruns with git's records and enter what they show in the ledger"),
    ):
        step = steps.add_parser(name, help=text)
        step.add_argument(
            "--since",
            default="HEAD~1",
            help="the commit before the change (default HEAD~1): its records were current",
        )
        if name != "attest":
            step.add_argument(
                "--also", action="append", default=[], help="more stale jobs: a glob over <tag>/<job>"
            )
        if name == "run":
            step.add_argument("--cores", type=int, default=2, help="Snakemake's cores (default: 2)")
    p.set_defaults(func=cmd_equivalence)

    p = sub.add_parser("reports", help=cmd_reports.__doc__)
    p.add_argument("--check", action="store_true", help="fail if a rebuilt report differs from git's")
    p.add_argument("--cores", type=int, default=2, help="reports rebuilt side by side (default: 2)")
    p.add_argument("names", nargs="*", help="only these reports (default: all in the manifest)")
    p.set_defaults(func=cmd_reports)

    p = sub.add_parser("bench", help=cmd_bench.__doc__)
    p.add_argument("--quick", action="store_true", help="tiny synthetic data: a smoke test of seconds")
    p.add_argument("--only", nargs="+", metavar="NAME", help="some of the comparisons only")
    p.set_defaults(func=cmd_bench)

    p = sub.add_parser("dataset-entry", help=cmd_dataset_entry.__doc__)
    p.add_argument("file", help="the PMLB file under the mirror: pmlb/<PMLB name>.tsv.gz")
    p.add_argument(
        "--mirror",
        default=os.environ.get("FORESTREPRO_MIRROR", "../shared/datasets"),
        help="the mirror directory (default: $FORESTREPRO_MIRROR, else ../shared/datasets)",
    )
    p.add_argument("--conf", help="the configuration directory (default: $FORESTREPRO_CONF, else conf)")
    p.add_argument(
        "--collection", default="pmlb_outofsample", help="the collection (default: pmlb_outofsample)"
    )
    p.add_argument("--write", action="store_true", help="append the entry to the collection's file")
    p.set_defaults(func=cmd_dataset_entry)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="forestrepro", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("fetch", help=cmd_fetch.__doc__)
    p.add_argument("--spec", required=True, help="the data set's spec (JSON, written by the workflow)")
    p.add_argument("--out", required=True, help="the Parquet file to write")
    p.add_argument("--provenance", required=True, help="the JSON file saying where the data came from")
    p.add_argument(
        "--sources",
        nargs="+",
        default=["mirror", "openml"],
        help="where to look, in order (default: mirror openml)",
    )
    p.add_argument("--mirror-dir", required=True, help="the local mirror (its MANIFEST.tsv gives sha256s)")
    p.add_argument("--openml-cache", required=True, help="the openml package's cache directory")
    p.set_defaults(func=cmd_fetch)

    for name, command in (("train", cmd_train), ("scan", cmd_scan)):  # one job's spec and data
        p = sub.add_parser(name, help=command.__doc__)
        alone = name == "scan"  # train takes them, or --job and --tag
        p.add_argument("--spec", required=alone, help="the job's spec (JSON, written by the workflow)")
        p.add_argument("--data", required=True, help="the data set's Parquet file (from fetch)")
        p.add_argument("--out", required=alone, help="the CSV to write (with its .provenance.json)")
        p.add_argument("--threads", type=int, default=1, help="the cores the job may use (default: 1)")
        p.set_defaults(func=command)
        if name == "train":
            p.add_argument(
                "--job",
                help="<paper>/<experiment>/<method>/<dataset>[/repeat<k>] of --tag: the workflow's step, "
                "its spec, record and piece log where the workflow keeps them; restores its committed "
                "pieces, writes <job>.failed.txt on failure or a stop, drops its pieces on success",
            )
            p.add_argument("--tag", help="the tag of --job (results/runs/<tag>)")
            p.add_argument(
                "--results", default="results", help="the results directory of --job (default: results)"
            )
            p.add_argument(
                "--log", help="the log of --job, written anew: the restore's lines, then the job's stderr"
            )
            p.add_argument(
                "--piece-log",
                help="a text file to append, as the job goes, each library file it imports (with its "
                "SHA-256) and each cascade part it keeps or reads: what its kept pieces depend on "
                "and where they are (removed once the record is written)",
            )

    p = sub.add_parser("reuse", help=cmd_reuse.__doc__)
    p.add_argument("--record", required=True, help="the record (CSV) of the same job under another tag")
    p.add_argument("--spec", required=True, help="this job's spec (JSON)")
    p.add_argument("--out", required=True, help="this job's record (CSV; its provenance goes beside it)")
    p.set_defaults(func=cmd_reuse)

    p = sub.add_parser("report", help=cmd_report.__doc__)
    p.add_argument("--tag", required=True, help="the run's tag (results/runs/<tag>)")
    p.add_argument(
        "--tables",
        nargs="+",
        required=True,
        help="each table to write: its path without suffix (.csv, .md, .tex, _ranks.json)",
    )
    p.add_argument("--table-specs", nargs="+", required=True, help="each table's spec (JSON), in order")
    p.add_argument(
        "--runs",
        nargs="+",
        action="append",
        default=[],
        metavar="PAPER/EXPERIMENT [CSV ...]",
        help="an experiment's run records, the rows its tables and figures read (once per experiment)",
    )
    p.add_argument(
        "--cd-figures",
        nargs="*",
        default=[],
        help="the critical-difference diagrams to draw (PNG, with a PDF beside), named <table stem>_cd.png",
    )
    p.add_argument(
        "--paper-figures", nargs="*", default=[], help="the paper's figures to draw (PNG, PDF beside)"
    )
    p.add_argument("--figure-specs", nargs="*", default=[], help="each figure's spec (JSON), in order")
    p.add_argument(
        "--dataset-specs", nargs="*", default=[], help="the data sets' specs (JSON): origins, stand-ins"
    )
    p.add_argument("--records", nargs="*", default=[], help="the provenance JSON of each run record shown")
    p.add_argument("--jobs", type=int, required=True, help="how many jobs the report's experiments have")
    p.add_argument(
        "--committed",
        action="store_true",
        help="a committed report: refuse records made from a tree with uncommitted changes",
    )
    p.add_argument("--out-dir", required=True, help="where index.md and index.html go")
    p.add_argument(
        "--show",
        nargs="*",
        default=None,
        metavar="NAME",
        help="the page's tables and figures in this order (report.show; default: tables, then figures)",
    )
    p.add_argument(
        "--title", default=None, help="a one-paper page's own title (report.title; default: the paper's)"
    )
    p.add_argument(
        "--covers",
        default=None,
        help="what the report covers (a committed report's covers in reports.yaml), stated under its title",
    )
    p.add_argument(
        "--embedded-html",
        default=None,
        metavar="HTML",
        help="also write the page with its figures embedded, one self-contained file",
    )
    p.add_argument(
        "--partial",
        default=None,
        metavar="JSON",
        help="a partial report: {finished, jobs, pending: {job path: why it has no record}}",
    )
    p.add_argument(
        "--ablation",
        default=None,
        metavar="JSON",
        help="an ablation's report: {baseline, overrides, changed: [job path], missing: {job path: why}, "
        "runs: {paper/experiment: [the baseline's records of changed jobs, this run's of the others]}}",
    )
    p.set_defaults(func=cmd_report)

    p = sub.add_parser("plan", help=cmd_plan.__doc__)
    p.add_argument("overrides", nargs="*", help="Hydra overrides, as in --config overrides='[...]'")
    p.add_argument("--profile", default=None, help="the profile (conf/profile/<name>.yaml; default: quick)")
    p.add_argument("--tag", default=None, help="the tag (default: made from the configuration)")
    p.add_argument(
        "--conf",
        default=None,
        help="the Hydra configuration directory (default: $FORESTREPRO_CONF or ./conf)",
    )
    p.add_argument(
        "--cores",
        type=int,
        default=None,
        help="list each job's core-seconds and source, and the wall time on this many cores "
        "(default: this machine's cores, with no per-job list)",
    )
    p.add_argument("--results", default="results", help="where the run records are (results/runs/<tag>)")
    p.add_argument(
        "--reference",
        default=None,
        help="the one tag run at a smaller time limit per solve to price C2RF jobs from (default: every "
        "other tag, the tightest): a job without a record of its own is charged its record there plus, "
        "per solve that stopped at that limit, the rest up to this configuration's (an upper bound; "
        "record/cost.py)",
    )
    p.set_defaults(func=cmd_plan)

    _add_tools(sub)
    return parser


def known_errors() -> tuple[type[Exception], ...]:
    """The failures that are the user's data or configuration, not a bug: no traceback."""
    from .config.errors import ConfigError
    from .data.errors import DatasetError
    from .evaluation.base import ProtocolError
    from .methods.base import MethodConfigError
    from .report.build import DirtyRecordError
    from .report.committed import CommittedReportError

    return (
        ConfigError,
        DatasetError,
        ProtocolError,
        MethodConfigError,
        DirtyRecordError,
        CommittedReportError,
        FileNotFoundError,
    )


def main(argv: list[str] | None = None) -> int:
    """Run one command; its exit status: what a tool returns, else 0, or 2 on a known failure."""
    args = build_parser().parse_args(argv)
    _log_to_stderr()
    try:
        status = args.func(args)
    except known_errors() as err:
        print(f"forestrepro {args.command}: error: {err}", file=sys.stderr)
        return 2
    return status or 0


if __name__ == "__main__":
    sys.exit(main())
