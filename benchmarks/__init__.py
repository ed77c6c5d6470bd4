"""The benchmark suite: our code against each anchor, timed side by side, one table of ratios.

    .venv/bin/python -m benchmarks [--quick] [--only NAME ...]

Run from the checkout's root. ``COMPARISONS`` lists them, one ``Comparison`` class each
(``comparison.py``); ``README.md`` indexes the findings kept beside them.
"""

from .c2rf_exact import C2RFExact
from .cascade import Cascade
from .scan_predict import ScanPredict
from .sklearn_trees import SklearnTrees
from .tree_builder import TreeBuilder

COMPARISONS = (TreeBuilder, Cascade, C2RFExact, ScanPredict, SklearnTrees)
