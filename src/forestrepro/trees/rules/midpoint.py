"""Midpoint rule: cut the chosen feature at the midpoint of the node's cell (Biau 2012;
BRF paper, Sun et al. 2018, Secs. 4.2 and 5: "the midpoint value of the 'best' feature is
used as split threshold"), or, as an option, of the node's data range on that feature.

The feature is the candidate whose midpoint cut scores best under a criterion (the BRF paper
ranks Biau12's candidates by gain ratio at the midpoint), or, with ``score="random"``, a
uniformly drawn one (Biau's purely random forest).  Where the cell's midpoint would leave a
child empty, the empty half is dropped and the rest halved again (``_scan.midpoint``), so
every cut separates the node's samples and no cell is empty.  Later rules with their own
feature score (Banzhaf power index, strong and weak features) reuse ``_scan.midpoint``.
"""

from dataclasses import dataclass
from typing import ClassVar

import numpy as np
from numba import njit

from ..._validation import StrOptions, check_params
from .._kernel_api import SPLIT_KERNEL_SIG
from . import _scan
from .base import CompiledSplitRule
from .criteria import criterion_module

_OF = ("cell", "data")


@njit(SPLIT_KERNEL_SIG, cache=True, nogil=True)
def random_midpoint_kernel(
    X,
    y,
    w,
    n_classes,
    samples,
    start,
    end,
    counts,
    cell_lo,
    cell_hi,
    features,
    n_eval,
    depth,
    params,
    rng,
    Xf,
    buf,
    ibuf,
    codes,
    code_values,
    code_offsets,
):
    return _scan.random_midpoint(params[1] > 0.0, X, samples, start, end, cell_lo, cell_hi, features, rng)


@dataclass(frozen=True)
class Midpoint(CompiledSplitRule):
    """``score``: a criterion name (see ``criteria``) or "random"; ``of``: "cell" or "data";
    ``s``: the IDM parameter of "iig"."""

    _parameter_constraints: ClassVar[dict[str, list]] = {"of": [StrOptions(set(_OF))]}

    score: str = "gain_ratio"
    of: str = "cell"
    s: float = 1.0

    def __post_init__(self):
        if self.score != "random":
            criterion_module(self.score)
        check_params(self)

    @property
    def needs_cell(self):
        return self.of == "cell"

    @property
    def kernel(self):
        if self.score == "random":
            return random_midpoint_kernel
        return criterion_module(self.score).midpoint_kernel

    def params(self):
        return np.array([self.s, float(self.of == "data")])
