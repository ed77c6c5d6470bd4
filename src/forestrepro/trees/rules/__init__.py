"""Split rules of the tree builder: ``BestThreshold`` (Gini, information gain, gain ratio,
IIG), ``Midpoint``, the label views, and the two kinds of plug-in (``CompiledSplitRule``,
``PythonSplitRule``)."""

from forestrepro.trees.rules.base import (
    CompiledSplitRule,
    NodeView,
    PythonSplitRule,
    SplitRule,
)
from forestrepro.trees.rules.best_threshold import BestThreshold
from forestrepro.trees.rules.label_view import LabelView, OriginalLabels, PriorityClassView
from forestrepro.trees.rules.midpoint import Midpoint

__all__ = [
    "BestThreshold",
    "CompiledSplitRule",
    "LabelView",
    "Midpoint",
    "NodeView",
    "OriginalLabels",
    "PriorityClassView",
    "PythonSplitRule",
    "SplitRule",
]
