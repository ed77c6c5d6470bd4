"""Nested cross-validation: the BRF paper's protocol (Sec. 6.1), reusable by other papers.

For every repeat, an outer (stratified) k-fold split is drawn with a seed shared by all methods
of the paper on that data set. In each outer training fold the features are scaled to [0, 1]
(min-max, fitted on that fold only unless ``scale="full_data"``), the method's grid is searched
by an inner k-fold cross-validation on accuracy (``grid_search``, which chooses as scikit-learn's
GridSearchCV does), the best setting is refitted on the whole outer training fold, and the outer
test fold is scored. One row per (repeat, fold) is returned.
"""

from __future__ import annotations

import json
import time

import numpy as np
import pandas as pd
from sklearn.model_selection import KFold, StratifiedKFold, train_test_split
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import MinMaxScaler

from ..methods.base import Method
from .base import EvaluationProtocol, Job, ProtocolError, check_splittable, require_two_classes
from .fold_store import FoldStore
from .grid_search import search_grid
from .metrics import compute_metrics
from .seeds import derive_seed

__all__ = [
    "NestedCrossValidation",
    "ProtocolError",
    "check_splittable",
    "nested_cross_validation",
    "require_two_classes",
    "subsample_stratified",
]


def subsample_stratified(X: np.ndarray, y: np.ndarray, rows: int, seed: int, dataset: str):
    """A seeded, class-stratified subsample of ``rows`` rows (all rows if there are fewer)."""
    if rows >= len(y):
        return X, y
    try:
        X_sub, _, y_sub, _ = train_test_split(X, y, train_size=rows, stratify=y, random_state=seed)
    except ValueError as err:
        raise ProtocolError(f"data set '{dataset}': cannot subsample {rows} rows: {err}") from err
    return X_sub, y_sub


def _splitter(n_splits: int, stratified: bool, seed: int):
    cls = StratifiedKFold if stratified else KFold
    return cls(n_splits=n_splits, shuffle=True, random_state=seed)


def _check_folds(y: np.ndarray, n_splits: int, dataset: str) -> None:
    require_two_classes(y, dataset)
    if len(y) < n_splits:
        raise ProtocolError(f"data set '{dataset}' has {len(y)} rows, fewer than {n_splits} folds")


def _model(method: Method, seed: int, scale: str) -> Pipeline:
    steps = [("scale", MinMaxScaler())] if scale == "train_fold" else []
    return Pipeline([*steps, ("model", method.estimator(seed))])


class NestedCrossValidation(EvaluationProtocol):
    """Nested cross-validation (module docstring); its folds are kept as they finish."""

    kind = "nested_cv"
    keeps_folds = True

    def run(self, method: Method, X: np.ndarray, y: np.ndarray, job: Job) -> pd.DataFrame:
        """Run ``protocol`` (outer/inner folds, repeats, scaling, metrics) for ``method`` on (X, y).

        Returns one row per (repeat, fold) with the metrics, the chosen parameters, the inner
        cross-validated accuracy of that choice, the seeds, and fit/predict wall times. With a
        fold store (``job.checkpoint``) each finished fold's row, and each finished grid candidate's inner
        scores, are kept as they are made; a rerun reads them instead of refitting (``fold_store``).
        """
        dataset, protocol = job.dataset, job.protocol
        checkpoint = job.checkpoint or FoldStore(None)
        stratified = protocol.get("stratified", True)
        scale = protocol.get("scale", "train_fold")
        _check_folds(y, protocol["outer_folds"], dataset)
        if scale == "full_data":
            X = MinMaxScaler().fit_transform(X)
        grid = {f"model__{k}": v for k, v in method.param_grid(X.shape[1]).items()}
        n_candidates = int(np.prod([len(v) for v in grid.values()])) if grid else 1
        rows = []
        for repeat in range(protocol["repeats"]):
            s_seed = job.split_seed(repeat)
            outer = _splitter(protocol["outer_folds"], stratified, s_seed)
            check_splittable(outer, y, dataset)
            for fold, (train, test) in enumerate(outer.split(X, y)):
                if len(np.unique(y[train])) < 2:
                    raise ProtocolError(
                        f"data set '{dataset}', repeat {repeat}, fold {fold}: the training fold holds a "
                        f"single class ({y[train][0]!r}); the fold cannot train a classifier"
                    )
                stored = checkpoint.get(repeat, fold)
                if stored is not None:
                    rows.append(stored)
                    job.say(
                        method,
                        f"repeat {repeat} fold {fold}: read from {checkpoint.directory} "
                        "(finished by an earlier run of this job)",
                    )
                    continue
                m_seed = job.model_seed(method, repeat, fold)
                model = _model(method, m_seed, scale)
                started = time.perf_counter()
                inner_score = np.nan
                if n_candidates > 1:
                    inner = _splitter(protocol["inner_folds"], stratified, derive_seed(m_seed, "inner"))
                    check_splittable(
                        inner, y[train], dataset, f", repeat {repeat}, outer fold {fold} (inner folds)"
                    )
                    choice = search_grid(
                        model,
                        grid,
                        X[train],
                        y[train],
                        inner,
                        n_jobs=job.n_jobs,
                        kept=checkpoint.get_search(repeat, fold),
                        keep=lambda state, r=repeat, f=fold: checkpoint.put_search(r, f, state),
                    )
                    model, best, inner_score = choice.estimator, choice.params, choice.score
                    fit_seconds = choice.seconds
                else:
                    best = {k: v[0] for k, v in grid.items()}
                    model.set_params(**best).fit(X[train], y[train])
                    fit_seconds = time.perf_counter() - started
                started = time.perf_counter()
                y_pred = model.predict(X[test])
                predict_seconds = time.perf_counter() - started
                scores = compute_metrics(y[test], y_pred, protocol["metrics"])
                params = {k.removeprefix("model__"): v for k, v in best.items()}
                rows.append(
                    job.row(
                        method,
                        repeat,
                        fold,
                        {
                            "n_train": len(train),
                            "n_test": len(test),
                            **scores,
                            "inner_accuracy": inner_score,
                            "best_params": json.dumps(params, sort_keys=True),
                            "split_seed": s_seed,
                            "model_seed": m_seed,
                            "fit_seconds": fit_seconds,
                            "predict_seconds": predict_seconds,
                        },
                    )
                )
                checkpoint.put(repeat, fold, rows[-1])
                job.say(
                    method,
                    f"repeat {repeat} fold {fold}: "
                    + ", ".join(f"{k}={v:.4f}" for k, v in scores.items())
                    + f" params={params} ({fit_seconds:.1f}s)",
                )
        return pd.DataFrame(rows)


nested_cross_validation = NestedCrossValidation()
"""The protocol as a function: ``nested_cross_validation(method, X, y, paper=..., ...)``."""
