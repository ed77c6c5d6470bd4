"""The cascade forest: scikit-learn conventions, out-of-fold class vectors, the growth rule
and the choice of level (Algorithm 1 line 18), and independence of ``n_jobs``."""

import numpy as np
import pytest
from cascade_helpers import blobs, recording
from sklearn.ensemble import RandomForestClassifier
from sklearn.utils.estimator_checks import check_estimator

from forestrepro.cascade.forest import CascadeForestClassifier
from forestrepro.cascade.members import (
    GatherBuffer,
    class_vectors,
    cross_fit,
    fold_ids,
    member_templates,
    rows_in_columns,
    seeded,
)

SMALL = dict(n_rf=1, n_crf=1, n_trees=8, n_folds=3, max_levels=3, early_stopping_rounds=2)


class RecordingCascade(CascadeForestClassifier):
    def _member_templates(self):
        return recording(super()._member_templates())


@pytest.mark.parametrize("weighting", ["none", "accuracy"])
def test_check_estimator(weighting):
    # no check is waived; only check_array_api_input is skipped (array-api-compat absent)
    estimator = CascadeForestClassifier(
        n_rf=1, n_crf=1, n_trees=5, max_levels=2, early_stopping_rounds=1, weighting=weighting
    )
    check_estimator(estimator, on_skip=None)


@pytest.mark.parametrize("weighting, source", [("none", "train"), ("accuracy", "train"), ("accuracy", "oob")])
def test_no_member_classifies_a_row_it_was_grown_on(record, weighting, source):
    X, y = blobs(90, n_features=4)
    X[:, 0] = np.arange(len(y))  # row ids (level inputs keep X's columns first)
    X_test, y_test = blobs(30, n_features=4, seed=5)
    X_test[:, 0] = 1000 + np.arange(len(y_test))
    cascade = RecordingCascade(**SMALL, weighting=weighting, accuracy_source=source, random_state=0)
    cascade.fit_predict_proba(X, y, X_test, y_test)
    n_members = cascade.n_levels_ * 2 * SMALL["n_folds"]
    assert len(record.log) == n_members
    train_ids = set(range(len(y)))
    for level in range(cascade.n_levels_):
        for forest in range(2):
            first = (level * 2 + forest) * SMALL["n_folds"]
            models = record.log[first : first + SMALL["n_folds"]]
            held_out = [m.classified_ids_ & train_ids for m in models]
            for model, rows in zip(models, held_out):
                assert not model.trained_ids_ & model.classified_ids_
                assert model.trained_ids_ | rows == train_ids
            # each training row gets its class vector from exactly one fold model
            assert set().union(*held_out) == train_ids
            assert sum(map(len, held_out)) == len(y)


def test_fold_rows_are_gathered_in_column_major_order():
    X = np.asfortranarray(np.arange(5 * 2500, dtype=np.float32).reshape(5, 2500))
    buffer = GatherBuffer()
    for rows in (np.array([True, False, True, True, False]), np.array([4, 0, 2]), np.array([1])):
        for got in (rows_in_columns(X, rows), buffer.rows(X, rows)):
            assert got.flags.f_contiguous and got.dtype == np.float32
            np.testing.assert_array_equal(got, X[rows])
    # the buffer grows when a gather needs more room, and serves a narrower input in place
    wider = np.asfortranarray(np.arange(5 * 3000, dtype=np.float32).reshape(5, 3000))
    np.testing.assert_array_equal(buffer.rows(wider, np.arange(5)), wider)
    np.testing.assert_array_equal(buffer.rows(X, np.array([3, 3])), X[[3, 3]])
    # and scikit-learn grows the same trees from either order
    X, y = blobs(120, n_features=30)
    rows = np.arange(len(y)) % 3 != 0
    forests = [
        RandomForestClassifier(5, random_state=0).fit(data, y[rows])
        for data in (X[rows], rows_in_columns(X, rows))
    ]
    np.testing.assert_array_equal(*(forest.predict_proba(X) for forest in forests))


@pytest.mark.parametrize("weighting, source", [("none", "train"), ("accuracy", "train"), ("accuracy", "oob")])
def test_cross_fit_gives_the_plain_readings_numbers_bit_for_bit(weighting, source):
    """Fold rows gathered into a buffer the forests share, and checked for finite values once,
    give what fitting on ``X[rows]`` and classifying ``X[held_out]`` gives, bit for bit."""
    X, y = blobs(150, n_features=40, seed=3)
    X_test, _ = blobs(40, n_features=40, seed=4)
    level_input, level_test = np.asfortranarray(X), np.asfortranarray(X_test)
    folds = fold_ids(y, 3, 7)
    seeds = np.array([11, 12, 13])
    buffer = GatherBuffer()
    for template in member_templates(1, 1, 6, weighting=weighting, accuracy_source=source):
        train, test, models, trees = cross_fit(
            template, level_input, y, 3, folds, seeds, level_test, keep=False, buffer=buffer
        )
        expected_train, expected_test, expected_trees = np.empty((150, 3)), np.zeros((40, 3)), []
        for k, seed in enumerate(seeds):
            held_out = folds == k
            model = seeded(template, seed).fit(X[~held_out], y[~held_out])
            expected_train[held_out] = class_vectors(model, X[held_out], 3)
            expected_test += class_vectors(model, X_test, 3) / 3
            expected_trees.append(model.tree_accuracies_)
        np.testing.assert_array_equal(train, expected_train)
        np.testing.assert_array_equal(test, expected_test)
        assert models == []
        if weighting == "none":
            assert trees is None
        else:
            np.testing.assert_array_equal(trees, np.array(expected_trees))


def test_out_of_fold_accuracy_is_chance_on_random_labels():
    # completely random trees memorise their rows: in-fold accuracy 1; labels are noise, so
    # the out-of-fold class vectors must score near 1/2
    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 5)).astype(np.float32)
    y = rng.integers(0, 2, 300)
    cascade = CascadeForestClassifier(n_rf=0, n_crf=2, n_trees=20, max_levels=1, random_state=0).fit(X, y)
    assert cascade.level_accuracies_[0] < 0.62
    model = cascade.levels_[0][0][0]
    folds = fold_ids(
        np.unique(y, return_inverse=True)[1], 3, np.random.RandomState(0).randint(np.iinfo(np.int32).max)
    )
    assert model.score(X[folds != 0], y[folds != 0]) == 1.0
    assert model.score(X[folds == 0], y[folds == 0]) < 0.65


def test_level_inputs_are_features_joined_with_class_vectors():
    X, y = blobs(90, n_features=4)
    cascade = CascadeForestClassifier(**SMALL, random_state=0).fit(X, y)
    widths = [forests[0][0].n_features_in_ for forests in cascade.levels_]
    assert widths[0] == 4
    assert all(width == 4 + 2 * 3 for width in widths[1:])


def test_growth_stops_early_and_the_best_kfold_level_answers():
    X, y = blobs(120, n_features=4, seed=2)
    cascade = CascadeForestClassifier(
        n_rf=1, n_crf=1, n_trees=6, max_levels=12, early_stopping_rounds=2, random_state=1
    ).fit(X, y)
    accuracies = cascade.level_accuracies_
    best = int(np.argmax(accuracies))  # first level of highest k-fold accuracy
    assert cascade.best_level_ == best + 1
    assert len(cascade.levels_) == cascade.best_level_
    assert cascade.n_levels_ == min(best + 1 + 2, 12)
    assert np.all(accuracies[best + 1 :] <= accuracies[best])


def test_max_levels_bounds_the_growth():
    X, y = blobs(60, n_features=3)
    cascade = CascadeForestClassifier(n_rf=1, n_crf=1, n_trees=4, max_levels=1, random_state=0).fit(X, y)
    assert cascade.n_levels_ == cascade.best_level_ == 1


def test_fit_then_predict_equals_fit_predict_proba():
    X, y = blobs(120, n_features=4, seed=3)
    X_test, y_test = blobs(40, n_features=4, seed=4)
    params = dict(SMALL, weighting="accuracy", random_state=2)
    proba = CascadeForestClassifier(**params).fit(X, y).predict_proba(X_test)
    cascade = CascadeForestClassifier(**params)
    np.testing.assert_array_equal(cascade.fit_predict_proba(X, y, X_test, y_test), proba)
    assert not hasattr(cascade, "levels_")
    assert cascade.level_test_accuracies_.shape == cascade.level_accuracies_.shape


@pytest.mark.parametrize("weighting, source", [("none", "train"), ("accuracy", "oob")])
def test_results_do_not_depend_on_n_jobs(weighting, source):
    X, y = blobs(120, n_features=4, seed=6)
    runs = [
        CascadeForestClassifier(
            **SMALL, weighting=weighting, accuracy_source=source, n_jobs=n_jobs, random_state=4
        ).fit(X, y)
        for n_jobs in (1, 2)
    ]
    np.testing.assert_array_equal(runs[0].predict_proba(X), runs[1].predict_proba(X))
    np.testing.assert_array_equal(runs[0].level_accuracies_, runs[1].level_accuracies_)
    other = CascadeForestClassifier(**SMALL, weighting=weighting, accuracy_source=source, random_state=5).fit(
        X, y
    )
    assert not np.array_equal(runs[0].predict_proba(X), other.predict_proba(X))


def test_tree_accuracies_are_recorded_per_level_forest_and_fold():
    X, y = blobs(90, n_features=4)
    cascade = CascadeForestClassifier(**SMALL, weighting="accuracy", random_state=0).fit(X, y)
    assert len(cascade.tree_accuracies_) == cascade.n_levels_
    assert cascade.tree_accuracies_[0].shape == (2, 3, 8)
    # as printed (training rows), a completely random tree is always right: a = 1
    np.testing.assert_array_equal(cascade.tree_accuracies_[0][1], 1.0)
    assert CascadeForestClassifier(**SMALL).fit(X, y).tree_accuracies_ is None


@pytest.mark.parametrize(
    "params",
    [
        dict(n_folds=1),
        dict(early_stopping_rounds=0),
        dict(max_levels=0),
        dict(weighting="mean"),
        dict(accuracy_source="test"),
        dict(n_rf=0, n_crf=0),
        dict(crf_bootstrap="yes"),
    ],
)
def test_parameters_are_checked(params):
    X, y = blobs(30, n_features=3)
    with pytest.raises(ValueError):
        CascadeForestClassifier(**{**SMALL, **params}).fit(X, y)


def test_early_stopping_outcome_by_hand():
    from forestrepro.cascade.forest import early_stopping_outcome

    accuracies = [0.50, 0.60, 0.55, 0.58, 0.61, 0.60, 0.59, 0.58]
    # one round: level 3 (0.55) does not beat level 2 (0.60): 3 levels grown, level 2 answers
    assert early_stopping_outcome(accuracies, 1) == (3, 2)
    assert early_stopping_outcome(accuracies, 2) == (4, 2)
    # three rounds: level 5 (0.61) beats level 2 before three levels have passed
    assert early_stopping_outcome(accuracies, 3) == (8, 5)
    # the trace ends before the rule stops (max_levels): every level, the best of them
    assert early_stopping_outcome(accuracies, 4) == (8, 5)
    assert early_stopping_outcome([0.7, 0.7, 0.7], 1) == (2, 1)  # a tie is no improvement
    with pytest.raises(ValueError, match="at least 1"):
        early_stopping_outcome(accuracies, 0)


@pytest.mark.parametrize("weighting", ["none", "accuracy"])
def test_a_stricter_stopping_rule_is_read_off_the_longer_cascade(weighting):
    from forestrepro.cascade.forest import early_stopping_outcome

    X, y = blobs(150, n_features=4, seed=7)
    X_test, _ = blobs(50, n_features=4, seed=8)
    params = dict(n_rf=1, n_crf=1, n_trees=6, max_levels=12, weighting=weighting, random_state=3)
    longer = CascadeForestClassifier(**params, early_stopping_rounds=4)
    proba = longer.fit_predict_proba(X, y, X_test)
    # the answer is the best level's row of the per-level test predictions
    np.testing.assert_array_equal(
        longer.level_test_predictions_[longer.best_level_ - 1], longer.classes_[np.argmax(proba, axis=1)]
    )
    grown = set()
    for rounds in (1, 2, 3):
        direct = CascadeForestClassifier(**params, early_stopping_rounds=rounds)
        direct_proba = direct.fit_predict_proba(X, y, X_test)
        n_levels, best_level = early_stopping_outcome(longer.level_accuracies_, rounds)
        assert (n_levels, best_level) == (direct.n_levels_, direct.best_level_)
        np.testing.assert_array_equal(
            longer.level_test_predictions_[best_level - 1], direct.classes_[np.argmax(direct_proba, axis=1)]
        )
        np.testing.assert_array_equal(longer.level_accuracies_[:n_levels], direct.level_accuracies_)
        grown.add(n_levels)
    assert len(grown) > 1  # the data make the rules differ, so the check means something
