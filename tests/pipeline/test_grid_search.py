"""The kept grid search chooses what GridSearchCV chooses, and resumes from kept candidates."""

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.model_selection import GridSearchCV, StratifiedKFold
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import MinMaxScaler
from sklearn.svm import SVC
from sklearn.tree import DecisionTreeClassifier

from forestrepro.evaluation.grid_search import GridSearchError, candidate_key, search_grid

CASES = {
    # tiny data and a coarse grid: many candidates tie on the mean, so the tie rule matters
    "knn": (
        KNeighborsClassifier(),
        {"model__n_neighbors": [1, 3, 5, 7, 9, 11], "model__weights": ["uniform", "distance"]},
    ),
    "svm": (
        SVC(),
        {"model__C": [2.0**k for k in (-5, -1, 3, 7)], "model__gamma": [2.0**k for k in (-7, -3, 1)]},
    ),
    "tree": (
        DecisionTreeClassifier(random_state=3),
        {"model__max_depth": [1, 2, 3, None], "model__min_samples_leaf": [1, 5]},
    ),
}


def _data(seed):
    return make_classification(n_samples=60, n_features=6, n_informative=3, n_classes=3, random_state=seed)


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_chooses_what_grid_search_cv_chooses(name, seed):
    estimator, grid = CASES[name]
    model = Pipeline([("scale", MinMaxScaler()), ("model", estimator)])
    X, y = _data(seed)
    cv = StratifiedKFold(4, shuffle=True, random_state=seed)
    reference = GridSearchCV(model, grid, cv=cv, scoring="accuracy", refit=True).fit(X, y)
    ours = search_grid(model, grid, X, y, cv)
    assert ours.params == reference.best_params_
    assert ours.score == reference.best_score_
    np.testing.assert_array_equal(ours.estimator.predict(X), reference.best_estimator_.predict(X))


def test_ties_go_to_the_first_candidate_in_grid_order():
    X, y = _data(0)
    grid = {"max_depth": [50, 40, 30]}  # all grow the same full tree: every mean is equal
    choice = search_grid(DecisionTreeClassifier(random_state=0), grid, X, y, StratifiedKFold(3))
    assert choice.params == {"max_depth": 50}


def test_parallel_candidates_choose_the_same():
    estimator, grid = CASES["svm"]
    X, y = _data(4)
    cv = StratifiedKFold(3, shuffle=True, random_state=0)
    serial = search_grid(estimator, {k.removeprefix("model__"): v for k, v in grid.items()}, X, y, cv)
    parallel = search_grid(
        estimator, {k.removeprefix("model__"): v for k, v in grid.items()}, X, y, cv, n_jobs=2
    )
    assert (serial.params, serial.score) == (parallel.params, parallel.score)


def test_a_parallel_search_keeps_each_candidate_as_it_finishes():
    # one pool over all candidates, no batches: keep sees one more candidate each time, and the
    # scores kept are the serial search's whatever order the candidates finished in
    X, y = _data(7)
    grid = {"max_depth": [1, 2, 3, 4, 5]}
    cv = StratifiedKFold(3)
    kept = {"serial": [], "parallel": []}
    for name, n_jobs in (("serial", 1), ("parallel", 2)):
        search_grid(
            DecisionTreeClassifier(random_state=0),
            grid,
            X,
            y,
            cv,
            n_jobs=n_jobs,
            keep=lambda s, name=name: kept[name].append(dict(s["scores"])),
        )
    assert [len(s) for s in kept["parallel"]] == [1, 2, 3, 4, 5]
    assert kept["parallel"][-1] == kept["serial"][-1]


def test_kept_candidates_are_not_fitted_again():
    X, y = _data(5)
    grid = {"max_depth": [1, 2, 3, 4]}
    cv = StratifiedKFold(3)
    states = []
    fresh = search_grid(
        DecisionTreeClassifier(random_state=0),
        grid,
        X,
        y,
        cv,
        keep=lambda s: states.append({"scores": dict(s["scores"]), "seconds": s["seconds"]}),
    )
    assert [len(s["scores"]) for s in states] == [1, 2, 3, 4]
    # a run stopped after two candidates: poison those two, so that a refit of them would show
    kept = states[1]
    kept["scores"] = {
        k: [1.0, 1.0, 1.0] if k == candidate_key({"max_depth": 1}) else [0.0] * 3 for k in kept["scores"]
    }
    resumed = search_grid(DecisionTreeClassifier(random_state=0), grid, X, y, cv, kept=kept)
    assert resumed.params == {"max_depth": 1} and resumed.score == 1.0  # read, not refitted
    assert fresh.seconds > 0 and resumed.seconds >= kept["seconds"]


class _FailsOnDepthTwo(DecisionTreeClassifier):
    def fit(self, X, y, **kwargs):
        if self.max_depth == 2:
            raise ValueError("cannot grow this tree")
        return super().fit(X, y, **kwargs)


def test_a_failing_candidate_scores_nan_and_loses():
    X, y = _data(6)
    with pytest.warns(UserWarning, match='"max_depth": 2.*cannot grow'):
        choice = search_grid(
            _FailsOnDepthTwo(random_state=0), {"max_depth": [2, 1]}, X, y, StratifiedKFold(3)
        )
    assert choice.params == {"max_depth": 1}


def test_a_grid_where_every_candidate_fails_is_a_clear_error():
    X, y = _data(6)
    with (
        pytest.warns(UserWarning),
        pytest.raises(GridSearchError, match="every one of the 1 grid candidates"),
    ):
        search_grid(_FailsOnDepthTwo(), {"max_depth": [2]}, X, y, StratifiedKFold(3))
