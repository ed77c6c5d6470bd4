"""Tree builder with pluggable split rules (gain ratio, Gini, IIG, midpoint, label views).

``build_tree`` grows one tree; ``PluggableTreeClassifier`` wraps it as a scikit-learn
classifier.  Split rules live in ``forestrepro.trees.rules``.
"""

from .builder import StoppingRules, build_tree
from .estimator import PluggableTreeClassifier
from .tree import Tree

__all__ = ["PluggableTreeClassifier", "StoppingRules", "Tree", "build_tree"]
