"""GridRBFSVC is SVC(kernel="rbf"): same predictions, support vectors and grid choice, one kernel per gamma."""

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer, load_digits, load_wine
from sklearn.model_selection import GridSearchCV, StratifiedKFold
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import MinMaxScaler
from sklearn.svm import SVC
from sklearn.utils.estimator_checks import check_estimator

from forestrepro import kernel_svm
from forestrepro.evaluation.grid_search import search_grid
from forestrepro.kernel_svm import GridRBFSVC
from forestrepro.methods import build_method

CS = [2.0**e for e in range(-5, 16, 4)]
GAMMAS = [2.0**e for e in range(-15, 4, 4)]


@pytest.mark.parametrize("loader", [load_wine, load_breast_cancer, load_digits])
def test_every_candidate_predicts_and_supports_as_svc(loader, tmp_path):
    X, y = loader(return_X_y=True)
    X, y = MinMaxScaler().fit_transform(X[:600]), y[:600]
    order = np.random.default_rng(0).permutation(len(y))
    train, test = order[: len(y) * 2 // 3], order[len(y) * 2 // 3 :]
    for gamma in GAMMAS:
        for C in CS:
            reference = SVC(kernel="rbf", C=C, gamma=gamma).fit(X[train], y[train])
            ours = GridRBFSVC(C=C, gamma=gamma, C_grid=CS, memory=str(tmp_path)).fit(X[train], y[train])
            np.testing.assert_array_equal(ours.predict(X[test]), reference.predict(X[test]))
            np.testing.assert_array_equal(ours.support_, reference.support_)
            np.testing.assert_allclose(ours.dual_coef_, reference.dual_coef_, rtol=1e-6, atol=1e-9)


def test_one_kernel_per_gamma_and_rows(tmp_path, monkeypatch):
    X, y = load_wine(return_X_y=True)
    calls = []
    real = kernel_svm.rbf_kernel
    monkeypatch.setattr(
        kernel_svm,
        "rbf_kernel",
        lambda A, B=None, gamma=None: calls.append(B is None) or real(A, B, gamma=gamma),
    )
    for C in CS:
        GridRBFSVC(C=C, gamma=1e-4, C_grid=CS, memory=str(tmp_path)).fit(X, y)
    assert calls.count(True) == 1  # the training kernel: once for all C
    GridRBFSVC(C=CS[0], gamma=1e-4, C_grid=CS, memory=str(tmp_path)).fit(X[:-1], y[:-1])
    assert calls.count(True) == 2  # other rows: a new kernel


def test_grid_search_chooses_what_grid_search_cv_chooses_with_svc(tmp_path):
    X, y = load_wine(return_X_y=True)  # small: many candidates tie, so the tie rule is exercised
    cv = StratifiedKFold(3, shuffle=True, random_state=0)
    grid = {"model__C": CS, "model__gamma": GAMMAS}
    reference = GridSearchCV(Pipeline([("scale", MinMaxScaler()), ("model", SVC())]), grid, cv=cv).fit(X, y)
    model = Pipeline([("scale", MinMaxScaler()), ("model", GridRBFSVC(C_grid=CS, memory=str(tmp_path)))])
    for n_jobs in (1, 2):
        ours = search_grid(model, grid, X, y, cv, n_jobs=n_jobs)
        assert ours.params == reference.best_params_ and ours.score == reference.best_score_
        np.testing.assert_array_equal(ours.estimator.predict(X), reference.best_estimator_.predict(X))


def test_the_svm_method_builds_it_with_its_grid():
    method = build_method(
        {
            "name": "svm",
            "estimator": "svm_rbf",
            "params": {"cache_size": 500},
            "grid": {"log2_C": [-1, 3], "log2_gamma": [0]},
        }
    )
    estimator = method.estimator(random_state=7)
    assert isinstance(estimator, GridRBFSVC) and estimator.C_grid == (0.5, 8.0)
    assert estimator.memory == method.cache_dir and estimator.cache_size == 500


def test_check_estimator():
    check_estimator(GridRBFSVC())
