"""``PluggableTreeClassifier``: a scikit-learn classifier around ``build_tree``."""

import numbers

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils import check_random_state
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import _check_sample_weight, check_is_fitted, validate_data

from .._validation import COUNT, Interval, StrOptions, at_least, check_params, resolve_count
from .builder import StoppingRules, build_tree, unit_cell
from .rules.base import SplitRule
from .rules.best_threshold import BestThreshold
from .rules.label_view import OriginalLabels, PriorityClassView
from .seeded import seeded

_MAX_SEED = np.iinfo(np.int32).max


def resolve_split_rule(split_rule):
    """A ``SplitRule`` from a rule or a criterion name (best-threshold rule)."""
    if isinstance(split_rule, SplitRule):
        return split_rule
    if isinstance(split_rule, str):
        return BestThreshold(split_rule)
    raise TypeError(f"split_rule must be a criterion name or a SplitRule, got {split_rule!r}")


class PluggableTreeClassifier(ClassifierMixin, BaseEstimator):
    """A classification tree with a pluggable split rule.

    Parameters
    ----------
    split_rule : str or SplitRule, default="gini"
        A criterion name ("gini", "entropy", "gain_ratio", "iig") for the best-threshold
        rule, or any rule of ``forestrepro.trees.rules`` (e.g. ``Midpoint("gain_ratio")``).
    max_depth, min_samples_split, max_leaf_nodes, max_error_fraction
        Stopping rules, see ``StoppingRules``.
    max_features : None, "sqrt", "log2", int or float, default=None
        Features drawn per node (Breiman; scikit-learn's ``max_features``), out of the
        tree's feature pool.
    subspace_size : None, int or float, default=None
        Size of the random subspace of features drawn once per tree (the ``h`` of the BRF
        paper, Sec. 4.3); None keeps every feature.
    root_cell : {"data", "unit"}, default="data"
        The root cell: the training data range, or ``[0, 1]**d`` for scaled data.
    priority_class : label or None, default=None
        Score splits with ``PriorityClassView`` of this class (RCRF); None: original labels.
    random_state : int, RandomState or None, default=None
    """

    _parameter_constraints = {
        "split_rule": [str, SplitRule],
        "max_depth": [None, at_least(1)],
        "min_samples_split": [at_least(2)],
        "max_leaf_nodes": [None, at_least(2)],
        "max_error_fraction": [Interval(numbers.Real, 0.0, 1.0, closed="both")],
        "max_features": COUNT,
        "subspace_size": COUNT,
        "root_cell": [StrOptions({"data", "unit"})],
        "random_state": ["random_state"],
    }

    def __init__(
        self,
        split_rule="gini",
        *,
        max_depth=None,
        min_samples_split=2,
        max_leaf_nodes=None,
        max_error_fraction=0.0,
        max_features=None,
        subspace_size=None,
        root_cell="data",
        priority_class=None,
        random_state=None,
    ):
        self.split_rule = split_rule
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.max_leaf_nodes = max_leaf_nodes
        self.max_error_fraction = max_error_fraction
        self.max_features = max_features
        self.subspace_size = subspace_size
        self.root_cell = root_cell
        self.priority_class = priority_class
        self.random_state = random_state

    def fit(self, X, y, sample_weight=None):
        X, y = validate_data(self, X, y, dtype=np.float32, order="C")
        check_classification_targets(y)
        self.classes_, y_encoded = np.unique(y, return_inverse=True)
        sample_weight = _check_sample_weight(sample_weight, X, dtype=np.float64, ensure_non_negative=True)
        return self._fit_encoded(X, y_encoded, sample_weight)

    def _fit_encoded(self, X, y_encoded, sample_weight, codes=None):
        """Grow the tree on validated float32 ``X`` and labels encoded by ``classes_``;
        ``codes``: ``X``'s ``tree_codes`` if made already (a forest's, for all its trees)."""
        rule = resolve_split_rule(self.split_rule)
        check_params(self)
        stopping = StoppingRules(
            self.min_samples_split, self.max_depth, self.max_leaf_nodes, float(self.max_error_fraction)
        )
        random_state = (
            seeded(self.random_state)
            if isinstance(self.random_state, numbers.Integral)
            else check_random_state(self.random_state)
        )
        n_features = X.shape[1]
        pool = np.arange(n_features)
        if self.subspace_size is not None:
            size = resolve_count(self.subspace_size, n_features, "subspace_size")
            pool = np.sort(random_state.choice(n_features, size, replace=False))
        n_eval = resolve_count(self.max_features, pool.shape[0], "max_features")
        self.tree_ = build_tree(
            X,
            y_encoded,
            len(self.classes_),
            rule,
            sample_weight=sample_weight,
            stopping=stopping,
            features=pool,
            n_eval=n_eval,
            root_cell=unit_cell(n_features) if self.root_cell == "unit" else None,
            label_view=self._label_view(),
            seed=random_state.randint(_MAX_SEED),
            codes=codes,
        )
        self.features_ = pool
        return self

    def _label_view(self):
        if self.priority_class is None:
            return OriginalLabels()
        matches = np.flatnonzero(self.classes_ == self.priority_class)
        if matches.size == 0:
            raise ValueError(f"priority_class {self.priority_class!r} is not a class of y")
        return PriorityClassView(int(matches[0]))

    def predict_proba(self, X):
        """Class frequencies in the leaf of each sample."""
        check_is_fitted(self)
        X = validate_data(self, X, reset=False, dtype=np.float32, order="C")
        return self.tree_.predict_proba(X)

    def predict(self, X):
        """The majority class of the leaf of each sample."""
        proba = self.predict_proba(X)
        return self.classes_[np.argmax(proba, axis=1)]
