"""The holdout protocol and the cascade methods (DF, WDF) as the WDF paper's jobs run them."""

import numpy as np
import pytest
from sklearn.datasets import make_classification

from forestrepro.evaluation.holdout import holdout_evaluation
from forestrepro.evaluation.protocol import ProtocolError
from forestrepro.evaluation.seeds import split_seed
from forestrepro.methods import build_method

PROTOCOL = {
    "kind": "holdout",
    "test_size": 0.2,
    "repeats": 1,
    "stratified": True,
    "metrics": ["accuracy_pct"],
}
TINY_CASCADE = {
    "n_rf": 1,
    "n_crf": 1,
    "n_trees": 5,
    "n_folds": 2,
    "early_stopping_rounds": 1,
    "max_levels": 2,
}


def _method(name="df", options=None, **params):
    config = {"name": name, "estimator": "cascade_forest", "params": {**TINY_CASCADE, **params}, "grid": {}}
    return build_method(config, options)


def test_holdout_row_has_metrics_levels_and_the_shared_split():
    X, y = make_classification(n_samples=100, n_features=6, n_informative=3, random_state=0)
    df = holdout_evaluation(_method(), X, y, paper="wdf", dataset="d", root_seed=1, protocol=PROTOCOL)
    wdf = holdout_evaluation(
        _method("wdf", weighting="accuracy"), X, y, paper="wdf", dataset="d", root_seed=1, protocol=PROTOCOL
    )
    assert len(df) == 1 and df.loc[0, "n_test"] == 20 and df.loc[0, "n_train"] == 80
    assert 0 <= df.loc[0, "accuracy_pct"] <= 100
    assert 1 <= df.loc[0, "best_level"] <= df.loc[0, "n_levels"] <= 2
    assert df.loc[0, "split_seed"] == wdf.loc[0, "split_seed"] == split_seed(1, "wdf", "d", 0)
    again = holdout_evaluation(
        _method(), X, y, paper="wdf", dataset="d", root_seed=1, protocol=PROTOCOL, n_jobs=2
    )
    assert again.loc[0, "accuracy_pct"] == df.loc[0, "accuracy_pct"]


def test_the_stricter_stopping_rules_are_scored_as_their_own_columns():
    from forestrepro.cascade.forest import CascadeForestClassifier, early_stopping_outcome
    from forestrepro.evaluation.metrics import compute_metrics

    X, y = make_classification(n_samples=200, n_features=6, n_informative=3, random_state=3)
    params = {"early_stopping_rounds": 3, "max_levels": 8, "n_folds": 3}
    rows = holdout_evaluation(
        _method(**params), X, y, paper="wdf", dataset="d", root_seed=1, protocol=PROTOCOL
    )
    row = rows.loc[0]
    trace = row["level_kfold_accuracy"]
    assert len(trace) == row["n_levels"]
    assert "alternatives" not in rows and "accuracy_pct_stop3" not in rows
    for rounds in (1, 2):
        n_levels, best_level = early_stopping_outcome(trace, rounds)
        assert (row[f"n_levels_stop{rounds}"], row[f"best_level_stop{rounds}"]) == (n_levels, best_level)
    # the columns equal the jobs the stricter rule would have run: the same split, seed and cascade
    (train, test) = next(iter(_split(y)))
    for rounds in (1, 2):
        cascade = CascadeForestClassifier(
            **{**TINY_CASCADE, **params, "early_stopping_rounds": rounds}, random_state=int(row["model_seed"])
        )
        proba = cascade.fit_predict_proba(X[train].astype(np.float32), y[train], X[test].astype(np.float32))
        predicted = cascade.classes_[np.argmax(proba, axis=1)]
        assert cascade.n_levels_ == row[f"n_levels_stop{rounds}"]
        expected = compute_metrics(y[test], predicted, ["accuracy_pct"])["accuracy_pct"]
        assert row[f"accuracy_pct_stop{rounds}"] == expected


def _split(y):
    from forestrepro.evaluation.holdout import holdout_splits

    return (
        (train, test)
        for _, train, test, _ in holdout_splits(y, paper="wdf", dataset="d", root_seed=1, protocol=PROTOCOL)
    )


def test_text_option_builds_bag_of_words_on_the_training_part():
    rng = np.random.default_rng(0)
    words = np.array(["good", "great", "fine", "bad", "awful", "poor", "movie", "plot"])
    y = rng.integers(0, 2, 80)
    X = np.array(
        [" ".join(rng.choice(words[:3] if label else words[3:6], 3)) + " movie" for label in y], dtype=object
    )
    rows = holdout_evaluation(
        _method(options={"text": {"max_features": 8}}),
        X,
        y,
        paper="wdf",
        dataset="t",
        root_seed=1,
        protocol=PROTOCOL,
    )
    assert rows.loc[0, "accuracy_pct"] > 90  # the sentiment words separate the classes


def test_scan_option_builds_a_deep_forest():
    method = _method(options={"scan": {"shape": [4, 4]}}, scanner={"n_trees": 3, "n_folds": 2})
    assert type(method.estimator(0)).__name__ == "DeepForestClassifier"
    assert type(_method().estimator(0)).__name__ == "CascadeForestClassifier"


@pytest.mark.parametrize("shape", [(8, 8), (64,)])
def test_scanned_data_run_end_to_end(shape):
    # images (2-D windows) and sequences (1-D windows) through the holdout job, as the SEMG
    # and MNIST rows run: scanner, cascade on the class vectors, levels in the row
    from sklearn.datasets import load_digits

    digits = load_digits()
    keep = np.isin(digits.target, [0, 1, 7])
    X, y = digits.data[keep][:150], digits.target[keep][:150]
    method = _method(
        options={"scan": {"shape": list(shape)}},
        scanner={"n_trees": 4, "n_folds": 2, "max_train_windows": 2000},
    )
    rows = holdout_evaluation(method, X, y, paper="wdf", dataset="digits", root_seed=1, protocol=PROTOCOL)
    assert rows.loc[0, "n_test"] == 30
    assert rows.loc[0, "accuracy_pct"] > 60  # three digit classes: chance is about 33 %
    assert 1 <= rows.loc[0, "best_level"] <= rows.loc[0, "n_levels"] <= 2


def test_single_class_is_a_clear_error():
    with pytest.raises(ProtocolError, match="'one'"):
        holdout_evaluation(
            _method(),
            np.zeros((10, 2)),
            np.zeros(10),
            paper="wdf",
            dataset="one",
            root_seed=1,
            protocol=PROTOCOL,
        )


def test_a_job_of_one_repeat_gives_that_repeats_row_of_the_whole_job():
    """Under job_per_repeat each split is its own job (protocol ``repeat: k``): its row must be
    the row the job of every repeat gives for k (same split, same seeds, same numbers)."""
    X, y = make_classification(n_samples=120, n_features=6, n_informative=3, random_state=1)
    protocol = {**PROTOCOL, "repeats": 3}
    whole = holdout_evaluation(_method(), X, y, paper="wdf", dataset="d", root_seed=7, protocol=protocol)
    assert list(whole["repeat"]) == [0, 1, 2] and whole["split_seed"].nunique() == 3
    for k in range(3):
        part = holdout_evaluation(
            _method(), X, y, paper="wdf", dataset="d", root_seed=7, protocol={**protocol, "repeat": k}
        )
        assert len(part) == 1 and part.loc[0, "repeat"] == k
        columns = [c for c in whole.columns if not c.endswith("_seconds")]
        assert part.loc[0, columns].to_dict() == whole.loc[k, columns].to_dict()
