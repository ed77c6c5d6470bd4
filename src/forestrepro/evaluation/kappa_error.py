"""κ-error diagrams of tree diversity: the RCRF paper's Sec. 4.4 (Margineantu & Dietterich 1997).

Repeated stratified k-fold cross-validation (10 x 10 in the paper): in each fold the forest is
grown on the training part, and for each of its L(L-1)/2 pairs of trees the κ between their
test predictions and their mean test error are computed. A row per fold holds the centroid
(mean κ, mean error) and the forest's accuracy; the first fold of the first repetition also
keeps every pair, for the scatter plot (the paper's Fig. 2).
"""

from __future__ import annotations

import time

import numpy as np
import pandas as pd
from sklearn.model_selection import StratifiedKFold

from ..methods.base import Method, with_jobs
from .base import EvaluationProtocol, Job, check_splittable
from .diversity import kappa_error_centroid, pairwise_kappa_error


class KappaErrorCV(EvaluationProtocol):
    """Pairwise κ and error of the trees of the method's forest, fold by fold."""

    kind = "kappa_error_cv"

    def run(self, method: Method, X: np.ndarray, y: np.ndarray, job: Job) -> pd.DataFrame:
        rows = []
        for repeat in range(job.protocol["repeats"]):
            s_seed = job.split_seed(repeat)
            folds = StratifiedKFold(job.protocol["outer_folds"], shuffle=True, random_state=s_seed)
            check_splittable(folds, y, job.dataset)
            for fold, (train, test) in enumerate(folds.split(X, y)):
                seed = job.model_seed(method, repeat, fold)
                started = time.perf_counter()
                forest = with_jobs(method.estimator(seed), job.n_jobs).fit(X[train], y[train])
                # Test labels of classes absent from the training part count as -1: every tree errs.
                index = {c: i for i, c in enumerate(forest.classes_)}
                y_test = np.array([index.get(c, -1) for c in y[test]])
                kappa, error = pairwise_kappa_error(
                    forest.tree_predictions(X[test]), y_test, len(forest.classes_)
                )
                mean_kappa, mean_error = kappa_error_centroid(kappa, error)
                keep_pairs = repeat == 0 and fold == 0
                rows.append(
                    job.row(
                        method,
                        repeat,
                        fold,
                        {
                            "mean_pairwise_kappa": mean_kappa,
                            "mean_pairwise_error": mean_error,
                            "accuracy": float(np.mean(forest.predict(X[test]) == y[test])),
                            "pairs_kappa": kappa.tolist() if keep_pairs else None,
                            "pairs_error": error.tolist() if keep_pairs else None,
                            "split_seed": s_seed,
                            "model_seed": seed,
                            "fit_seconds": time.perf_counter() - started,
                        },
                    )
                )
                job.say(method, f"repeat {repeat} fold {fold}: κ̄={mean_kappa:.4f} ē={mean_error:.4f}")
        return pd.DataFrame(rows)


kappa_error_cv = KappaErrorCV()
"""The protocol as a function: ``kappa_error_cv(method, X, y, paper=..., dataset=..., ...)``."""
