"""Split rules of the tree builder: ``BestThreshold`` (Gini, information gain, gain ratio,
IIG), ``Midpoint``, ``BanzhafMidpoint`` (BRF, PBRF), ``StrongWeakMidpoint`` (Biau12),
``EmpiricalError`` (greedy misclassification), the label views, and the two kinds of
plug-in (``CompiledSplitRule``, ``PythonSplitRule``)."""

from ..._lazy import lazy_exports

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
__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "BanzhafMidpoint": "banzhaf_rule",
        "CompiledSplitRule": "base",
        "NodeView": "base",
        "PythonSplitRule": "base",
        "SplitRule": "base",
        "BestThreshold": "best_threshold",
        "StrongWeakMidpoint": "biau",
        "EmpiricalError": "empirical_error",
        "LabelView": "label_view",
        "OriginalLabels": "label_view",
        "PriorityClassView": "label_view",
        "Midpoint": "midpoint",
    },
)
