"""The cost model of `forestrepro.cli plan --cores N` (record/cost.py), on hand-made numbers."""

import json
import math
from dataclasses import replace

import numpy as np
import pytest

from forestrepro.config.jobs import JobSpec
from forestrepro.record.cost import (
    JobCost,
    estimate,
    fit_power_law,
    limit_bound,
    makespan,
    measured,
    scans_measured,
)


def test_the_power_law_is_recovered_exactly_and_one_size_means_proportional():
    a, b = fit_power_law([10.0, 100.0, 1000.0], [3 * 10**1.5, 3 * 100**1.5, 3 * 1000**1.5])
    assert (math.exp(a), b) == (pytest.approx(3.0), pytest.approx(1.5))
    a, b = fit_power_law([50.0, 50.0], [10.0, 40.0])  # one size: cost proportional to size
    assert b == 1.0 and math.exp(a) * 50 == pytest.approx(20.0)  # geometric mean of 10 and 40


def test_greedy_schedule_by_hand():
    jobs = [
        JobCost("a", 2, 8.0, "measured"),
        JobCost("b", 1, 4.0, "model"),
        JobCost("c", 1, 3.0, "model"),
        JobCost("d", 1, None, "unknown"),
    ]
    # 2 cores: a (8 core-s on 2 threads) runs 0-4; then b on one core 4-8 and c on the other 4-7
    assert makespan(jobs, 2) == pytest.approx(8.0)
    # 4 cores: a 0-4 on two, b 0-4 and c 0-3 beside it
    assert makespan(jobs, 4) == pytest.approx(4.0)
    # 1 core: a job asking for more threads than there are cores gets them all
    assert makespan(jobs, 1) == pytest.approx(15.0)


def test_a_job_is_measured_from_its_record_else_modelled_from_its_methods_records_else_unknown(tmp_path):
    def record(path, wall, threads, rows, features):
        prov = tmp_path / f"{path}.provenance.json"
        prov.parent.mkdir(parents=True, exist_ok=True)
        prov.write_text(
            json.dumps(
                {
                    "wall_seconds": wall,
                    "threads": threads,
                    "data": {"shape": {"rows": rows, "features": features}},
                }
            )
        )

    record("p/main/m/small", 10.0, 2, 100, 10)  # 20 core-s at size 1,000
    record("p/main/m/mid", 50.0, 2, 500, 10)  # 100 core-s at size 5,000
    record("p/main/m/big", 100.0, 2, 1000, 10)  # 200 core-s at size 10,000: cost proportional
    record("p/main/two/small", 10.0, 2, 100, 10)  # only two records of method 'two'
    record("p/main/two/big", 100.0, 2, 1000, 10)
    jobs = [JobSpec("p", "main", "m", d) for d in ("small", "mid", "big", "inside", "outside", "nameless")]
    jobs += [JobSpec("p", "main", "other", "small"), JobSpec("p", "main", "two", "inside")]
    shapes = {
        "inside": {"rows": 2000, "features": 10},
        "outside": {"rows": 2001, "features": 10},
        "small": {"rows": 1, "features": 1},
    }  # a record's shape wins over the paper's
    costs = estimate(jobs, {job.path: 2 for job in jobs}, measured(tmp_path), shapes)
    assert [(c.source, c.core_seconds) for c in costs[:3]] == [
        ("measured", 20.0),
        ("measured", 100.0),
        ("measured", 200.0),
    ]
    assert costs[3].source == "model" and costs[3].core_seconds == pytest.approx(
        400.0
    )  # 20,000 = 2 x largest
    # beyond twice the largest size, with no size, with no record of its method, with 2 records only
    assert [c.source for c in costs[4:]] == ["unknown"] * 4


def test_a_time_limited_job_is_charged_its_reference_record_plus_the_rest_of_each_stopped_solve(tmp_path):
    from forestrepro.record.cost import limit_modelled

    def record(path, wall, rows):
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / f"{path}.provenance.json").write_text(json.dumps({"wall_seconds": wall, "threads": 1}))
        header = "status,time_limit\n"
        (tmp_path / f"{path}.csv").write_text(header + "".join(f"{s},{t}\n" for s, t in rows))

    # three solves at 10 s: two optimal, one stopped at the limit
    record("c/biased/a/d", 20.0, [("optimal", 10.0), ("optimal", 10.0), ("time_limit", 10.0)])
    record("c/biased/b/d", 5.0, [("optimal", 60.0)])  # run at a larger limit than planned
    record("c/biased/rf/d", 5.0, [("majority_vote", 10.0)])  # RF solves nothing: as recorded
    planned = {"c/biased/a/d": 100.0, "c/biased/b/d": 30.0, "c/biased/rf/d": 100.0, "c/biased/x/d": 100.0}
    got = limit_modelled(tmp_path, planned)
    # 20 core-s recorded, plus 90 s more for the stopped solve; b's reference limit is above 30 s
    assert got == {"c/biased/a/d": pytest.approx(110.0), "c/biased/rf/d": pytest.approx(5.0)}
    del got["c/biased/rf/d"]
    jobs = [JobSpec("c", "biased", m, "d") for m in ("a", "b")]
    costs = estimate(jobs, {j.path: 1 for j in jobs}, {}, {}, got)
    assert [(c.source, c.core_seconds) for c in costs] == [("limit", pytest.approx(110.0)), ("unknown", None)]


def test_solves_committed_as_pieces_are_not_charged_again(tmp_path):
    from forestrepro.record.cost import kept_solves, limit_modelled

    reference, runs = tmp_path / "ref", tmp_path / "runs"
    (reference / "c/biased/a").mkdir(parents=True)
    (reference / "c/biased/a/d.provenance.json").write_text(json.dumps({"wall_seconds": 25.0, "threads": 1}))
    (reference / "c/biased/a/d.csv").write_text(
        "repeat,fold,status,time_limit,seconds\n0,0,optimal,10.0,3.0\n1,0,time_limit,10.0,10.0\n"
        "2,0,time_limit,10.0,10.0\n"
    )
    # a stopped run at 100 s kept samples 0 and 1 (and an unfinished grid search, which is no solve)
    folds = runs / "pieces/c/biased/a/d/folds/0123456789abcdef0123"
    folds.mkdir(parents=True)
    for name in ("repeat0_fold0.json", "repeat1_fold0.json", "repeat2_fold0.search.json"):
        (folds / name).write_text("{}")
    kept = kept_solves(runs)
    assert kept == {"c/biased/a/d": {(0, 0), (1, 0)}}
    # 25 + 2 x 90 charged in all; samples 0 (3 s) and 1 (10 + 90 s) come off
    assert limit_modelled(reference, {"c/biased/a/d": 100.0}) == {"c/biased/a/d": pytest.approx(205.0)}
    assert limit_modelled(reference, {"c/biased/a/d": 100.0}, kept) == {"c/biased/a/d": pytest.approx(102.0)}


def test_a_split_without_a_record_is_modelled_from_its_cells_other_splits(tmp_path):
    def record(path, wall):
        prov = tmp_path / f"{path}.provenance.json"
        prov.parent.mkdir(parents=True, exist_ok=True)
        prov.write_text(
            json.dumps({"wall_seconds": wall, "threads": 1, "data": {"shape": {"rows": 9, "features": 9}}})
        )

    record("p/main/m/d/repeat0", 100.0)
    record("p/main/m/d/repeat1", 300.0)
    for name in ("a", "b", "c"):  # with d's two, a power law of the same size: their geometric mean
        record(f"p/main/m/{name}/repeat0", 81.0)
    jobs = [JobSpec("p", "main", "m", "d", repeat=k) for k in range(3)]
    jobs += [JobSpec("p", "main", "m", name, repeat=0) for name in ("a", "b", "c", "e")]
    shapes = {"e": {"rows": 9, "features": 9}}
    costs = estimate(jobs, {job.path: 1 for job in jobs}, measured(tmp_path), shapes)
    assert [(c.source, c.core_seconds) for c in costs[:2]] == [("measured", 100.0), ("measured", 300.0)]
    assert (costs[2].source, costs[2].core_seconds) == ("model", pytest.approx(200.0))  # its cell's mean
    law = math.exp(np.mean(np.log([100.0, 300.0, 81.0, 81.0, 81.0])))  # about 113
    assert (costs[-1].source, costs[-1].core_seconds) == ("model", pytest.approx(law))  # no split of its own


def test_a_scan_runs_before_its_jobs_in_the_schedule_by_hand():
    jobs = [
        JobCost("scan/s", 1, 2.0, "measured"),
        JobCost("a", 1, 3.0, "measured", after="scan/s"),
        JobCost("b", 1, 3.0, "measured", after="scan/s"),
        JobCost("c", 1, 4.0, "measured"),
    ]
    # 2 cores: c 0-4 and the scan 0-2 (a and b wait for it); a 2-5, then b 4-7 on c's core
    assert makespan(jobs, 2) == pytest.approx(7.0)
    # without the scan to wait for (e.g. of unknown cost): c 0-4, a 0-3, b 3-6 (the scan 4-6)
    assert makespan([replace(j, after=None) for j in jobs], 2) == pytest.approx(6.0)
    unknown = [replace(jobs[0], core_seconds=None, source="unknown"), *jobs[1:]]
    assert makespan(unknown, 2) == pytest.approx(6.0)  # c 0-4, a 0-3, b 3-6


def test_a_resumed_cascade_and_its_scan_are_charged_what_every_run_of_them_cost(tmp_path):
    def record(path, wall, threads, header, row):
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        prov = {"wall_seconds": wall, "threads": threads, "data": {"shape": {"rows": 9, "features": 9}}}
        (tmp_path / f"{path}.provenance.json").write_text(json.dumps(prov))
        (tmp_path / f"{path}.csv").write_text(f"{header}\n{row}\n")

    # a cascade resumed in a second run of 100 s after 900 s of forests kept from the first
    record("w/main/df/m/repeat0", 100.0, 2, "accuracy,cascade_seconds,scan_seconds", "0.9,1000.0,500.0")
    record("w/main/wdf/m/repeat0", 1500.0, 2, "accuracy,cascade_seconds,scan_seconds", "0.9,1400.0,500.0")
    record("w/main/df/y/repeat0", 30.0, 1, "accuracy,cascade_seconds", "0.8,25.0")  # not scanned
    got = measured(tmp_path)
    assert got["w/main/df/m/repeat0"][0] == pytest.approx(2000.0)  # the cascade's 1,000 s, not the last 100
    assert got["w/main/wdf/m/repeat0"][0] == pytest.approx(3000.0)  # its wall time where larger
    assert got["w/main/df/y/repeat0"][0] == pytest.approx(30.0)
    # a C2RF job resumed from 3 kept samples: its record's wall time is the last run's 2 solves
    record("c/srs/p/d", 1201.0, 1, "accuracy,seconds", "0.8,600.0\n0.8,600.0\n0.8,600.0\n0.8,600.0\n0.8,1.0")
    assert measured(tmp_path)["c/srs/p/d"][0] == pytest.approx(2401.0)
    jobs = [
        JobSpec("w", "main", "df", "m", repeat=0, scan="w/m/abc"),
        JobSpec("w", "main", "wdf", "m", repeat=0, scan="w/m/abc"),
        JobSpec("w", "main", "df", "n", repeat=0, scan="w/n/def"),  # no record reads this scan
        JobSpec("w", "main", "df", "y", repeat=0),
    ]
    scans = scans_measured({job.path: tmp_path / f"{job.path}.csv" for job in jobs}, jobs)
    assert scans == {"w/m/abc": pytest.approx(1000.0)}  # 500 s on the records' 2 threads
    costs = estimate(jobs, {j.path: 2 for j in jobs}, got, {}, scans=scans)
    assert [(c.path, c.source, c.after) for c in costs] == [
        ("w/main/df/m/repeat0", "measured", "scan/w/m/abc"),
        ("w/main/wdf/m/repeat0", "measured", "scan/w/m/abc"),
        ("w/main/df/n/repeat0", "unknown", "scan/w/n/def"),
        ("w/main/df/y/repeat0", "measured", None),
        ("scan/w/m/abc", "measured", None),
        ("scan/w/n/def", "unknown", None),
    ]
    assert costs[4].core_seconds == pytest.approx(1000.0)


def test_a_time_limited_job_nothing_else_prices_is_bounded_by_its_solves_times_its_limit():
    """C2RF at the paper's 7,200 s with no record at any limit: 5 samples x (7,200 s + the
    watchdog's 5 %) is the most its solves can take; a job with a record is still measured."""
    assert limit_bound(7200.0, 5) == pytest.approx(5 * 7560.0)
    assert limit_bound(10.0, 1) == pytest.approx(15.0)  # the margin is at least 5 s
    jobs = [JobSpec("c", "biased", "c2rf", "adult"), JobSpec("c", "biased", "c2rf", "magic")]
    records = {"c/biased/c2rf/adult": (1234.0, {})}
    bounds = {job.path: limit_bound(7200.0, 5) for job in jobs}
    costs = estimate(jobs, {job.path: 1 for job in jobs}, records, {}, bounds=bounds)
    assert [(c.source, c.core_seconds) for c in costs] == [("measured", 1234.0), ("bound", 37800.0)]


def test_a_scan_without_a_record_is_modelled_from_the_other_measured_scans_by_its_scanned_size():
    """Two measured scans at scanned sizes 1,000 and 4,000 costing 100 and 400 core-s: a scan of
    size 2,000 (the same data set read as a longer record: ``sizes``) is modelled at 200; one past
    twice the largest size is unknown."""
    jobs = [
        JobSpec("w", "main", "df", "a", repeat=0, scan="w/a/1"),
        JobSpec("w", "main", "df", "b", repeat=0, scan="w/b/2"),
        JobSpec("w", "long", "df", "a", repeat=0, scan="w/a/3"),
        JobSpec("w", "huge", "df", "a", repeat=0, scan="w/a/4"),
    ]
    sizes = dict(zip([job.path for job in jobs], [1000.0, 4000.0, 2000.0, 9000.0], strict=True))
    scans = {"w/a/1": 100.0, "w/b/2": 400.0}
    costs = {c.path: c for c in estimate(jobs, {j.path: 1 for j in jobs}, {}, {}, scans=scans, sizes=sizes)}
    assert costs["scan/w/a/3"].source == "model" and costs["scan/w/a/3"].core_seconds == pytest.approx(200.0)
    assert costs["scan/w/a/4"].source == "unknown"
    assert costs["scan/w/a/1"].source == "measured"
