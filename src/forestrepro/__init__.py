"""forestrepro: regenerate the tables and figures of a family of random-forest papers.

The library is importable without Snakemake or Hydra: every algorithm takes numpy arrays and
plain arguments. ``forestrepro.cli`` turns a composed configuration into those arguments.

The papers' estimators are importable from here, e.g.
``from forestrepro import BanzhafForestClassifier, RCRFClassifier``. They are imported on first
use (``_lazy.py``), so ``import forestrepro`` loads neither numba nor HiGHS, and a job imports
(and its record depends on) only the modules it uses.
"""

from ._lazy import lazy_exports

__version__ = "0.1.0"

__all__ = [
    "BanzhafForestClassifier",
    "Biau12ForestClassifier",
    "BreimanForestClassifier",
    "CascadeForestClassifier",
    "CredalForestClassifier",
    "DeepForestClassifier",
    "EmpiricalErrorForestClassifier",
    "GainRatioForestClassifier",
    "MultiGrainedScanner",
    "PluggableForestClassifier",
    "PluggableTreeClassifier",
    "RCRFClassifier",
    "TextbookRandomForestClassifier",
    "WeightedForestClassifier",
    "build_instance",
    "majority_vote",
    "solve",
]
__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "BanzhafForestClassifier": "ensembles.brf",
        "GainRatioForestClassifier": "ensembles.brf",
        "Biau12ForestClassifier": "ensembles.biau",
        "EmpiricalErrorForestClassifier": "ensembles.empirical_error_rf",
        "RCRFClassifier": "ensembles.rcrf",
        "CredalForestClassifier": "ensembles.credal",
        "BreimanForestClassifier": "ensembles.credal",
        "TextbookRandomForestClassifier": "ensembles.textbook_rf",
        "PluggableForestClassifier": "ensembles.forest",
        "PluggableTreeClassifier": "trees.estimator",
        "CascadeForestClassifier": "cascade.forest",
        "DeepForestClassifier": "cascade.deep_forest",
        "MultiGrainedScanner": "cascade.scanning",
        "WeightedForestClassifier": "cascade.weighting",
        "solve": "c2rf.solver",
        "majority_vote": "c2rf.solver",
        "build_instance": "c2rf.instances",
    },
)
