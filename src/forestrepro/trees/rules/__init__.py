"""Split rules of the tree builder: ``BestThreshold`` (Gini, information gain, gain ratio,
IIG), ``Midpoint``, ``BanzhafMidpoint`` (BRF, PBRF), ``StrongWeakMidpoint`` (Biau12),
``EmpiricalError`` (greedy misclassification), the label views, and the two kinds of
plug-in (``CompiledSplitRule``, ``PythonSplitRule``)."""

from forestrepro.trees.rules.banzhaf_rule import BanzhafMidpoint
from forestrepro.trees.rules.base import (
    CompiledSplitRule,
    NodeView,
    PythonSplitRule,
    SplitRule,
)
from forestrepro.trees.rules.best_threshold import BestThreshold
from forestrepro.trees.rules.biau import StrongWeakMidpoint
from forestrepro.trees.rules.empirical_error import EmpiricalError
from forestrepro.trees.rules.label_view import LabelView, OriginalLabels, PriorityClassView
from forestrepro.trees.rules.midpoint import Midpoint

__all__ = [
    "BanzhafMidpoint",
    "BestThreshold",
    "CompiledSplitRule",
    "EmpiricalError",
    "LabelView",
    "Midpoint",
    "NodeView",
    "OriginalLabels",
    "PriorityClassView",
    "PythonSplitRule",
    "SplitRule",
    "StrongWeakMidpoint",
]
