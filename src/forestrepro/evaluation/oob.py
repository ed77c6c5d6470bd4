"""Out-of-bag estimates over repeated forests: the RCRF paper's protocol (Sec. 4.3).

Each repetition grows the forest on the whole data set with its own seed, and scores it on its
out-of-bag votes (a row is predicted by the trees whose bootstrap left it out). One row per
repetition; the paper reports mean ± std over 10 repetitions.
"""

from __future__ import annotations

import time

import numpy as np
import pandas as pd

from ..methods.base import Method, with_jobs
from .base import EvaluationProtocol, Job
from .diversity import oob_metrics


class OOBRepeats(EvaluationProtocol):
    """Grow the method's forest ``protocol["repeats"]`` times and score its OOB predictions."""

    kind = "oob_repeats"

    def run(self, method: Method, X: np.ndarray, y: np.ndarray, job: Job) -> pd.DataFrame:
        rows = []
        for repeat in range(job.protocol["repeats"]):
            seed = job.model_seed(method, repeat, 0)
            forest = with_jobs(method.estimator(seed), job.n_jobs).set_params(oob_score=True)
            started = time.perf_counter()
            forest.fit(X, y)
            seconds = time.perf_counter() - started
            scores = oob_metrics(forest.oob_decision_function_, y, forest.classes_, job.protocol["metrics"])
            rows.append(job.row(method, repeat, 0, {**scores, "model_seed": seed, "fit_seconds": seconds}))
            job.say(
                method,
                f"repeat {repeat}: "
                + ", ".join(f"{k}={v:.4f}" for k, v in scores.items() if isinstance(v, float))
                + f" ({seconds:.1f}s)",
            )
        return pd.DataFrame(rows)


oob_repeats = OOBRepeats()
"""The protocol as a function: ``oob_repeats(method, X, y, paper=..., dataset=..., ...)``."""
