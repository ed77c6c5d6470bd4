"""Accuracy-weighted forests of the weighted deep forest (WDF; Gong, Wang, Su 2019, Sec. 2).

A WDF forest replaces the plain average of its trees' class vectors (gcForest, WDF Fig. 3) by
the weighted sum of Eqs. (5)-(6), with the weights of Eq. (4) computed from each tree's
accuracy of Eqs. (1)-(3) (WDF Fig. 4, Algorithm 1 lines 7-8 and 11).

Sums over trees run in fixed chunks of ``TREE_CHUNK`` trees added in tree order, so a forest's
class vectors are bit-for-bit the same whatever ``n_jobs`` (scikit-learn's ``predict_proba``
adds the trees in thread-completion order).
"""

from numbers import Integral

import numpy as np
from joblib import Parallel, delayed
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.ensemble import RandomForestClassifier
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from .._validation import REAL, HasMethods, StrOptions, check_params
from .growth import grow

WEIGHTINGS = ("none", "accuracy")
ACCURACY_SOURCES = ("train", "oob")
WEIGHT_RULES = ("clip", "drop")
TREE_CHUNK = 16


def log_odds_weights(accuracy, *, rule="clip", epsilon=1e-3):
    """Tree weights of Eq. (4): ``W_k = log2(a_k / (1 - a_k)) / sum_i log2(a_i / (1 - a_i))``.

    As printed, Eq. (4) breaks down at both ends: a tree with ``a_k = 1`` (a completely random
    tree grown on all its training points is always right on them) has an infinite log-odds,
    and a tree with ``a_k <= 0.5`` gets a weight of zero or less (the log-odds vanish at
    ``a = 1/2`` whatever the number of classes), so the normaliser can be zero or negative.
    ``rule`` says what is done instead:

    - ``"clip"`` (default): ``a_k`` is clipped to ``[1/2 + epsilon, 1 - epsilon]`` before
      Eq. (4). A perfect tree gets the finite log-odds ``log2((1 - epsilon) / epsilon)``
      (9.97 bits for ``epsilon = 1e-3``) and a tree at or below 1/2 the small positive floor
      ``log2((1/2 + epsilon) / (1/2 - epsilon))`` (0.0058 bits), so every weight is positive,
      the weights keep Eq. (4)'s order, and they move continuously with the accuracies.
    - ``"drop"``: ``a_k`` is clipped to ``1 - epsilon`` only, and trees with ``a_k <= 1/2``
      get weight 0 (they leave the forest's vote). If no tree is above 1/2 the weights fall
      back to uniform, the plain average of the unweighted deep forest.

    Clipping is the default because it needs no special case and keeps every tree in the
    vote; a tree at or below 1/2 weighs about 1/275 of a tree at 3/4 (``log2 3`` bits). The
    two rules differ markedly only where most trees are at or below 1/2: with ``c > 2``
    classes a tree can beat chance (``1/c``) and still have ``a_k <= 1/2`` (Eq. 4 is the
    weighted-majority-vote weight of the paper's ref. [7], whose zero is at 1/2), as the
    out-of-bag accuracies of trees on the 10-class YEAST data mostly are.

    Parameters
    ----------
    accuracy : array-like of shape (n_trees,)
        The trees' accuracies ``a_k`` (Eq. 3), in [0, 1].
    rule : {"clip", "drop"}, default="clip"
    epsilon : float in (0, 1/2), default=1e-3

    Returns
    -------
    ndarray of shape (n_trees,): non-negative weights summing to 1.
    """
    accuracy = np.asarray(accuracy, dtype=np.float64)
    if rule not in WEIGHT_RULES:
        raise ValueError(f"rule must be one of {WEIGHT_RULES}, got {rule!r}")
    if not 0.0 < epsilon < 0.5:
        raise ValueError(f"epsilon must be in (0, 1/2), got {epsilon!r}")
    if accuracy.ndim != 1 or accuracy.size == 0 or np.any((accuracy < 0) | (accuracy > 1)):
        raise ValueError("accuracy must be a non-empty 1-D array of values in [0, 1]")
    if rule == "clip":
        a = np.clip(accuracy, 0.5 + epsilon, 1.0 - epsilon)
        log_odds = np.log2(a / (1.0 - a))
    else:
        a = np.minimum(accuracy, 1.0 - epsilon)
        above = a > 0.5
        if not np.any(above):
            return np.full(accuracy.size, 1.0 / accuracy.size)
        log_odds = np.zeros_like(a)
        log_odds[above] = np.log2(a[above] / (1.0 - a[above]))
    return log_odds / log_odds.sum()


def tree_accuracies(forest, X, y_encoded, source="train", n_jobs=None):
    """Each tree's accuracy ``a_k`` of Eqs. (1)-(3): the fraction of rows whose class of
    highest tree probability (ties to the lowest class index, Eq. 2) is the true class.

    ``source="train"`` scores every tree on ``X``, the forest's training data, as printed
    (Eq. 3 with ``T`` the training set). ``source="oob"`` scores each tree on its out-of-bag
    rows of ``X`` (needs a bootstrapped forest); a tree without out-of-bag rows falls back to
    its accuracy on ``X``. ``y_encoded`` holds class indices into ``forest.classes_``.
    """
    if source not in ACCURACY_SOURCES:
        raise ValueError(f"source must be one of {ACCURACY_SOURCES}, got {source!r}")
    if source == "oob" and not forest.bootstrap:
        raise ValueError("accuracy source 'oob' needs a forest grown with bootstrap=True")
    X = np.asarray(X, dtype=np.float32)  # any memory order: a tree reads a few values a row
    n_samples = X.shape[0]
    in_bag = forest.estimators_samples_ if source == "oob" else None

    def score(k, tree):
        # Every row is predicted and the out-of-bag ones picked afterwards: a tree reaches a
        # leaf in a few steps, while copying the rows (d features each) would cost far more.
        right = np.argmax(tree.predict_proba(X, check_input=False), axis=1) == y_encoded
        if in_bag is not None:
            oob = np.bincount(in_bag[k], minlength=n_samples) == 0
            right = right[oob] if oob.any() else right
        return float(np.mean(right))

    return np.array(
        Parallel(n_jobs=n_jobs, prefer="threads")(
            delayed(score)(k, tree) for k, tree in enumerate(forest.estimators_)
        )
    )


def sum_over_tree_chunks(n_trees, chunk_sum, n_jobs=None):
    """``chunk_sum(start, stop)`` (the sum over trees ``start .. stop - 1``) for fixed chunks of
    ``TREE_CHUNK`` trees, computed in threads and added in tree order, so the total does not
    depend on ``n_jobs``."""
    parts = Parallel(n_jobs=n_jobs, prefer="threads", return_as="generator")(
        delayed(chunk_sum)(start, min(start + TREE_CHUNK, n_trees)) for start in range(0, n_trees, TREE_CHUNK)
    )
    result = next(parts)
    for part in parts:
        result += part
    return result


def weighted_proba(trees, weights, X, n_jobs=None):
    """Eqs. (5)-(6): ``sum_k W_k p_k(x)``, the trees' class vectors weighted by ``weights``.

    Summed in chunks of trees (``sum_over_tree_chunks``), so the result does not depend on
    ``n_jobs``; memory stays at a few ``(n_samples, n_classes)`` arrays.
    """
    X = np.asarray(X, dtype=np.float32)  # any memory order: a tree reads a few values a row

    def chunk_sum(start, stop):
        total = weights[start] * trees[start].predict_proba(X, check_input=False)
        for k in range(start + 1, stop):
            total += weights[k] * trees[k].predict_proba(X, check_input=False)
        return total

    return sum_over_tree_chunks(len(trees), chunk_sum, n_jobs)


class WeightedForestClassifier(ClassifierMixin, BaseEstimator):
    """A scikit-learn forest whose class vector is ``sum_k W_k p_k`` (WDF Fig. 4, Eqs. 4-6).

    Parameters
    ----------
    forest : RandomForestClassifier or ExtraTreesClassifier, default=None
        The (unfitted) forest to grow; None means ``RandomForestClassifier()``. Its
        ``n_jobs`` and ``random_state`` are replaced by this estimator's. Only
        ``n_estimators``, ``max_features`` and ``bootstrap`` may differ from the defaults
        (``growth.check_growable``).
    weighting : {"none", "accuracy"}, default="accuracy"
        ``"none"``: uniform weights ``1 / n_trees``, the plain average of gcForest (WDF
        Fig. 3); ``"accuracy"``: the weights of Eq. (4) (see ``log_odds_weights``).
    accuracy_source : {"train", "oob"}, default="train"
        Where the tree accuracies ``a_k`` of Eq. (3) are measured: on the forest's training
        data, as printed, or on each tree's out-of-bag rows (see ``tree_accuracies``).
    weight_rule : {"clip", "drop"}, default="clip"
        Handling of ``a_k = 1`` and ``a_k <= 1/2`` (see ``log_odds_weights``).
    weight_epsilon : float, default=1e-3
    n_jobs : int or None, default=None
        Threads growing the trees (scikit-learn) and predicting with them; results do not
        depend on it.
    random_state : int, RandomState or None, default=None
        Seeds the forest.

    Attributes
    ----------
    forest_ : the fitted forest (trained on class indices ``0 .. n_classes - 1``).
    tree_accuracies_ : ndarray of shape (n_trees,), or None when ``weighting="none"``.
    weights_ : ndarray of shape (n_trees,), summing to 1.
    classes_, n_features_in_
    """

    _parameter_constraints: dict[str, list] = {
        "forest": [None, HasMethods(["fit", "predict_proba"])],
        "weighting": [StrOptions(set(WEIGHTINGS))],
        "accuracy_source": [StrOptions(set(ACCURACY_SOURCES))],
        "weight_rule": [StrOptions(set(WEIGHT_RULES))],
        "weight_epsilon": [REAL],
        "n_jobs": [Integral, None],
        "random_state": ["random_state"],
    }

    def __init__(
        self,
        forest=None,
        *,
        weighting="accuracy",
        accuracy_source="train",
        weight_rule="clip",
        weight_epsilon=1e-3,
        n_jobs=None,
        random_state=None,
    ):
        self.forest = forest
        self.weighting = weighting
        self.accuracy_source = accuracy_source
        self.weight_rule = weight_rule
        self.weight_epsilon = weight_epsilon
        self.n_jobs = n_jobs
        self.random_state = random_state

    def unfitted_forest(self):
        """A clone of ``forest`` (``RandomForestClassifier()`` if None) with this model's
        ``n_jobs`` and ``random_state``: the forest ``fit`` grows."""
        forest = clone(self.forest if self.forest is not None else RandomForestClassifier())
        return forest.set_params(n_jobs=self.n_jobs, random_state=self.random_state)

    def fit(self, X, y, codes=None):
        """Grow the forest (Algorithm 1 line 6), then weight its trees (lines 7-8).

        The forest grows by ``growth.grow``: ``forest.fit``'s trees without scikit-learn's
        per-tree overhead, so ``forest`` is a random forest or an extremely randomised trees
        forest at its defaults but for its size, features per node and bootstrap. ``codes``:
        ``X``'s ``column_codes``, if the caller has them."""
        check_params(self)
        X, y = validate_data(self, X, y, dtype=np.float32)
        check_classification_targets(y)
        self.classes_, y_encoded = np.unique(y, return_inverse=True)
        self.forest_ = grow(self.unfitted_forest(), X, y_encoded, codes)
        n_trees = len(self.forest_.estimators_)
        if self.weighting == "none":
            self.tree_accuracies_ = None
            self.weights_ = np.full(n_trees, 1.0 / n_trees)
        else:
            self.tree_accuracies_ = tree_accuracies(
                self.forest_, X, y_encoded, self.accuracy_source, self.n_jobs
            )
            self.weights_ = log_odds_weights(
                self.tree_accuracies_, rule=self.weight_rule, epsilon=self.weight_epsilon
            )
        return self

    def predict_proba(self, X):
        """The forest's class vector ``sum_k W_k p_k(x)`` (Eqs. 5-6)."""
        check_is_fitted(self)
        X = validate_data(self, X, reset=False, dtype=np.float32)
        return weighted_proba(self.forest_.estimators_, self.weights_, X, self.n_jobs)

    def predict(self, X):
        """The class of highest weighted probability (ties to the first class, Eq. 2)."""
        proba = self.predict_proba(X)
        return self.classes_[np.argmax(proba, axis=1)]
