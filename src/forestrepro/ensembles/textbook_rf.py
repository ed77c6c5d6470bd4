"""The random forest of Shalev-Shwartz & Ben-David, *Understanding Machine Learning*, Sec. 18.3.

A random forest is a majority vote over trees; tree t is grown by an algorithm A on

- a sample S' of size m' drawn with replacement from S (``bootstrap_fraction`` = m'/m), and
- random feature subsets I_t of size k (``max_features``): at each split the tree may only
  choose among k features drawn at random (``feature_subset="per_node"``, as in the textbook
  and in Breiman 2001), or among k features drawn once for the whole tree
  (``feature_subset="per_tree"``, Ho's random subspace, which the BRF paper uses for its own
  forests).

A is scikit-learn's CART grower with the textbook's information Gain (``criterion="entropy"``)
or Gini. ``voting="hard"`` counts one vote per tree (ties go to the class listed first in
``classes_``); ``voting="soft"`` averages the trees' class probabilities as scikit-learn's
``RandomForestClassifier`` does. These are the words of every forest of ``ensembles/`` (the
textbook's majority vote is ``"hard"``).
"""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, _fit_context
from sklearn.ensemble import BaggingClassifier, RandomForestClassifier
from sklearn.tree import DecisionTreeClassifier
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data


class TextbookRandomForestClassifier(ClassifierMixin, BaseEstimator):
    """Bagged CART trees with random feature subsets and a majority vote (UML Sec. 18.3).

    Parameters
    ----------
    n_estimators : int, default=100
        The number of trees.
    max_features : int, float, {"sqrt", "log2"} or None, default="sqrt"
        k, the size of each random feature subset: an int, a fraction of the features,
        ``"sqrt"``, ``"log2"`` or ``None`` (all features).
    feature_subset : {"per_node", "per_tree"}, default="per_node"
        Draw the subset at every split or once per tree (see the module docstring).
    bootstrap_fraction : float, default=1.0
        m'/m, the size of each tree's bootstrap sample relative to the data.
    criterion : {"entropy", "gini", "log_loss"}, default="entropy"
        Information gain (``"entropy"``, ``"log_loss"``) or Gini.
    voting : {"hard", "soft"}, default="hard"
        One vote per tree (``"hard"``, the textbook's majority vote) or the mean of the
        trees' class probabilities (``"soft"``).
    random_state : int, RandomState or None, default=None
        Seed of the bootstrap samples and feature draws.
    n_jobs : int or None, default=None
        Trees grown in parallel by joblib (results do not depend on it).
    """

    _parameter_constraints = {
        "n_estimators": [Interval(Integral, 1, None, closed="left")],
        "max_features": [
            Interval(Integral, 1, None, closed="left"),
            Interval(Real, 0.0, 1.0, closed="right"),
            StrOptions({"sqrt", "log2"}),
            None,
        ],
        "feature_subset": [StrOptions({"per_node", "per_tree"})],
        "bootstrap_fraction": [Interval(Real, 0.0, 1.0, closed="right")],
        "criterion": [StrOptions({"entropy", "gini", "log_loss"})],
        "voting": [StrOptions({"hard", "soft"})],
        "random_state": ["random_state"],
        "n_jobs": [Integral, None],
    }

    def __init__(
        self,
        n_estimators: int = 100,
        max_features: int | float | str | None = "sqrt",
        feature_subset: str = "per_node",
        bootstrap_fraction: float = 1.0,
        criterion: str = "entropy",
        voting: str = "hard",
        random_state=None,
        n_jobs: int | None = None,
    ):
        self.n_estimators = n_estimators
        self.max_features = max_features
        self.feature_subset = feature_subset
        self.bootstrap_fraction = bootstrap_fraction
        self.criterion = criterion
        self.voting = voting
        self.random_state = random_state
        self.n_jobs = n_jobs

    def _subset_size(self, n_features: int) -> int:
        k = self.max_features
        if k is None:
            return n_features
        if k == "sqrt":
            return max(1, int(np.sqrt(n_features)))
        if k == "log2":
            return max(1, int(np.log2(n_features)))
        if isinstance(k, Integral):
            return min(int(k), n_features)
        return max(1, int(k * n_features))

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Grow the forest on ``X`` (n_samples, n_features) and class labels ``y``."""
        X, y = validate_data(self, X, y)
        check_classification_targets(y)
        self.classes_, y_index = np.unique(y, return_inverse=True)
        k = self._subset_size(X.shape[1])
        max_samples = None if self.bootstrap_fraction == 1.0 else self.bootstrap_fraction
        if self.feature_subset == "per_node":
            self.ensemble_ = RandomForestClassifier(
                n_estimators=self.n_estimators,
                criterion=self.criterion,
                max_features=k,
                bootstrap=True,
                max_samples=max_samples,
                random_state=self.random_state,
                n_jobs=self.n_jobs,
            )
        else:
            self.ensemble_ = BaggingClassifier(
                estimator=DecisionTreeClassifier(criterion=self.criterion),
                n_estimators=self.n_estimators,
                max_samples=self.bootstrap_fraction,
                max_features=k,
                bootstrap=True,
                bootstrap_features=False,
                random_state=self.random_state,
                n_jobs=self.n_jobs,
            )
        self.ensemble_.fit(X, y_index)
        return self

    def _tree_votes(self, X) -> np.ndarray:
        """Count, for every sample, how many trees predict each class: (n_samples, n_classes)."""
        votes = np.zeros((X.shape[0], len(self.classes_)))
        rows = np.arange(X.shape[0])
        if self.feature_subset == "per_node":
            members = [(tree, slice(None)) for tree in self.ensemble_.estimators_]
        else:
            members = zip(self.ensemble_.estimators_, self.ensemble_.estimators_features_)
        for tree, features in members:
            predicted = tree.predict(X[:, features]).astype(np.intp)
            votes[rows, predicted] += 1
        return votes

    def predict_proba(self, X) -> np.ndarray:
        """Vote fractions (hard voting) or averaged tree probabilities (soft voting)."""
        check_is_fitted(self)
        X = validate_data(self, X, reset=False)
        if self.voting == "soft":
            return self.ensemble_.predict_proba(X)
        return self._tree_votes(X) / len(self.ensemble_.estimators_)

    def predict(self, X) -> np.ndarray:
        """The class with most votes (or the highest mean probability); ties: first class."""
        proba = self.predict_proba(X)
        return self.classes_[np.argmax(proba, axis=1)]
