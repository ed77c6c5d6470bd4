"""The impurity criteria by name: each module gives ``node_stat``, ``score``,
``best_threshold_kernel`` and ``midpoint_kernel`` (see ``_scan``), and may give
``best_threshold_integer_kernel``, a faster best-threshold kernel for integer sample weights
(``CompiledSplitRule.integer_weight_kernel``)."""

from . import entropy, gain_ratio, gini, iig

CRITERIA = {"gini": gini, "entropy": entropy, "gain_ratio": gain_ratio, "iig": iig}


def criterion_module(name):
    """The module of criterion ``name``; a clear error for an unknown name."""
    try:
        return CRITERIA[name]
    except KeyError:
        raise ValueError(f"unknown criterion {name!r}; expected one of {sorted(CRITERIA)}") from None
