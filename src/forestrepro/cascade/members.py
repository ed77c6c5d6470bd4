"""The forests of a cascade level or a scanning stage, and their k-fold cross-fitting.

gcForest (Zhou and Feng 2017; WDF Sec. 1, Fig. 3) grows every forest ``n_folds`` times, once
per fold on the other folds' rows: each training row's class vector comes from the model
that did not see it (out-of-fold), and a new row's class vector is the mean over the
``n_folds`` models.
"""

import numpy as np
from sklearn import config_context
from sklearn.base import clone
from sklearn.ensemble import ExtraTreesClassifier, RandomForestClassifier
from sklearn.model_selection import StratifiedKFold

from .._validation import REAL, StrOptions, at_least, check_value
from .weighting import ACCURACY_SOURCES, WEIGHT_RULES, WEIGHTINGS, WeightedForestClassifier

MAX_SEED = np.iinfo(np.int32).max

MEMBER_CONSTRAINTS: dict[str, list] = {
    "n_rf": [at_least(0)],
    "n_crf": [at_least(0)],
    "n_trees": [at_least(1)],
    "weighting": [StrOptions(set(WEIGHTINGS))],
    "accuracy_source": [StrOptions(set(ACCURACY_SOURCES))],
    "weight_rule": [StrOptions(set(WEIGHT_RULES))],
    "weight_epsilon": [REAL],
    "crf_bootstrap": [StrOptions({"auto"}), "boolean"],
}
"""The parameters of a level's forests (``member_templates``), shared by the cascade's and the
scanner's ``_parameter_constraints``."""


def member_templates(
    n_rf,
    n_crf,
    n_trees,
    *,
    weighting="none",
    accuracy_source="train",
    weight_rule="clip",
    weight_epsilon=1e-3,
    crf_bootstrap="auto",
    n_jobs=None,
):
    """``n_rf`` random forests then ``n_crf`` completely-random tree forests, unfitted.

    A random forest draws ``sqrt(d)`` candidate features per node (bootstrap samples, as
    scikit-learn's ``RandomForestClassifier``); a completely-random tree forest draws one
    feature and a random cut per node (``ExtraTreesClassifier(max_features=1)``, gcForest's
    choice). Trees grow to pure leaves. ``crf_bootstrap="auto"`` grows the completely-random
    trees on bootstrap samples only when tree weights come from out-of-bag accuracies
    (gcForest grows them on all rows, which leaves no out-of-bag row).
    """
    for name, value in (
        ("n_rf", n_rf),
        ("n_crf", n_crf),
        ("n_trees", n_trees),
        ("weighting", weighting),
        ("accuracy_source", accuracy_source),
        ("weight_rule", weight_rule),
        ("crf_bootstrap", crf_bootstrap),
    ):
        check_value(name, value, MEMBER_CONSTRAINTS[name])
    if n_rf + n_crf < 1:
        raise ValueError("need at least one forest (n_rf + n_crf >= 1)")
    if crf_bootstrap == "auto":
        crf_bootstrap = weighting == "accuracy" and accuracy_source == "oob"
    kinds = [RandomForestClassifier(n_trees, max_features="sqrt")] * n_rf + [
        ExtraTreesClassifier(n_trees, max_features=1, bootstrap=crf_bootstrap)
    ] * n_crf
    return [
        WeightedForestClassifier(
            clone(forest),
            weighting=weighting,
            accuracy_source=accuracy_source,
            weight_rule=weight_rule,
            weight_epsilon=weight_epsilon,
            n_jobs=n_jobs,
        )
        for forest in kinds
    ]


def fold_ids(y_encoded, n_folds, seed):
    """The fold (0 .. n_folds - 1) of each row: stratified, shuffled with ``seed``."""
    folds = np.empty(len(y_encoded), dtype=np.intp)
    splitter = StratifiedKFold(n_folds, shuffle=True, random_state=seed)
    for k, (_, held_out) in enumerate(splitter.split(np.zeros((len(y_encoded), 1)), y_encoded)):
        folds[held_out] = k
    return folds


def seeded(template, seed):
    """An unfitted copy of a member template whose forest is seeded with ``seed``."""
    return clone(template).set_params(random_state=int(seed))


def class_vectors(model, X, n_classes):
    """A fitted member's class vectors for ``X`` over all ``n_classes`` classes (a fold may
    miss a rare class: its column is then 0)."""
    out = np.zeros((X.shape[0], n_classes))
    out[:, model.classes_] = model.predict_proba(X)
    return out


def fold_mean(models, X, n_classes):
    """The mean class vector of fitted fold models for the rows of ``X``."""
    total = np.zeros((X.shape[0], n_classes))
    for model in models:
        total += class_vectors(model, X, n_classes) / len(models)
    return total


def rows_in_columns(X, rows, out=None):
    """``X[rows]`` in column-major (Fortran) order; ``rows`` a boolean mask or row indices.

    At each node a tree's splitter reads one feature of the node's rows. With each feature's
    rows side by side in memory, scikit-learn's random forests grow the same trees about a
    quarter faster on a scanned data set's cascade input (22,180 columns on MNIST) than from
    the row-major copy ``X[rows]`` (``benchmarks/cascade_level.md``). Each column's rows are
    taken from that column (``np.take`` along the rows of ``X.T``, unbuffered): from a
    column-major ``X``, a level's input, that is several times faster than ``X[rows]``.
    ``out``, if given, is a column-major array of the result's shape and dtype to fill.
    """
    rows = np.flatnonzero(rows) if rows.dtype == bool else rows
    if out is None:
        out = np.empty((rows.size, X.shape[1]), dtype=X.dtype, order="F")
    # mode="clip" writes straight into ``out`` (the default "raise" buffers all of it); the
    # indices are in range, so it clips none
    np.take(X.T, rows, axis=1, out=out.T, mode="clip")
    return out


class GatherBuffer:
    """One buffer that the folds' rows of a cascade's levels are gathered into, in turn.

    A fold model grows on some rows of a level's input and classifies the others, each
    gathered column-major (``rows_in_columns``). In a new array each time, the gather would
    cost about as much again in page faults, the kernel's first touch of every page of a few
    hundred megabytes. ``rows`` gathers into this buffer instead, which grows when a gather
    needs more room, and overwrites the rows it returned last.
    """

    def __init__(self):
        self._memory = np.empty(0, dtype=np.float32)

    def rows(self, X, rows):
        """``rows_in_columns(X, rows)`` in the buffer (float32 ``X``)."""
        n_rows = np.count_nonzero(rows) if rows.dtype == bool else len(rows)
        size = n_rows * X.shape[1]
        if self._memory.size < size:
            self._memory = np.empty(0, dtype=np.float32)  # let the old one go first
            self._memory = np.empty(size, dtype=np.float32)
        return rows_in_columns(X, rows, self._memory[:size].reshape((n_rows, X.shape[1]), order="F"))


def cross_fit(
    template, X, y_encoded, n_classes, folds, seeds, X_test=None, keep=True, buffer=None, codes=None
):
    """Grow one member per fold on the other folds' rows (WDF Sec. 1, Fig. 3).

    Returns ``(train, test, models, tree_accuracies)``: out-of-fold class vectors of the rows
    of ``X``; the fold models' mean class vector (``fold_mean``, same arithmetic) for the rows
    of ``X_test``, or None without it; the fold models, or none unless ``keep`` (without them
    only one model is in memory at a time, gcForest's ``keep_model_in_mem=False``); and the
    fold models' tree accuracies, shape ``(n_folds, n_trees)``, or None when unweighted.

    ``X`` and ``X_test`` are a level's inputs: float32, finite (checked once, when the cascade
    takes its data, so not again for each fold) and column-major. Each fold's rows, those it
    grows on and then those it classifies, are gathered column by column into ``buffer`` (a
    ``GatherBuffer``, shared by a cascade's forests; None: one for this call). ``codes``, the
    ``column_codes`` of ``X`` (made once a level), give each fold's coded rows; None: each fold
    codes its own.
    """
    buffer = GatherBuffer() if buffer is None else buffer
    train = np.empty((X.shape[0], n_classes))
    test = None if X_test is None else np.zeros((X_test.shape[0], n_classes))
    models, accuracies = [], []
    with config_context(assume_finite=True):
        for k, seed in enumerate(seeds):
            held_out = folds == k
            fold_codes = None if codes is None else codes.rows(~held_out)
            model = seeded(template, seed).fit(
                buffer.rows(X, ~held_out), y_encoded[~held_out], codes=fold_codes
            )
            train[held_out] = class_vectors(model, buffer.rows(X, held_out), n_classes)
            if X_test is not None:
                test += class_vectors(model, X_test, n_classes) / len(seeds)
            accuracies.append(model.tree_accuracies_)
            if keep:
                models.append(model)
    tree_accuracies = None if accuracies[0] is None else np.array(accuracies)
    return train, test, models, tree_accuracies
