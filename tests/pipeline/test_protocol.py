"""Nested cross-validation: same numbers as a hand-written loop, determinism, clear errors."""

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.model_selection import StratifiedKFold
from sklearn.neighbors import KNeighborsClassifier
from sklearn.preprocessing import MinMaxScaler

from forestrepro.evaluation.protocol import ProtocolError, nested_cross_validation, subsample_stratified
from forestrepro.evaluation.seeds import split_seed
from forestrepro.methods import build_method

PROTOCOL = {
    "outer_folds": 3,
    "inner_folds": 2,
    "repeats": 1,
    "stratified": True,
    "scale": "train_fold",
    "metrics": ["accuracy", "kappa"],
}
KNN = {"name": "knn", "estimator": "knn", "params": {}, "grid": {"n_neighbors": [3]}}


def _data():
    X, y = make_classification(n_samples=90, n_features=5, n_informative=3, random_state=0)
    return X * 10 + 3, y


def test_single_candidate_matches_a_hand_written_loop():
    X, y = _data()
    rows = nested_cross_validation(
        build_method(KNN), X, y, paper="p", dataset="d", root_seed=1, protocol=PROTOCOL
    )
    outer = StratifiedKFold(3, shuffle=True, random_state=split_seed(1, "p", "d", 0))
    expected = []
    for train, test in outer.split(X, y):
        scaler = MinMaxScaler().fit(X[train])
        knn = KNeighborsClassifier(3).fit(scaler.transform(X[train]), y[train])
        expected.append(np.mean(knn.predict(scaler.transform(X[test])) == y[test]))
    np.testing.assert_allclose(rows["accuracy"], expected)
    assert list(rows["fold"]) == [0, 1, 2]


def test_grid_search_is_deterministic_and_records_the_choice():
    X, y = _data()
    method = build_method({**KNN, "grid": {"n_neighbors": [1, 5, 9]}})
    a = nested_cross_validation(
        method, X, y, paper="p", dataset="d", root_seed=1, protocol=PROTOCOL, n_jobs=1
    )
    b = nested_cross_validation(
        method, X, y, paper="p", dataset="d", root_seed=1, protocol=PROTOCOL, n_jobs=2
    )
    cols = ["accuracy", "kappa", "best_params", "inner_accuracy", "model_seed"]
    assert a[cols].equals(b[cols])
    assert all('"n_neighbors"' in p for p in a["best_params"])


def test_all_methods_of_a_paper_see_the_same_folds():
    X, y = _data()
    a = nested_cross_validation(
        build_method(KNN), X, y, paper="p", dataset="d", root_seed=1, protocol=PROTOCOL
    )
    rf = {"name": "rf", "estimator": "textbook_rf", "params": {"n_estimators": 3}, "grid": {"k_offset": [0]}}
    b = nested_cross_validation(
        build_method(rf), X, y, paper="p", dataset="d", root_seed=1, protocol=PROTOCOL
    )
    assert list(a["split_seed"]) == list(b["split_seed"])
    assert list(a["n_test"]) == list(b["n_test"])


def test_single_class_data_is_a_clear_error():
    X = np.random.default_rng(0).random((20, 3))
    with pytest.raises(ProtocolError, match="'flat'.*single class"):
        nested_cross_validation(
            build_method(KNN), X, np.zeros(20), paper="p", dataset="flat", root_seed=1, protocol=PROTOCOL
        )


def test_single_class_training_fold_is_named():
    X = np.random.default_rng(0).random((6, 2))
    y = np.array([0, 0, 0, 0, 0, 1])
    protocol = {**PROTOCOL, "stratified": False, "outer_folds": 6}
    with pytest.raises(ProtocolError, match="'tiny', repeat 0, fold"):
        nested_cross_validation(
            build_method(KNN), X, y, paper="p", dataset="tiny", root_seed=1, protocol=protocol
        )


def test_classes_too_small_for_stratified_folds_are_named():
    X = np.random.default_rng(0).random((8, 2))
    y = np.array([0, 0, 1, 1, 2, 2, 3, 3])  # no class has 3 rows: 3 stratified folds cannot be cut
    with pytest.raises(
        ProtocolError,
        match=r"data set 'pairs': cannot cut 8 rows \(4 classes, the largest with 2 "
        r"rows\) into 3 folds",
    ):
        nested_cross_validation(
            build_method(KNN), X, y, paper="p", dataset="pairs", root_seed=1, protocol=PROTOCOL
        )
    y = np.array([0, 0, 0, 1, 1, 1, 2, 3])  # 3 outer folds can be cut, but no training fold (5 or 6 rows)
    grid = build_method({**KNN, "grid": {"n_neighbors": [1, 2]}})  # has a class of 6 rows for 6 inner folds
    with pytest.raises(
        ProtocolError, match=r"data set 'pairs', repeat 0, outer fold 0 \(inner folds\): cannot cut"
    ):
        nested_cross_validation(
            grid, X, y, paper="p", dataset="pairs", root_seed=1, protocol={**PROTOCOL, "inner_folds": 6}
        )


def test_stratified_subsample_keeps_class_shares():
    X = np.arange(1000).reshape(-1, 1).astype(float)
    y = np.array([0] * 900 + [1] * 100)
    Xs, ys = subsample_stratified(X, y, 100, seed=3, dataset="d")
    assert len(ys) == 100 and (ys == 1).sum() == 10
    Xs2, _ = subsample_stratified(X, y, 100, seed=3, dataset="d")
    np.testing.assert_array_equal(Xs, Xs2)


def test_a_stopped_job_resumes_from_its_finished_folds(tmp_path, monkeypatch):
    import pandas as pd

    from forestrepro.evaluation import protocol
    from forestrepro.evaluation.fold_store import FoldStore

    X, y = _data()
    method = build_method({**KNN, "grid": {"n_neighbors": [1, 5, 9]}})
    run = dict(paper="p", dataset="d", root_seed=1, protocol=PROTOCOL)
    fresh = nested_cross_validation(method, X, y, **run)
    searches = []
    original = protocol.search_grid

    def stopped_in_third_fold(*args, **kwargs):
        searches.append(1)
        if len(searches) == 3:
            raise KeyboardInterrupt  # Ctrl-C, a cluster's time limit, the end of a session
        return original(*args, **kwargs)

    monkeypatch.setattr(protocol, "search_grid", stopped_in_third_fold)
    store = FoldStore.for_job(tmp_path, {"job": "spec"}, {"method": "config"})
    with pytest.raises(KeyboardInterrupt):
        nested_cross_validation(method, X, y, **run, checkpoint=store)
    assert sorted(p.name for p in store.directory.glob("*.json") if ".search" not in p.name) == [
        "repeat0_fold0.json",
        "repeat0_fold1.json",
    ]
    searches.clear()
    same_job = FoldStore.for_job(tmp_path, {"job": "spec"}, {"method": "config"})
    resumed = nested_cross_validation(method, X, y, **run, checkpoint=same_job)
    assert len(searches) == 1  # only the third fold was searched again
    timings = ["fit_seconds", "predict_seconds"]
    pd.testing.assert_frame_equal(resumed.drop(columns=timings), fresh.drop(columns=timings))
    # another setting is another job: it reads nothing of this one
    assert FoldStore.for_job(tmp_path, {"job": "spec"}, {"method": "other"}).get(0, 0) is None
    same_job.clear()
    assert not store.directory.exists()


def test_a_job_stopped_inside_a_grid_search_resumes_from_its_finished_candidates(tmp_path, monkeypatch):
    import pandas as pd

    from forestrepro.evaluation.fold_store import FoldStore

    X, y = _data()
    method = build_method({**KNN, "grid": {"n_neighbors": [1, 3, 5, 7, 9]}})
    run = dict(paper="p", dataset="d", root_seed=1, protocol=PROTOCOL)
    fresh = nested_cross_validation(method, X, y, **run)
    fits = []
    original = KNeighborsClassifier.fit

    def counted(self, *args, **kwargs):
        fits.append(self.n_neighbors)
        if stop_at and len(fits) == stop_at:
            raise KeyboardInterrupt
        return original(self, *args, **kwargs)

    monkeypatch.setattr(KNeighborsClassifier, "fit", counted)
    # fold 0 takes 5 candidates x 2 inner folds + 1 refit = 11 fits; stop in fold 1's 4th candidate
    stop_at = 11 + 2 * 3 + 1
    store = FoldStore.for_job(tmp_path, {"job": "spec"}, {"method": "config"})
    with pytest.raises(KeyboardInterrupt):
        nested_cross_validation(method, X, y, **run, checkpoint=store)
    kept = store.get_search(0, 1)
    assert len(kept["scores"]) == 3 and kept["seconds"] > 0
    fits.clear()
    stop_at = None
    resumed = nested_cross_validation(method, X, y, **run, checkpoint=store)
    # fold 1: candidates 7 and 9 on two inner folds, then the refit; fold 2 from scratch
    assert fits[:5] == [7, 7, 9, 9, fits[4]] and len(fits) == 5 + 11
    timings = ["fit_seconds", "predict_seconds"]
    pd.testing.assert_frame_equal(resumed.drop(columns=timings), fresh.drop(columns=timings))
