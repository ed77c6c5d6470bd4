"""The interface every evaluation protocol implements, and what a protocol's run knows.

A protocol (``conf/protocol/*.yaml``, its ``kind``) turns one method and one data set into
the rows of a run record: one per fold, repeat, training size or sample. Each kind is a
subclass of ``EvaluationProtocol`` whose ``run(method, X, y, job)`` does the work;
``evaluation.registry.PROTOCOLS`` maps the kinds to them. Calling a protocol,
``protocol(method, X, y, paper=..., dataset=..., root_seed=..., protocol=...)``, checks that
it can run the method and hands ``run`` a ``Job``: the job's identity, its seeds and its
progress lines.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np
import pandas as pd

from .seeds import model_seed, split_seed

if TYPE_CHECKING:
    from ..methods.base import Method
    from .fold_store import FoldStore


class ProtocolError(ValueError):
    """The protocol cannot run on this data (e.g. a training fold holds a single class)."""


def require_two_classes(y: np.ndarray, dataset: str) -> None:
    """Every protocol needs two classes or more; say which data set has one."""
    if len(np.unique(y)) < 2:
        raise ProtocolError(f"data set '{dataset}' has a single class; a classifier cannot be evaluated")


def check_splittable(splitter, y: np.ndarray, dataset: str, where: str = "") -> None:
    """Fail, naming the data set, where scikit-learn cannot cut ``y`` into ``splitter``'s folds
    (stratified k-fold needs some class with at least k rows), instead of its bare traceback."""
    try:
        next(iter(splitter.split(np.zeros((len(y), 1)), y)))
    except ValueError as err:
        counts = np.unique(y, return_counts=True)[1]
        raise ProtocolError(
            f"data set '{dataset}'{where}: cannot cut {len(y)} rows ({len(counts)} classes, the largest "
            f"with {counts.max()} rows) into {splitter.get_n_splits()} folds: {err}"
        ) from err


def _silent(message: str) -> None:
    pass


@dataclass(frozen=True)
class Job:
    """One protocol run of one method on one data set: the job's identity and settings.

    ``protocol`` is the protocol's configuration (``conf/protocol/<name>.yaml``), ``progress``
    receives one line per finished fold, and ``checkpoint`` keeps finished folds (protocols
    with ``keeps_folds``)."""

    paper: str
    dataset: str
    root_seed: int
    protocol: dict
    n_jobs: int = 1
    progress: Callable[[str], None] = field(default=_silent, repr=False)
    checkpoint: FoldStore | None = None

    def split_seed(self, repeat: int) -> int:
        """The seed of repeat ``repeat``'s split, shared by every method of the paper."""
        return split_seed(self.root_seed, self.paper, self.dataset, repeat)

    def model_seed(self, method: Method, repeat: int, fold: int) -> int:
        """The seed of ``method``'s model in ``(repeat, fold)``."""
        return model_seed(self.root_seed, self.paper, method.name, self.dataset, repeat, fold)

    def row(self, method: Method, repeat: int, fold: int, values: dict[str, Any]) -> dict:
        """A record row: the job's identity columns, then ``values``."""
        return {
            "paper": self.paper,
            "method": method.name,
            "dataset": self.dataset,
            "repeat": repeat,
            "fold": fold,
            **values,
        }

    def say(self, method: Method, message: str) -> None:
        """A progress line about ``method`` on this data set."""
        self.progress(f"{self.paper}/{method.name}/{self.dataset} {message}")


class EvaluationProtocol(ABC):
    """A protocol kind: ``run`` evaluates one method on one data set, a row per unit of work.

    ``takes_estimators`` says whether it fits estimators (``Method.is_estimator``) or runs
    C2RF approaches on instances; ``keeps_folds`` whether a job gives it a fold store
    (``Job.checkpoint``) so that a stopped job resumes."""

    kind: ClassVar[str]
    takes_estimators: ClassVar[bool] = True
    keeps_folds: ClassVar[bool] = False

    def __call__(
        self,
        method: Method,
        X: np.ndarray,
        y: np.ndarray,
        *,
        paper: str,
        dataset: str,
        root_seed: int,
        protocol: dict,
        n_jobs: int = 1,
        progress: Callable[[str], None] = _silent,
        checkpoint: FoldStore | None = None,
    ) -> pd.DataFrame:
        """Run the protocol of configuration ``protocol`` for ``method`` on ``(X, y)``."""
        job = Job(paper, dataset, root_seed, protocol, n_jobs, progress, checkpoint)
        self.check_method(method, job)
        if self.takes_estimators:  # a classifier needs two classes (C2RF checks its binary target)
            require_two_classes(y, dataset)
        return self.run(method, X, y, job)

    def check_method(self, method: Method, job: Job) -> None:
        """Refuse a method of the other kind (an estimator under C2RF's protocol, or back)."""
        if method.is_estimator == self.takes_estimators:
            return
        name = job.protocol.get("name", self.kind)
        if self.takes_estimators:
            raise ProtocolError(
                f"protocol '{name}' fits estimators; method '{method.name}' ({method.key}) is not one"
            )
        raise ProtocolError(
            f"protocol '{name}' runs C2RF approaches (estimator: c2rf_approach); "
            f"method '{method.name}' is an estimator"
        )

    @abstractmethod
    def run(self, method: Method, X: np.ndarray, y: np.ndarray, job: Job) -> pd.DataFrame:
        """The rows of ``method`` on ``(X, y)``."""
