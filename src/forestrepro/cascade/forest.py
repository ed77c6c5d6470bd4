"""``CascadeForestClassifier``: gcForest's cascade forest (DF) and its weighted form (WDF).

WDF (Gong, Wang, Su 2019) Sec. 1, Sec. 2 and Algorithm 1, with the settings of Sec. 3:

- a level holds ``n_rf`` random forests and ``n_crf`` completely-random tree forests of
  ``n_trees`` trees (Sec. 3: 4 + 4 forests of 500 trees), each cross-fitted over
  ``n_folds`` folds (3): the class vectors of the training rows are out-of-fold
  (``cascade_members.cross_fit``);
- a forest's class vector is the plain mean of its trees' (DF, Fig. 3) or the weighted sum of
  Eqs. (4)-(6) (WDF, Fig. 4; ``weighting="accuracy"``, see ``weighting.py``);
- level ``e``'s class vector is the mean of its forests' (Eqs. 7-8), its prediction the class
  of highest mean (Eqs. 9-10) and ``A_et`` its accuracy on the training rows (Eq. 11), which
  are out-of-fold, so ``A_et`` is a k-fold cross-validated accuracy;
- the next level's input is the level's input features joined with all its forests' class
  vectors (Algorithm 1 line 15): ``[X, v_1, ..., v_h]``, the raw ``X`` and the class vectors
  of the level just grown;
- levels grow while the best ``A_et`` so far is at most ``early_stopping_rounds`` levels old
  (gcForest's rule: stop at level ``e`` when ``e - e* >= early_stopping_rounds``), up to
  ``max_levels``;
- the answer is that of level ``e* = argmax_e A_et`` over the grown levels, the earliest on
  ties (Algorithm 1 line 18, ``opt_lay_id``: the level with the highest accuracy on the
  training set ``T``, i.e. the highest out-of-fold accuracy; the test set ``S`` is never used
  to choose it).
"""

import logging
from functools import cache, partial
from numbers import Integral

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils import check_random_state
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from .._validation import at_least, check_params
from .column_codes import column_codes
from .members import (
    MAX_SEED,
    MEMBER_CONSTRAINTS,
    GatherBuffer,
    cross_fit,
    fold_ids,
    fold_mean,
    member_templates,
)

_log = logging.getLogger(__name__)


class CascadeForestClassifier(ClassifierMixin, BaseEstimator):
    """Cascade forest of gcForest (DF) or of the weighted deep forest (WDF).

    Parameters
    ----------
    n_rf, n_crf : int, default=4
        Random forests (``sqrt(d)`` features per node) and completely-random tree forests
        (one random feature per node) per level.
    n_trees : int, default=500
        Trees per forest.
    n_folds : int, default=3
        Folds of the cross-fitting that gives the training rows' class vectors.
    early_stopping_rounds : int, default=3
        Stop once this many levels in a row have not beaten the best k-fold accuracy.
    max_levels : int, default=100
    weighting : {"none", "accuracy"}, default="none"
        DF's plain average of tree class vectors, or WDF's weighted sum (Eqs. 4-6).
    accuracy_source : {"train", "oob"}, default="train"
        Tree accuracy ``a_k`` for the weights: on the tree's training rows (Eq. 3, as
        printed) or on its out-of-bag rows.
    weight_rule : {"clip", "drop"}, default="clip"
        Handling of ``a_k = 1`` and ``a_k <= 1/2`` (``weighting.log_odds_weights``).
    weight_epsilon : float, default=1e-3
    crf_bootstrap : {"auto", True, False}, default="auto"
        Grow completely-random trees on bootstrap samples; "auto": only when
        ``accuracy_source="oob"`` with ``weighting="accuracy"`` (out-of-bag rows are needed).
    n_jobs : int or None, default=None
        Threads per forest, for growing and predicting. Results do not depend on it.
    random_state : int, RandomState or None, default=None
        Seeds every fold split and every forest, drawn in a fixed order.

    Attributes
    ----------
    classes_, n_features_in_
    n_levels_ : int
        Levels grown: ``best_level_`` plus the ``early_stopping_rounds`` levels grown after
        it, unless ``max_levels`` stopped the growth. (Table 2's "number of levels expanded"
        may be this or ``best_level_``; the paper does not say.)
    best_level_ : int
        The level used for predictions, numbered from 1 (Algorithm 1 line 18, ``opt_lay_id``);
        predictions pass through levels 1 .. ``best_level_``.
    level_accuracies_ : ndarray of shape (n_levels_,)
        ``A_et`` of Eq. (11) per level: accuracy of the level's out-of-fold class vectors.
    level_test_accuracies_ : ndarray of shape (n_levels_,)
        ``A_es`` of Eq. (12) per level; only after ``fit_predict_proba`` with ``y_test``.
    level_test_predictions_ : ndarray of shape (n_levels_, n_test_rows)
        Per level, the class each test row would get if that level answered (Eq. 10 on the
        level's test class vectors); only after ``fit_predict_proba``. With
        ``early_stopping_outcome`` it gives the answer of a cascade grown with fewer
        ``early_stopping_rounds`` without growing it again.
    tree_accuracies_ : list of ndarray of shape (n_forests, n_folds, n_trees), or None
        Per level, every tree's accuracy ``a_k`` behind its weight (None for "none").
    levels_ : list
        Per level 1 .. ``best_level_``, per forest, the ``n_folds`` fitted fold models
        (only after ``fit``).
    """

    _parameter_constraints: dict[str, list] = {
        **MEMBER_CONSTRAINTS,
        "n_folds": [at_least(2)],
        "early_stopping_rounds": [at_least(1)],
        "max_levels": [at_least(1)],
        "n_jobs": [Integral, None],
        "random_state": ["random_state"],
    }

    def __init__(
        self,
        n_rf=4,
        n_crf=4,
        n_trees=500,
        n_folds=3,
        early_stopping_rounds=3,
        max_levels=100,
        weighting="none",
        accuracy_source="train",
        weight_rule="clip",
        weight_epsilon=1e-3,
        crf_bootstrap="auto",
        n_jobs=None,
        random_state=None,
    ):
        self.n_rf = n_rf
        self.n_crf = n_crf
        self.n_trees = n_trees
        self.n_folds = n_folds
        self.early_stopping_rounds = early_stopping_rounds
        self.max_levels = max_levels
        self.weighting = weighting
        self.accuracy_source = accuracy_source
        self.weight_rule = weight_rule
        self.weight_epsilon = weight_epsilon
        self.crf_bootstrap = crf_bootstrap
        self.n_jobs = n_jobs
        self.random_state = random_state

    def fit(self, X, y):
        """Grow the cascade on ``(X, y)`` and keep the fold models of levels 1 ..
        ``best_level_`` for ``predict``."""
        self._grow(X, y, None, None, keep=True)
        return self

    def fit_predict_proba(self, X, y, X_test, y_test=None, parts=None):
        """Grow the cascade on ``(X, y)`` and return the class probabilities of ``X_test`` at
        the best level, as Algorithm 1 does (inputs ``T`` and ``S``).

        The test rows go through each level as it is grown, and every fold model is dropped
        once it has predicted its held-out fold and ``X_test`` (gcForest's
        ``keep_model_in_mem=False``): memory holds one forest at a time, and the estimator is
        left with the level statistics but no model (``predict`` needs ``fit``). With
        ``y_test``, ``level_test_accuracies_`` records ``A_es`` (Eq. 12) per level; it plays
        no part in the growth or the choice of level.

        ``parts`` (a ``checkpoint.KeptParts``), if given, keeps each forest's class vectors
        and tree accuracies as ``level{e}_forest{j}``; a forest found there is not grown
        again, and the random draws are made either way, so a resumed cascade equals a fresh
        one (``cascade_cache``).
        """
        return self._grow(X, y, X_test, y_test, keep=False, parts=parts)

    def _check_params(self):
        """Check the parameters (before any data is touched); return the level's member templates."""
        check_params(self)
        return self._member_templates()

    def _member_templates(self):
        return member_templates(
            self.n_rf,
            self.n_crf,
            self.n_trees,
            weighting=self.weighting,
            accuracy_source=self.accuracy_source,
            weight_rule=self.weight_rule,
            weight_epsilon=self.weight_epsilon,
            crf_bootstrap=self.crf_bootstrap,
            n_jobs=self.n_jobs,
        )

    def _cross_fit_forest(self, template, rng, train, y_encoded, test, keep, parts, name, buffer, codes):
        """``cascade_members.cross_fit`` of one forest of a level, its seeds drawn from
        ``rng``, its fold rows gathered into ``buffer`` and their codes taken from ``codes()``
        (the level's input coded once, on first call); read from ``parts`` when kept there, else
        kept there once grown."""
        n_classes = len(self.classes_)
        folds = fold_ids(y_encoded, self.n_folds, rng.randint(MAX_SEED))
        seeds = rng.randint(MAX_SEED, size=self.n_folds)
        kept = None if parts is None else parts.get(name)
        if kept is not None:
            return kept["train"], kept.get("test"), [], kept.get("tree_accuracies")
        vectors, test_vectors, models, trees = cross_fit(
            template,
            train.features,
            y_encoded,
            n_classes,
            folds,
            seeds,
            None if test is None else test.features,
            keep,
            buffer,
            codes(),
        )
        if parts is not None:
            parts.put(name, train=vectors, test=test_vectors, tree_accuracies=trees)
        return vectors, test_vectors, models, trees

    def _grow(self, X, y, X_test, y_test, keep, parts=None):
        X, y = validate_data(self, X, y, dtype=np.float32)
        check_classification_targets(y)
        templates = self._check_params()
        for name in ("levels_", "level_test_accuracies_", "level_test_predictions_"):
            self.__dict__.pop(name, None)
        self.classes_, y_encoded = np.unique(y, return_inverse=True)
        n_classes = len(self.classes_)
        rng = check_random_state(self.random_state)
        train = _LevelInput(X, len(templates) * n_classes)
        test = None
        if X_test is not None:
            X_test = validate_data(self, X_test, reset=False, dtype=np.float32)
            test = _LevelInput(X_test, len(templates) * n_classes)
        accuracies, test_accuracies, test_predictions, tree_accuracies, levels = [], [], [], [], []
        best, best_test = 0, None
        buffer = GatherBuffer()
        for level in range(self.max_levels):
            codes = cache(partial(column_codes, train.features))
            vectors, test_vectors, forests, level_trees = zip(
                *(
                    self._cross_fit_forest(
                        template,
                        rng,
                        train,
                        y_encoded,
                        test,
                        keep,
                        parts,
                        f"level{level + 1}_forest{number}",
                        buffer,
                        codes,
                    )
                    for number, template in enumerate(templates)
                )
            )
            accuracies.append(_accuracy(vectors, y_encoded))
            if test is not None:
                test_predictions.append(self.classes_[np.argmax(np.mean(test_vectors, axis=0), axis=1)])
                if y_test is not None:
                    test_accuracies.append(_accuracy(test_vectors, np.asarray(y_test), self.classes_))
            tree_accuracies.append(None if level_trees[0] is None else np.array(level_trees))
            levels.append(forests)
            if level == 0 or accuracies[level] > accuracies[best]:
                best = level
                best_test = None if test is None else np.mean(test_vectors, axis=0)
            _log.info(
                "level %d: k-fold accuracy %.4f (best %.4f, level %d)",
                level + 1,
                accuracies[level],
                accuracies[best],
                best + 1,
            )
            if level - best >= self.early_stopping_rounds:
                break
            train.set_vectors(vectors)
            if test is not None:
                test.set_vectors(test_vectors)
        self.n_levels_ = len(accuracies)
        self.best_level_ = best + 1
        self.level_accuracies_ = np.array(accuracies)
        self.tree_accuracies_ = None if self.weighting == "none" else tree_accuracies
        if test_accuracies:
            self.level_test_accuracies_ = np.array(test_accuracies)
        if test_predictions:
            self.level_test_predictions_ = np.array(test_predictions)
        if keep:
            self.levels_ = levels[: best + 1]
        return best_test

    def predict_proba(self, X):
        """Class probabilities of the best level (Eq. 8): the mean over its forests of each
        forest's mean over its fold models, after levels 1 .. ``best_level_``."""
        check_is_fitted(self, "levels_")
        X = validate_data(self, X, reset=False, dtype=np.float32)
        n_classes = len(self.classes_)
        inputs = _LevelInput(X, len(self.levels_[0]) * n_classes)
        for forests in self.levels_:
            vectors = [fold_mean(models, inputs.features, n_classes) for models in forests]
            inputs.set_vectors(vectors)
        return np.mean(vectors, axis=0)

    def predict(self, X):
        """The class of highest probability at the best level (Eq. 10; ties to the first)."""
        proba = self.predict_proba(X)
        return self.classes_[np.argmax(proba, axis=1)]


def early_stopping_outcome(level_accuracies, rounds: int) -> tuple[int, int]:
    """``(n_levels, best_level)`` of the cascade grown with ``early_stopping_rounds=rounds``,
    read off the k-fold accuracies ``A_et`` of the same cascade grown with at least ``rounds``.

    The stopping rule decides how many levels are grown (Algorithm 1 line 14 says only "if,
    after evaluation, the next level is expanded"; gcForest stops when the best level is
    ``early_stopping_rounds`` levels old). The levels themselves do not depend on it: every
    fold split and forest seed is drawn in a fixed order, so a cascade grown with fewer rounds
    is a prefix of one grown with more, and its outcome can be read off the longer one's
    accuracies. ``best_level`` is numbered from 1; ties go to the earlier level.
    """
    if rounds < 1:
        raise ValueError(f"rounds must be at least 1, got {rounds}")
    best = 0
    for level, accuracy in enumerate(level_accuracies):
        if level == 0 or accuracy > level_accuracies[best]:
            best = level
        if level - best >= rounds:
            return level + 1, best + 1
    return len(level_accuracies), best + 1


def _accuracy(vectors, y, classes=None):
    """Eqs. (7), (9), (11)-(12): accuracy of the class of highest mean class vector.
    ``y`` holds class indices, or labels when ``classes`` is given."""
    predicted = np.argmax(np.mean(vectors, axis=0), axis=1)
    if classes is not None:
        predicted = classes[predicted]
    return float(np.mean(predicted == y))


class _LevelInput:
    """A level's input ``[X, v_1, ..., v_h]`` in one preallocated column-major float32 array:
    ``X`` is copied once, the class-vector columns are overwritten level after level, and
    the first level sees ``X`` alone."""

    def __init__(self, X, n_vector_columns):
        self._n_features = X.shape[1]
        self._data = np.empty((X.shape[0], X.shape[1] + n_vector_columns), np.float32, order="F")
        self._data[:, : self._n_features] = X
        self.features = self._data[:, : self._n_features]

    def set_vectors(self, vectors):
        """Put the forests' class vectors ``v_1 .. v_h`` (each ``(n_rows, n_classes)``)
        after ``X``."""
        self._data[:, self._n_features :] = np.concatenate(vectors, axis=1)
        self.features = self._data
