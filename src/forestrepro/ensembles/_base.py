"""What the bagged forests share: the bagging base, the tree-prediction mixin, the BRF paper's base,
and their parameters' constraints.

``BaggedForest`` is the machinery of every forest of ``ensembles/``, like scikit-learn's
``BaseForest`` (``sklearn/ensemble/_forest.py``): per-tree seeds are drawn from
``random_state`` before any tree is grown, each tree's bootstrap sample is drawn from its own
seed (the same samples as scikit-learn's forest with the same ``random_state``) and enters as
sample-weight multiplicities, ``X`` is coded by column once for all the trees
(``trees.tree_codes``), and trees grow in threads (the compiled builder releases the
GIL), so a forest does not depend on ``n_jobs``. A forest defines ``_make_tree(seed)``; its
``__init__`` takes its own parameters and hands the shared ones to ``super().__init__``; its
``_parameter_constraints`` extend ``BaggedForest``'s, and ``fit`` checks them
(``forestrepro._validation.check_params``) before it touches the data.
"""

from __future__ import annotations

import inspect
import threading
import warnings
from numbers import Integral, Real

import numpy as np
from joblib import Parallel, delayed
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils import check_random_state
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from .._validation import COUNT, REAL, Interval, StrOptions, at_least, check_params, resolve_count
from ..trees.estimator import PluggableTreeClassifier
from ..trees.seeded import seeded
from ..trees.tree_codes import tree_codes

_MAX_SEED = np.iinfo(np.int32).max

BAGGING_CONSTRAINTS: dict[str, list] = {
    "n_estimators": [at_least(1)],
    "bootstrap": ["boolean"],
    "max_samples": COUNT,
    "voting": [StrOptions({"soft", "hard"})],
    "oob_score": ["boolean"],
    "n_jobs": [Integral, None],
    "random_state": ["random_state"],
}
"""The parameters of every bagged forest."""

STOPPING_CONSTRAINTS: dict[str, list] = {
    "max_depth": [None, at_least(1)],
    "min_samples_split": [at_least(2)],
    "max_leaf_nodes": [None, at_least(2)],
    "max_error_fraction": [Interval(Real, 0.0, 1.0, closed="both")],
}
"""The trees' stopping rules (``forestrepro.trees.StoppingRules``)."""

ALWAYS_BAGGED = ("bootstrap", "max_samples")
"""Parameters of the forests that always bag all ``n`` rows (RCRF's, the credal forest's)."""


def base_arguments(base: type, arguments: dict) -> dict:
    """The arguments of ``base.__init__`` among ``arguments`` (a subclass ``__init__``'s
    ``locals()``): ``super().__init__(**base_arguments(Base, locals()))`` hands the shared
    parameters to the base, which sets them (a parameter the subclass does not take, such as
    RCRF's ``bootstrap``, keeps the base's default). scikit-learn reads every parameter from
    the subclass's own signature, so each forest still lists them there."""
    names = list(inspect.signature(base.__init__).parameters)[1:]
    return {name: arguments[name] for name in names if name in arguments}


class BaggedForest(ClassifierMixin, BaseEstimator):
    """Bagged trees that vote: the base of the forests of ``ensembles/``.

    Parameters
    ----------
    n_estimators : int, default=100
        The number of trees.
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
        Seeds the trees, drawn before any tree grows.
    """

    _parameter_constraints: dict[str, list] = dict(BAGGING_CONSTRAINTS)

    def __init__(
        self,
        n_estimators=100,
        *,
        bootstrap=True,
        max_samples=None,
        voting="soft",
        oob_score=False,
        n_jobs=None,
        random_state=None,
    ):
        self.n_estimators = n_estimators
        self.bootstrap = bootstrap
        self.max_samples = max_samples
        self.voting = voting
        self.oob_score = oob_score
        self.n_jobs = n_jobs
        self.random_state = random_state

    def fit(self, X, y):
        """Grow the forest on ``X`` (n_samples, n_features) and class labels ``y``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training data (read as float32).
        y : array-like of shape (n_samples,)
            Class labels.

        Returns
        -------
        self : object
            The fitted forest.
        """
        X, y = validate_data(self, X, y, dtype=np.float32, order="C")
        check_classification_targets(y)
        self._check_params()
        self.classes_, y_encoded = np.unique(y, return_inverse=True)
        n_samples = X.shape[0]
        n_bootstrap = (
            resolve_count(self.max_samples, n_samples, "max_samples") if self.bootstrap else n_samples
        )
        seeds = check_random_state(self.random_state).randint(_MAX_SEED, size=self.n_estimators)
        codes = tree_codes(X)
        self.estimators_ = Parallel(n_jobs=self.n_jobs, prefer="threads")(
            delayed(self._fit_tree)(X, y_encoded, seed, n_bootstrap, codes) for seed in seeds
        )
        if self.oob_score:
            self._set_oob(X, y_encoded)
        return self

    def _check_params(self):
        """Check the parameters against ``_parameter_constraints`` and each other."""
        check_params(self)
        if self.oob_score and not self.bootstrap:
            raise ValueError("oob_score needs bootstrap=True")

    def _make_tree(self, seed):
        """An unfitted tree with the forest's tree parameters and its own seed."""
        raise NotImplementedError

    def _fit_tree(self, X, y_encoded, seed, n_bootstrap, codes):
        n_samples = X.shape[0]
        if self.bootstrap:
            indices = seeded(seed).randint(0, n_samples, n_bootstrap)
            weight = np.bincount(indices, minlength=n_samples).astype(np.float64)
        else:
            weight = np.ones(n_samples)
        tree = self._make_tree(seed)
        tree.classes_ = self.classes_
        tree.n_features_in_ = X.shape[1]
        tree._fit_encoded(X, y_encoded, weight, codes)
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

        Parallel(n_jobs=self.n_jobs, prefer="threads")(delayed(add)(tree) for tree in self.estimators_)
        if np.any(n_trees == 0):
            warnings.warn(
                "Some inputs do not have OOB scores; their out-of-bag "
                "predictions are NaN. Use more estimators.",
                UserWarning,
            )
        with np.errstate(invalid="ignore", divide="ignore"):
            self.oob_decision_function_ = total / n_trees[:, None]
        seen = n_trees > 0
        self.oob_score_ = float(
            np.mean(np.argmax(self.oob_decision_function_[seen], axis=1) == y_encoded[seen])
        )

    def predict_proba(self, X):
        """Mean class probabilities (soft voting) or vote fractions (hard voting).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Rows to predict.

        Returns
        -------
        proba : ndarray of shape (n_samples, n_classes)
            Columns in the order of ``classes_``.
        """
        check_is_fitted(self)
        X = validate_data(self, X, reset=False, dtype=np.float32, order="C")
        total = np.zeros((X.shape[0], len(self.classes_)))
        lock = threading.Lock()

        def add(tree):
            scores = self._tree_scores(tree, X)
            with lock:
                total[:] += scores

        Parallel(n_jobs=self.n_jobs, prefer="threads")(delayed(add)(tree) for tree in self.estimators_)
        return total / len(self.estimators_)

    def predict(self, X):
        """The class of highest forest probability (or most votes).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Rows to predict.

        Returns
        -------
        y : ndarray of shape (n_samples,)
            Predicted class labels; ties go to the class listed first in ``classes_``.
        """
        proba = self.predict_proba(X)
        return self.classes_[np.argmax(proba, axis=1)]


class TreePredictionsMixin:
    """``tree_predictions(X)`` for a forest of ``PluggableTreeClassifier`` trees."""

    def tree_predictions(self, X):
        """Each tree's predicted class, as an index into ``classes_``.

        A tree predicts its leaf's majority class, ties to the lower index (as in the
        forest's hard vote).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Rows to predict.

        Returns
        -------
        predictions : ndarray of shape (n_trees, n_samples)
            Class indices (int).
        """
        check_is_fitted(self)
        X = validate_data(self, X, reset=False, dtype=np.float32, order="C")
        return np.stack([np.argmax(tree.tree_.predict_proba(X), axis=1) for tree in self.estimators_])


def paper_h(n_features, h=None, h_offset=0.0):
    """``h = round(log2(M) + C)`` (BRF paper, Sec. 4.3), rounded half up and clipped to
    ``[1, M]``; ``h`` itself (clipped) when given."""
    if h is None:
        h = int(np.floor(np.log2(n_features) + h_offset + 0.5))
    return int(min(max(h, 1), n_features))


class PaperForest(BaggedForest):
    """Base of the BRF paper's forests: ``h``/``h_offset``, the trees' stopping rules, majority vote.

    Subclasses take their own parameters in ``__init__`` and hand these to
    ``super().__init__``, and define ``_tree_kwargs()``: the split rule and feature
    parameters of their trees. ``fit`` validates the data, then calls ``_check_params``,
    which also sets ``h_``, the ``h`` of the fitted data.
    """

    _parameter_constraints: dict[str, list] = {
        **BaggedForest._parameter_constraints,
        **STOPPING_CONSTRAINTS,
        "h": [None, at_least(1)],
        "h_offset": [REAL],
    }

    def __init__(
        self,
        n_estimators=100,
        *,
        h_offset=0.0,
        h=None,
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
        super().__init__(**base_arguments(BaggedForest, locals()))
        self.h_offset = h_offset
        self.h = h
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.max_leaf_nodes = max_leaf_nodes
        self.max_error_fraction = max_error_fraction

    def _check_params(self):
        super()._check_params()
        self.h_ = paper_h(self.n_features_in_, self.h, self.h_offset)

    def _tree_kwargs(self):
        raise NotImplementedError

    def _make_tree(self, seed):
        return PluggableTreeClassifier(
            max_depth=self.max_depth,
            min_samples_split=self.min_samples_split,
            max_leaf_nodes=self.max_leaf_nodes,
            max_error_fraction=self.max_error_fraction,
            random_state=seed,
            **self._tree_kwargs(),
        )
