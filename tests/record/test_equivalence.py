"""The equivalence ledger: a library change counts as unchanged for a record only where reruns
showed it, covering every group it reaches, with the same rows in all but times."""

import hashlib

import numpy as np
import pandas as pd

from forestrepro.config.jobs import scan_name
from forestrepro.record import Equivalences, FileHashes, record_status, spec_digest, write_record
from forestrepro.record.equivalence import (
    attest,
    compare,
    latest_per_group,
    reruns_to_show,
    rows_differ,
    scan_pieces,
    scan_seconds,
    stopped_solves,
)
from forestrepro.record.provenance import code_digest


def sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


A1, A2, A3 = sha("A = 1\n"), sha("A = 1  # same\n"), sha("A = 2\n")
B1, B2, B3 = sha("B = 1\n"), sha("B = 2\n"), sha("B = 3\n")


def test_the_ledger_leads_along_its_rows_and_nowhere_else():
    ledger = Equivalences(
        [
            {"path": "a.py", "from_sha256": A1, "to_sha256": A2},
            {"path": "a.py", "from_sha256": A2, "to_sha256": A3},
        ]
    )
    assert ledger.holds("a.py", A1, A3)  # over two rows
    assert ledger.holds("a.py", A2, A2)  # unchanged
    assert ledger.holds("a.py", A3, A1)  # "the same numbers" holds either way
    assert not ledger.holds("b.py", A1, A2)  # rows have a file
    assert not ledger.holds("a.py", A1, None)  # a deleted file is never the same


def test_a_record_of_a_version_a_later_row_left_behind_is_current_through_their_common_version():
    """A1 -> A2 entered once (records of A2 made since), then A1 -> A3 entered from records of A1
    only: a record of A2 is current under A3 (A2 = A1 = A3), one of an unrelated version is not."""
    ledger = Equivalences(
        [
            {"path": "a.py", "from_sha256": A1, "to_sha256": A2},
            {"path": "a.py", "from_sha256": A1, "to_sha256": A3},
        ]
    )
    assert ledger.holds("a.py", A2, A3)
    assert not ledger.holds("a.py", B1, A3)


def test_the_ledger_round_trips_through_its_file(tmp_path):
    row = {
        "path": "a.py",
        "from_sha256": A1,
        "to_sha256": A2,
        "commit": "c",
        "jobs": "1 of 2",
        "evidence": "t/j",
    }
    Equivalences([row]).write(tmp_path / "equivalences.tsv")
    back = Equivalences.read(tmp_path / "equivalences.tsv")
    assert back.rows == [row] and back.holds("a.py", A1, A2)
    assert Equivalences.read(tmp_path / "none.tsv").rows == []


def test_a_record_of_changed_code_is_current_only_where_the_ledger_leads(tmp_path):
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "a.py").write_text("A = 1\n")
    code = {"a.py": A1}
    path = tmp_path / "runs" / "j.csv"
    spec = {"k": 1}
    write_record(
        pd.DataFrame({"fold": [0], "accuracy": [0.5]}),
        {
            "job": "j",
            "spec": spec,
            "spec_digest": spec_digest(spec),
            "code": {"digest": code_digest(code), "files": code},
        },
        path,
    )
    (package / "a.py").write_text("A = 1  # same\n")
    assert record_status(path, spec_digest(spec), FileHashes(package)).state == "stale"
    ledger = Equivalences([{"path": "a.py", "from_sha256": A1, "to_sha256": A2}])
    assert record_status(path, spec_digest(spec), FileHashes(package), ledger).current
    (package / "a.py").write_text("A = 2\n")  # a further change the ledger does not cover
    status = record_status(path, spec_digest(spec), FileHashes(package), ledger)
    assert status.state == "stale" and "a.py" in status.reason


def test_rows_are_the_same_result_in_all_but_times():
    old = pd.DataFrame(
        {"fold": [0, 1], "accuracy": [0.5, np.nan], "fit_seconds": [1.0, 2.0], "seconds": [3.0, 4.0]}
    )
    assert rows_differ(old, old.assign(fit_seconds=[9.0, 9.0], seconds=[0.1, 0.2])) == ""
    assert "accuracy" in rows_differ(old, old.assign(accuracy=[0.5, 0.6]))
    assert "accuracy" in rows_differ(old, old.assign(accuracy=[0.5 + 1e-15, np.nan]))  # exact, not close
    assert "columns" in rows_differ(old, old.drop(columns="accuracy"))
    assert "rows" in rows_differ(old, old.iloc[:1])


def test_a_start_found_by_a_clock_bounded_heuristic_is_not_compared_but_the_result_is():
    """C2RF's ``start_eta`` (local search, priority dive: each stops at a share of the limit) may
    differ; the solve's own eta, bound and status may not."""
    old = pd.DataFrame({"eta": [873.0, 0.0], "start_eta": [933.0, np.nan], "status": ["optimal"] * 2})
    assert rows_differ(old, old.assign(start_eta=[965.0, 3.0])) == ""
    assert "eta" in rows_differ(old, old.assign(eta=[872.0, 0.0], start_eta=[965.0, 3.0]))


def _prov(paper, experiment, method, dataset, files, *, commit="head", clean=True, digest="d", wall=10.0):
    return {
        "job": f"{paper}/{experiment}/{method}/{dataset}",
        "spec": {"paper": paper, "experiment": experiment, "method": method, "dataset": dataset},
        "spec_digest": digest,
        "code": {"files": files},
        "git": {"commit": commit, "clean": clean},
        "wall_seconds": wall,
    }


ROWS = pd.DataFrame({"fold": [0], "accuracy": [0.5], "fit_seconds": [1.0]})


def _rerun(job, old_files, new_files, *, rows=ROWS, **new):
    paper, experiment, method, dataset = job.split("/")
    old = _prov(paper, experiment, method, dataset, old_files, commit="before")
    return compare(
        "t",
        job,
        old,
        ROWS,
        _prov(paper, experiment, method, dataset, new_files, **new),
        rows.assign(fit_seconds=[7.0]),
    )


def test_a_change_is_entered_when_every_group_it_reaches_has_a_rerun_with_the_same_rows():
    affected = {
        "t": {
            "p/e/rf/wine": _prov("p", "e", "rf", "wine", {"a.py": A1}),
            "p/e/rf/iris": _prov("p", "e", "rf", "iris", {"a.py": A1}),
            "p/e/svm/wine": _prov("p", "e", "svm", "wine", {"a.py": A1}),
        }
    }
    reruns = [
        _rerun("p/e/rf/wine", {"a.py": A1}, {"a.py": A2}),
        _rerun("p/e/svm/wine", {"a.py": A1}, {"a.py": A2}),
    ]
    rows, problems = attest(reruns, affected, {"a.py": A2}, "head")
    assert problems == []
    assert [(r["path"], r["from_sha256"], r["to_sha256"], r["jobs"]) for r in rows] == [
        ("a.py", A1, A2, "2 of 3")
    ]
    assert rows[0]["evidence"] == "t/p/e/rf/wine t/p/e/svm/wine"

    # one group (svm) without a rerun: nothing entered, the group named
    rows, problems = attest(reruns[:1], affected, {"a.py": A2}, "head")
    assert rows == [] and "p/e/svm" in problems[0]

    # a change the ledger already holds is not entered twice, nor reported missing
    ledger = Equivalences([{"path": "a.py", "from_sha256": A1, "to_sha256": A2}])
    assert attest(reruns[:1], affected, {"a.py": A2}, "head", ledger) == ([], [])


def test_a_rerun_that_differs_or_was_not_made_cleanly_at_head_enters_nothing():
    affected = {"t": {"p/e/rf/wine": _prov("p", "e", "rf", "wine", {"a.py": A1})}}
    differs = _rerun("p/e/rf/wine", {"a.py": A1}, {"a.py": A3}, rows=ROWS.assign(accuracy=[0.6]))
    rows, problems = attest([differs], affected, {"a.py": A3}, "head")
    assert rows == [] and any("accuracy" in p for p in problems)

    dirty = _rerun("p/e/rf/wine", {"a.py": A1}, {"a.py": A2}, clean=False)
    rows, problems = attest([dirty], affected, {"a.py": A2}, "head")
    assert rows == [] and any("clean" in p for p in problems)

    other_spec = _rerun("p/e/rf/wine", {"a.py": A1}, {"a.py": A2}, digest="other")
    rows, problems = attest([other_spec], affected, {"a.py": A2}, "head")
    assert rows == [] and any("spec changed" in p for p in problems)

    # the file changed again after the reruns: they are no evidence for what it is now
    rows, problems = attest(
        [_rerun("p/e/rf/wine", {"a.py": A1}, {"a.py": A2})], affected, {"a.py": A3}, "head"
    )
    assert rows == [] and "a.py" in problems[0]


def test_the_rerun_of_a_group_is_its_cheapest_job_whose_solves_all_finished():
    files = {"a.py": A1}
    stale = {
        "t": {
            "p/e/m/big": _prov("p", "e", "m", "big", files, wall=100.0),
            "p/e/m/small": _prov("p", "e", "m", "small", files, wall=5.0),
            "p/e/m/limited": _prov("p", "e", "m", "limited", files, wall=1.0),
            "p/e/n/only": _prov("p", "e", "n", "only", files, wall=50.0),
            "p/e/o/all_stopped": _prov("p", "e", "o", "all_stopped", files, wall=1.0),
            "p/e/o/some_stopped": _prov("p", "e", "o", "some_stopped", files, wall=60.0),
        }
    }
    stopped = {("t", "p/e/m/limited"): 1, ("t", "p/e/o/all_stopped"): 2, ("t", "p/e/o/some_stopped"): 1}
    changed = lambda path, sha: sha == A1  # noqa: E731
    assert reruns_to_show(stale, changed, stopped) == {
        ("t", "p/e/m/small"),
        ("t", "p/e/n/only"),
        ("t", "p/e/o/some_stopped"),
    }


def test_a_scanned_jobs_rerun_is_priced_with_its_scan():
    # MNIST's record took 513 s with its scan stored, but its scan took 4,248 s: on a machine
    # without the scan, gtzan's 1,500 s rerun is the cheaper one of the group
    files = {"a.py": A1}
    stale = {
        "t": {
            "p/e/m/mnist": _prov("p", "e", "m", "mnist", files, wall=513.0),
            "p/e/m/gtzan": _prov("p", "e", "m", "gtzan", files, wall=1500.0),
        }
    }
    scans = {("t", "p/e/m/mnist"): 4248.0, ("t", "p/e/m/gtzan"): 0.0}
    changed = lambda path, sha: sha == A1  # noqa: E731
    assert reruns_to_show(stale, changed, {}, scans) == {("t", "p/e/m/gtzan")}
    assert reruns_to_show(stale, changed, {}) == {("t", "p/e/m/mnist")}  # by its wall time alone


def test_stopped_solves_and_scan_seconds_read_the_rows():
    rows = {
        ("t", "none"): pd.DataFrame({"status": ["optimal", "optimal"]}),
        ("t", "some"): pd.DataFrame({"status": ["optimal", "time_limit"]}),
        ("t", "all"): pd.DataFrame({"status": ["time_limit"]}),
    }
    assert stopped_solves(rows) == {("t", "none"): 0, ("t", "some"): 1, ("t", "all"): 2}


def test_a_scan_piece_is_named_by_its_scan_and_split_and_shared_by_the_splits_jobs():
    spec = {
        "method_config": {"estimator": "cascade_forest", "params": {"scanner": {"windows": [4]}}},
        "dataset_options": {"scan": {"shape": [3000]}},
        "protocol": {"kind": "holdout"},
        "paper": "p",
        "dataset": "semg",
        "root_seed": 0,
        "dataset_config": {},
    }
    stale = {"t": {f"p/e/{m}/semg": {"spec": {**spec, "method": m}} for m in ("df", "wdf")}}
    stale["t"]["p/e/rf/semg"] = {"spec": {**spec, "method_config": {"estimator": "rf"}}}
    rows = {
        ("t", "p/e/df/semg"): pd.DataFrame({"repeat": [0, 1], "scan_seconds": [10.0, 2.5]}),
        ("t", "p/e/wdf/semg"): pd.DataFrame({"repeat": [1], "scan_seconds": [2.5]}),
        ("t", "p/e/rf/semg"): pd.DataFrame({"repeat": [0], "accuracy_pct": [90.0]}),
    }
    pieces = scan_pieces(rows, stale, scan_name)
    assert set(pieces) == {("t", "p/e/df/semg"), ("t", "p/e/wdf/semg")}
    assert set(pieces["t", "p/e/wdf/semg"]) < set(pieces["t", "p/e/df/semg"])  # the same piece: repeat 1's
    assert scan_seconds(pieces) == {("t", "p/e/df/semg"): 12.5, ("t", "p/e/wdf/semg"): 2.5}


def test_a_group_whose_records_ran_two_versions_of_a_changed_file_gets_a_rerun_of_each():
    # b.py changed from B1 (most records) and from B2 (the one made after an earlier change):
    # attest enters each change only with a rerun that ran that version, so both are rerun
    stale = {
        "t": {
            "p/e/m/cheap": _prov("p", "e", "m", "cheap", {"a.py": A1, "b.py": B1}, wall=1.0),
            "p/e/m/dear": _prov("p", "e", "m", "dear", {"a.py": A1, "b.py": B1}, wall=9.0),
            "p/e/m/newer": _prov("p", "e", "m", "newer", {"a.py": A1, "b.py": B2}, wall=5.0),
        }
    }
    changed = lambda path, sha: sha in (A1, B1, B2)  # noqa: E731
    chosen = reruns_to_show(stale, changed, {})
    assert chosen == {("t", "p/e/m/cheap"), ("t", "p/e/m/newer")}
    # and attest, given those reruns, finds none missing for either version of b.py
    affected = stale
    reruns = [
        _rerun("p/e/m/cheap", {"a.py": A1, "b.py": B1}, {"a.py": A2, "b.py": B3}),
        _rerun("p/e/m/newer", {"a.py": A1, "b.py": B2}, {"a.py": A2, "b.py": B3}),
    ]
    rows, problems = attest(reruns, affected, {"a.py": A2, "b.py": B3}, "head")
    assert problems == [] and {(r["path"], r["from_sha256"]) for r in rows} == {
        ("a.py", A1),
        ("b.py", B1),
        ("b.py", B2),
    }
    # with the cheapest rerun alone, B2's change has no evidence and is not entered
    rows, problems = attest(reruns[:1], affected, {"a.py": A2, "b.py": B3}, "head")
    assert ("b.py", B2) not in {(r["path"], r["from_sha256"]) for r in rows}


def test_a_group_with_a_record_of_the_latest_version_is_rerun_from_it_alone():
    # b.py was B2 just before the change; group m also holds a cheaper record of B1, current
    # through the ledger's row B1 -> B2: only the B2 record is a candidate, and the row B2 -> B3
    # that its rerun enters carries the B1 record on. Group n ran only B1: all its records stay
    # candidates (a rerun per version, as before)
    stale = {
        "t": {
            "p/e/m/old": _prov("p", "e", "m", "old", {"a.py": A1, "b.py": B1}, wall=1.0),
            "p/e/m/new": _prov("p", "e", "m", "new", {"a.py": A1, "b.py": B2}, wall=9.0),
            "p/e/n/old": _prov("p", "e", "n", "old", {"a.py": A1, "b.py": B1}, wall=1.0),
        }
    }
    pool = latest_per_group(stale, lambda prov: prov["code"]["files"]["b.py"] == B2)
    assert pool == {"t": {"p/e/m/new": stale["t"]["p/e/m/new"], "p/e/n/old": stale["t"]["p/e/n/old"]}}
    changed = lambda path, sha: sha in (B1, B2)  # noqa: E731
    assert reruns_to_show(pool, changed, {}) == {("t", "p/e/m/new"), ("t", "p/e/n/old")}
    rows = [
        {"path": "b.py", "from_sha256": B1, "to_sha256": B2},
        {"path": "b.py", "from_sha256": B2, "to_sha256": B3},
    ]
    assert Equivalences(rows).holds("b.py", B1, B3)


def test_rows_a_time_limit_stopped_are_not_compared_but_one_row_must_be():
    old = pd.DataFrame({"sample": [0, 1], "status": ["optimal", "time_limit"], "eta": [3.0, 9.0]})
    assert rows_differ(old, old.assign(eta=[3.0, 8.0])) == ""  # the stopped solve found another incumbent
    assert rows_differ(old, old.assign(status=["optimal", "optimal"], eta=[3.0, 7.0])) == ""
    assert "eta" in rows_differ(old, old.assign(eta=[4.0, 9.0]))
    stopped = old.assign(status=["time_limit", "time_limit"])
    assert "nothing to compare" in rows_differ(stopped, stopped)
