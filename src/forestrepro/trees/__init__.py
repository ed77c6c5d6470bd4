"""Tree builder with pluggable split rules (gain ratio, Gini, IIG, midpoint, label views).

``build_tree`` grows one tree; ``PluggableTreeClassifier`` wraps it as a scikit-learn
classifier.  Split rules live in ``forestrepro.trees.rules``.

Names are imported on first use (``_lazy.py``): the cascade imports ``_sort`` alone, so its
records depend on none of the builder's modules.
"""

from .._lazy import lazy_exports

__all__ = ["PluggableTreeClassifier", "StoppingRules", "Tree", "build_tree"]
__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "PluggableTreeClassifier": "estimator",
        "StoppingRules": "builder",
        "Tree": "tree",
        "build_tree": "builder",
    },
)
