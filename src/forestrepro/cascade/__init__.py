"""The deep-forest family: gcForest's cascade (DF), the weighted deep forest (WDF, Gong, Wang
and Su 2019) and multi-grained scanning.

- :mod:`.forest`: ``CascadeForestClassifier``, the cascade (DF with ``weighting="none"``, WDF
  with ``weighting="accuracy"``);
- :mod:`.deep_forest`: ``DeepForestClassifier``, scanning then the cascade;
- :mod:`.scanning`, :mod:`.window_forest`: ``MultiGrainedScanner`` and its forests of windows;
- :mod:`.weighting`: ``WeightedForestClassifier`` and the tree weights of WDF's Eqs. 1-6;
- :mod:`.members`: the forests of a cascade level and their cross-fitting;
- :mod:`.scan_cache`, :mod:`.cache`: the scan store shared by a split's jobs and the kept
  forests of a stopped cascade (both on ``forestrepro.checkpoint``).

Names are imported on first use (``_lazy.py``), so importing the package loads no numba code.
"""

from .._lazy import lazy_exports

__all__ = [
    "CascadeForestClassifier",
    "DeepForestClassifier",
    "MultiGrainedScanner",
    "WeightedForestClassifier",
]
__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "CascadeForestClassifier": "forest",
        "DeepForestClassifier": "deep_forest",
        "MultiGrainedScanner": "scanning",
        "WeightedForestClassifier": "weighting",
    },
)
