"""A stopped cascade resumes from the forests it finished (``cascade.cache``)."""

import itertools
from types import SimpleNamespace

import numpy as np
import pytest
from sklearn.datasets import make_classification

from forestrepro.cascade import forest as cascade_module
from forestrepro.cascade.cache import cached_cascade_proba
from forestrepro.cascade.forest import CascadeForestClassifier
from forestrepro.checkpoint import content_key
from forestrepro.checkpoint import parts as kept_parts


def _data():
    X, y = make_classification(n_samples=160, n_features=8, n_informative=4, n_classes=3, random_state=0)
    return X[:120].astype(np.float32), y[:120], X[120:].astype(np.float32)


def _cascade(**params):
    settings = dict(
        n_rf=1, n_crf=1, n_trees=5, n_folds=2, early_stopping_rounds=1, max_levels=4, random_state=0
    )
    return CascadeForestClassifier(**{**settings, **params})


@pytest.mark.parametrize("weighting", ["none", "accuracy"])
def test_a_stopped_cascade_resumes_from_its_finished_forests(tmp_path, monkeypatch, weighting):
    ticks = itertools.count()  # a fake clock: every forest takes one tick
    monkeypatch.setattr(kept_parts, "time", SimpleNamespace(perf_counter=lambda: float(next(ticks))))
    X, y, X_test = _data()
    fresh = _cascade(weighting=weighting)
    expected = fresh.fit_predict_proba(X, y, X_test)
    grown = []
    original = cascade_module.cross_fit

    def stopped_in_the_second_level(*args, **kwargs):
        grown.append(args[5].tolist())  # the fold seeds
        if stop_at and len(grown) == stop_at:
            raise KeyboardInterrupt  # the end of a session, a cluster's time limit
        return original(*args, **kwargs)

    monkeypatch.setattr(cascade_module, "cross_fit", stopped_in_the_second_level)
    stop_at = 4  # level 1: forests 1-2; level 2: forest 3 finishes, forest 4 is stopped
    with pytest.raises(KeyboardInterrupt):
        cached_cascade_proba(tmp_path, _cascade(weighting=weighting), X, y, X_test)
    (parts,) = tmp_path.glob("*.parts")
    assert sorted(p.stem for p in parts.glob("*.npz")) == [
        "level1_forest0",
        "level1_forest1",
        "level2_forest0",
    ]
    finished = grown[:3]
    grown.clear()
    stop_at = None
    resumed_model = _cascade(weighting=weighting, n_jobs=2)
    resumed, seconds = cached_cascade_proba(tmp_path, resumed_model, X, y, X_test)
    assert grown[0] not in finished and len(grown) == 2 * fresh.n_levels_ - 3
    assert seconds == 2 * fresh.n_levels_  # the forests of both runs, one tick each
    np.testing.assert_array_equal(resumed, expected)
    np.testing.assert_array_equal(resumed_model.level_accuracies_, fresh.level_accuracies_)
    assert resumed_model.best_level_ == fresh.best_level_
    if weighting == "accuracy":
        for got, want in zip(resumed_model.tree_accuracies_, fresh.tree_accuracies_):
            np.testing.assert_array_equal(got, want)
    assert not parts.exists()


def test_methods_and_splits_never_share_parts():
    X, y, X_test = _data()
    key = content_key(_cascade(), X, y, X_test)
    assert content_key(_cascade(n_jobs=2), X, y, X_test) == key
    assert content_key(_cascade(weighting="accuracy"), X, y, X_test) != key
    assert content_key(_cascade(random_state=1), X, y, X_test) != key
    assert content_key(_cascade(), X, y, X_test[1:]) != key


def test_string_labels_are_keyed_by_value_not_by_the_objects_holding_them():
    X, y, X_test = _data()
    names = ["cyl", "hook", "palm"]
    labels = np.array([names[k] for k in y], dtype=object)
    same_text = np.array(["".join(list(names[k])) for k in y], dtype=object)  # new str objects
    assert all(a is not b for a, b in zip(labels, same_text))
    key = content_key(_cascade(), X, labels, X_test)
    assert content_key(_cascade(), X, same_text, X_test) == key
    assert content_key(_cascade(), X, labels[::-1].copy(), X_test) != key


def test_an_unreadable_part_is_named_and_grown_again(tmp_path):
    X, y, X_test = _data()
    expected = _cascade().fit_predict_proba(X, y, X_test)
    parts = tmp_path / f"{content_key(_cascade(), X, y, X_test)}.parts"
    parts.mkdir()
    (parts / "level1_forest0.npz").write_bytes(b"half a part")
    with pytest.warns(RuntimeWarning, match="level1_forest0.npz"):
        got, _ = cached_cascade_proba(tmp_path, _cascade(), X, y, X_test)
    np.testing.assert_array_equal(got, expected)
