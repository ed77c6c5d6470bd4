"""The interface every comparison of the suite has, one class per comparison (as benchopt has
one class per solver): what it times (``ours``) against what (``anchor``), why it cannot run
here (``unavailable``), and its cases, each timed side by side as a ``Row``."""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar


@dataclass(frozen=True)
class Row:
    """One case of a comparison: both sides' wall seconds and what was checked of their results."""

    case: str
    ours_seconds: float
    anchor_seconds: float
    agreement: str

    @property
    def ratio(self) -> float:
        """Ours / the anchor's seconds: below 1, ours is faster."""
        return self.ours_seconds / self.anchor_seconds


class Comparison(ABC):
    """Our code against an anchor, case by case, both timed in the same run."""

    name: ClassVar[str]
    """The comparison's name on the command line (``--only``)."""
    ours: ClassVar[str]
    anchor: ClassVar[str]

    def unavailable(self) -> str | None:
        """Why the comparison cannot run here (its anchor is not installed), or None."""
        return None

    @abstractmethod
    def rows(self, quick: bool) -> list[Row]:
        """Every case at the default size, or (``quick``) on tiny synthetic data: a smoke test
        that needs neither the data mirror nor more than seconds."""


def best_seconds(functions: list[Callable[[], object]], repeats: int) -> tuple[list[float], list]:
    """The best wall seconds of each function over ``repeats`` rounds, and what each returned in
    the last round. Within a round the functions run one after the other, so a burst of load from
    other processes on a shared machine does not fall on one side only."""
    best = [float("inf")] * len(functions)
    results = [None] * len(functions)
    for _ in range(repeats):
        for i, function in enumerate(functions):
            started = time.perf_counter()
            results[i] = function()
            best[i] = min(best[i], time.perf_counter() - started)
    return best, results
