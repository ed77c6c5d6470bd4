"""``PluggableForestClassifier``: bagging of ``PluggableTreeClassifier`` trees.

Like scikit-learn's ``RandomForestClassifier`` (``sklearn/ensemble/_forest.py``): per-tree
seeds are drawn from ``random_state`` before any tree is grown, each tree's bootstrap sample
is drawn from its own seed (the same samples as scikit-learn's forest with the same
``random_state``) and enters as sample-weight multiplicities, and trees grow in threads
(the compiled builder releases the GIL), so the forest does not depend on ``n_jobs``.
"""

import threading
import warnings

import numpy as np
from joblib import Parallel, delayed
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils import check_random_state
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from forestrepro.trees.estimator import PluggableTreeClassifier, resolve_count

_MAX_SEED = np.iinfo(np.int32).max
_VOTING = ("soft", "hard")
_TREE_PARAMS = ("split_rule", "max_depth", "min_samples_split", "max_leaf_nodes",
                "max_error_fraction", "max_features", "subspace_size", "root_cell")


class PluggableForestClassifier(ClassifierMixin, BaseEstimator):
    """A forest of pluggable trees.

    Parameters
    ----------
    n_estimators : int, default=100
    split_rule, max_depth, min_samples_split, max_leaf_nodes, max_error_fraction,
    max_features, subspace_size, root_cell
        Passed to every ``PluggableTreeClassifier`` (``max_features`` defaults to "sqrt").
    bootstrap : bool, default=True
        Grow each tree on a bootstrap sample (drawn with replacement) instead of all data.
    max_samples : None, int or float, default=None
        Bootstrap sample size: all ``n`` (None), a count, or a fraction of ``n``.
    voting : {"soft", "hard"}, default="soft"
        Average the trees' class probabilities, or take the majority vote of their
        predicted classes (``predict_proba`` then gives vote fractions).
    oob_score : bool, default=False
        Compute out-of-bag predictions (``oob_decision_function_``) and accuracy
        (``oob_score_``); needs ``bootstrap``.
    n_jobs : int or None, default=None
        Threads growing and predicting with trees (joblib convention).
    random_state : int, RandomState or None, default=None
    """

    def __init__(self, n_estimators=100, *, split_rule="gini", max_depth=None,
                 min_samples_split=2, max_leaf_nodes=None, max_error_fraction=0.0,
                 max_features="sqrt", subspace_size=None, root_cell="data", bootstrap=True,
                 max_samples=None, voting="soft", oob_score=False, n_jobs=None,
                 random_state=None):
        self.n_estimators = n_estimators
        self.split_rule = split_rule
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.max_leaf_nodes = max_leaf_nodes
        self.max_error_fraction = max_error_fraction
        self.max_features = max_features
        self.subspace_size = subspace_size
        self.root_cell = root_cell
        self.bootstrap = bootstrap
        self.max_samples = max_samples
        self.voting = voting
        self.oob_score = oob_score
        self.n_jobs = n_jobs
        self.random_state = random_state

    def fit(self, X, y):
        X, y = validate_data(self, X, y, dtype=np.float32, order="C")
        check_classification_targets(y)
        self._check_params()
        self.classes_, y_encoded = np.unique(y, return_inverse=True)
        n_samples = X.shape[0]
        n_bootstrap = (resolve_count(self.max_samples, n_samples, "max_samples")
                       if self.bootstrap else n_samples)
        seeds = check_random_state(self.random_state).randint(_MAX_SEED,
                                                               size=self.n_estimators)
        self.estimators_ = Parallel(n_jobs=self.n_jobs, prefer="threads")(
            delayed(self._fit_tree)(X, y_encoded, seed, n_bootstrap) for seed in seeds
        )
        if self.oob_score:
            self._set_oob(X, y_encoded)
        return self

    def _check_params(self):
        if (not isinstance(self.n_estimators, (int, np.integer)) or isinstance(
                self.n_estimators, bool) or self.n_estimators < 1):
            raise ValueError(f"n_estimators must be an int >= 1, got {self.n_estimators!r}")
        if self.voting not in _VOTING:
            raise ValueError(f"voting must be one of {_VOTING}, got {self.voting!r}")
        if self.oob_score and not self.bootstrap:
            raise ValueError("oob_score needs bootstrap=True")

    def _make_tree(self, seed):
        """An unfitted tree with the forest's tree parameters and its own seed."""
        return PluggableTreeClassifier(
            **{name: getattr(self, name) for name in _TREE_PARAMS}, random_state=seed
        )

    def _fit_tree(self, X, y_encoded, seed, n_bootstrap):
        n_samples = X.shape[0]
        if self.bootstrap:
            indices = np.random.RandomState(seed).randint(0, n_samples, n_bootstrap)
            weight = np.bincount(indices, minlength=n_samples).astype(np.float64)
        else:
            weight = np.ones(n_samples)
        tree = self._make_tree(seed)
        tree.classes_ = self.classes_
        tree.n_features_in_ = X.shape[1]
        tree._fit_encoded(X, y_encoded, weight)
        tree.bootstrap_weight_ = weight if self.bootstrap else None
        return tree

    def _tree_scores(self, tree, X):
        """A tree's contribution to the forest's probabilities: its class frequencies
        (soft voting) or a one-hot vote for its predicted class (hard voting)."""
        proba = tree.tree_.predict_proba(X)
        if self.voting == "soft":
            return proba
        votes = np.zeros_like(proba)
        votes[np.arange(proba.shape[0]), np.argmax(proba, axis=1)] = 1.0
        return votes

    def _set_oob(self, X, y_encoded):
        total = np.zeros((X.shape[0], len(self.classes_)))
        n_trees = np.zeros(X.shape[0])
        lock = threading.Lock()

        def add(tree):
            oob = np.flatnonzero(tree.bootstrap_weight_ == 0)
            scores = self._tree_scores(tree, X[oob])
            with lock:
                total[oob] += scores
                n_trees[oob] += 1

        Parallel(n_jobs=self.n_jobs, prefer="threads")(
            delayed(add)(tree) for tree in self.estimators_
        )
        if np.any(n_trees == 0):
            warnings.warn("Some inputs do not have OOB scores; their out-of-bag "
                          "predictions are NaN. Use more estimators.", UserWarning)
        with np.errstate(invalid="ignore", divide="ignore"):
            self.oob_decision_function_ = total / n_trees[:, None]
        seen = n_trees > 0
        self.oob_score_ = float(np.mean(
            np.argmax(self.oob_decision_function_[seen], axis=1) == y_encoded[seen]))

    def predict_proba(self, X):
        """Mean class probabilities (soft voting) or vote fractions (hard voting)."""
        check_is_fitted(self)
        X = validate_data(self, X, reset=False, dtype=np.float32, order="C")
        total = np.zeros((X.shape[0], len(self.classes_)))
        lock = threading.Lock()

        def add(tree):
            scores = self._tree_scores(tree, X)
            with lock:
                total[:] += scores

        Parallel(n_jobs=self.n_jobs, prefer="threads")(
            delayed(add)(tree) for tree in self.estimators_
        )
        return total / len(self.estimators_)

    def predict(self, X):
        """The class of highest forest probability (or most votes)."""
        proba = self.predict_proba(X)
        return self.classes_[np.argmax(proba, axis=1)]
