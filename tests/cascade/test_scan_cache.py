"""One scan per split, shared by DF and WDF (``cascade.scan_cache``)."""

import itertools
import json
from types import SimpleNamespace

import numpy as np
import pytest
from sklearn.datasets import load_digits

from forestrepro.cascade import scan_cache, scanning
from forestrepro.cascade.scan_cache import cached_scan, scan_key
from forestrepro.cascade.scanning import MultiGrainedScanner
from forestrepro.checkpoint import location
from forestrepro.checkpoint import parts as kept_parts
from forestrepro.evaluation.holdout import holdout_evaluation
from forestrepro.methods import build_method

PROTOCOL = {
    "kind": "holdout",
    "test_size": 0.2,
    "repeats": 1,
    "stratified": True,
    "metrics": ["accuracy_pct"],
}
CASCADE = {
    "n_rf": 1,
    "n_crf": 1,
    "n_trees": 4,
    "n_folds": 2,
    "early_stopping_rounds": 1,
    "max_levels": 2,
    "scanner": {"n_trees": 3, "n_folds": 2, "max_train_windows": 1500},
}


def _digits(n=120):
    digits = load_digits()
    keep = np.isin(digits.target, [0, 1, 7])
    return digits.data[keep][:n].astype(np.float32), digits.target[keep][:n]


def _scanner(**params):
    return MultiGrainedScanner(shape=(8, 8), n_trees=3, n_folds=2, random_state=0, **params)


def test_key_follows_the_data_and_settings_but_not_n_jobs():
    X, y = _digits()
    key = scan_key(_scanner(), X[:90], y[:90], X[90:])
    assert scan_key(_scanner(n_jobs=2), X[:90], y[:90], X[90:]) == key
    assert scan_key(_scanner(stride=2), X[:90], y[:90], X[90:]) != key
    assert scan_key(_scanner(), X[:90], y[:90], X[91:]) != key
    assert scan_key(_scanner(), X[:90], (y[:90] + 1) % 10, X[90:]) != key


def test_stored_scan_is_the_computed_scan(tmp_path, monkeypatch):
    X, y = _digits()
    fresh = _scanner().fit_transform_with_test(X[:90], y[:90], X[90:])
    first = cached_scan(tmp_path, _scanner(), X[:90], y[:90], X[90:])
    assert len(list(tmp_path.glob("*/scan.json"))) == 1

    def no_scanning(*args, **kwargs):
        raise AssertionError("scanned again instead of reading the store")

    monkeypatch.setattr(MultiGrainedScanner, "_fold_forest_output", no_scanning)  # grows no forest
    second = cached_scan(tmp_path, _scanner(n_jobs=2), X[:90], y[:90], X[90:])
    for got in (first, second):
        np.testing.assert_array_equal(got[0], fresh[0])
        np.testing.assert_array_equal(got[1], fresh[1])
    with pytest.raises(AssertionError, match="scanned again"):
        cached_scan(tmp_path, _scanner(stride=2), X[:90], y[:90], X[90:])


def test_df_and_wdf_share_one_scan_of_the_split(tmp_path, monkeypatch):
    X, y = _digits()
    calls = []
    original = MultiGrainedScanner._fold_forest_output

    def counted(self, *args, **kwargs):
        calls.append(self.random_state)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(MultiGrainedScanner, "_fold_forest_output", counted)
    options = {"scan": {"shape": [8, 8]}, "cache_dir": str(tmp_path), "scan_store": str(tmp_path / "scans")}
    scan_seconds = []
    for name, weighting in (("df", "none"), ("wdf", "accuracy")):
        method = build_method(
            {
                "name": name,
                "estimator": "cascade_forest",
                "grid": {},
                "params": {**CASCADE, "weighting": weighting},
            },
            options,
        )
        rows = holdout_evaluation(method, X, y, paper="wdf", dataset="digits", root_seed=1, protocol=PROTOCOL)
        assert rows.loc[0, "accuracy_pct"] > 60
        assert rows.loc[0, "cascade_seconds"] > 0
        scan_seconds.append(rows.loc[0, "scan_seconds"])
    assert len(calls) == 8  # DF scanned (2 window sizes x 2 forests x 2 folds), WDF read the store
    assert scan_seconds[0] > 0 and scan_seconds[1] == scan_seconds[0]  # and reports its cost
    assert set(calls) == {rows.loc[0, "split_seed"]}  # seeded by the split, not the method
    assert len(list((tmp_path / "scans").glob("*/scan.json"))) == 1
    assert not list((tmp_path / "cascades").iterdir())  # finished cascades keep no parts


def test_a_stored_scan_is_read_without_the_lock(tmp_path, monkeypatch):
    """Jobs that only read a stored scan do not queue behind each other on the split's lock."""
    X, y = _digits()
    first = cached_scan(tmp_path, _scanner(), X[:90], y[:90], X[90:])

    def locked(lock):
        raise AssertionError(f"a stored scan was read under the lock {lock.name}")

    monkeypatch.setattr(scan_cache, "_wait_for", locked)
    again = cached_scan(tmp_path, _scanner(), X[:90], y[:90], X[90:])
    np.testing.assert_array_equal(again.train, first.train)
    np.testing.assert_array_equal(again.test, first.test)


def test_unreadable_piece_of_a_whole_scan_is_named_and_replaced(tmp_path):
    X, y = _digits()
    first = cached_scan(tmp_path, _scanner(), X[:90], y[:90], X[90:])
    stored = sorted(tmp_path.glob("*/*.npz"))[0]
    stored.write_bytes(b"not a scan")
    with pytest.warns(RuntimeWarning, match=stored.name):
        again = cached_scan(tmp_path, _scanner(), X[:90], y[:90], X[90:])
    np.testing.assert_array_equal(again[0], first[0])
    np.testing.assert_array_equal(again[1], first[1])
    with np.load(stored) as replaced:
        assert str(replaced["key"]) == stored.parent.name


def test_a_piece_of_another_scan_is_not_read(tmp_path):
    """A piece copied under another scan's key (by hand, or a store merged wrongly) is named
    and made again: each piece carries its scan's key, checked when it is read."""
    X, y = _digits()
    first = cached_scan(tmp_path, _scanner(), X[:90], y[:90], X[90:])
    other = cached_scan(tmp_path, _scanner(stride=2), X[:90], y[:90], X[90:])
    mine, theirs = (tmp_path / scan_key(s, X[:90], y[:90], X[90:]) for s in (_scanner(), _scanner(stride=2)))
    piece = sorted(mine.glob("*.npz"))[0].name
    (mine / piece).write_bytes((theirs / piece).read_bytes())
    with pytest.warns(RuntimeWarning, match=f"belongs to scan {theirs.name}"):
        again = cached_scan(tmp_path, _scanner(), X[:90], y[:90], X[90:])
    np.testing.assert_array_equal(again.train, first.train)
    assert not np.array_equal(other.train, first.train)


def test_the_store_is_smaller_than_float32_and_says_so(tmp_path):
    X, y = _digits()
    scan = cached_scan(tmp_path, _scanner(), X[:90], y[:90], X[90:])
    (marker,) = tmp_path.glob("*/scan.json")
    size = json.loads(marker.read_text())
    assert size["float32_bytes"] == scan.train.nbytes + scan.test.nbytes
    assert size["stored_bytes"] == sum(p.stat().st_size for p in marker.parent.glob("*.npz"))
    assert size["stored_bytes"] < size["float32_bytes"] / 2
    assert size["rows"] == 120 and size["features"] == scan.train.shape[1]


def test_the_store_lives_where_the_environment_says(tmp_path, monkeypatch):
    monkeypatch.setenv("FORESTREPRO_CACHE", str(tmp_path / "elsewhere"))
    assert location.scan_store_dir() == tmp_path / "elsewhere" / "scans"
    monkeypatch.delenv("FORESTREPRO_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert location.scan_store_dir() == tmp_path / "xdg" / "forestrepro" / "scans"


def test_a_stopped_scan_resumes_from_its_finished_fold_forests(tmp_path, monkeypatch):
    X, y = _digits()
    scanner = _scanner(window_sizes=(3, 5))  # 2 sizes x 2 forests x 2 folds = 8 fold forests
    fresh = scanner.fit_transform_with_test(X[:90], y[:90], X[90:])
    grown = []
    original = scanning.seeded

    def stopped_at_the_sixth(template, seed):
        grown.append(seed)
        if stop_at and len(grown) == stop_at:
            raise KeyboardInterrupt  # the end of a session, a cluster's time limit
        return original(template, seed)

    monkeypatch.setattr(scanning, "seeded", stopped_at_the_sixth)
    stop_at = 6
    with pytest.raises(KeyboardInterrupt):
        cached_scan(tmp_path, _scanner(window_sizes=(3, 5)), X[:90], y[:90], X[90:])
    (parts,) = tmp_path.iterdir()
    assert len(list(parts.glob("*.npz"))) == 5 and not (parts / "scan.json").exists()
    first_five = grown[:5]
    grown.clear()
    stop_at = None
    resumed = cached_scan(tmp_path, _scanner(window_sizes=(3, 5)), X[:90], y[:90], X[90:])
    assert len(grown) == 3 and not set(grown) & set(first_five)  # only the last three grew
    np.testing.assert_array_equal(resumed[0], fresh[0])
    np.testing.assert_array_equal(resumed[1], fresh[1])
    assert len(list(parts.glob("*.npz"))) == 8 and (parts / "scan.json").exists()  # pieces kept


def test_an_unreadable_part_is_named_and_grown_again(tmp_path):
    X, y = _digits()
    fresh = _scanner().fit_transform_with_test(X[:90], y[:90], X[90:])
    key = scan_key(_scanner(), X[:90], y[:90], X[90:])
    parts = tmp_path / key
    parts.mkdir()
    (parts / "window2_forest0_fold0.npz").write_bytes(b"half a part")
    with pytest.warns(RuntimeWarning, match="window2_forest0_fold0.npz"):
        train, test, _ = cached_scan(tmp_path, _scanner(), X[:90], y[:90], X[90:])
    np.testing.assert_array_equal(train, fresh[0])
    np.testing.assert_array_equal(test, fresh[1])


def test_a_resumed_scan_reports_the_time_of_all_its_runs(tmp_path, monkeypatch):
    """Every fold forest takes one tick of a fake clock, so the scan's seconds count the
    fold forests made in either run: 5 before the stop and 3 after it."""
    ticks = itertools.count()
    monkeypatch.setattr(kept_parts, "time", SimpleNamespace(perf_counter=lambda: float(next(ticks))))
    X, y = _digits()
    original = scanning.seeded
    made = []

    def stopped_at_the_sixth(template, seed):
        made.append(seed)
        if len(made) == 6:
            raise KeyboardInterrupt
        return original(template, seed)

    monkeypatch.setattr(scanning, "seeded", stopped_at_the_sixth)
    with pytest.raises(KeyboardInterrupt):
        cached_scan(tmp_path, _scanner(window_sizes=(3, 5)), X[:90], y[:90], X[90:])
    monkeypatch.setattr(scanning, "seeded", original)
    resumed = cached_scan(tmp_path, _scanner(window_sizes=(3, 5)), X[:90], y[:90], X[90:])
    assert resumed.seconds == 8.0  # 2 window sizes x 2 forests x 2 folds, one tick each
    assert (
        cached_scan(tmp_path, _scanner(window_sizes=(3, 5)), X[:90], y[:90], X[90:]).seconds == 8.0
    )  # and the stored scan keeps it


def test_without_a_store_the_scan_is_computed_and_timed(caplog):
    """No store (a method used outside the workflow), with the library's log on: scanned, timed."""
    caplog.set_level("INFO", logger="forestrepro")
    X, y = _digits()
    scan = cached_scan(None, _scanner(), X[:90], y[:90], X[90:])
    fresh = _scanner().fit_transform_with_test(X[:90], y[:90], X[90:])
    np.testing.assert_array_equal(scan.train, fresh[0])
    assert scan.seconds > 0
