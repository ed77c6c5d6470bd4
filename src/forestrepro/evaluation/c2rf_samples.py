"""The C2RF study's protocol (Burgard, Pinheiro, Schmidt 2024, Secs. 5.1-5.3, Appendix A).

For each of ``repeats`` samples of a data set, build the instance (1 % labeled by the
protocol's ``sampling``, 20 CART trees, their votes R on the unlabeled points, lambda) and run
one approach on it. The instance's seed hashes (root seed, paper, data set, sampling, sample)
and leaves the approach out, so every approach of a data set solves the same instances, as
the paper's paired comparisons (10) need. How the trees are grown and the vote counted (the
approach's ``forest_options``, readings of Sec. 5.1 and 5.2 (a)) is the approach's. One row per sample: accuracy (8) and MCC (9) on the
unlabeled points, in [0, 1] and in percent, eta, the solver status and time, and ``solved``
(optimal within the time limit, Sec. 5.3).

A job's samples are kept as they finish (``fold_store``, sample ``s`` as repeat ``s``, fold 0):
at the paper's 7,200 s per solve one job runs for hours, and a stopped job resumes with its
first unfinished sample instead of solving the finished ones again.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd

from ..c2rf import run_instance
from ..methods.base import Method
from .base import EvaluationProtocol, Job, ProtocolError
from .fold_store import FoldStore
from .seeds import derive_seed


def instance_seed(root_seed: int, paper: str, dataset: str, sampling: str, sample: int) -> int:
    """Seed of one instance: shared by every approach of the paper on (data set, sampling, sample)."""
    return derive_seed(root_seed, paper, dataset, sampling, sample)


class C2RFSamples(EvaluationProtocol):
    """Run a C2RF approach on ``protocol['repeats']`` instances of (X, y); y binary, 1 positive."""

    kind = "c2rf_samples"
    takes_estimators = False
    keeps_folds = True

    def run(self, method: Method, X: np.ndarray, y: np.ndarray, job: Job) -> pd.DataFrame:
        paper, dataset, protocol = job.paper, job.dataset, job.protocol
        labels = set(np.unique(y).tolist())
        if not labels <= {0, 1} or 1 not in labels:
            raise ProtocolError(
                f"data set '{dataset}': the C2RF protocol needs a binary target with 1 the positive class, "
                f"got labels {sorted(labels)[:10]} (set paper_targets.{paper} in its conf/dataset entry)"
            )
        approach = (
            None
            if method.solve_kwargs is None
            else {
                **method.solve_kwargs,
                "lower": protocol["lower"],
                "upper": protocol["upper"],
                "threads": 1,
            }
        )
        checkpoint = job.checkpoint or FoldStore(None)
        rows = []
        for sample in range(protocol["repeats"]):
            stored = checkpoint.get(sample, 0)
            if stored is not None:
                rows.append(stored)
                job.say(
                    method,
                    f"{protocol['sampling']} sample {sample}: read from {checkpoint.directory} "
                    "(finished by an earlier run of this job)",
                )
                continue
            seed = instance_seed(job.root_seed, paper, dataset, protocol["sampling"], sample)
            (row,) = run_instance(
                X,
                y,
                sampling=protocol["sampling"],
                seed=seed,
                approaches={method.name: approach},
                time_limit=protocol["time_limit"],
                bias=protocol["bias"],
                drop_duplicates=protocol["drop_duplicates"],
                **method.forest_options,
            )
            row.pop("approach")
            switches = row.pop("switches")
            rows.append(
                job.row(
                    method,
                    sample,
                    0,
                    {
                        "accuracy_pct": 100.0 * row["accuracy"],
                        "solved_pct": 100.0 * row["solved"],
                        **row,
                        "switches": json.dumps(switches, sort_keys=True),
                        "time_limit": float(protocol["time_limit"]),
                    },
                )
            )
            checkpoint.put(sample, 0, rows[-1])
            job.say(
                method,
                f"{protocol['sampling']} sample {sample}: "
                f"status={row['status']} eta={row['eta']:.0f} accuracy={row['accuracy']:.4f} "
                f"mcc={row['mcc']:.4f} ({row['seconds']:.1f}s)",
            )
        return pd.DataFrame(rows)


c2rf_samples = C2RFSamples()
"""The protocol as a function: ``c2rf_samples(approach, X, y, paper=..., dataset=..., ...)``."""
