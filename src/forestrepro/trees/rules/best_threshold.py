"""Best-threshold rule: over the candidate features and every cut between two consecutive
distinct values at the node, the cut that maximises the criterion (Gini, information gain,
gain ratio or IIG; equations in their modules), at the midpoint of the two values."""

from dataclasses import dataclass

import numpy as np

from .base import CompiledSplitRule
from .criteria import criterion_module


@dataclass(frozen=True)
class BestThreshold(CompiledSplitRule):
    """``criterion`` in {"gini", "entropy", "gain_ratio", "iig"}; ``s`` is the IDM parameter
    of "iig"."""

    criterion: str = "gini"
    s: float = 1.0

    def __post_init__(self):
        criterion_module(self.criterion)

    @property
    def kernel(self):
        return criterion_module(self.criterion).best_threshold_kernel

    @property
    def integer_weight_kernel(self):
        module = criterion_module(self.criterion)
        return getattr(module, "best_threshold_integer_kernel", module.best_threshold_kernel)

    def params(self):
        return np.array([self.s, 0.0])
