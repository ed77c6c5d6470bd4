"""Out-of-bag estimates over repeated forests: the RCRF paper's protocol (Sec. 4.3).

Each repetition grows the forest on the whole data set with its own seed, and scores it on its
out-of-bag votes (a row is predicted by the trees whose bootstrap left it out). One row per
repetition; the paper reports mean ± std over 10 repetitions.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np
import pandas as pd

from ..methods.base import Method, with_jobs
from .diversity import oob_metrics
from .protocol import require_two_classes
from .seeds import model_seed


def oob_repeats(
    method: Method,
    X: np.ndarray,
    y: np.ndarray,
    *,
    paper: str,
    dataset: str,
    root_seed: int,
    protocol: dict,
    n_jobs: int = 1,
    progress: Callable[[str], None] = lambda msg: None,
) -> pd.DataFrame:
    """Grow ``method``'s forest ``protocol["repeats"]`` times and score its OOB predictions."""
    require_two_classes(y, dataset)
    rows = []
    for repeat in range(protocol["repeats"]):
        seed = model_seed(root_seed, paper, method.name, dataset, repeat, 0)
        forest = with_jobs(method.estimator(seed), n_jobs).set_params(oob_score=True)
        started = time.perf_counter()
        forest.fit(X, y)
        seconds = time.perf_counter() - started
        scores = oob_metrics(forest.oob_decision_function_, y, forest.classes_, protocol["metrics"])
        rows.append(
            {
                "paper": paper,
                "method": method.name,
                "dataset": dataset,
                "repeat": repeat,
                "fold": 0,
                **scores,
                "model_seed": seed,
                "fit_seconds": seconds,
            }
        )
        progress(
            f"{paper}/{method.name}/{dataset} repeat {repeat}: "
            + ", ".join(f"{k}={v:.4f}" for k, v in scores.items() if isinstance(v, float))
            + f" ({seconds:.1f}s)"
        )
    return pd.DataFrame(rows)
