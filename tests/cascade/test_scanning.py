"""Multi-grained scanning: window counts and contents in 1-D and 2-D, the paper's window
sizes, the ``2 c (n - m + 1)`` features per window size, out-of-fold features for the
training rows, bounded batches, and the scanner + cascade estimator."""

import numpy as np
import pytest
from cascade_helpers import RecordingForest, recording
from numpy.lib.stride_tricks import sliding_window_view
from sklearn.utils.estimator_checks import check_estimator

from forestrepro.cascade import scanning
from forestrepro.cascade.deep_forest import DeepForestClassifier
from forestrepro.cascade.forest import CascadeForestClassifier
from forestrepro.cascade.scanning import (
    MultiGrainedScanner,
    default_window_sizes,
    sample_windows,
    window_layout,
)
from forestrepro.cascade.window_forest import WindowForest


def window_index(size, shape, stride=1):
    """Feature indices of every window, ``(n_windows, window_features)``."""
    starts, offsets = window_layout(size, shape, stride)
    return starts[:, None] + offsets[None, :]


@pytest.mark.parametrize("n, m", [(10, 1), (10, 3), (10, 10), (3000, 187)])
def test_one_dimensional_windows(n, m):
    index = window_index(m, (n,))
    assert index.shape == (n - m + 1, m)
    x = np.arange(n) * 10.0
    np.testing.assert_array_equal(x[index], sliding_window_view(x, m))


@pytest.mark.parametrize("n, m", [(5, 2), (28, 7), (28, 14), (8, 8)])
def test_two_dimensional_windows(n, m):
    index = window_index(m, (n, n))
    assert index.shape == ((n - m + 1) ** 2, m * m)
    image = np.arange(n * n, dtype=float).reshape(n, n)
    expected = sliding_window_view(image, (m, m)).reshape(-1, m * m)
    np.testing.assert_array_equal(image.ravel()[index], expected)


def test_strides_and_rectangular_images():
    assert window_index(3, (10,), stride=2).shape == (4, 3)
    assert window_index(3, (4, 6)).shape == (2 * 4, 9)
    with pytest.raises(ValueError):
        window_index(5, (4, 6))


def test_paper_window_sizes():
    assert default_window_sizes((3000,)) == (187, 375, 750)
    assert default_window_sizes((500,)) == (31, 62, 125)
    assert default_window_sizes((28, 28)) == (7, 9, 14)  # about d/16, d/8, d/4 pixels
    assert default_window_sizes((20,)) == (1, 2, 5)
    assert default_window_sizes((3,)) == (1,)


def test_training_windows_are_sampled_from_the_given_rows():
    X = np.arange(60, dtype=np.float32).reshape(6, 10)
    y = np.arange(6)
    layout = window_layout(4, (10,))
    rows = np.array([1, 4])
    windows, labels = sample_windows(X, y, rows, layout, None, 0)
    assert windows.shape == (2 * 7, 4) and set(labels) == {1, 4}
    windows, labels = sample_windows(X, y, rows, layout, 5, 0)
    assert windows.shape == (5, 4)
    np.testing.assert_array_equal(windows[:, 0] // 10, labels)  # each window's own row


def _sequences(n=60, length=24, n_classes=3, seed=0):
    rng = np.random.default_rng(seed)
    y = np.arange(n) % n_classes
    X = rng.normal(size=(n, length)) + np.sin(np.arange(length) * (1 + y[:, None]) / 3)
    return X.astype(np.float32), y


def test_features_per_window_size_are_2c_times_windows():
    X, y = _sequences(length=24)
    scanner = MultiGrainedScanner(window_sizes=(4, 8), n_trees=4, random_state=0)
    features = scanner.fit_transform(X, y)
    assert scanner.n_windows_ == (21, 17)
    assert features.shape == (60, 2 * 3 * (24 - 4 + 1) + 2 * 3 * (24 - 8 + 1))
    images = np.random.default_rng(0).normal(size=(30, 36)).astype(np.float32)
    scanner = MultiGrainedScanner(shape=(6, 6), window_sizes=(2,), n_trees=4, random_state=0)
    assert scanner.fit_transform(images, y[:30]).shape == (30, 2 * 3 * (6 - 2 + 1) ** 2)


class RecordingScanner(MultiGrainedScanner):
    def _member_templates(self):
        return recording(super()._member_templates())


class RecordingWindowForest(WindowForest):
    """Logs, on its recording model, the ids of the rows whose windows it classifies; a forest
    grown in chunks (``grow``, the scan's own path) logs itself, with the ids of the rows
    whose windows it grew on."""

    def __init__(self, model, n_classes, **options):
        super().__init__(model, n_classes, **options)
        self.model = model

    @classmethod
    def grow(cls, model, X, y, n_classes, chunk_trees=2):
        grown = super().grow(model, X, y, n_classes, chunk_trees)
        grown.model = grown
        grown.trained_ids_ = set(type(model).id_of(X).tolist())
        grown.classified_ids_ = set()
        type(model).log.append(grown)
        return grown

    def class_vectors(self, X, rows, starts, offsets):
        self.model.classified_ids_ |= set(RecordingForest.id_of(X[rows]).tolist())
        return super().class_vectors(X, rows, starts, offsets)


@pytest.mark.parametrize("with_test", [False, True])
def test_no_scanning_forest_classifies_windows_of_a_row_it_was_grown_on(record, monkeypatch, with_test):
    monkeypatch.setattr(scanning, "WindowForest", RecordingWindowForest)
    X, y = _sequences(n=45, length=12)
    X = X + 1000 * np.arange(45)[:, None]  # every value of row i lies in [1000 i ± 10)
    record.id_of = staticmethod(lambda W: np.rint(W[:, 0] / 1000).astype(np.int64))
    scanner = RecordingScanner(window_sizes=(3, 6), n_trees=3, random_state=0)
    if with_test:  # the scan's path: forests grown in chunks
        X_test = X[:5] + 1000 * 45  # test rows' ids are 45 .. 49
        scanner.fit_transform_with_test(X, y, X_test)
    else:
        scanner.fit_transform(X, y)
    assert len(record.log) == 2 * 2 * 3  # window sizes x forests x folds
    for model in record.log:
        assert model.classified_ids_ and not model.trained_ids_ & model.classified_ids_
        assert model.trained_ids_ < set(range(45))
    for first in range(0, len(record.log), 3):
        folds = record.log[first : first + 3]
        classified = set().union(*(m.classified_ids_ for m in folds))
        assert classified == set(range(50 if with_test else 45))


def test_batches_and_n_jobs_do_not_change_the_features():
    X, y = _sequences()
    X_test, _ = _sequences(n=12, seed=1)
    runs = [
        MultiGrainedScanner(
            window_sizes=(5,), n_trees=4, batch_windows=batch, n_jobs=jobs, random_state=0
        ).fit_transform_with_test(X, y, X_test)
        for batch, jobs in ((1, 1), (50, 2), (10_000, 1))
    ]
    for train, test in runs[1:]:
        np.testing.assert_array_equal(train, runs[0][0])
        np.testing.assert_array_equal(test, runs[0][1])


def test_transform_after_fit_equals_the_test_features():
    X, y = _sequences()
    X_test, _ = _sequences(n=12, seed=1)
    params = dict(window_sizes=(5, 10), n_trees=4, max_train_windows=300, include_raw=True, random_state=0)
    train, test = MultiGrainedScanner(**params).fit_transform_with_test(X, y, X_test)
    scanner = MultiGrainedScanner(**params)
    np.testing.assert_array_equal(scanner.fit_transform(X, y), train)
    np.testing.assert_array_equal(scanner.transform(X_test), test)
    np.testing.assert_array_equal(train[:, :24], X)  # raw features first


def test_deep_forest_scans_then_cascades():
    X, y = _sequences()
    X_test, y_test = _sequences(n=30, seed=2)
    model = DeepForestClassifier(
        MultiGrainedScanner(window_sizes=(6,), n_trees=5),
        CascadeForestClassifier(n_rf=1, n_crf=1, n_trees=5, max_levels=2, weighting="accuracy"),
        random_state=0,
    )
    proba = model.fit(X, y).predict_proba(X_test)
    assert model.cascade_.n_features_in_ == 2 * 3 * 19
    assert model.score(X_test, y_test) > 0.45  # chance: 1/3
    np.testing.assert_array_equal(model.fit_predict_proba(X, y, X_test, y_test), proba)


def test_deep_forest_check_estimator():
    # no check is waived; only check_array_api_input is skipped (array-api-compat absent)
    check_estimator(
        DeepForestClassifier(
            MultiGrainedScanner(n_trees=4),
            CascadeForestClassifier(n_rf=1, n_crf=1, n_trees=4, max_levels=2, early_stopping_rounds=1),
        ),
        on_skip=None,
    )


@pytest.mark.parametrize(
    "params",
    [
        dict(shape=(5, 5)),
        dict(shape=(2, 3, 4)),
        dict(stride=0),
        dict(window_sizes=(30,)),
        dict(max_train_windows=0),
        dict(n_folds=1),
    ],
)
def test_scanner_parameters_are_checked(params):
    X, y = _sequences(n=30, length=24)
    with pytest.raises(ValueError):
        MultiGrainedScanner(n_trees=2, **params).fit(X, y)


@pytest.mark.parametrize(
    "params, named",
    [
        ({"scanner": 3}, "scanner"),
        ({"cascade": "wdf"}, "cascade"),
        ({"random_state": "seed"}, "random_state"),
    ],
)
def test_deep_forest_parameters_are_checked_by_their_declared_constraints(params, named):
    X, y = _sequences(n=30, length=24)
    with pytest.raises(ValueError, match=f"^{named} must be"):
        DeepForestClassifier(**params).fit(X, y)
