"""A seeded, stratified train/test split: the WDF paper's protocol (Sec. 3.1, 80 % / 20 %).

The split's seed is shared by all methods of a paper on a data set, so DF and WDF see the same
rows. Each repeat draws a new split, seeded by its index alone, so repeat k is the same split
whether a job runs every repeat or only k (a protocol with ``repeat: k``, which the planner
gives each job of a protocol with ``job_per_repeat``). One row per repeat: the test metrics and
the extras the method reports (e.g. the number of cascade levels). A method may also return,
under the extra ``alternatives``, the test predictions of the same fit under another reading
(``{suffix: predictions}``, e.g. the cascade under a stricter stopping rule): each is scored
like the answer, as ``<metric>_<suffix>``.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

from ..methods.base import Method
from .base import EvaluationProtocol, Job, ProtocolError, require_two_classes
from .metrics import compute_metrics
from .seeds import split_seed


def holdout_splits(
    y: np.ndarray, *, paper: str, dataset: str, root_seed: int, protocol: dict
) -> Iterator[tuple[int, np.ndarray, np.ndarray, int]]:
    """``(repeat, train rows, test rows, split seed)`` of each repeat (of repeat ``protocol["repeat"]``
    alone where the protocol names one): a seeded split of a ``test_size`` share off, stratified
    unless the protocol says ``stratified: false``."""
    require_two_classes(y, dataset)
    stratify = y if protocol.get("stratified", True) else None
    repeats = range(protocol["repeats"]) if protocol.get("repeat") is None else [protocol["repeat"]]
    for repeat in repeats:
        s_seed = split_seed(root_seed, paper, dataset, repeat)
        try:
            train, test = train_test_split(
                np.arange(len(y)), test_size=protocol["test_size"], stratify=stratify, random_state=s_seed
            )
        except ValueError as err:
            raise ProtocolError(
                f"data set '{dataset}': cannot split {protocol['test_size']} off: {err}"
            ) from err
        yield repeat, train, test, s_seed


class Holdout(EvaluationProtocol):
    """Fit the method on a ``1 - test_size`` share of (X, y) and score it on the rest."""

    kind = "holdout"

    def run(self, method: Method, X: np.ndarray, y: np.ndarray, job: Job) -> pd.DataFrame:
        rows = []
        for repeat, train, test, s_seed in holdout_splits(
            y, paper=job.paper, dataset=job.dataset, root_seed=job.root_seed, protocol=job.protocol
        ):
            m_seed = job.model_seed(method, repeat, 0)
            started = time.perf_counter()
            y_pred, extras = method.fit_predict(
                X[train], y[train], X[test], m_seed, n_jobs=job.n_jobs, shared_seed=s_seed
            )
            seconds = time.perf_counter() - started
            scores = compute_metrics(y[test], y_pred, job.protocol["metrics"])
            for suffix, predicted in extras.pop("alternatives", {}).items():
                scores.update(
                    {
                        f"{metric}_{suffix}": value
                        for metric, value in compute_metrics(
                            y[test], predicted, job.protocol["metrics"]
                        ).items()
                    }
                )
            rows.append(
                job.row(
                    method,
                    repeat,
                    0,
                    {
                        "n_train": len(train),
                        "n_test": len(test),
                        **scores,
                        **extras,
                        "split_seed": s_seed,
                        "model_seed": m_seed,
                        "fit_seconds": seconds,
                    },
                )
            )
            job.say(
                method,
                f"repeat {repeat}: "
                + ", ".join(
                    f"{k}={v:.4f}" for k, v in {**scores, **extras}.items() if isinstance(v, float | int)
                )
                + f" ({seconds:.1f}s)",
            )
        return pd.DataFrame(rows)


holdout_evaluation = Holdout()
"""The protocol as a function: ``holdout_evaluation(method, X, y, paper=..., dataset=..., ...)``."""
