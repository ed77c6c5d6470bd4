"""The bagged forests of the BRF, RCRF and credal-forest papers, and the textbook random forest.

``_base`` holds what they share (``BaggedForest``, ``TreePredictionsMixin``, ``PaperForest``
and their parameters' constraints); each other module one paper's forests. Names are
imported on first use (``_lazy.py``), so a job imports only its own forest's code.
"""

from .._lazy import lazy_exports

__all__ = [
    "BanzhafForestClassifier",
    "Biau12ForestClassifier",
    "BreimanForestClassifier",
    "CredalForestClassifier",
    "EmpiricalErrorForestClassifier",
    "GainRatioForestClassifier",
    "PluggableForestClassifier",
    "RCRFClassifier",
    "TextbookRandomForestClassifier",
]
__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "BanzhafForestClassifier": "brf",
        "Biau12ForestClassifier": "biau",
        "BreimanForestClassifier": "credal",
        "CredalForestClassifier": "credal",
        "EmpiricalErrorForestClassifier": "empirical_error_rf",
        "GainRatioForestClassifier": "brf",
        "PluggableForestClassifier": "forest",
        "RCRFClassifier": "rcrf",
        "TextbookRandomForestClassifier": "textbook_rf",
    },
)
