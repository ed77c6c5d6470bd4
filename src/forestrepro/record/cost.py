"""What a configuration costs: each job's core-seconds and the wall time on N cores.

A job's cost is *measured* where its run record exists (the record's wall time x the threads it
ran with; a record made on a loaded machine overstates it; a job resumed across runs, whose
record's wall time is only the last run's, is charged the sum of its rows' ``RESUMED_SECONDS``
where larger: a cascade's ``cascade_seconds``, summed over every run that grew a piece of it, and
a C2RF sample's solve ``seconds``, kept with the sample by the run that solved it:
``core_seconds``). A measured cost is what the record took when it was made, with the code of
its commit under that run's load, so a rerun on today's code can take less or more: the records
rerun as the equivalence ledger's evidence are measured both ways, as made and as rerun
(``record/both_ways.py``; ``plan`` gives each paper's newest). A job is *modelled* otherwise
from the records of the same (paper, experiment, method) on other data sets: core-seconds taken
as a power of the data's size n = rows x features,

    log c = a + b log n,

fitted by least squares on at least ``MIN_RECORDS`` of those records, and used only between half
the smallest and twice the largest size they cover: beyond it the fit says nothing (a cascade's
cost on MNIST is not a power of its cost on YEAST and IMDB). The size of a data set is read from
any record on it, else from the paper's Table 1 (the data set config's ``published`` shape). A
job the model cannot reach is *unknown* and is left out of the totals, which say so. Even inside
its range the model is a rough guide: it ignores what a method's cost depends on besides size
(classes, tree depth, a C2RF solve's difficulty).

A job that runs one split of a cell (``<cell>/repeat<k>``) and has no record is first
*modelled* from the records of the same cell's other splits, their mean: the same method on the
same data, which a power law across data sets is not (ADULT's first WDF split measured 5,024
core-seconds where the law fitted on the other data sets gave 1,895).

A job with a time limit per solve (C2RF's approaches) and no record here can instead be
*limit-modelled* from the same job's record in a reference tag run at a smaller limit
(``plan --reference <tag>``): the reference's core-seconds, plus, for each solve that stopped at
the reference's limit, the rest of the way to this configuration's limit. Solves that finished
take their measured time, which a larger limit does not change; a solve that hit the smaller
limit is charged the whole larger one, so the figure is an upper bound (minus load noise). A
solve that a stopped run of the job finished and committed (``<tag>/pieces/<job>/folds/``,
``forestrepro pieces keep``) is not charged: the job's next run reads it (where its code is
unchanged).

A job with a time limit per solve that nothing above prices is *bounded*: its solves (one per
sample) times the limit plus the watchdog's margin, max(5 %, 5 s) (``c2rf/highs_run.py``),
an upper bound on its solves, not counting the forest and data preparation around them.

A job copied from another tag's record of the same job (``record/reuse.py``) is measured from
that record, and costs nothing to run: it is not trained.

A job read from a scan (a scanned SEMG or MNIST split) has the size of what is scanned: rows x
the scanned record's shape (``scan.shape``, 3,000 samples or 500 block means of SEMG), not the
raw file's features, so the model tells the two readings of SEMG apart.

A *scan* (WDF's multi-grained scanning of a SEMG or MNIST split, the workflow's ``scan`` step,
shared by the split's DF, WDF and WDF-oob jobs) is a step of its own, ``scan/<scan name>``: it is
measured from the ``scan_seconds`` that the records of the jobs reading it report (wall seconds
summed over every run that grew a piece of it, times the record's threads: the scan step reserves
its jobs' threads), else modelled as a power of its size (rows x scanned shape) from the
other measured scans of the configuration, within the same range as a job's model (two scans
are enough: a rough guide, ``benchmarks/scan_cost.md`` estimates them from timed pieces), else
unknown.

The wall time on N cores is that of a greedy list schedule: jobs longest first, each started as
soon as its threads are free and its scan (if any, and if costed) has finished, taking
core-seconds / threads (perfect scaling within a job: an optimistic assumption).
"""

from __future__ import annotations

import csv
import heapq
import io
import json
import math
import re
from collections import defaultdict
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

# per-row times that a resumed job's rows keep from the run that made them (module docstring)
RESUMED_SECONDS = ("cascade_seconds", "seconds")
MIN_RECORDS = 3  # records of a (paper, experiment, method) needed to model its other jobs
RANGE = 2.0  # the model reaches sizes between min / RANGE and max * RANGE of its records


@dataclass(frozen=True)
class JobCost:
    """One job's core-seconds (None: unknown), its threads, how the number was had, and the step
    that must finish before it starts (a scanned job's scan)."""

    path: str
    threads: int
    core_seconds: float | None
    source: str  # "measured", "limit", "model", "bound" or "unknown"
    after: str | None = None


def _rows_text(rows_path: Path) -> str | None:
    """A record's CSV as text, or None where there is none."""
    return rows_path.read_text() if rows_path.is_file() else None


def _column_sum(rows_text: str | None, column: str) -> float | None:
    """The sum of ``column`` over a record's rows (its CSV's text), or None where the record has
    no CSV or no such column."""
    if rows_text is None:
        return None
    rows = csv.DictReader(io.StringIO(rows_text))
    if column not in (rows.fieldnames or ()):
        return None
    return sum(float(row[column]) for row in rows if row[column] not in ("", "nan"))


def core_seconds(provenance: dict, rows_text: str | None) -> float | None:
    """A record's core-seconds from its provenance and its CSV's text (None: no CSV): its wall
    seconds, or a ``RESUMED_SECONDS`` column summed over its rows where larger (a resumed job),
    x its threads; None where its provenance has no wall time."""
    if "wall_seconds" not in provenance:
        return None
    seconds = max(
        float(provenance["wall_seconds"]),
        *(_column_sum(rows_text, column) or 0.0 for column in RESUMED_SECONDS),
    )
    return seconds * int(provenance.get("threads") or 1)


def measured(runs_dir: str | Path) -> dict[str, tuple[float, dict]]:
    """``{job path: (core-seconds, data shape)}`` from the provenance of every record under
    ``runs_dir`` (``results/runs/<tag>``): wall seconds x threads, or a ``RESUMED_SECONDS``
    column summed over its rows x threads where larger (a resumed job)."""
    runs_dir = Path(runs_dir)
    found = {}
    for prov in sorted(runs_dir.rglob("*.provenance.json")):
        path = prov.relative_to(runs_dir).as_posix().removesuffix(".provenance.json")
        if (cost := measured_record(runs_dir / f"{path}.csv")) is not None:
            found[path] = cost
    return found


def measured_record(rows_path: str | Path) -> tuple[float, dict] | None:
    """``(core-seconds, data shape)`` of one record (its CSV's path), as ``measured`` reads it, or
    None where it has no provenance with a wall time."""
    rows_path = Path(rows_path)
    prov = rows_path.with_name(rows_path.name.removesuffix(".csv") + ".provenance.json")
    if not prov.is_file():
        return None
    record = json.loads(prov.read_text())
    if (seconds := core_seconds(record, _rows_text(rows_path))) is None:
        return None
    return seconds, (record.get("data") or {}).get("shape") or {}


def limit_bound(limit: float, solves: int) -> float:
    """Core-seconds that ``solves`` solves of at most ``limit`` seconds each can take: the limit
    plus the watchdog's margin, max(5 %, 5 s), per solve (module docstring)."""
    return solves * (limit + max(0.05 * limit, 5.0))


def scans_measured(records: dict[str, str | Path], jobs) -> dict[str, float]:
    """``{scan name: core-seconds}`` for the scans that some recorded job read (``jobs``:
    ``config.jobs.JobSpec`` with ``scan`` set; ``records``: job path -> the CSV of its record, or
    of the record it copies): the ``scan_seconds`` of its record's rows x the record's threads,
    the largest over the jobs that read it."""
    found = {}
    for job in jobs:
        if not job.scan or job.path not in records:
            continue
        rows = Path(records[job.path])
        prov = rows.with_name(rows.name.removesuffix(".csv") + ".provenance.json")
        seconds = _column_sum(_rows_text(rows), "scan_seconds")
        if seconds is None or not prov.is_file():
            continue
        core_seconds = seconds * int(json.loads(prov.read_text()).get("threads") or 1)
        found[job.scan] = max(found.get(job.scan, 0.0), core_seconds)
    return found


def kept_solves(runs_dir: str | Path) -> dict[str, set[tuple[int, int]]]:
    """``{job path: {(repeat, fold), ...}}``: the solves (a C2RF sample is repeat r, fold 0) that
    stopped runs of the jobs under ``runs_dir`` finished and committed as pieces."""
    pieces = Path(runs_dir) / "pieces"
    found: dict[str, set[tuple[int, int]]] = {}
    for row in sorted(pieces.glob("**/folds/*/repeat*_fold*.json")):
        if match := re.fullmatch(r"repeat(\d+)_fold(\d+)\.json", row.name):
            job = row.parent.parent.parent.relative_to(pieces).as_posix()
            found.setdefault(job, set()).add((int(match[1]), int(match[2])))
    return found


def limit_modelled(
    reference_dir: str | Path, limits: dict[str, float], kept: dict[str, set] | None = None
) -> dict[str, float]:
    """``{job path: core-seconds}`` for the jobs of ``limits`` (job path -> this configuration's
    time limit per solve) whose record under ``reference_dir`` has per-solve ``status`` and
    ``time_limit`` at a limit no larger (module docstring); a solve stopped by its limit has
    status 'time_limit'. The solves ``kept`` of a job (``kept_solves``) are not charged: their
    reference rows' ``seconds`` and the rest of their way to the limit come off."""
    import pandas as pd

    reference_dir = Path(reference_dir)
    found = {}
    for path, limit in limits.items():
        rows_path = reference_dir / f"{path}.csv"
        prov_path = reference_dir / f"{path}.provenance.json"
        if not rows_path.is_file() or not prov_path.is_file():
            continue
        record = json.loads(prov_path.read_text())
        rows = pd.read_csv(rows_path)
        if "wall_seconds" not in record or not {"status", "time_limit"} <= set(rows.columns):
            continue
        if (rows["time_limit"] > limit).any():
            continue
        rest = (limit - rows["time_limit"]).where(rows["status"] == "time_limit", 0.0)
        found[path] = float(record["wall_seconds"]) * int(record.get("threads") or 1) + float(rest.sum())
        if solves := (kept or {}).get(path):
            done = [(int(r), int(f)) in solves for r, f in zip(rows["repeat"], rows["fold"], strict=True)]
            found[path] -= float((rows["seconds"] + rest)[done].sum())
    return found


def _size(shape: dict) -> float | None:
    rows, features = shape.get("rows"), shape.get("features")
    return float(rows) * float(features) if rows and features else None


def fit_power_law(sizes: list[float], costs: list[float]) -> tuple[float, float]:
    """``(a, b)`` of log c = a + b log n by least squares; b = 1 when all sizes are equal."""
    x, y = np.log(np.asarray(sizes, float)), np.log(np.asarray(costs, float))
    if np.ptp(x) == 0:
        return float(np.mean(y - x)), 1.0
    b, a = np.polyfit(x, y, 1)
    return float(a), float(b)


def estimate(
    jobs,
    threads: dict[str, int],
    records: dict[str, tuple[float, dict]],
    published_shapes: dict[str, dict],
    limit_model: dict[str, float] | None = None,
    scans: dict[str, float] | None = None,
    twins: dict[tuple[str, str, str], tuple[str, str, str]] | None = None,
    sizes: dict[str, float] | None = None,
    bounds: dict[str, float] | None = None,
) -> list[JobCost]:
    """Each job's cost: measured from ``records`` (by job path), else from ``limit_model`` (by job
    path, ``limit_modelled``), else modelled from its cell's other splits' records (a job of one
    split), else from the records of its (paper, experiment, method) at the size of its data set,
    else unknown. ``jobs`` are ``config.jobs.JobSpec``; ``threads``
    maps a job path to the cores it reserves; ``published_shapes`` maps a data set to the paper's
    shape (a fallback for its size). After the jobs, in the order they are first read, come
    their scans, ``scan/<scan name>``, measured from ``scans`` (``scans_measured``) or unknown,
    with the threads of the first job that reads them; a scanned job starts ``after`` its scan.
    ``twins`` maps a (paper, experiment, method) without records of its own to one that runs the
    same method under the same protocol (the out-of-sample suite's BRF experiment to BRF's
    main), whose size model then gives its cost ("model of <paper>/<experiment>"). ``sizes``
    maps a job path to its size where it is not its data set's rows x features (a scanned job:
    rows x scanned shape); ``bounds`` maps a job path to an upper bound on its cost
    (``limit_bound``), used where nothing else prices it."""
    limit_model, scans, twins = limit_model or {}, scans or {}, twins or {}
    sizes, bounds = sizes or {}, bounds or {}
    shapes = dict(published_shapes)
    for job in jobs:  # our data's shape where some record read it
        rec = records.get(job.path)
        if rec and _size(rec[1]):
            shapes[job.dataset] = rec[1]

    def size_of(job) -> float | None:
        return sizes.get(job.path) or _size(shapes.get(job.dataset, {}))

    samples = defaultdict(list)
    for job in jobs:
        rec = records.get(job.path)
        if rec and size_of(job) and rec[0] > 0:
            samples[(job.paper, job.experiment, job.method)].append((size_of(job), rec[0]))
    planned = {(job.paper, job.experiment, job.method) for job in jobs}
    for path, (seconds, shape) in records.items():  # a twin's records, where it is not planned
        twin = tuple(path.split("/")[:3])
        if twin in set(twins.values()) - planned and _size(shape) and seconds > 0:
            samples[twin].append((_size(shape), seconds))
    models = {key: _model(pts) for key, pts in samples.items() if len(pts) >= MIN_RECORDS}
    splits = defaultdict(list)  # a cell's recorded splits' core-seconds
    for job in jobs:
        if job.repeat is not None and job.path in records:
            splits[job.cell].append(records[job.path][0])
    costs = []
    for job in jobs:
        key = (job.paper, job.experiment, job.method)
        rec, model, source = records.get(job.path), models.get(key), "model"
        if model is None and models.get(twins.get(key)) is not None:
            model, source = models[twins[key]], "model of {}/{}".format(*twins[key][:2])
        size = size_of(job)
        if rec:
            costs.append(JobCost(job.path, threads[job.path], rec[0], "measured"))
        elif job.path in limit_model:
            costs.append(JobCost(job.path, threads[job.path], limit_model[job.path], "limit"))
        elif job.repeat is not None and splits.get(job.cell):
            costs.append(JobCost(job.path, threads[job.path], float(np.mean(splits[job.cell])), "model"))
        elif model and size and model[2] <= size <= model[3]:
            a, b = model[:2]
            costs.append(JobCost(job.path, threads[job.path], math.exp(a + b * math.log(size)), source))
        elif job.path in bounds:
            costs.append(JobCost(job.path, threads[job.path], bounds[job.path], "bound"))
        else:
            costs.append(JobCost(job.path, threads[job.path], None, "unknown"))
    readers = {}  # each scan's first job, whose size and threads it takes
    for job in jobs:
        if job.scan:
            readers.setdefault(job.scan, job)
    measured_scans = [
        (size_of(readers[n]), sec) for n, sec in scans.items() if n in readers and size_of(readers[n])
    ]
    scan_model = _model(measured_scans) if len(measured_scans) >= 2 else None
    steps = {}
    for name, job in readers.items():
        seconds, source, size = scans.get(name), "measured", size_of(job)
        if seconds is None and scan_model and size and scan_model[2] <= size <= scan_model[3]:
            seconds, source = math.exp(scan_model[0] + scan_model[1] * math.log(size)), "model"
        elif seconds is None:
            source = "unknown"
        steps[name] = JobCost(f"scan/{name}", threads[job.path], seconds, source)
    costs = [replace(c, after=f"scan/{job.scan}") if job.scan else c for job, c in zip(jobs, costs)]
    return costs + list(steps.values())


def _model(points: list[tuple[float, float]]) -> tuple[float, float, float, float]:
    """``(a, b, smallest size, largest size)``: the power law through ``points`` (size,
    core-seconds) and the sizes it reaches (``RANGE``)."""
    sizes = [size for size, _ in points]
    return (*fit_power_law(sizes, [cost for _, cost in points]), min(sizes) / RANGE, max(sizes) * RANGE)


def makespan(costs: list[JobCost], cores: int) -> float:
    """Wall seconds of the greedy schedule on ``cores``: longest job first, each started when its
    threads (at most ``cores``) are free and the step it comes ``after`` has finished, running
    core-seconds / threads. Unknown jobs are left out, and so is waiting for an unknown step."""
    pending = sorted((c for c in costs if c.core_seconds is not None), key=lambda c: -c.core_seconds)
    waits_for = {c.path for c in pending}  # the steps a job can wait for
    done: set[str] = set()
    free, now, running = cores, 0.0, []  # running: heap of (end time, threads, path)
    while pending or running:
        started = True
        while started:
            started = False
            for i, job in enumerate(pending):
                need = min(job.threads, cores)
                ready = job.after is None or job.after in done or job.after not in waits_for
                if ready and need <= free:
                    heapq.heappush(running, (now + job.core_seconds / need, need, job.path))
                    free -= need
                    del pending[i]
                    started = True
                    break
        end, released, path = heapq.heappop(running)
        now, free = end, free + released
        done.add(path)
        while running and running[0][0] == now:
            _, released, path = heapq.heappop(running)
            free += released
            done.add(path)
    return now
