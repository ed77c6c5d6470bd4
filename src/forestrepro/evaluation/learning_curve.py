"""Test error against the training-set size: the BRF paper's consistency example (Sec. 5.2).

A consistent classifier's error tends to the Bayes risk as the training size ``n`` grows, so
the protocol trains each method on growing samples and scores it on one large test set:

- **Test set**: ``test_size`` rows (an int; a float in (0, 1) is a fraction of the data) drawn
  once, without replacement, with a seed that depends on the paper and the data set only, so
  every method and every repeat is scored on the same rows.
- **Training sets**: the other rows form the pool.  Each repeat draws a random order of the
  pool (seed shared by all methods: paired comparisons), and the training set of size ``n``
  is the first ``n`` rows of that order.  The samples of one repeat are therefore *nested*
  (``D_100`` is part of ``D_300``, ...), a single growing sample as in the definition of
  consistency; repeats are independent.
- **Models**: each (repeat, size) is fitted with its own seed (``model_seed`` with the size's
  position in ``train_sizes`` as the fold), with the method's fixed parameters: the protocol
  searches no grid, so the experiment must set ``grid: {}`` for methods that have one.

One row per (repeat, size): ``n_train``, ``n_test``, the protocol's metrics plus ``error`` (1 -
accuracy), the method's extras, the seeds and the fit time.  ``fold`` is the size's position.
"""

from __future__ import annotations

import numbers
import time

import numpy as np
import pandas as pd
from sklearn.metrics import accuracy_score

from ..methods.base import Method
from .base import EvaluationProtocol, Job, ProtocolError
from .metrics import compute_metrics
from .seeds import derive_seed


def n_test_rows(n_rows: int, test_size: float | int) -> int:
    """The number of test rows: ``test_size`` itself (int) or that fraction of ``n_rows``."""
    if isinstance(test_size, numbers.Integral) and not isinstance(test_size, bool):
        return int(test_size)
    return int(round(float(test_size) * n_rows))


def learning_curve_split(n_rows: int, test_size: float | int, root_seed: int, paper: str, dataset: str):
    """(test indices, pool indices, test seed): the fixed test set and the rows left to train on."""
    n_test = n_test_rows(n_rows, test_size)
    if not 1 <= n_test < n_rows:
        raise ProtocolError(f"data set '{dataset}': cannot hold out {test_size} of {n_rows} rows")
    t_seed = derive_seed(root_seed, paper, dataset, "learning_curve_test")
    order = np.random.default_rng(t_seed).permutation(n_rows)
    return np.sort(order[:n_test]), np.sort(order[n_test:]), t_seed


class LearningCurve(EvaluationProtocol):
    """Fit the method on nested samples of ``protocol["train_sizes"]`` rows, score each fit on
    the fixed test set (module docstring)."""

    kind = "learning_curve"

    def run(self, method: Method, X: np.ndarray, y: np.ndarray, job: Job) -> pd.DataFrame:
        dataset, protocol = job.dataset, job.protocol
        grid = method.param_grid(X.shape[1])
        if grid:
            raise ProtocolError(
                f"method '{method.name}' searches {sorted(grid)}, but the learning_curve protocol fits "
                "fixed parameters: set grid: {} in the experiment (or fix them in the method's params)"
            )
        sizes = [int(n) for n in protocol["train_sizes"]]
        test, pool, t_seed = learning_curve_split(
            len(y), protocol["test_size"], job.root_seed, job.paper, dataset
        )
        if max(sizes) > len(pool):
            raise ProtocolError(
                f"data set '{dataset}': {len(y)} rows leave {len(pool)} to train on after the "
                f"{len(test)} test rows, fewer than the largest training size {max(sizes)}"
            )
        metrics = list(protocol.get("metrics", []))
        rows = []
        for repeat in range(protocol["repeats"]):
            s_seed = job.split_seed(repeat)
            order = pool[np.random.default_rng(s_seed).permutation(len(pool))]
            for position, n in enumerate(sizes):
                train = order[:n]
                if len(np.unique(y[train])) < 2:
                    raise ProtocolError(
                        f"data set '{dataset}', repeat {repeat}: the {n} training rows hold a single class"
                    )
                m_seed = job.model_seed(method, repeat, position)
                started = time.perf_counter()
                y_pred, extras = method.fit_predict(X[train], y[train], X[test], m_seed, n_jobs=job.n_jobs)
                seconds = time.perf_counter() - started
                scores = compute_metrics(y[test], y_pred, metrics)
                error = 1.0 - float(accuracy_score(y[test], y_pred))
                rows.append(
                    job.row(
                        method,
                        repeat,
                        position,
                        {
                            "n_train": n,
                            "n_test": len(test),
                            **scores,
                            "error": error,
                            **extras,
                            "split_seed": s_seed,
                            "test_seed": t_seed,
                            "model_seed": m_seed,
                            "fit_seconds": seconds,
                        },
                    )
                )
                job.say(method, f"repeat {repeat} n={n}: error={error:.4f} ({seconds:.1f}s)")
        return pd.DataFrame(rows)


learning_curve = LearningCurve()
"""The protocol as a function: ``learning_curve(method, X, y, paper=..., dataset=..., ...)``."""
