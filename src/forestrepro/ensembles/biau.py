"""Biau12 and Biau12V as the BRF paper runs them (Sun et al. 2018, Secs. 6.1-6.2): the
random forest model of Biau (2012) with strong features chosen by gain ratio (Biau12) or by
the Banzhaf power index (Biau12V).  The node rule and our reading of the paper's
description are in ``forestrepro.trees.rules.biau``."""

from __future__ import annotations

from numbers import Integral

import numpy as np
from sklearn.utils import check_random_state
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import validate_data

from .._validation import COUNT, Interval, StrOptions, at_least, check_params, resolve_count
from ..trees.rules.banzhaf_rule import MAX_BINS
from ..trees.rules.biau import IMPORTANCES, StrongWeakMidpoint, feature_scores, strong_features
from ._base import PaperForest, base_arguments


class Biau12ForestClassifier(PaperForest):
    """Biau12 (``importance="gain_ratio"``) and Biau12V (``importance="banzhaf"``).

    ``fit`` first scores every feature on the whole training set (gain ratio of its
    midpoint cut at the root cell, or Banzhaf index among all features) and calls the
    ``n_strong`` best ones strong.  Each tree then grows on a bootstrap sample; at every
    node ``h = round(log2(M) + C)`` candidate features are drawn without replacement, a
    strong one among them is chosen at random if there is one, else a weak one, and the
    node is cut at its midpoint.  Majority vote.

    The parameters every bagged forest shares (``bootstrap``, ``max_samples``, ``voting``,
    ``oob_score``, ``n_jobs``, ``random_state``) are those of
    [`BaggedForest`][forestrepro.ensembles._base.BaggedForest]; ``voting`` defaults to
    "hard" (majority vote), and ``max_depth``, ``min_samples_split``, ``max_leaf_nodes`` and
    ``max_error_fraction`` are the trees' stopping rules
    (``forestrepro.trees.StoppingRules``).

    Parameters
    ----------
    n_estimators : int, default=100
        The number of trees.
    importance : {"gain_ratio", "banzhaf"}, default="gain_ratio"
        How features are scored before growing: Biau12 or Biau12V.
    n_strong : int, float, "sqrt", "log2" or None, default="sqrt"
        Number of strong features (scikit-learn's ``max_features`` convention out of
        ``M``; None: all).  The paper does not give it.
    h_offset : float, default=0.0
        ``C`` of the candidates per node, ``h = round(log2(M) + C)`` (see ``ensembles.brf``).
    h : int or None, default=None
        The candidates per node themselves (overrides ``h_offset``).
    of : {"cell", "data"}, default="cell"
        Midpoint of the node's cell or of its data range.
    root_cell : {"data", "unit"}, default="data"
        Root cell: the training data range, or ``[0, 1]**M`` for data scaled to it.
    n_bins : int, default=2
        Equal-width bins per feature of the Banzhaf score (Biau12V only).
    max_coalition : int or None, default=3
        Coalition bound of the Banzhaf score (Biau12V only).

    Attributes
    ----------
    feature_scores_ : ndarray of shape (n_features,)
        Importance of each feature on the training set (``-inf``: constant feature).
    strong_features_ : tuple of int
        Indices of the strong features.
    """

    _parameter_constraints: dict[str, list] = {
        **PaperForest._parameter_constraints,
        "importance": [StrOptions(set(IMPORTANCES))],
        "n_strong": COUNT,
        "of": [StrOptions({"cell", "data"})],
        "root_cell": [StrOptions({"data", "unit"})],
        "n_bins": [Interval(Integral, 2, MAX_BINS, closed="both")],
        "max_coalition": [None, at_least(1)],
    }

    def __init__(
        self,
        n_estimators=100,
        *,
        importance="gain_ratio",
        n_strong="sqrt",
        h_offset=0.0,
        h=None,
        of="cell",
        root_cell="data",
        n_bins=2,
        max_coalition=3,
        max_depth=None,
        min_samples_split=2,
        max_leaf_nodes=None,
        max_error_fraction=0.0,
        bootstrap=True,
        max_samples=None,
        voting="hard",
        oob_score=False,
        n_jobs=None,
        random_state=None,
    ):
        super().__init__(**base_arguments(PaperForest, locals()))
        self.importance = importance
        self.n_strong = n_strong
        self.of = of
        self.root_cell = root_cell
        self.n_bins = n_bins
        self.max_coalition = max_coalition

    def fit(self, X, y):
        """Score the features, pick the strong ones, grow the forest."""
        X_checked, y_checked = validate_data(self, X, y, dtype=np.float32, order="C")
        check_classification_targets(y_checked)
        check_params(self)
        n_features = X_checked.shape[1]
        root_cell = None
        if self.root_cell == "unit":
            if X_checked.min() < 0.0 or X_checked.max() > 1.0:
                raise ValueError(
                    "training data lie outside the root cell [0, 1]; scale "
                    "them into it or use root_cell='data'"
                )
            root_cell = (np.zeros(n_features), np.ones(n_features))
        self.feature_scores_ = feature_scores(
            X_checked,
            y_checked,
            self.importance,
            root_cell=root_cell,
            of=self.of,
            n_bins=self.n_bins,
            max_coalition=self.max_coalition,
        )
        n_strong = resolve_count(self.n_strong, n_features, "n_strong")
        self.strong_features_ = strong_features(
            self.feature_scores_, n_strong, check_random_state(self.random_state)
        )
        return super().fit(X, y)

    def _tree_kwargs(self):
        return dict(
            split_rule=StrongWeakMidpoint(self.strong_features_, of=self.of),
            subspace_size=None,
            max_features=self.h_,
            root_cell=self.root_cell,
        )
